"""Operations: Prometheus metrics, the ``/healthz`` and ``/metrics`` endpoints, and the checks
behind ``backgammon-bot check``. Nothing here is needed to play; the bot runs without it."""

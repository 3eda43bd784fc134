"""The bot's Prometheus metrics, in a registry of their own.

The adapter reports each interaction once it is answered (:func:`observe`) and each unexpected
error (:func:`error`); the gauges (active games, the analysis queue) are read when scraped.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

__all__ = [
    "ACTIVE_GAMES",
    "ANALYSIS_QUEUE",
    "ANALYSIS_RUNNING",
    "ERRORS",
    "INTERACTIONS",
    "LATENCY",
    "LOOP_LAG",
    "REFUSALS",
    "REGISTRY",
    "error",
    "observe",
]

REGISTRY = CollectorRegistry(auto_describe=True)

INTERACTIONS = Counter(
    "backgammon_interactions",
    "Interactions answered, by kind (ordinary or analysis) and outcome (ok, refused, busy).",
    ["kind", "outcome"],
    registry=REGISTRY,
)
REFUSALS = Counter(
    "backgammon_refusals",
    "Interactions answered with a private refusal (not your turn, out of date, busy...).",
    registry=REGISTRY,
)
ERRORS = Counter(
    "backgammon_errors",
    "Interactions that failed with an unexpected error (answered with an apology).",
    registry=REGISTRY,
)
LATENCY = Histogram(
    "backgammon_interaction_seconds",
    "From receiving an interaction to its answer shown, by kind.",
    ["kind"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
DEFERRED = Counter(
    "backgammon_deferred",
    "Interactions deferred because the answer took longer than the deferral budget.",
    registry=REGISTRY,
)
LOOP_LAG = Histogram(
    "backgammon_event_loop_lag_seconds",
    "How late the event loop ran a timer (sampled twice a second).",
    buckets=(0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 3.0),
    registry=REGISTRY,
)
ACTIVE_GAMES = Gauge(
    "backgammon_active_games", "Games in progress (all shards).", registry=REGISTRY
)
ANALYSIS_QUEUE = Gauge(
    "backgammon_analysis_queue_length",
    "Analyses (reviews, hints) accepted and waiting for a worker.",
    registry=REGISTRY,
)
ANALYSIS_RUNNING = Gauge(
    "backgammon_analysis_running", "Analyses being computed.", registry=REGISTRY
)


def observe(kind: str, seconds: float, outcome: str, *, deferred: bool = False) -> None:
    """One interaction answered: ``kind`` ordinary or analysis; ``outcome`` ok, refused or
    busy."""
    INTERACTIONS.labels(kind=kind, outcome=outcome).inc()
    LATENCY.labels(kind=kind).observe(seconds)
    if outcome != "ok":
        REFUSALS.inc()
    if deferred:
        DEFERRED.inc()


def error() -> None:
    """One unexpected error."""
    ERRORS.inc()

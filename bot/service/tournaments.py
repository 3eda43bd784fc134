"""``/tournament``: the service's entry to the tournaments, whose code lives in one package,
:mod:`bot.tournaments` (the formats and the pure rules) and :mod:`bot.tournaments.running`
(these use cases, the runner, the view, the Discord event, the clock)."""

from bot.tournaments.actions import ACTIONS
from bot.tournaments.running.use_cases import Tournaments

__all__ = ["ACTIONS", "Tournaments"]

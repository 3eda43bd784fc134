"""The actions of ``/tournament``, its first option: the one list both the command's choices
(:mod:`bot.service.commands`) and the use case (:mod:`bot.service.tournaments`) read."""

from __future__ import annotations

__all__ = ["ACTIONS"]

ACTIONS = (
    "create", "join", "leave", "start", "standings", "info", "list", "disqualify", "cancel",
)  # fmt: skip

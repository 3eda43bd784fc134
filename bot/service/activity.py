"""The Discord Activity's read (see :mod:`bot.web.activity`): which game an Activity launched
in a channel shows. Everyone in the Activity sees that game; its players act through the web
board's presses, as a Discord button does."""

from __future__ import annotations

from bot.service.deps import Deps
from db import games as game_repo

__all__ = ["ActivityReads"]


class ActivityReads:
    """:meth:`activity_game`."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def activity_game(self, channel_id: int) -> int | None:
        """The game in progress in channel ``channel_id`` (the newest, when several people
        play there), else None."""
        with self.deps.unit() as s:
            row = game_repo.active_game_in_channel(s, channel_id)
            return None if row is None else row.id

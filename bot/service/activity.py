"""The Discord Activity's read (see :mod:`bot.web.activity`): which game an Activity launched
in a channel shows. Everyone in the Activity sees that game; its players act through the web
board's presses, as a Discord button does."""

from __future__ import annotations

from sqlalchemy import select

from bot.service.deps import Deps
from db import games as game_repo
from db.models import Game as GameRow
from db.models import GameStatus

__all__ = ["ActivityReads"]


class ActivityReads:
    """:meth:`activity_game`."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def activity_game(self, channel_id: int, guild_id: int | None = None) -> int | None:
        """The game in progress in channel ``channel_id`` (the newest, when several people
        play there), else the newest one moved from it to a thread of its own (an Activity
        does not start in a thread; in a server only, ``guild_id``), else None."""
        with self.deps.unit() as s:
            row = game_repo.active_game_in_channel(s, channel_id)
            if row is not None or guild_id is None:
                return None if row is None else row.id
            threaded = (
                select(GameRow.id)
                .where(
                    GameRow.guild_id == guild_id,  # an index: the server's games only
                    GameRow.parent_channel_id == channel_id,
                    GameRow.status == GameStatus.ACTIVE,
                )
                .order_by(GameRow.id.desc())
                .limit(1)
            )
            return s.scalar(threaded)

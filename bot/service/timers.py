"""The move timer between two people: a reminder before time runs out, then the waiting player
may claim the game, and an unclaimed game finally expires. Games against the computer wait.

Nothing lives in memory: the deadline and how far its notices went (``timer_stage``) are in the
game's row, so the sweep can run in any process, any number of times, and after any restart.
A notice is claimed with an atomic ``UPDATE ... WHERE version = <read> AND timer_stage = <seen>``
(:func:`db.timers.advance_timer_stage`), so two processes sweeping together never send it twice
and a move committed after the read cancels it; it does not bump the game's version, so the
buttons on the board stay valid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import and_, or_, select

from bot.i18n import t
from bot.service.present import Notes, board_reply
from bot.service.replies import Reply
from db import games as game_repo
from db.errors import GameMovedOn
from db.models import Game as GameRow
from db.models import GameStatus
from db.timers import advance_timer_stage

if TYPE_CHECKING:
    from bot.service.core import Service

__all__ = ["Notice", "TimersMixin"]

REMINDED, CLAIMABLE = 1, 2


@dataclass(frozen=True)
class Notice:
    """A message the bot posts on its own in a game's channel."""

    game_id: int
    channel_id: int | None
    guild_id: int | None
    reply: Reply


class TimersMixin:
    """The deadline sweep (mixed into :class:`~bot.service.core.Service`)."""

    def reminder_before(self: Service) -> timedelta:
        """How long before the deadline the player is reminded: a quarter of the time per
        move, at most an hour."""
        return min(self.settings.move_timeout / 4, timedelta(hours=1))

    def sweep(
        self: Service,
        now: datetime | None = None,
        *,
        limit: int = 100,
        lang_of: Callable[[int | None], str] = lambda guild_id: "en",
    ) -> list[Notice]:
        """Send what is due: reminders, claim offers, expiries. Returns the notices to post,
        each in the language ``lang_of(guild_id)`` gives (the server's)."""
        now = now or self.clock()
        horizon = now + self.reminder_before()
        # Only the games with a notice due: a game whose claim was offered waits a whole period
        # before it expires, and must not fill the batch meanwhile (newer games would starve).
        notice_due = or_(
            and_(GameRow.timer_stage < REMINDED, GameRow.deadline <= horizon),
            and_(GameRow.timer_stage < CLAIMABLE, GameRow.deadline <= now),
            GameRow.deadline <= now - self.settings.move_timeout,
        )
        with self.factory() as s:
            due = s.scalars(
                select(GameRow.id)
                .where(GameRow.status == GameStatus.ACTIVE, notice_due)
                .order_by(GameRow.deadline)
                .limit(limit)
            ).all()
        notices: list[Notice] = []
        for game_id in due:
            notice = self._sweep_one(game_id, now, lang_of)
            if notice is not None:
                notices.append(notice)
        return notices

    def _sweep_one(
        self: Service, game_id: int, now: datetime, lang_of: Callable[[int | None], str]
    ) -> Notice | None:
        from bot.service.core import _aware

        expire_at = None
        with self._unit() as s:
            row = game_repo.get_game(s, game_id)
            if row.status is not GameStatus.ACTIVE or row.deadline is None:
                return None
            deadline = _aware(row.deadline)
            stage = row.timer_stage
            table = self._table(s, row)
            game = table.game
            turn = game.turn
            if turn is None or table.seats[turn].user_id is None:
                return None
            lang = lang_of(row.guild_id)
            if deadline + self.settings.move_timeout <= now and stage >= CLAIMABLE:
                expire_at = now
                try:
                    game_repo.expire_game(s, row, now=now)
                except GameMovedOn:
                    return None
            elif deadline <= now and stage < CLAIMABLE:
                if not advance_timer_stage(
                    s, row.id, version=row.version, seen=stage, stage=CLAIMABLE
                ):
                    return None
            elif deadline - self.reminder_before() <= now and stage < REMINDED:
                if not advance_timer_stage(
                    s, row.id, version=row.version, seen=stage, stage=REMINDED
                ):
                    return None
            else:
                return None
            channel, guild = row.channel_id, row.guild_id
            waiting = 1 - turn
        names = self._seat_names(table, lang)
        late = table.seats[turn]
        other = table.seats[waiting]
        if expire_at is not None:
            reply = Reply(text=t("timer.expired", lang, id=game_id, p0=names[0], p1=names[1]))
        elif deadline <= now:
            table.out_of_time = True
            notes = Notes()
            notes.add(
                "timer.claim",
                late=f"<@{late.user_id}>",
                waiting=f"<@{other.user_id}>",
                points=game.cube_value,
            )
            reply = board_reply(self._localized(table, lang), lang, notes)
            reply.mentions = (other.user_id,)  # type: ignore[assignment]
        else:
            minutes = max(1, int((deadline - now).total_seconds() // 60))
            reply = Reply(
                text=t(
                    "timer.reminder", lang, player=f"<@{late.user_id}>", id=game_id, minutes=minutes
                ),
                mentions=(late.user_id,),  # type: ignore[arg-type]
            )
        return Notice(game_id, channel, guild, reply)

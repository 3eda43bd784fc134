"""The move timer between two people: a reminder before time runs out, then the waiting player
may claim the game, and an unclaimed game finally expires. Games against the computer wait.

Nothing lives in memory: the deadline and how far its notices went (``timer_stage``) are in the
game's row, so the sweep can run in any process, any number of times, and after any restart.
A notice is claimed with an atomic ``UPDATE ... WHERE version = <read> AND timer_stage = <seen>``
(:func:`db.games.advance_timer_stage`), so two processes sweeping together never send it twice
and a move committed after the read cancels it; it does not bump the game's version, so the
buttons on the board stay valid.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from bot.i18n import DEFAULT, t
from bot.service.daily import Daily
from bot.service.deps import Deps
from bot.service.model import Notes, Table
from bot.service.present import board_reply
from bot.service.refusal import aware
from bot.service.replies import Reply
from bot.service.tables import load_table, localized, seat_names
from bot.service.turns import finish
from db import games as game_repo
from db.errors import GameMovedOn
from db.games import TimerStage
from db.models import Game as GameRow
from db.models import GameStatus
from engine import Phase

__all__ = ["Notice", "Timers"]

EXPIRED = 3  # past the claim period: the game expires (beyond the stored timer stages)


@dataclass(frozen=True)
class Notice:
    """A message the bot posts on its own in a game's channel."""

    game_id: int | None  # None for a position of the day
    channel_id: int | None
    guild_id: int | None
    reply: Reply


class Timers:
    """The deadline sweep."""

    def __init__(
        self,
        deps: Deps,
        daily: Daily | None = None,
        review_finished: Callable[[], int] | None = None,
    ) -> None:
        self.deps = deps
        self.daily = daily
        self.review_finished = review_finished

    def reminder_before(self) -> timedelta:
        """How long before the deadline the player is reminded: a quarter of the time per
        move, at most an hour."""
        return min(self.deps.settings.move_timeout / 4, timedelta(hours=1))

    def sweep(
        self,
        now: datetime | None = None,
        *,
        limit: int = 100,
        lang_of: Callable[[int | None], str] = lambda guild_id: DEFAULT,
    ) -> list[Notice]:
        """Send what is due: reminders, claim offers, expiries. Returns the notices to post,
        each in the language ``lang_of(guild_id)`` gives (the server's)."""
        now = now or self.deps.clock()
        with self.deps.unit() as s:
            due = game_repo.games_with_timer_due(
                s,
                remind_from=now + self.reminder_before(),
                now=now,
                expire_from=now - self.deps.settings.move_timeout,
                limit=limit,
            )
        notices = [n for game_id in due for n in self._sweep_one(game_id, now, lang_of)]
        if self.daily is not None:  # the positions of the day due now (bot.service.daily)
            posts = self.daily.sweep(now, lang_of=lang_of)
            notices += [Notice(None, p.channel_id, p.guild_id, p.reply) for p in posts]
        if self.review_finished is not None and self.deps.settings.review_finished_games:
            self.review_finished()  # one finished game a sweep: its blunders become puzzles
        return [n for n in notices if n is not None]

    def _sweep_one(
        self, game_id: int, now: datetime, lang_of: Callable[[int | None], str]
    ) -> list[Notice]:
        """What is due for one game: its notice, and what its end posts (a tournament's
        standings and next match, once the unit of work has committed)."""
        accepted = None
        try:
            posts: list[Reply] = []
            with self.deps.unit() as s:
                row = game_repo.get_game(s, game_id)
                if row.status is not GameStatus.ACTIVE or row.deadline is None:
                    return []
                table = load_table(self.deps, s, row)
                turn = table.game.turn
                if turn is None or table.seats[turn].user_id is None:
                    return []
                deadline, due = aware(row.deadline), self._due(row, now)
                lang, where = lang_of(row.guild_id), (row.channel_id, row.guild_id)
                offer = table.game.phase is Phase.RESIGNED
                if due is not None and offer and due != TimerStage.REMINDED:
                    accepted, posts = self._accept_unanswered(s, row, table, lang)
                elif due is None or not self._claim_stage(s, row, due, now):
                    return []
        except GameMovedOn:  # the game moved on meanwhile: nothing is due any more
            return []
        for post in posts:  # the unit of work has ended: the pictures put off
            post.draw_later()
        if accepted is not None:
            accepted.draw_later()
            reply = accepted
        else:
            assert due is not None
            reply = self._notice(table, turn, due, deadline, now, lang)
        notices = [Notice(game_id, where[0], where[1], reply)]
        return notices + [Notice(game_id, p.channel_id or where[0], where[1], p) for p in posts]

    def _accept_unanswered(
        self, s: Session, row: GameRow, table: Table, lang: str
    ) -> tuple[Reply, list[Reply]]:
        """A resignation offer left unanswered past the deadline is accepted: the game ends
        as the offerer proposed. (He must not win on time while waiting on his own offer, and
        the game must not stall on it.) Returns the board and what the end of the match posts."""
        game = table.game
        assert game.resigned_by is not None
        names = seat_names(table, lang)
        notes = Notes()
        offerer, answerer = names[game.resigned_by], names[1 - game.resigned_by]
        notes.add("timer.offer_accepted", name=answerer, offerer=offerer)
        game.accept_resignation()
        posts = finish(self.deps, s, row, table, notes, lang)
        board = board_reply(localized(table, lang), lang, notes, later=True)  # drawn once committed
        return board, posts

    def _due(self, row: GameRow, now: datetime) -> int | None:
        """The notice due for this game (a timer stage; EXPIRED past the expiry), if any."""
        assert row.deadline is not None
        deadline, stage = aware(row.deadline), row.timer_stage
        if deadline + self.deps.settings.move_timeout <= now and stage >= TimerStage.CLAIMABLE:
            return EXPIRED
        if deadline <= now and stage < TimerStage.CLAIMABLE:
            return TimerStage.CLAIMABLE
        if deadline - self.reminder_before() <= now and stage < TimerStage.REMINDED:
            return TimerStage.REMINDED
        return None

    @staticmethod
    def _claim_stage(s: Session, row: GameRow, due: int, now: datetime) -> bool:
        """Take the notice for this process (another one may be sweeping too)."""
        if due == EXPIRED:
            try:
                game_repo.expire_game(s, row, now=now)
            except GameMovedOn:
                return False
            return True
        return game_repo.advance_timer_stage(
            s, row.id, version=row.version, seen=row.timer_stage, stage=due
        )

    def _notice(
        self, table: Table, turn: int, due: int, deadline: datetime, now: datetime, lang: str
    ) -> Reply:
        late, other = table.seats[turn], table.seats[1 - turn]
        if due == EXPIRED:
            p0, p1 = seat_names(table, lang)
            return Reply(text=t("timer.expired", lang, id=table.game_id, p0=p0, p1=p1))
        if due == TimerStage.CLAIMABLE:
            table.out_of_time = True
            notes = Notes()
            notes.add(
                "timer.claim",
                late=f"<@{late.user_id}>",
                waiting=f"<@{other.user_id}>",
                points=table.game.cube_value,
            )
            reply = board_reply(localized(table, lang), lang, notes)
            reply.mentions = _ids(other.user_id)
            return reply
        minutes = max(1, int((deadline - now).total_seconds() // 60))
        player = f"<@{late.user_id}>"
        if table.game.phase is Phase.RESIGNED:
            offerer = seat_names(table, lang)[1 - turn]
            text = t(
                "timer.reminder_offer",
                lang,
                player=player,
                id=table.game_id,
                minutes=minutes,
                offerer=offerer,
            )
        else:
            key = "timer.reminder_forfeit" if table.tournament else "timer.reminder"
            text = t(key, lang, player=player, id=table.game_id, minutes=minutes)
        return Reply(text=text, mentions=_ids(late.user_id))


def _ids(*user_ids: int | None) -> tuple[int, ...]:
    return tuple(i for i in user_ids if i is not None)

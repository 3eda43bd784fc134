"""The position of the day (issue 18): a server chooses a channel and an hour in its time zone
(``/daily``, for its admins), and the bot posts a puzzle there every day; members answer
privately with the buttons or the menu, and the next day's post reveals the answer with how the
server voted.

The post goes out from the timer sweep (:mod:`bot.service.timers`), in whatever process sweeps.
Once per server and day: the day's row is claimed with an insert under a unique (server, day)
constraint (:func:`db.puzzles.claim_post`), so a restart, a second sweep or a second process
finds it taken and posts nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from sqlalchemy.orm import Session

from bot.i18n import t
from bot.service.customid import PuzzleAction
from bot.service.deps import Deps, answers
from bot.service.people import Actor, Where
from bot.service.puzzles import choice_index, drawn_later
from bot.service.puzzleview import (
    answer_label,
    answers_of,
    components,
    dice_text,
    question_picture,
)
from bot.service.refusal import Refusal
from bot.service.replies import Reply
from db import puzzles as puzzle_repo
from db.models import DailyPost, Puzzle

__all__ = ["Daily", "DailyNotice"]


@dataclass(frozen=True)
class DailyNotice:
    """A position of the day to post in a server's channel."""

    guild_id: int
    channel_id: int
    day: date
    reply: Reply


class Daily:
    """``/daily``, the members' answers, and the daily sweep."""

    def __init__(self, deps: Deps, rng: random.Random | None = None) -> None:
        self.deps = deps
        self.rng = rng or random.Random()

    @answers
    def daily(self, actor: Actor, where: Where, hour: int = 18, timezone: str = "UTC") -> Reply:
        """``/daily [hour] [timezone]``: post the position of the day in this channel at this
        hour (0 to 23) of this time zone (``Europe/Paris``...)."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            if where.guild_id is None or where.channel_id is None:
                raise Refusal("puzzle.guild_only")
            if not where.manager:  # Discord hides the command from others; check it again
                raise Refusal("server.not_manager")
            if not isinstance(hour, int) or not 0 <= hour <= 23:
                raise Refusal("daily.bad_hour")
            zone = _zone(timezone)
            puzzle_repo.set_daily_channel(
                s, where.guild_id, where.channel_id, hour, zone, self.deps.clock()
            )
        return Reply(text=t("daily.set", lang, hour=f"{hour:02d}:00", timezone=zone))

    def sweep(
        self,
        now: datetime | None = None,
        *,
        lang_of: Callable[[int | None], str],
        only: int | None = None,
    ) -> list[DailyNotice]:
        """The positions of the day due now, each claimed for this process (``only``: of that
        server only, as the terminal does for its own)."""
        now = now or self.deps.clock()
        with self.deps.unit() as s:
            due = [
                (c.guild_id, c.channel_id, local)
                for c in puzzle_repo.daily_channels(s)
                for local in [now.astimezone(ZoneInfo(c.timezone))]
                if local.hour >= c.hour and only in (None, c.guild_id)
            ]
        notices = []
        for guild_id, channel_id, local in due:
            notice = self._post(guild_id, channel_id, local.date(), now, lang_of(guild_id))
            if notice is not None:
                notices.append(notice)
        return notices

    def _post(
        self, guild_id: int, channel_id: int, day: date, now: datetime, lang: str
    ) -> DailyNotice | None:
        with self.deps.unit() as s:
            puzzle = puzzle_repo.pick_daily_puzzle(s, guild_id, self.rng)
            if puzzle is None:
                return None
            post = puzzle_repo.claim_post(s, guild_id, day, channel_id, puzzle.id, now)
            if post is None:
                return None  # posted already (an earlier sweep, another process)
            s.flush()
            lines = []
            before = puzzle_repo.previous_post(s, guild_id, day)
            if before is not None:
                lines += _reveal(s, before, lang)
            lines.append(_question(puzzle, lang))
            rows = components(puzzle, post.id, lang, daily=True)
            later = drawn_later(question_picture, puzzle, lang)
        reply = Reply(text="\n".join(lines), image_name="daily.png", rows=rows, later=later)
        reply.draw_later()  # the claim has committed: the write lock is not held meanwhile
        return DailyNotice(guild_id, channel_id, day, reply)

    @answers
    def vote(self, actor: Actor, where: Where, post_id: int, arg: str, value: str | None) -> Reply:
        """A member's private answer to a position of the day (the first one counts)."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            post = puzzle_repo.get_post(s, post_id)
            puzzle = puzzle_repo.get_puzzle(s, post.puzzle_id) if post else None
            if post is None or puzzle is None:
                raise Refusal("puzzle.gone")
            index = choice_index(puzzle, PuzzleAction(post_id, arg, True), value)
            answer = str(answers_of(puzzle)[index]["answer"])
            if not puzzle_repo.add_vote(s, post.id, actor.id, answer, self.deps.clock()):
                raise Refusal("daily.already")
        label = answer_label(puzzle, answer, lang)
        return Reply(text=t("daily.voted", lang, answer=label), ephemeral=True)


def _zone(name: str) -> str:
    """A time zone's canonical name (``europe/paris`` -> ``Europe/Paris``); refused when
    unknown."""
    wanted = (name or "").strip()
    try:
        ZoneInfo(wanted)
        return wanted
    except (ZoneInfoNotFoundError, ValueError):
        pass
    for zone in available_timezones():
        if zone.lower() == wanted.lower():
            return zone
    raise Refusal("error.timezone", value=wanted[:60])  # as /settings says it


def _question(puzzle: Puzzle, lang: str) -> str:
    key = "daily.question_cube" if puzzle.kind == "cube" else "daily.question"
    return t(key, lang, dice=dice_text(puzzle), xgid=puzzle.xgid)


def _reveal(s: Session, post: DailyPost, lang: str) -> list[str]:
    """Yesterday's answer and how the server voted."""
    puzzle = puzzle_repo.get_puzzle(s, post.puzzle_id)
    if puzzle is None:
        return []
    counts = puzzle_repo.votes(s, post.id)
    total = sum(counts.values())
    choices = answers_of(puzzle)

    def label(answer: str) -> str:
        return answer_label(puzzle, answer, lang)

    best = str(choices[0]["answer"])
    lines = [
        t(
            "daily.reveal",
            lang,
            best=label(best),
            lost=float(puzzle.error),
            played=label(puzzle.played),
        )
    ]
    for choice in choices:
        answer = str(choice["answer"])
        n = counts.get(answer, 0)
        share = f"{100 * n / total:.0f}" if total else "0"
        lines.append(t("daily.vote_line", lang, answer=label(answer), votes=n, share=share))
    lines.append(t("daily.voters", lang, count=total))
    return lines

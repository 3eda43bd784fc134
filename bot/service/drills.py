"""Drills of one's own blunders (issue 32, item 3): the puzzles made of a player's reviewed games
(:mod:`bot.service.puzzles`; ``/settings puzzles:false`` keeps none) come back to him on a
spaced-repetition schedule computed by FSRS (the ``fsrs`` library), a few a day.

``/drill`` asks the next drill due today (the player's day, in his time zone), at most
:data:`PER_DAY` a day; the answer is graded as the puzzle is (the review's numbers), and rates
the card for FSRS: *Good* when right, *Again* when not. The answer is stored once per card and
due date (a unique constraint: :func:`db.drills.record_answer`), so a double click, a second
process or an old message changes the schedule once and is told so. The streak counts the
days in a row with a drill answered.

``/settings drills:9`` asks for the day's drill by direct message at 09:00 in the player's time
zone (held through his quiet hours, as the turn notices), claimed once per player and day
(:func:`db.drills.claim_send`); on Mondays it comes with the summary of the week as a picture
(accuracy, streak, PR trend: :func:`render.drills.drill_week`), which ``/drill week:true``
draws at any time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from fsrs import Card, Rating, Scheduler
from sqlalchemy.orm import Session

from bot.drawers import DRAWERS
from bot.i18n import number, t
from bot.service.customid import PuzzleAction
from bot.service.deps import Deps, answers
from bot.service.notices import in_quiet_hours
from bot.service.people import Actor, Prefs, Where
from bot.service.prstats import TREND_GAMES, counted_prs
from bot.service.puzzles import choice_index, drawn_later
from bot.service.puzzleview import (
    answer_lines,
    best_picture,
    components,
    dice_text,
    grade,
    question_picture,
    question_text,
)
from bot.service.refusal import Refusal, aware
from bot.service.replies import Button, Reply
from db import drills as drill_repo
from db import puzzles as puzzle_repo
from db import stats as stats_repo
from db.models import DrillCard, Puzzle
from render.drills import DrillWeek, drill_week

__all__ = ["PER_DAY", "SCHEDULER", "DrillNotice", "Drills", "streaks"]

PER_DAY = 5
"""At most this many drills a day: the most overdue first."""

SCHEDULER = Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
"""FSRS with its default parameters (90 % retention), without the same-day learning steps (a
drill comes at most once a day) and without fuzz (the same answers give the same schedule)."""


@dataclass(frozen=True)
class DrillNotice:
    """The day's drill for ``user_id`` as a direct message (the adapter sends each reply)."""

    user_id: int
    day: date
    replies: tuple[Reply, ...]


def new_state(now: datetime) -> dict[str, Any]:
    """A new card's FSRS state, due now."""
    return dict(Card(card_id=0, due=now).to_dict())


def streaks(days: Sequence[date], today: date) -> tuple[int, int]:
    """The current streak (days in a row with an answer, up to today or yesterday) and the best
    one, from the days answered (newest first).

    >>> d = date(2026, 12, 4)
    >>> streaks([d, d - timedelta(1), d - timedelta(3)], d)
    (2, 2)
    >>> streaks([d - timedelta(1)], d), streaks([d - timedelta(2)], d), streaks([], d)
    ((1, 1), (0, 1), (0, 0))
    """
    runs: list[int] = []
    for i, day in enumerate(days):
        if i and days[i - 1] - day == timedelta(days=1):
            runs[-1] += 1
        else:
            runs.append(1)
    current = runs[0] if days and (today - days[0]).days <= 1 else 0
    return current, max(runs, default=0)


def _zone(prefs: Prefs) -> ZoneInfo:
    return ZoneInfo(prefs.timezone or "UTC")


def _today(prefs: Prefs, now: datetime) -> tuple[date, datetime]:
    """The player's date, and the end of it (the start of his tomorrow, in UTC)."""
    zone = _zone(prefs)
    day = now.astimezone(zone).date()
    end = datetime.combine(day + timedelta(days=1), time(0), zone).astimezone(UTC)
    return day, end


class Drills:
    """``/drill``, its answers, the daily direct message and the weekly summary."""

    def __init__(self, deps: Deps, scheduler: Scheduler = SCHEDULER) -> None:
        self.deps = deps
        self.scheduler = scheduler

    @answers
    def drill(self, actor: Actor, where: Where, week: bool = False) -> Reply:
        """``/drill [week]``: the next drill of today (``week``: the week's summary)."""
        if week:
            return self._week_reply(actor)
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            now = self.deps.clock()
            day, end = _today(who.prefs, now)
            drill_repo.add_cards(s, actor.id, new_state, now)
            found = self._next(s, actor.id, day, end)
            if found is None:
                raise self._nothing(s, actor.id, who.prefs, day)
            card, puzzle, left = found
            streak = streaks(drill_repo.answer_days(s, actor.id), day)[0]
            reply = _question(card, puzzle, who.lang, left=left, streak=streak)
        return reply

    def _next(
        self, s: Session, player_id: int, day: date, end: datetime
    ) -> tuple[DrillCard, Puzzle, int] | None:
        """Today's next card, its puzzle and how many are left today (itself included)."""
        room = PER_DAY - drill_repo.answered_on(s, player_id, day)
        cards = drill_repo.due_cards(s, player_id, end, max(room, 0))
        for card in cards:
            puzzle = puzzle_repo.get_puzzle(s, card.puzzle_id)
            if puzzle is not None:
                return card, puzzle, len(cards)
        return None

    def _nothing(self, s: Session, player_id: int, prefs: Prefs, day: date) -> Refusal:
        """Why there is no drill now: none at all, today's are done, or none is due."""
        due = drill_repo.next_due(s, player_id)
        if due is None:
            return Refusal("drill.none")
        when = aware(due).astimezone(_zone(prefs)).date().isoformat()
        done = drill_repo.answered_on(s, player_id, day)
        if done >= PER_DAY:
            return Refusal("drill.done_today", count=done, next=when)
        return Refusal("drill.none_due", next=when)

    @answers
    def answer(self, actor: Actor, where: Where, action: PuzzleAction, value: str | None) -> Reply:
        """An answer to a drill: graded, and the card rescheduled, once per due date."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            now = self.deps.clock()
            day, end = _today(who.prefs, now)
            card = drill_repo.get_card(s, action.id) if action.known else None
            puzzle = puzzle_repo.get_puzzle(s, card.puzzle_id) if card else None
            if card is None or puzzle is None:
                raise Refusal("drill.gone")
            if card.player_id != actor.id:
                raise Refusal("drill.not_yours")
            if aware(card.due) >= end:
                raise Refusal("drill.already", next=self._local_day(card, who.prefs))
            index = choice_index(puzzle, action, value)
            answer, lost, correct = grade(puzzle, index)
            graded = drill_repo.Graded(answer, correct, lost)
            if not drill_repo.record_answer(s, card, graded, day=day, now=now):
                raise Refusal("drill.already", next=self._local_day(card, who.prefs))
            self._reschedule(s, card, correct, now)
            lines = answer_lines(puzzle, index, who.lang)
            after, left = self._after(s, card, who.prefs, day, who.lang)
            lines.append(after)
        return Reply(
            text="\n".join(lines),
            later=drawn_later(best_picture, puzzle, who.lang),
            image_name="drill-answer.png",
            rows=[[_next_button(card, who.lang)]] if left else [],
            ephemeral=True,
        )

    def typed(self, actor: Actor, where: Where, notation: str) -> Reply | None:
        """``/move`` by a player without a game here: the answer to the checker drill he
        would be asked now (the one ``/drill`` shows); None without one."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            day, end = _today(who.prefs, self.deps.clock())
            found = self._next(s, actor.id, day, end)
        if found is None or found[1].kind == "cube":
            return None
        return self.answer(actor, where, PuzzleAction(found[0].id, "m", drill=True), notation)

    def _reschedule(self, s: Session, card: DrillCard, correct: bool, now: datetime) -> None:
        rating = Rating.Good if correct else Rating.Again
        fsrs_card = Card.from_dict(card.state)  # type: ignore[arg-type]
        new, _ = self.scheduler.review_card(fsrs_card, rating, now)
        drill_repo.reschedule(s, card, new.to_dict(), new.due)  # type: ignore[arg-type]

    @staticmethod
    def _local_day(card: DrillCard, prefs: Prefs) -> str:
        return aware(card.due).astimezone(_zone(prefs)).date().isoformat()

    def _after(
        self, s: Session, card: DrillCard, prefs: Prefs, day: date, lang: str
    ) -> tuple[str, int]:
        """After an answer: when the card comes back, the streak, what is left today (and how
        many)."""
        streak, best = streaks(drill_repo.answer_days(s, card.player_id), day)
        room = PER_DAY - drill_repo.answered_on(s, card.player_id, day)
        _, end = _today(prefs, self.deps.clock())
        left = len(drill_repo.due_cards(s, card.player_id, end, max(room, 0)))
        text = t(
            "drill.answered" if left else "drill.answered_last",
            lang,
            next=self._local_day(card, prefs),
            streak=streak,
            best=best,
            left=left,
        )
        return text, left

    # -- the daily direct message -------------------------------------------------------------

    def sweep(self, now: datetime | None = None, *, only: int | None = None) -> list[DrillNotice]:
        """The day's drill messages due now, each claimed for this process (``only``: that
        player's only, as the terminal does for its own)."""
        now = now or self.deps.clock()
        with self.deps.unit() as s:
            wanted = [
                (player_id, prefs)
                for player_id, stored in drill_repo.drill_players(s)
                for prefs in [Prefs.from_json(stored)]
                if only in (None, player_id) and prefs.drills is not None
            ]
        notices = []
        for player_id, prefs in wanted:
            assert prefs.drills is not None
            local = now.astimezone(_zone(prefs))
            if local.hour < prefs.drills or in_quiet_hours(prefs, now):
                continue  # later today, or when his quiet hours end
            notice = self._send(player_id, prefs, now)
            if notice is not None:
                notices.append(notice)
        return notices

    def _send(self, player_id: int, prefs: Prefs, now: datetime) -> DrillNotice | None:
        """The day's message, when it has something to say (a drill due, or on Mondays the
        week that ended): claimed then, so that a drill due later today (a game reviewed since)
        still gets it."""
        day, end = _today(prefs, now)
        lang = prefs.lang or "en"
        monday = day.weekday() == 0
        with self.deps.unit() as s:
            if drill_repo.was_sent(s, player_id, day):
                return None
            drill_repo.add_cards(s, player_id, new_state, now)
            found = self._next(s, player_id, day, end)
            if found is None and not (
                monday and drill_repo.answers_since(s, player_id, day - timedelta(days=7))
            ):
                return None  # nothing to say: asked again at the next sweep
            if not drill_repo.claim_send(s, player_id, day, now):
                return None  # sent already today (an earlier sweep, another process)
            streak = streaks(drill_repo.answer_days(s, player_id), day)[0]
            question = None
            if found is not None:
                card, puzzle, left = found
                question = _question(card, puzzle, lang, left=left, streak=streak, daily=True)
        replies = [question] if question is not None else []
        summary = self._week(player_id, prefs, day, lang) if monday else None
        if summary is not None:  # Monday: the summary of the week that ended, first
            replies.insert(0, summary)
        for reply in replies:
            reply.ephemeral = False
            reply.draw_later()  # the claim has committed: no write lock held meanwhile
        return DrillNotice(player_id, day, tuple(replies)) if replies else None

    # -- the week's summary -------------------------------------------------------------------

    def _week_reply(self, actor: Actor) -> Reply:
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
        day, _ = _today(who.prefs, self.deps.clock())
        reply = self._week(actor.id, who.prefs, day, who.lang)
        if reply is None:
            raise Refusal("drill.week_empty")
        reply.ephemeral = True  # his own results, as /drill's: not for the whole channel
        return reply

    def _week(self, player_id: int, prefs: Prefs, day: date, lang: str) -> Reply | None:
        """The summary of the seven days before ``day`` (``day`` itself included when some
        drill was answered on it), or None when nothing was answered in them."""
        with self.deps.unit() as s:
            answered = drill_repo.answers_since(s, player_id, day - timedelta(days=7))
            streak, best = streaks(drill_repo.answer_days(s, player_id), day)
            prs = [float(pr.value or 0.0) for pr in counted_prs(_games(s, player_id), player_id)]
        if not answered:
            return None
        last = day if any(d == day for d, _ in answered) else day - timedelta(days=1)
        week = [last - timedelta(days=6 - i) for i in range(7)]
        right = sum(1 for d, ok in answered if ok and d in week)
        total = sum(1 for d, _ in answered if d in week)
        share = round(100 * right / total) if total else 0
        picture = _week_picture(lang, week, answered, (share, right, total), (streak, best), prs)
        text = t(
            "drill.week",
            lang,
            share=share,
            right=right,
            total=total,
            streak=streak,
            best=best,
            pr=number(prs[-1], ".1f", lang) if prs else "–",
        )
        return Reply(text=text, image=DRAWERS.call(drill_week, picture), image_name="drills.png")


def _games(s: Session, player_id: int) -> Sequence[Any]:
    return stats_repo.game_history(s, player_id, limit=TREND_GAMES)


def _week_picture(
    lang: str,
    week: list[date],
    answered: list[tuple[date, bool]],
    accuracy: tuple[int, int, int],
    streak: tuple[int, int],
    prs: list[float],
) -> DrillWeek:
    share, right, total = accuracy
    days = tuple((t(f"drill.weekday.{d.weekday()}", lang), *_tally(answered, d)) for d in week)
    pr_figure = number(prs[-1], ".1f", lang) if prs else "–"
    trend = ""
    if len(prs) >= 2:
        trend = t("drill.pic.pr_change", lang, change=number(prs[-1] - prs[0], "+.1f", lang))
    return DrillWeek(
        title=t("drill.pic.title", lang),
        subtitle=f"{week[0].isoformat()} – {week[-1].isoformat()}",
        tiles=(
            (
                t("drill.pic.accuracy", lang),
                f"{share} %",
                t("drill.pic.of", lang, right=right, total=total),
            ),
            (
                t("drill.pic.streak", lang),
                str(streak[0]),
                t("drill.pic.best", lang, best=streak[1]),
            ),
            (t("drill.pic.pr", lang), pr_figure, trend),
        ),
        days=days,
        pr_title=t("drill.pic.pr_title", lang),
        prs=tuple(prs),
        no_pr=t("drill.pic.no_pr", lang),
        decimal=number(0.5, ".1f", lang)[1],
    )


def _next_button(card: DrillCard, lang: str) -> Button:
    """Under an answer: the next drill of the day."""
    return Button(
        PuzzleAction(card.id, PuzzleAction.NEXT, drill=True).custom_id,
        t("drill.next", lang),
        "primary",
    )


def _tally(answered: list[tuple[date, bool]], day: date) -> tuple[int, int]:
    """The answers of ``day``: how many right, how many in all."""
    of_day = [ok for d, ok in answered if d == day]
    return sum(of_day), len(of_day)


def _question(
    card: DrillCard, puzzle: Puzzle, lang: str, *, left: int, streak: int, daily: bool = False
) -> Reply:
    """A drill's question: the position of the blunder, and the answers."""
    key = "drill.question_cube" if puzzle.kind == "cube" else "drill.question"
    text = t(key, lang, dice=dice_text(puzzle), left=left, streak=streak, xgid=puzzle.xgid)
    if daily:
        text = t("drill.daily", lang) + "\n" + text
    return Reply(
        text=text,
        later=drawn_later(question_picture, puzzle, lang),
        image_name="drill.png",
        board_text=question_text(puzzle, lang),
        rows=components(puzzle, card.id, lang, daily=False, drill=True),
        ephemeral=True,
        position_id=puzzle.position_id,
        match_id=puzzle.match_id,
    )

"""Drills of one's own blunders (issue 32, item 3): the queries, no rules.

A card is stored once per player and puzzle (his own blunder); an answer once per card and due
date: :func:`record_answer` inserts it in a savepoint, and a second answer to the same due date
(a double click, a second process) violates the unique (card, due) constraint and returns False,
so the schedule changes once. The daily message is claimed per player and day the same way
(:func:`claim_send`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import String, cast, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from db.ids import in_range
from db.models import DrillAnswer, DrillCard, DrillSend, Player, Puzzle

__all__ = [
    "Graded",
    "add_cards",
    "answer_days",
    "answered_on",
    "answers_since",
    "claim_send",
    "drill_players",
    "due_cards",
    "get_card",
    "next_due",
    "record_answer",
    "reschedule",
    "was_sent",
]


def add_cards(
    s: Session, player_id: int, new_state: Callable[[datetime], dict[str, Any]], now: datetime
) -> int:
    """Put the player's own blunders (puzzles of his reviewed games) that have no card yet on
    his schedule, due now; returns how many. A card added meanwhile by a concurrent action is
    skipped."""
    have = select(DrillCard.puzzle_id).where(DrillCard.player_id == player_id)
    query = (
        select(Puzzle.id)
        .where(Puzzle.source_player_id == player_id, Puzzle.id.not_in(have))
        .order_by(Puzzle.id)
    )
    added = 0
    for puzzle_id in list(s.scalars(query)):
        card = DrillCard(
            player_id=player_id,
            puzzle_id=puzzle_id,
            state=new_state(now),
            due=now,
            reviews=0,
            created_at=now,
        )
        try:
            with s.begin_nested():
                s.add(card)
        except IntegrityError:
            continue
        added += 1
    return added


def get_card(s: Session, card_id: int) -> DrillCard | None:
    return s.get(DrillCard, card_id) if in_range(card_id) else None


def due_cards(s: Session, player_id: int, until: datetime, limit: int) -> list[DrillCard]:
    """The player's cards due by ``until``, the most overdue first."""
    query = (
        select(DrillCard)
        .where(DrillCard.player_id == player_id, DrillCard.due <= until)
        .order_by(DrillCard.due, DrillCard.id)
        .limit(limit)
    )
    return list(s.scalars(query))


def next_due(s: Session, player_id: int) -> datetime | None:
    """When the player's next card is due (None without cards)."""
    return s.scalar(select(func.min(DrillCard.due)).where(DrillCard.player_id == player_id))


class Graded(NamedTuple):
    """An answer as graded: the answer, whether it is the best one, the equity it lost."""

    answer: str
    correct: bool
    lost: float


def record_answer(s: Session, card: DrillCard, graded: Graded, *, day: date, now: datetime) -> bool:
    """Store the answer to ``card`` at its current due date; False when that due date was
    answered already (by this process or another)."""
    row = DrillAnswer(
        card_id=card.id,
        player_id=card.player_id,
        due=card.due,
        day=day,
        answer=graded.answer,
        correct=graded.correct,
        lost=graded.lost,
        created_at=now,
    )
    try:
        with s.begin_nested():
            s.add(row)
    except IntegrityError:
        return False
    return True


def reschedule(s: Session, card: DrillCard, state: dict[str, Any], due: datetime) -> None:
    """The card's new FSRS state after an answer recorded in this unit of work."""
    card.state, card.due = state, due
    card.reviews = (card.reviews or 0) + 1


def answered_on(s: Session, player_id: int, day: date) -> int:
    """How many drills the player answered on ``day`` (his date)."""
    query = select(func.count()).where(DrillAnswer.player_id == player_id, DrillAnswer.day == day)
    return int(s.scalar(query) or 0)


def answer_days(s: Session, player_id: int) -> list[date]:
    """The days (his dates) on which the player answered a drill, newest first."""
    query = (
        select(DrillAnswer.day)
        .where(DrillAnswer.player_id == player_id)
        .group_by(DrillAnswer.day)
        .order_by(DrillAnswer.day.desc())
    )
    return list(s.scalars(query))


def answers_since(s: Session, player_id: int, first: date) -> list[tuple[date, bool]]:
    """Each answer from ``first`` on: its day and whether it was right."""
    query = (
        select(DrillAnswer.day, DrillAnswer.correct)
        .where(DrillAnswer.player_id == player_id, DrillAnswer.day >= first)
        .order_by(DrillAnswer.day, DrillAnswer.id)
    )
    return [(day, bool(correct)) for day, correct in s.execute(query).tuples()]


def drill_players(s: Session) -> Sequence[tuple[int, dict[str, Any]]]:
    """The players who may have asked for a daily drill (their settings mention it), with their
    settings: the caller reads them."""
    query = (
        select(Player.id, Player.preferences)
        .where(cast(Player.preferences, String).like('%"drills"%'))
        .order_by(Player.id)
    )
    return [(player_id, prefs or {}) for player_id, prefs in s.execute(query).tuples()]


def was_sent(s: Session, player_id: int, day: date) -> bool:
    """Whether the player's daily drill message of ``day`` is claimed already."""
    return s.get(DrillSend, (player_id, day)) is not None


def claim_send(s: Session, player_id: int, day: date, now: datetime) -> bool:
    """Claim the player's daily drill message of ``day``; False when claimed already."""
    if was_sent(s, player_id, day):
        return False
    try:
        with s.begin_nested():
            s.add(DrillSend(player_id=player_id, day=day, created_at=now))
    except IntegrityError:
        return False
    return True

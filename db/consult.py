"""Consultation games (issue 32, item 2): the queries, no rules.

A consultation is taken with :func:`db.locking.lock_row` by every writer (a vote, the closing of
a vote), so two closings of one vote, or a vote arriving while it closes, run one after the
other and the second sees what the first wrote. A vote is one row per person and decision
(:func:`cast_vote` replaces his earlier one).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from db.ids import in_range
from db.models import Consultation, ConsultVote, Game, Player

__all__ = [
    "Voter",
    "add_choice",
    "by_game",
    "by_message",
    "cast_vote",
    "create",
    "due",
    "finish",
    "open_decision",
    "open_here",
    "open_votes",
    "poll_lost",
    "poll_posted",
    "tally",
    "vote_of",
    "voters",
    "withdraw",
]

OPEN = "open"


def create(
    s: Session,
    *,
    game_id: int,
    guild_id: int | None,
    channel_id: int | None,
    lang: str,
    level: str,
    seat: int,
    seconds: int,
    now: datetime,
) -> Consultation:
    row = Consultation(
        game_id=game_id,
        guild_id=guild_id,
        channel_id=channel_id,
        lang=lang,
        level=level,
        seat=seat,
        seconds=seconds,
        status=OPEN,
        decision=0,
        shown=0,
        best=0,
        version=1,
        created_at=now,
    )
    s.add(row)
    s.flush()
    return row


def open_decision(
    row: Consultation, kind: str, choices: list[str], best: int, closes_at: datetime
) -> None:
    """Open the vote on the team's next decision: its ``kind`` ("play", "double", "take"),
    its answers (the computer's ``best`` among them) until ``closes_at``, its poll not posted
    yet. The caller holds the row."""
    row.decision += 1
    row.kind, row.choices, row.shown, row.best = kind, choices, len(choices), best
    row.closes_at = closes_at
    row.message_id = None


def add_choice(row: Consultation, play: str) -> int:
    """A play typed with ``/move`` among the open vote's answers (appended after the listed
    ones when new); its index. The caller holds the row."""
    choices = list(row.choices or [])
    if play not in choices:
        choices.append(play)
        row.choices = choices
    return choices.index(play)


def poll_posted(row: Consultation, message_id: int) -> None:
    """The open vote's poll was posted as ``message_id``. The caller holds the row."""
    row.message_id = message_id


def poll_lost(row: Consultation) -> None:
    """The open vote's poll is gone (it is posted again). The caller holds the row."""
    row.message_id = None


def finish(row: Consultation) -> None:
    """The consultation's game is over: no vote open any more. The caller holds the row."""
    row.status, row.kind, row.closes_at = "finished", None, None
    row.choices, row.message_id, row.shown = None, None, 0


def by_game(s: Session, game_id: int) -> Consultation | None:
    if not in_range(game_id):
        return None
    return s.scalars(select(Consultation).where(Consultation.game_id == game_id)).first()


def played_by_votes(s: Session, row: Game) -> bool:
    """Whether a game is a consultation's (played by its votes). Only a practice game against
    the computer can be one, so only such a game costs a query (a press stays one read)."""
    if not row.practice or row.computer_level is None:
        return False
    return by_game(s, row.id) is not None


def open_here(s: Session, channel_id: int | None) -> Consultation | None:
    """The consultation going on in a channel (one at most)."""
    if channel_id is None:
        return None
    stmt = select(Consultation).where(
        Consultation.channel_id == channel_id, Consultation.status == OPEN
    )
    return s.scalars(stmt.order_by(Consultation.id.desc())).first()


def by_message(s: Session, message_id: int) -> Consultation | None:
    """The consultation whose current vote's poll is the message ``message_id`` (a Discord
    snowflake: a 64-bit column)."""
    if type(message_id) is not int or not 0 < message_id < 2**63:
        return None
    stmt = select(Consultation).where(Consultation.message_id == message_id)
    return s.scalars(stmt).first()


def due(s: Session, now: datetime, guild_id: int | None = None) -> list[int]:
    """The consultations whose vote is past its closing time."""
    stmt = select(Consultation.id).where(
        Consultation.status == OPEN,
        Consultation.closes_at.is_not(None),
        Consultation.closes_at <= now,
    )
    if guild_id is not None:
        stmt = stmt.where(Consultation.guild_id == guild_id)
    return list(s.scalars(stmt.order_by(Consultation.id)))


def open_votes(s: Session) -> list[Consultation]:
    """Every consultation with a vote open (the adapter checks their polls after a restart)."""
    stmt = select(Consultation).where(
        Consultation.status == OPEN, Consultation.closes_at.is_not(None)
    )
    return list(s.scalars(stmt.order_by(Consultation.id)))


def vote_of(s: Session, consultation_id: int, decision: int, player_id: int) -> ConsultVote | None:
    stmt = select(ConsultVote).where(
        ConsultVote.consultation_id == consultation_id,
        ConsultVote.decision == decision,
        ConsultVote.player_id == player_id,
    )
    return s.scalars(stmt).first()


def cast_vote(
    s: Session,
    row: Consultation,
    player_id: int,
    choice: int,
    *,
    now: datetime,
) -> int | None:
    """Record ``player_id``'s vote for ``choice`` on the open decision; returns his earlier
    choice that it replaces, or None for a first vote. The caller holds the row."""
    earlier = vote_of(s, row.id, row.decision, player_id)
    best = choice == row.best
    if earlier is not None:
        before = earlier.choice
        earlier.choice, earlier.best, earlier.created_at = choice, best, now
        return before
    s.add(
        ConsultVote(
            consultation_id=row.id,
            decision=row.decision,
            player_id=player_id,
            choice=choice,
            best=best,
            created_at=now,
        )
    )
    s.flush()
    return None


def withdraw(s: Session, row: Consultation, player_id: int, choice: int) -> bool:
    """Take back ``player_id``'s vote for ``choice`` on the open decision (a poll's vote
    removed); False when he had no such vote."""
    earlier = vote_of(s, row.id, row.decision, player_id)
    if earlier is None or earlier.choice != choice:
        return False
    s.delete(earlier)
    s.flush()
    return True


def tally(s: Session, consultation_id: int, decision: int) -> dict[int, int]:
    """Votes per choice on one decision."""
    stmt = (
        select(ConsultVote.choice, func.count())
        .where(ConsultVote.consultation_id == consultation_id, ConsultVote.decision == decision)
        .group_by(ConsultVote.choice)
    )
    return {int(choice): int(count) for choice, count in s.execute(stmt)}


class Voter(NamedTuple):
    player_id: int
    name: str
    votes: int
    best: int


def voters(s: Session, consultation_id: int) -> Sequence[Voter]:
    """Everyone who voted in a consultation: his votes and how many were the computer's
    choice, most votes first."""
    best = func.sum(case((ConsultVote.best.is_(True), 1), else_=0))
    stmt = (
        select(ConsultVote.player_id, Player.display_name, func.count(), best)
        .join(Player, Player.id == ConsultVote.player_id)
        .where(ConsultVote.consultation_id == consultation_id)
        .group_by(ConsultVote.player_id, Player.display_name)
    )
    rows = [Voter(int(p), str(n), int(v), int(b or 0)) for p, n, v, b in s.execute(stmt)]
    return sorted(rows, key=lambda v: (-v.votes, -v.best, v.name.lower()))

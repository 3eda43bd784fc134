"""Challenges between two people: created, then accepted, declined, cancelled or expired once.

Answering is a conditional UPDATE (``... WHERE status = 'pending' AND expires_at > now``), so two
clicks on Accept cannot both succeed: the second raises :class:`~db.errors.ChallengeClosed`. A
challenge past its time is closed when someone answers it (nothing sweeps them).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import update
from sqlalchemy.orm import Session

from db.errors import ChallengeClosed
from db.ids import in_range
from db.models import Challenge, ChallengeStatus
from db.types import utcnow

__all__ = [
    "answer_challenge",
    "create_challenge",
    "get_challenge",
]


def create_challenge(
    session: Session,
    *,
    challenger_id: int,
    challenged_id: int,
    expires_at: datetime,
    match_length: int = 0,
    cube: bool = True,
    rated: bool = True,
    guild_id: int | None = None,
    channel_id: int | None = None,
    now: datetime | None = None,
) -> Challenge:
    """A pending challenge (both players must exist).

    :raises ValueError: a challenge to oneself, or one that expires before it is made.
    """
    now = now or utcnow()
    if challenger_id == challenged_id:
        raise ValueError("a player cannot challenge himself")
    if expires_at <= now:
        raise ValueError("the challenge would expire before it is made")
    challenge = Challenge(
        challenger_id=challenger_id,
        challenged_id=challenged_id,
        guild_id=guild_id,
        channel_id=channel_id,
        match_length=match_length,
        cube=cube,
        rated=rated,
        status=ChallengeStatus.PENDING,
        created_at=now,
        expires_at=expires_at,
    )
    session.add(challenge)
    session.flush()
    return challenge


def get_challenge(session: Session, challenge_id: int) -> Challenge | None:
    if not in_range(challenge_id):  # no row has it (PostgreSQL would fail the query instead)
        return None
    return session.get(Challenge, challenge_id, populate_existing=True)


def answer_challenge(
    session: Session, challenge_id: int, status: ChallengeStatus, *, now: datetime | None = None
) -> Challenge:
    """Move a pending, unexpired challenge to ``status`` (accepted, declined or cancelled). On
    acceptance the caller creates the game in the same unit of work and sets ``game_id``.

    :raises ChallengeClosed: the challenge is missing, already answered, or has expired.
    """
    if status not in (
        ChallengeStatus.ACCEPTED,
        ChallengeStatus.DECLINED,
        ChallengeStatus.CANCELLED,
    ):
        raise ValueError(f"a challenge is answered with accepted/declined/cancelled, not {status}")
    if not in_range(challenge_id):
        raise ChallengeClosed(challenge_id, None)
    now = now or utcnow()
    stmt = (
        update(Challenge)
        .where(
            Challenge.id == challenge_id,
            Challenge.status == ChallengeStatus.PENDING,
            Challenge.expires_at > now,
        )
        .values(status=status, resolved_at=now)
        .returning(Challenge)
    )
    row = session.scalars(stmt, execution_options={"populate_existing": True}).one_or_none()
    if row is not None:
        return row
    current = get_challenge(session, challenge_id)
    if current is None:
        raise ChallengeClosed(challenge_id, None)
    late = current.status == ChallengeStatus.PENDING  # pending but past its expiry time
    raise ChallengeClosed(challenge_id, ChallengeStatus.EXPIRED if late else current.status)

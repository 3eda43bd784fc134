"""Challenges between two people: created, then accepted, declined, cancelled or expired once.

Answering is a conditional UPDATE (``... WHERE status = 'pending' AND expires_at > now``), so two
clicks on Accept cannot both succeed: the second raises :class:`~db.errors.ChallengeClosed`. A
challenge past its time is closed when someone answers it (nothing sweeps them).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from db.errors import ChallengeClosed, ChallengePending
from db.ids import in_range
from db.models import Challenge, ChallengeStatus, Player
from db.types import utcnow

__all__ = [
    "answer_challenge",
    "create_challenge",
    "get_challenge",
    "link_game",
    "pending_between",
    "pending_from",
    "pending_in_channel",
    "stamp_challenger",
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
    variant: str = "standard",
) -> Challenge:
    """A pending challenge (both players must exist); ``variant``: engine.Variant's value.
    :raises ValueError: a challenge to oneself, or one that expires before it is made."""
    now = now or utcnow()
    if challenger_id == challenged_id:
        raise ValueError("a player cannot challenge himself")
    if expires_at <= now:
        raise ValueError("the challenge would expire before it is made")
    _expire_between(session, challenger_id, challenged_id, now)
    challenge = Challenge(
        pair_low=min(challenger_id, challenged_id),
        pair_high=max(challenger_id, challenged_id),
        challenger_id=challenger_id,
        challenged_id=challenged_id,
        guild_id=guild_id,
        channel_id=channel_id,
        match_length=match_length,
        cube=cube,
        rated=rated,
        variant=variant,
        status=ChallengeStatus.PENDING,
        created_at=now,
        expires_at=expires_at,
    )
    _insert_pending(session, challenge, now)
    return challenge


def _insert_pending(session: Session, challenge: Challenge, now: datetime) -> None:
    """Insert ``challenge``; refused when the pair already has a pending one (the unique index
    decides a race between two challenges of the same pair)."""
    try:
        with session.begin_nested():  # a savepoint: the refusal can still read the winner
            session.add(challenge)
            session.flush()
    except IntegrityError:
        first = pending_between(session, challenge.challenger_id, challenge.challenged_id, now=now)
        raise ChallengePending(first.id if first else None) from None


def _pair(a: int, b: int) -> tuple[int, int]:
    return min(a, b), max(a, b)


def _expire_between(session: Session, a: int, b: int, now: datetime) -> None:
    """Close the pair's pending challenge whose time is up: it must not block a new one."""
    low, high = _pair(a, b)
    session.execute(
        update(Challenge)
        .where(
            Challenge.pair_low == low,
            Challenge.pair_high == high,
            Challenge.status == ChallengeStatus.PENDING,
            Challenge.expires_at <= now,
        )
        .values(status=ChallengeStatus.EXPIRED, resolved_at=now)
        .execution_options(synchronize_session=False)
    )


def pending_between(
    session: Session, a: int, b: int, *, now: datetime | None = None
) -> Challenge | None:
    """The challenge still waiting for an answer between ``a`` and ``b``, made by either."""
    now = now or utcnow()
    low, high = _pair(a, b)
    return session.scalars(
        select(Challenge).where(
            Challenge.pair_low == low,
            Challenge.pair_high == high,
            Challenge.status == ChallengeStatus.PENDING,
            Challenge.expires_at > now,
        )
    ).first()


def pending_from(session: Session, challenger_id: int, *, now: datetime | None = None) -> int:
    """How many of the player's challenges wait for an answer."""
    now = now or utcnow()
    stmt = select(func.count()).where(
        Challenge.challenger_id == challenger_id,
        Challenge.status == ChallengeStatus.PENDING,
        Challenge.expires_at > now,
    )
    return session.scalar(stmt) or 0


def pending_in_channel(
    session: Session,
    player_id: int,
    channel_id: int | None,
    *,
    as_challenger: bool,
    now: datetime | None = None,
) -> list[Challenge]:
    """The challenges waiting for an answer in a channel that ``player_id`` made
    (``as_challenger``) or that are addressed to him, the latest first."""
    now = now or utcnow()
    who = Challenge.challenger_id if as_challenger else Challenge.challenged_id
    stmt = (
        select(Challenge)
        .where(
            who == player_id,
            Challenge.channel_id == channel_id,
            Challenge.status == ChallengeStatus.PENDING,
            Challenge.expires_at > now,
        )
        .order_by(Challenge.id.desc())
    )
    return list(session.scalars(stmt))


def stamp_challenger(
    session: Session, player_id: int, *, now: datetime, cooldown: timedelta
) -> datetime | None:
    """Note that the player challenges someone now, unless he did less than ``cooldown`` ago:
    then nothing changes and the time of that last challenge is returned. A conditional
    UPDATE of his row: of two requests at once, the second waits for the first and then sees
    its stamp (and his challenges are counted one request at a time)."""
    result = session.execute(
        update(Player)
        .where(
            Player.id == player_id,
            or_(Player.challenged_at.is_(None), Player.challenged_at <= now - cooldown),
        )
        .values(challenged_at=now)
        .execution_options(synchronize_session=False)
    )
    if getattr(result, "rowcount", 0) == 1:
        return None
    last = session.scalar(select(Player.challenged_at).where(Player.id == player_id))
    return last or now


def get_challenge(session: Session, challenge_id: int) -> Challenge | None:
    if not in_range(challenge_id):  # no row has it (PostgreSQL would fail the query instead)
        return None
    return session.get(Challenge, challenge_id, populate_existing=True)


def link_game(challenge: Challenge, game_id: int) -> None:
    """The game an accepted challenge started."""
    challenge.game_id = game_id


def answer_challenge(
    session: Session, challenge_id: int, status: ChallengeStatus, *, now: datetime | None = None
) -> Challenge:
    """Move a pending, unexpired challenge to ``status`` (accepted, declined or cancelled). On
    acceptance the caller creates the game in the same unit of work and links it
    (:func:`link_game`).

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

"""Ladders: create them, keep their rungs, store challenges and results.

As for tournaments (:mod:`db.tournaments`), every change of a ladder starts with :func:`lock`, an
``UPDATE ladders SET version = version + 1`` that takes the row for the rest of the unit of work:
two challenges for the same rung, two results arriving together, a join and a drop, several bot
processes, all take turns on that row and each reads what the previous one committed. The
partial unique indexes of ``ladder_challenges`` (one challenge in play per player as challenger
and as the one challenged) and its unique game back it up.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from db.ids import in_range
from db.locking import lock_row
from db.models import (
    ChallengeState,
    Game,
    GameStatus,
    Ladder,
    LadderChallenge,
    LadderMember,
    LadderStatus,
)

__all__ = [
    "add_challenge",
    "challenge_of_game",
    "close_ladder",
    "create_ladder",
    "get_ladder",
    "guild_ladders",
    "in_play",
    "lock",
    "members",
    "name_key",
    "named",
    "open_ladders",
    "overdue_challenges",
    "recent_results",
    "record_result",
    "seasons",
    "set_rungs",
    "touch",
    "void_challenge",
]

_FRESH = {"populate_existing": True}


def name_key(name: str) -> str:
    """A ladder's name as compared: stripped and casefolded."""
    return name.strip().casefold()[:100]


def create_ladder(
    session: Session,
    ladder: Ladder,
    *,
    guild_id: int | None,
    channel_id: int | None,
    organizer_id: int,
    lang: str,
) -> Ladder:
    """Store a new ladder in a server's channel (its season counted from the server's earlier
    ones of that name)."""
    ladder.guild_id, ladder.channel_id = guild_id, channel_id
    ladder.organizer_id, ladder.lang = organizer_id, lang
    ladder.name_key = name_key(ladder.name)
    ladder.season = seasons(session, ladder.guild_id, ladder.name_key) + 1
    session.add(ladder)
    session.flush()
    return ladder


def seasons(session: Session, guild_id: int | None, key: str) -> int:
    """How many seasons a server's ladder of that name has had."""
    stmt = select(func.max(Ladder.season)).where(
        Ladder.guild_id == guild_id, Ladder.name_key == key
    )
    return int(session.scalar(stmt) or 0)


def get_ladder(session: Session, ladder_id: int) -> Ladder | None:
    """The ladder as last committed (no lock: for reading)."""
    if not in_range(ladder_id):
        return None
    return session.get(Ladder, ladder_id, populate_existing=True)


def lock(session: Session, ladder_id: int) -> Ladder | None:
    """Take the ladder for this unit of work and read it fresh; None when there is none."""
    return lock_row(session, Ladder, ladder_id)


def members(session: Session, ladder_id: int) -> list[LadderMember]:
    """The ladder's members, top rung first."""
    stmt = (
        select(LadderMember)
        .where(LadderMember.ladder_id == ladder_id)
        .order_by(LadderMember.rung)
        .execution_options(**_FRESH)
    )
    return list(session.scalars(stmt))


def set_rungs(session: Session, ladder: Ladder, rungs: Sequence[int], *, now: datetime) -> None:
    """Make the members exactly ``rungs`` (player ids, top first): the newcomers join, those
    missing leave, everyone gets his rung (the ladder is locked by the caller)."""
    rows = {m.player_id: m for m in members(session, ladder.id)}
    for gone in set(rows) - set(rungs):
        session.delete(rows.pop(gone))
    for place, player in enumerate(rungs, start=1):
        row = rows.get(player)
        if row is None:
            row = LadderMember(
                ladder_id=ladder.id, player_id=player, joined_at=now, active_at=now, rung=place
            )
            session.add(row)
        row.rung = place
    session.flush()


def touch(session: Session, ladder_id: int, players: Sequence[int], now: datetime) -> None:
    """``players`` were active on the ladder now (played a challenge, or were dropped for not
    playing: the next drop counts from here)."""
    for row in members(session, ladder_id):
        if row.player_id in players:
            row.active_at = now
    session.flush()


def close_ladder(ladder: Ladder, now: datetime) -> None:
    """The season is over: its rungs and results stay as they are."""
    ladder.status = LadderStatus.CLOSED
    ladder.closed_at = now


def add_challenge(
    session: Session,
    ladder: Ladder,
    challenger_id: int,
    defender_id: int,
    *,
    game_id: int,
    deadline: datetime,
    now: datetime,
) -> LadderChallenge:
    """Store a challenge in play (the partial unique indexes refuse a second one of either
    player)."""
    row = LadderChallenge(
        ladder_id=ladder.id,
        challenger_id=challenger_id,
        defender_id=defender_id,
        game_id=game_id,
        state=ChallengeState.PLAYING,
        deadline=deadline,
        created_at=now,
    )
    session.add(row)
    session.flush()
    return row


def in_play(session: Session, ladder_id: int) -> list[LadderChallenge]:
    """The ladder's challenges being played."""
    stmt = (
        select(LadderChallenge)
        .where(
            LadderChallenge.ladder_id == ladder_id,
            LadderChallenge.state == ChallengeState.PLAYING,
        )
        .order_by(LadderChallenge.id)
        .execution_options(**_FRESH)
    )
    return list(session.scalars(stmt))


def challenge_of_game(session: Session, game_id: int) -> LadderChallenge | None:
    """The ladder challenge a game is played for, if any."""
    stmt = select(LadderChallenge).where(LadderChallenge.game_id == game_id)
    return session.scalars(stmt.execution_options(**_FRESH)).first()


def record_result(
    session: Session,
    ladder: Ladder,
    challenge: LadderChallenge,
    *,
    winner_id: int,
    rungs: tuple[int, int],
    forfeit: bool,
    now: datetime,
) -> None:
    """Close a challenge with its winner and the two players' rungs before it (the ladder,
    locked by the caller, numbers its results)."""
    if challenge.state is not ChallengeState.PLAYING:
        raise ValueError(f"ladder challenge #{challenge.id} is already {challenge.state}")
    ladder.results += 1
    challenge.state = ChallengeState.FINISHED
    challenge.winner_id = winner_id
    challenge.from_rung, challenge.to_rung = rungs
    challenge.forfeit = forfeit
    challenge.result_no = ladder.results
    challenge.finished_at = now
    session.flush()


def void_challenge(challenge: LadderChallenge, now: datetime) -> None:
    """The challenge ends without a result."""
    challenge.state = ChallengeState.VOID
    challenge.finished_at = now


def recent_results(session: Session, ladder_id: int, *, limit: int = 5) -> list[LadderChallenge]:
    """The ladder's latest results, newest first."""
    stmt = (
        select(LadderChallenge)
        .where(
            LadderChallenge.ladder_id == ladder_id,
            LadderChallenge.state == ChallengeState.FINISHED,
        )
        .order_by(LadderChallenge.result_no.desc())
        .limit(limit)
    )
    return list(session.scalars(stmt))


def guild_ladders(session: Session, guild_id: int | None, *, limit: int = 15) -> list[Ladder]:
    """A server's ladders (closed seasons too), newest first."""
    stmt = select(Ladder).where(Ladder.guild_id == guild_id).order_by(Ladder.id.desc()).limit(limit)
    return list(session.scalars(stmt))


def named(session: Session, guild_id: int | None, name: str) -> Ladder | None:
    """The server's open ladder of that name (whatever the case), if any."""
    stmt = select(Ladder).where(
        Ladder.guild_id == guild_id,
        Ladder.name_key == name_key(name),
        Ladder.status == LadderStatus.OPEN,
    )
    return session.scalars(stmt).first()


def open_ladders(session: Session, guild_id: int | None = None) -> list[Ladder]:
    """The open ladders (of one server, or of all: the sweep)."""
    stmt = select(Ladder).where(Ladder.status == LadderStatus.OPEN).order_by(Ladder.id)
    if guild_id is not None:
        stmt = stmt.where(Ladder.guild_id == guild_id)
    return list(session.scalars(stmt))


def overdue_challenges(
    session: Session, now: datetime, *, guild_id: int | None = None, limit: int = 50
) -> list[int]:
    """Challenges still being played past their deadline (their game still on), of one server's
    ladders or of all."""
    stmt = (
        select(LadderChallenge.id)
        .join(Game, LadderChallenge.game_id == Game.id)
        .join(Ladder, LadderChallenge.ladder_id == Ladder.id)
        .where(
            LadderChallenge.state == ChallengeState.PLAYING,
            LadderChallenge.deadline <= now,
            Game.status == GameStatus.ACTIVE,
        )
        .order_by(LadderChallenge.deadline)
        .limit(limit)
    )
    if guild_id is not None:
        stmt = stmt.where(Ladder.guild_id == guild_id)
    return list(session.scalars(stmt))

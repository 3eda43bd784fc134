"""Read-only queries: leaderboards, personal statistics, histories, dice counts.

Each query reads an index range sized by what it returns (a page of the leaderboard, one
player's games or rolls), not the whole move log; ``bench/bench_db.py`` times them over a
million stored moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from db.models import (
    ComputerRecord,
    Game,
    GameEvent,
    GameStatus,
    GuildMember,
    Player,
    Rating,
    RatingHistory,
    VariantRating,
)
from db.ratings import START_RATING

__all__ = [
    "ROLL_KIND",
    "LeaderboardRow",
    "PlayerStats",
    "computer_records",
    "game_history",
    "leaderboard",
    "player_rank",
    "player_stats",
    "rating_history",
    "roll_counts",
    "variant_leaderboard",
    "variant_ratings",
]

ROLL_KIND = "roll"
"""The move-log ``kind`` of a roll of the dice."""

_DONE = (GameStatus.FINISHED, GameStatus.ABANDONED)  # games with a winner


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int  # 1 + the number of players rated strictly higher (ties share a rank)
    player_id: int
    display_name: str
    rating: float
    experience: int
    wins: int  # rated matches
    losses: int


_T = TypeVar("_T", bound=tuple[Any, ...])


def _in_guild(stmt: Select[_T], guild_id: int | None) -> Select[_T]:
    """``stmt`` over ratings, narrowed to the players active in one server (if given)."""
    if guild_id is None:
        return stmt
    return stmt.join(
        GuildMember,
        (GuildMember.player_id == Rating.player_id) & (GuildMember.guild_id == guild_id),
    )


def _ranked(guild_id: int | None) -> Select[tuple[Rating, str]]:
    stmt = select(Rating, Player.display_name).join(Player, Player.id == Rating.player_id)
    return _in_guild(stmt, guild_id)


def _count_above(session: Session, rating: float, guild_id: int | None) -> int:
    stmt = select(func.count()).select_from(Rating).where(Rating.rating > rating)
    return session.scalar(_in_guild(stmt, guild_id)) or 0


def leaderboard(
    session: Session, *, guild_id: int | None = None, limit: int = 10, offset: int = 0
) -> list[LeaderboardRow]:
    """A page of the leaderboard: every rated player (``guild_id=None``) or the rated players
    active in one server, best first."""
    rows = session.execute(
        _ranked(guild_id)
        .order_by(Rating.rating.desc(), Rating.player_id)
        .limit(limit)
        .offset(offset)
    ).all()
    out: list[LeaderboardRow] = []
    for i, (r, name) in enumerate(rows):
        if out and out[-1].rating == r.rating:
            rank = out[-1].rank
        elif not out and offset:
            # Ties may straddle the page boundary: count rather than assume.
            rank = 1 + _count_above(session, r.rating, guild_id)
        else:
            rank = offset + i + 1
        out.append(
            LeaderboardRow(rank, r.player_id, name, r.rating, r.experience, r.wins, r.losses)
        )
    return out


def variant_leaderboard(
    session: Session, variant: str, *, guild_id: int | None = None, limit: int = 10
) -> list[LeaderboardRow]:
    """The leaderboard of one variant (nackgammon, hypergammon): its players' ratings in it,
    best first (every rated player, or those active in one server)."""
    stmt = (
        select(VariantRating, Player.display_name)
        .join(Player, Player.id == VariantRating.player_id)
        .where(VariantRating.variant == variant)
    )
    if guild_id is not None:
        stmt = stmt.join(
            GuildMember,
            (GuildMember.player_id == VariantRating.player_id) & (GuildMember.guild_id == guild_id),
        )
    rows = session.execute(
        stmt.order_by(VariantRating.rating.desc(), VariantRating.player_id).limit(limit)
    ).all()
    out: list[LeaderboardRow] = []
    for i, (r, name) in enumerate(rows):
        rank = out[-1].rank if out and out[-1].rating == r.rating else i + 1
        out.append(
            LeaderboardRow(rank, r.player_id, name, r.rating, r.experience, r.wins, r.losses)
        )
    return out


def variant_ratings(session: Session, player_id: int) -> list[VariantRating]:
    """The player's ratings in the variants he has played rated (nackgammon before
    hypergammon)."""
    return list(
        session.scalars(
            select(VariantRating)
            .where(VariantRating.player_id == player_id)
            .order_by(VariantRating.variant.desc())
        )
    )


def player_rank(session: Session, player_id: int, *, guild_id: int | None = None) -> int | None:
    """The player's rank (globally or in one server), None when he has no rated match (or is
    not active in that server)."""
    rating = session.scalar(select(Rating.rating).where(Rating.player_id == player_id))
    if rating is None:
        return None
    if guild_id is not None and session.get(GuildMember, (guild_id, player_id)) is None:
        return None
    return 1 + _count_above(session, rating, guild_id)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player_id: int
    rating: float
    experience: int
    rank: int | None
    rated_wins: int
    rated_losses: int
    wins_vs_people: int  # rated or not
    losses_vs_people: int
    active_games: int
    computer: dict[str, tuple[int, int, int, int]]  # level -> wins, losses, points won, lost
    practice_games: int = 0  # finished games from a Position ID: in no record above


def player_stats(session: Session, player_id: int) -> PlayerStats:
    """A player's record: rating, rank, results against people and per computer level."""
    rating = session.get(Rating, player_id)
    wins = losses = active = practice = 0
    for seat, column in ((0, Game.player0_id), (1, Game.player1_id)):
        over = Game.status.in_(_DONE)
        done = over & Game.computer_level.is_(None) & Game.practice.is_(False)
        w, lo, a, p = session.execute(
            select(
                func.count().filter(done & (Game.winner == seat)),
                func.count().filter(done & (Game.winner == 1 - seat)),
                func.count().filter(Game.status == GameStatus.ACTIVE),
                func.count().filter(over & Game.practice.is_(True)),
            ).where(column == player_id)
        ).one()
        wins, losses, active, practice = wins + w, losses + lo, active + a, practice + p
    computer = {
        c.level: (c.wins, c.losses, c.points_won, c.points_lost)
        for c in session.scalars(
            select(ComputerRecord).where(ComputerRecord.player_id == player_id)
        )
    }
    return PlayerStats(
        player_id=player_id,
        rating=rating.rating if rating else START_RATING,
        experience=rating.experience if rating else 0,
        rank=player_rank(session, player_id),
        rated_wins=rating.wins if rating else 0,
        rated_losses=rating.losses if rating else 0,
        wins_vs_people=wins,
        losses_vs_people=losses,
        active_games=active,
        computer=computer,
        practice_games=practice,
    )


def rating_history(session: Session, player_id: int, *, limit: int = 100) -> list[RatingHistory]:
    """The player's last ``limit`` rating changes, oldest first (ready to chart)."""
    rows = session.scalars(
        select(RatingHistory)
        .where(RatingHistory.player_id == player_id, RatingHistory.variant == "standard")
        .order_by(RatingHistory.id.desc())
        .limit(limit)
    ).all()
    return list(reversed(rows))


def game_history(
    session: Session,
    player_id: int,
    *,
    limit: int = 20,
    before_id: int | None = None,
    finished_only: bool = True,
) -> list[Game]:
    """The player's games, newest first; pass the last id of a page as ``before_id`` for the
    next. One index range per seat, merged, instead of an OR that would read all his games to
    sort them."""
    parts = []
    for column in (Game.player0_id, Game.player1_id):
        part = select(Game.id).where(column == player_id)
        if before_id is not None:
            part = part.where(Game.id < before_id)
        if finished_only:
            part = part.where(Game.status != GameStatus.ACTIVE)
        parts.append(part.order_by(Game.id.desc()).limit(limit).subquery())
    ids = [
        gid for (gid,) in session.execute(select(parts[0].c.id).union_all(select(parts[1].c.id)))
    ]
    newest = sorted(ids, reverse=True)[:limit]
    if not newest:
        return []
    return list(session.scalars(select(Game).where(Game.id.in_(newest)).order_by(Game.id.desc())))


def roll_counts(
    session: Session, *, player_id: int | None = None, guild_id: int | None = None
) -> dict[tuple[int, int], int]:
    """How often each roll (as rolled: ``(5, 2)`` and ``(2, 5)`` apart) came up, for one
    player, one server's games, or everyone (the /dice statistics)."""
    stmt: Select[tuple[int | None, int | None, int]] = select(
        GameEvent.die1, GameEvent.die2, func.count()
    ).where(GameEvent.kind == ROLL_KIND)
    if player_id is not None:
        stmt = stmt.where(GameEvent.actor_id == player_id)
    if guild_id is not None:
        stmt = stmt.join(Game, Game.id == GameEvent.game_id).where(Game.guild_id == guild_id)
    counts: dict[tuple[int, int], int] = {}
    for d1, d2, n in session.execute(stmt.group_by(GameEvent.die1, GameEvent.die2)):
        if d1 is not None and d2 is not None:
            counts[(d1, d2)] = n
    return counts


def computer_records(session: Session, player_id: int) -> Sequence[ComputerRecord]:
    return session.scalars(
        select(ComputerRecord)
        .where(ComputerRecord.player_id == player_id)
        .order_by(ComputerRecord.level)
    ).all()

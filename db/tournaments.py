"""Tournaments: create them, register players, store pairings and results.

Every change of a tournament starts with :func:`lock`: an ``UPDATE tournaments SET version =
version + 1`` that takes the row for the rest of the unit of work (PostgreSQL's row lock;
SQLite's write lock), so the writers of one tournament (two results arriving at once, a Start
and a Join, several bot processes) run one after the other and each reads what the previous one
committed. Pairing under that lock, plus the unique ``(tournament, round, slot)`` of a match and
the unique game of a match, is what makes it impossible to pair anyone twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from db.ids import in_range
from db.locking import lock_row
from db.models import (
    EntrantStatus,
    Game,
    GameStatus,
    MatchStatus,
    Rating,
    Tournament,
    TournamentEntrant,
    TournamentMatch,
    TournamentStatus,
)
from db.types import utcnow

__all__ = [
    "NewMatch",
    "add_entrant",
    "add_match",
    "cancel_tournament",
    "create_tournament",
    "due_to_start",
    "entrants",
    "finish_tournament",
    "get_tournament",
    "guild_tournaments",
    "hand_clock_over",
    "keep_event_id",
    "lock",
    "mark_entrant",
    "match_of_game",
    "matches",
    "name_key",
    "named",
    "open_tournaments",
    "overdue_games",
    "ratings_of",
    "record_result",
    "remove_entrant",
    "running_arenas_due",
    "start_clock",
    "start_tournament",
    "void_match",
]

_FRESH = {"populate_existing": True}


def name_key(name: str) -> str:
    """A tournament's name as compared: ``"  Friday Cup"`` and ``"friday cup"`` are one name.

    >>> name_key("  Straße Cup ") == name_key("STRASSE cup")
    True
    """
    return name.strip().casefold()[:100]


def create_tournament(
    session: Session,
    tournament: Tournament,
    *,
    guild_id: int | None,
    channel_id: int | None,
    organizer_id: int,
    lang: str,
) -> Tournament:
    """Store a new tournament, organized by ``organizer_id`` in that server and channel and
    announced in ``lang`` (its id is set on return).

    :raises sqlalchemy.exc.IntegrityError: when the server already has an open tournament of
        that name (:func:`named` checks first; this is the loser of a race).
    """
    tournament.guild_id, tournament.channel_id = guild_id, channel_id
    tournament.organizer_id, tournament.lang = organizer_id, lang
    tournament.version = 1
    tournament.name_key = name_key(tournament.name)
    session.add(tournament)
    session.flush()
    return tournament


def keep_event_id(tournament: Tournament, event_id: int) -> None:
    """Keep the id of the tournament's Discord scheduled event (the first one only)."""
    if tournament.event_id is None:
        tournament.event_id = event_id


def start_tournament(
    tournament: Tournament,
    seeded: Sequence[tuple[TournamentEntrant, int, float]],
    now: datetime,
) -> None:
    """The tournament runs from ``now``; each entrant with his seed and rating at the start."""
    for entrant, seed, rating in seeded:
        entrant.seed, entrant.rating = seed, rating
    tournament.status, tournament.started_at = TournamentStatus.RUNNING, now


def mark_entrant(
    session: Session, tournament_id: int, player_id: int, status: EntrantStatus
) -> None:
    """A player withdraws or is disqualified (``status``)."""
    for entrant in entrants(session, tournament_id):
        if entrant.player_id == player_id:
            entrant.status = status


def void_match(match: TournamentMatch) -> None:
    """A match the tournament's cancellation stopped: it counts for nobody."""
    match.status = MatchStatus.VOID


def cancel_tournament(tournament: Tournament, now: datetime) -> None:
    """The tournament stops at ``now`` without a champion."""
    tournament.status, tournament.finished_at = TournamentStatus.CANCELLED, now


def finish_tournament(tournament: Tournament, champion_id: int | None, now: datetime) -> None:
    """Nothing is left to play: the tournament is over at ``now``, won by ``champion_id``."""
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = now
    tournament.champion_id = champion_id


def start_clock(match: TournamentMatch, bank: float, now: datetime) -> None:
    """A match's clock starts: both players have the full ``bank`` (seconds)."""
    match.bank0 = match.bank1 = bank
    match.clock_since = now


def hand_clock_over(
    match: TournamentMatch, now: datetime, charged: tuple[int, float] | None = None
) -> None:
    """The decision passes to the other player at ``now``; ``charged`` (a seat and what is
    left of his bank) when the player who handed it over used more than his delay."""
    if charged is not None:
        seat, bank = charged
        if seat == 0:
            match.bank0 = bank
        else:
            match.bank1 = bank
    match.clock_since = now


def get_tournament(session: Session, tournament_id: int) -> Tournament | None:
    """The tournament as last committed (no lock: for reading)."""
    if not in_range(tournament_id):  # no row has it (PostgreSQL would fail the query instead)
        return None
    return session.get(Tournament, tournament_id, populate_existing=True)


def lock(session: Session, tournament_id: int) -> Tournament | None:
    """Take the tournament for this unit of work (see the module) and read it fresh; None when
    there is no such tournament."""
    return lock_row(session, Tournament, tournament_id)


def entrants(session: Session, tournament_id: int) -> list[TournamentEntrant]:
    """Every entrant (withdrawn ones too), in the order they registered."""
    stmt = (
        select(TournamentEntrant)
        .where(TournamentEntrant.tournament_id == tournament_id)
        .order_by(TournamentEntrant.joined)
        .execution_options(**_FRESH)
    )
    return list(session.scalars(stmt))


def add_entrant(
    session: Session, tournament: Tournament, player_id: int, *, now: datetime | None = None
) -> TournamentEntrant:
    """Register a player (the caller checked he is not registered: the primary key would
    refuse him anyway)."""
    joined = session.scalar(
        select(func.count()).where(TournamentEntrant.tournament_id == tournament.id)
    )
    entrant = TournamentEntrant(
        tournament_id=tournament.id,
        player_id=player_id,
        joined=int(joined or 0),
        status=EntrantStatus.ACTIVE,
        rating=1500.0,
        joined_at=now or utcnow(),
    )
    session.add(entrant)
    session.flush()
    return entrant


def matches(session: Session, tournament_id: int) -> list[TournamentMatch]:
    """Every match of the tournament, in the order they were paired."""
    stmt = (
        select(TournamentMatch)
        .where(TournamentMatch.tournament_id == tournament_id)
        .order_by(TournamentMatch.id)
        .execution_options(**_FRESH)
    )
    return list(session.scalars(stmt))


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A pairing to store: ``player1_id`` None is a bye; a walkover has a winner and no game."""

    round: int
    slot: int
    player0_id: int
    player1_id: int | None
    game_id: int | None = None
    status: MatchStatus = MatchStatus.PLAYING


def add_match(
    session: Session, tournament: Tournament, new: NewMatch, *, now: datetime | None = None
) -> TournamentMatch:
    """Store one pairing (unique per round and slot: a second store of it fails)."""
    row = TournamentMatch(
        tournament_id=tournament.id,
        round=new.round,
        slot=new.slot,
        player0_id=new.player0_id,
        player1_id=new.player1_id,
        game_id=new.game_id,
        status=new.status,
        created_at=now or utcnow(),
    )
    session.add(row)
    session.flush()
    return row


def record_result(
    session: Session,
    tournament: Tournament,
    match: TournamentMatch,
    *,
    winner_id: int,
    score: tuple[int, int],
    win_type: int = 1,
    now: datetime | None = None,
) -> None:
    """Close a match with its winner and score (winner's, loser's); the tournament (locked by
    the caller) numbers its results in the order they came."""
    if match.status is not MatchStatus.PLAYING:
        raise ValueError(f"tournament match #{match.id} is already {match.status}")
    tournament.results += 1
    match.status = MatchStatus.FINISHED
    match.winner_id = winner_id
    match.winner_points, match.loser_points = score
    match.win_type = win_type
    match.result_no = tournament.results
    match.finished_at = now or utcnow()
    session.flush()


def match_of_game(session: Session, game_id: int) -> TournamentMatch | None:
    """The tournament match a game is played for, if any."""
    stmt = select(TournamentMatch).where(TournamentMatch.game_id == game_id)
    return session.scalars(stmt.execution_options(**_FRESH)).first()


def guild_tournaments(
    session: Session, guild_id: int | None, *, limit: int = 10
) -> Sequence[Tournament]:
    """A server's tournaments, newest first."""
    stmt = (
        select(Tournament)
        .where(Tournament.guild_id == guild_id)
        .order_by(Tournament.id.desc())
        .limit(limit)
    )
    return session.scalars(stmt).all()


def due_to_start(session: Session, now: datetime, *, limit: int = 20) -> Sequence[int]:
    """Tournaments still registering whose start time has come."""
    stmt = (
        select(Tournament.id)
        .where(Tournament.status == TournamentStatus.REGISTERING, Tournament.starts_at <= now)
        .order_by(Tournament.starts_at)
        .limit(limit)
    )
    return session.scalars(stmt).all()


def running_arenas_due(session: Session, now: datetime, *, limit: int = 20) -> Sequence[int]:
    """Running tournaments past their end time (arenas), for the sweep to close."""
    stmt = (
        select(Tournament.id)
        .where(Tournament.status == TournamentStatus.RUNNING, Tournament.ends_at <= now)
        .limit(limit)
    )
    return session.scalars(stmt).all()


def ratings_of(session: Session, player_ids: Sequence[int]) -> dict[int, float]:
    """The players' ratings (1500 for a player without a rated match yet)."""
    stmt = select(Rating.player_id, Rating.rating).where(Rating.player_id.in_(player_ids))
    found = {pid: float(r) for pid, r in session.execute(stmt)}
    return {pid: found.get(pid, 1500.0) for pid in player_ids}


def remove_entrant(session: Session, tournament_id: int, player_id: int) -> bool:
    """Take a player off a tournament that has not started; False if he was not on it."""
    result = session.execute(
        delete(TournamentEntrant).where(
            TournamentEntrant.tournament_id == tournament_id,
            TournamentEntrant.player_id == player_id,
        )
    )
    return bool(getattr(result, "rowcount", 0))


def open_tournaments(
    session: Session, guild_id: int | None, *, limit: int = 25
) -> Sequence[Tournament]:
    """The server's tournaments still registering or running, the newest first."""
    stmt = (
        select(Tournament)
        .where(
            Tournament.guild_id == guild_id,
            Tournament.status.in_([TournamentStatus.REGISTERING, TournamentStatus.RUNNING]),
        )
        .order_by(Tournament.id.desc())
        .limit(limit)
    )
    return session.scalars(stmt).all()


def named(session: Session, guild_id: int | None, name: str) -> Tournament | None:
    """The server's tournament still registering or running that has ``name``, whatever the
    case (compared casefolded in Python: SQLite's ``lower`` folds ASCII only)."""
    stmt = select(Tournament).where(
        Tournament.guild_id == guild_id,
        Tournament.status.in_([TournamentStatus.REGISTERING, TournamentStatus.RUNNING]),
    )
    key = name_key(name)
    return next((x for x in session.scalars(stmt) if name_key(x.name) == key), None)


def overdue_games(session: Session, now: datetime, *, limit: int = 50) -> Sequence[int]:
    """Tournament games whose player to move let the move timer run out."""
    stmt = (
        select(Game.id)
        .join(TournamentMatch, TournamentMatch.game_id == Game.id)
        .where(
            TournamentMatch.status == MatchStatus.PLAYING,
            Game.status == GameStatus.ACTIVE,
            Game.deadline <= now,
        )
        .order_by(Game.deadline)
        .limit(limit)
    )
    return session.scalars(stmt).all()

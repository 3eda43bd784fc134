"""Games: create, load, save (with the move log), finish, and the queries the bot's timers and
commands need.

One user action is one unit of work::

    with factory.begin() as s:                      # commits here, or rolls back on any error
        game = games.get_game(s, game_id, expected_version=version_on_the_button)
        ...                                          # the engine applies the action
        games.save_game(s, game, position_id=..., match_id=..., state=..., turn=..., events=[...])

Every write of a game row is a compare-and-swap on ``games.version`` (``UPDATE ... WHERE id = ?
AND version = ?``): when two actions on one game race (two clicks, two bot processes), exactly
one UPDATE matches and the other raises :class:`~db.errors.GameMovedOn` before anything of it is
written. The version goes up by one per change of the game's state (:func:`save_game`,
:func:`finish_game`, :func:`expire_game`), which is what the buttons carry: ``expected_version``
catches the slower case, a click on a button drawn for an older state that arrives after the
other action committed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from enum import IntEnum
from typing import Any

from sqlalchemy import Select, and_, bindparam, exists, or_, select, update
from sqlalchemy.orm import Session, aliased, with_expression
from sqlalchemy.orm.exc import StaleDataError

from db._dialect import insert_for
from db.errors import GameMovedOn, GameNotFound
from db.ids import in_range
from db.models import (
    ComputerRecord,
    Game,
    GameEvent,
    GameStatus,
    Player,
    ResultKind,
    TournamentMatch,
)
from db.players import keep_players, note_guild_activity
from db.ratings import RatingChange, apply_rated_result
from db.types import utcnow
from engine import Match

__all__ = [
    "Finish",
    "GameResult",
    "NewEvent",
    "NewGame",
    "TimerStage",
    "active_game_in_channel",
    "advance_timer_stage",
    "cache_review",
    "count_dice",
    "create_game",
    "expire_game",
    "finish_game",
    "game_events",
    "games_with_timer_due",
    "get_game",
    "hold_clock",
    "move_deadline",
    "reveal_dice",
    "run_clock",
    "save_game",
    "set_deadline",
]


class TimerStage(IntEnum):
    """How far a move timer's notices went (``games.timer_stage``)."""

    NONE = 0
    REMINDED = 1
    CLAIMABLE = 2


@dataclass(frozen=True, slots=True)
class NewEvent:
    """One event to append to a game's move log; the IDs are those after the event."""

    kind: str
    position_id: str
    match_id: str
    player: int | None = None  # the seat that acted
    dice: tuple[int, int] | None = None
    play: str | None = None
    cube_value: int | None = None
    points: int | None = None
    game_no: int = 1


@dataclass(frozen=True, slots=True)
class GameResult:
    game: Game
    ratings: tuple[RatingChange, RatingChange] | None  # winner's then loser's, if rated


@dataclass(frozen=True, slots=True)
class NewGame:
    """Who plays a new game, where, and how: every column of a new row but its state.

    ``player0_id``/``player1_id`` None is the computer's seat (``computer_level`` says how
    strong it plays); ``dice_commitment`` is published at the start, ``dice_seed`` only at the
    end.
    """

    player0_id: int | None
    player1_id: int | None
    computer_level: str | None = None
    match_length: int = 0
    cube: bool = True
    rated: bool = False
    guild_id: int | None = None
    channel_id: int | None = None
    deadline: datetime | None = None
    dice_commitment: str | None = None
    dice_seed: str | None = None
    practice: bool = False  # from a Position ID: kept out of every record and rating
    variant: str = "standard"  # engine.Variant's value (the match's, see create_match_game)

    def __post_init__(self) -> None:
        if self.rated and self.computer_level is not None:
            raise ValueError("games against the computer are never rated")


def create_game(
    session: Session,
    new: NewGame,
    *,
    position_id: str,
    match_id: str,
    state: dict[str, Any],
    turn: int | None,
    events: Iterable[NewEvent] = (),
    now: datetime | None = None,
) -> Game:
    """A new active game (both players must exist: :func:`db.players.ensure_player`)."""
    now = now or utcnow()
    events = list(events)
    columns = {f.name: getattr(new, f.name) for f in fields(new)}
    game = Game(
        **columns,
        position_id=position_id,
        match_id=match_id,
        state=state,
        turn=turn,
        event_count=len(events),
        version=1,
        status=GameStatus.ACTIVE,
        dice_counter=0,
        created_at=now,
        updated_at=now,
    )
    session.add(game)
    session.flush()  # the id, for the move log
    session.add_all(_event_rows(game, 0, events, now))
    if new.guild_id is not None:
        for pid in _people(new.player0_id, new.player1_id):
            note_guild_activity(session, new.guild_id, pid, now=now)
    return game


def get_game(session: Session, game_id: int, *, expected_version: int | None = None) -> Game:
    """The game, as the caller's action will change it, read in one query with its seats'
    players (kept for the unit of work: :func:`db.players.get_player` finds them) and whether it
    is a tournament's match (:attr:`Game.in_tournament`).

    :raises GameNotFound: no such game.
    :raises GameMovedOn: ``expected_version`` is given and the game has changed since.
    """
    # An id past the column's range is no game's (PostgreSQL would fail the query instead).
    game = _with_seats(session, _BY_ID, game_id=game_id) if in_range(game_id) else None
    if game is None:
        raise GameNotFound(game_id)
    if expected_version is not None and game.version != expected_version:
        raise GameMovedOn(game_id, expected_version)
    return game


_SEAT0 = aliased(Player, name="seat0")
_SEAT1 = aliased(Player, name="seat1")
IN_TOURNAMENT = exists().where(TournamentMatch.game_id == Game.id)
"""Whether the game is a tournament's match, read with the game's row (``tournament_matches``
holds one row per match, unique by game)."""


_WITH_SEATS = (
    select(Game, _SEAT0, _SEAT1)
    .outerjoin(_SEAT0, _SEAT0.id == Game.player0_id)
    .outerjoin(_SEAT1, _SEAT1.id == Game.player1_id)
    .options(with_expression(Game.in_tournament, IN_TOURNAMENT))
    .execution_options(populate_existing=True)
)
# Built once: building the statement (its joins, the correlated EXISTS, the option) took three
# times as much of a press's CPU as running it (about 1 ms against 0.3).
_BY_ID = _WITH_SEATS.where(Game.id == bindparam("game_id"))
_ACTIVE_HERE = (
    _WITH_SEATS.where(Game.channel_id == bindparam("channel_id"))
    .where(Game.status == GameStatus.ACTIVE)
    .order_by(Game.id.desc())
    .limit(1)
)
_ACTIVE_HERE_OF = _ACTIVE_HERE.where(
    (Game.player0_id == bindparam("player_id")) | (Game.player1_id == bindparam("player_id"))
)


def _with_seats(
    session: Session, stmt: Select[tuple[Game, Player, Player]], **params: object
) -> Game | None:
    """The game ``stmt`` (one of the statements above) finds with ``params``, its two seats'
    players (kept for the unit of work) and :attr:`Game.in_tournament`, in one query; refreshed
    when the session already holds it (``expire_on_commit=False`` keeps rows of earlier
    units)."""
    found = session.execute(stmt, params).first()
    if found is None:
        return None
    game, seat0, seat1 = found._tuple()
    keep_players(session, (seat0, seat1))
    return game


@dataclass(frozen=True, slots=True)
class Finish:
    """How a game ended, for :func:`save_game` and :func:`finish_game`: ``winner`` is the seat
    (0/1) that won, ``points`` what he scored in the deciding game. ``status`` is ABANDONED when
    the waiting player claimed the game after the move timer ran out."""

    winner: int
    points: int
    kind: ResultKind
    status: GameStatus = GameStatus.FINISHED

    def __post_init__(self) -> None:
        if self.status not in (GameStatus.FINISHED, GameStatus.ABANDONED):
            raise ValueError(f"a game with a winner is finished or abandoned, not {self.status}")
        if self.winner not in (0, 1):
            raise ValueError(f"the winner is seat 0 or 1, not {self.winner!r}")


def save_game(
    session: Session,
    game: Game,
    *,
    position_id: str,
    match_id: str,
    state: dict[str, Any],
    turn: int | None,
    events: Iterable[NewEvent] = (),
    finish: Finish | None = None,
    now: datetime | None = None,
) -> GameResult | None:
    """Store the game's new state, append ``events`` to its move log and, with ``finish``, end
    it (see :func:`finish_game`). The version goes up by one. Other columns (``deadline``,
    ``dice_counter``) may be set on ``game`` before or after the call; they are written with it.

    :raises GameMovedOn: another action changed the game since it was loaded; nothing is written
        (the caller's unit of work rolls back).
    """
    now = now or utcnow()
    game.position_id = position_id
    game.match_id = match_id
    game.state = state
    game.turn = turn
    game.updated_at = now
    rows = _event_rows(game, game.event_count, events, now)
    # The counter is part of the version-checked row: two racing actions cannot both claim the
    # same sequence numbers.
    game.event_count += len(rows)
    if finish is not None:
        _mark_finished(game, finish, now)
    _bump_and_flush(session, game)
    session.add_all(rows)
    return None if finish is None else _record_result(session, game, finish, now)


def _bump_and_flush(session: Session, game: Game) -> None:
    # The version changes only with the game's state (it is what the buttons carry): other
    # columns written later in the same action (the reveal time of the dice seed, ...) are still
    # checked against it, but do not make the buttons just sent stale.
    game.version += 1
    # The version-checked UPDATE goes first, on its own: the move log rows follow only once the
    # game row is ours (on SQLite this UPDATE also takes the write lock for the whole action).
    game_id = game.id  # read now: after a failed flush the object cannot be refreshed
    try:
        session.flush([game])
    except StaleDataError:
        raise GameMovedOn(game_id) from None


def _event_rows(
    game: Game, first_seq: int, events: Iterable[NewEvent], now: datetime
) -> list[GameEvent]:
    return [
        GameEvent(
            game_id=game.id,
            seq=first_seq + i,
            game_no=e.game_no,
            player=e.player,
            actor_id=None if e.player is None else game.player_id(e.player),
            kind=e.kind,
            die1=e.dice[0] if e.dice else None,
            die2=e.dice[1] if e.dice else None,
            play=e.play,
            cube_value=e.cube_value,
            points=e.points,
            position_id=e.position_id,
            match_id=e.match_id,
            created_at=now,
        )
        for i, e in enumerate(events)
    ]


def finish_game(
    session: Session,
    game: Game,
    *,
    winner: int,
    points: int,
    kind: ResultKind,
    status: GameStatus = GameStatus.FINISHED,
    now: datetime | None = None,
) -> GameResult:
    """End the game (or match) without a new state (:func:`save_game` takes ``finish`` when
    there is one). Ratings change for rated games between people; games against the computer
    count in the person's record for that level.

    :raises GameMovedOn: see :func:`save_game`.
    """
    finish = Finish(winner, points, kind, status)
    now = now or utcnow()
    _mark_finished(game, finish, now)
    _bump_and_flush(session, game)
    return _record_result(session, game, finish, now)


def _mark_finished(game: Game, finish: Finish, now: datetime) -> None:
    if game.status is not GameStatus.ACTIVE:
        raise ValueError(f"game #{game.id} is already {game.status}")
    game.status, game.winner, game.points = finish.status, finish.winner, finish.points
    game.result_kind = finish.kind
    game.finished_at = game.updated_at = now
    game.turn = game.deadline = None


def _record_result(session: Session, game: Game, finish: Finish, now: datetime) -> GameResult:
    # After the game row's flush: on SQLite the write lock is held, and on PostgreSQL the row is
    # locked, before any shared row (ratings, records) is read.
    ratings = None
    # A practice position proves nothing: no record, no rating (db.stats shows it apart).
    counted = not game.practice
    if counted and game.computer_level is not None:
        _count_computer_game(session, game, finish.winner, finish.points, now)
    elif counted and game.rated:
        ratings = apply_rated_result(session, game, finish.winner, now=now)
    if game.guild_id is not None:
        for pid in _people(game.player0_id, game.player1_id):
            note_guild_activity(session, game.guild_id, pid, games_played=1, now=now)
    return GameResult(game, ratings)


def _people(*ids: int | None) -> list[int]:
    # Rows shared between games (a player's guild activity) are always written in id order, so
    # that two games ending at once on PostgreSQL lock them in the same order: no deadlock.
    return sorted(i for i in ids if i is not None)


def expire_game(session: Session, game: Game, *, now: datetime | None = None) -> None:
    """End the game without a result (nobody claimed it in time): no record, no rating."""
    now = now or utcnow()
    if game.status is not GameStatus.ACTIVE:
        raise ValueError(f"game #{game.id} is already {game.status}")
    game.status = GameStatus.EXPIRED
    game.finished_at = game.updated_at = now
    game.turn = game.deadline = None
    _bump_and_flush(session, game)


def _points_scored(game: Game, winner: int, points: int) -> tuple[int, int]:
    """The points each seat scored: in a match, in all its games (its final score, less the
    score it started from), not only in the deciding one."""
    scored = [0, 0]
    scored[winner] = points
    if game.match_length:
        try:
            match = Match.from_dict(game.state)
        except ValueError:
            return scored[0], scored[1]
        played = [a - b for a, b in zip(match.score, match.start_score, strict=True)]
        if played[winner] >= points:  # the state holds the deciding game
            return played[0], played[1]
    return scored[0], scored[1]


def _count_computer_game(
    session: Session, game: Game, winner: int, points: int, now: datetime
) -> None:
    assert game.computer_level is not None
    human_seat = 0 if game.player0_id is not None else 1
    human = game.player_id(human_seat)
    won = winner == human_seat
    scored = _points_scored(game, winner, points)
    values = {
        "wins": int(won),
        "losses": int(not won),
        "points_won": scored[human_seat],
        "points_lost": scored[1 - human_seat],
    }
    stmt = insert_for(session, ComputerRecord).values(
        player_id=human, level=game.computer_level, updated_at=now, **values
    )
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=["player_id", "level"],
            set_={
                "updated_at": now,
                **{k: getattr(ComputerRecord, k) + stmt.excluded[k] for k in values},
            },
        )
    )


def game_events(session: Session, game_id: int, *, game_no: int | None = None) -> list[GameEvent]:
    """The move log of a game (or of one game of the match), in order."""
    if not in_range(game_id):
        return []
    stmt = select(GameEvent).where(GameEvent.game_id == game_id)
    if game_no is not None:
        stmt = stmt.where(GameEvent.game_no == game_no)
    return list(session.scalars(stmt.order_by(GameEvent.seq)))


def active_game_in_channel(
    session: Session, channel_id: int | None, *, player_id: int | None = None
) -> Game | None:
    """The newest active game in a channel (or DM channel), if any; with ``player_id``, the
    one that player sits at (the database allows one per player and channel). Read with its
    seats as :func:`get_game` reads a game."""
    if channel_id is None:  # IS NULL, not = NULL: a statement of its own (seldom asked)
        here = _WITH_SEATS.where(Game.channel_id.is_(None), Game.status == GameStatus.ACTIVE)
        here = here.order_by(Game.id.desc()).limit(1)
        if player_id is not None:
            here = here.where((Game.player0_id == player_id) | (Game.player1_id == player_id))
        return _with_seats(session, here)
    if player_id is None:
        return _with_seats(session, _ACTIVE_HERE, channel_id=channel_id)
    return _with_seats(session, _ACTIVE_HERE_OF, channel_id=channel_id, player_id=player_id)


def games_with_timer_due(
    session: Session, *, remind_from: datetime, now: datetime, expire_from: datetime, limit: int
) -> Sequence[int]:
    """The active games whose move timer has a notice due, oldest deadline first: a reminder
    (deadline before ``remind_from``), a claim offer (deadline passed) or the expiry (deadline
    before ``expire_from``). A game whose claim was offered waits a whole period before it
    expires, and must not fill the batch meanwhile (newer games would starve). The sweep
    rereads the database each time, so timers survive restarts."""
    notice_due = or_(
        and_(Game.timer_stage < TimerStage.REMINDED, Game.deadline <= remind_from),
        and_(Game.timer_stage < TimerStage.CLAIMABLE, Game.deadline <= now),
        Game.deadline <= expire_from,
    )
    return session.scalars(
        select(Game.id)
        .where(Game.status == GameStatus.ACTIVE, notice_due)
        .order_by(Game.deadline)
        .limit(limit)
    ).all()


def count_dice(game: Game, counter: int) -> None:
    """Keep how many dice the game's seed has given (the next roll starts there)."""
    game.dice_counter = counter


def reveal_dice(game: Game, now: datetime) -> None:
    """Note when the game's dice seed was published (with the match's result)."""
    game.dice_revealed_at = now


def run_clock(game: Game, deadline: datetime | None) -> None:
    """Give the player to act a fresh ``deadline`` (None: nobody's clock runs): no time held
    for him, and the new deadline's reminder and claim notices are still to come."""
    game.time_left_held = None
    game.deadline = deadline
    game.timer_stage = 0


def hold_clock(game: Game, seconds: float, deadline: datetime) -> None:
    """Stop the clock of the player who made an offer with ``seconds`` left (given back after
    the answer), and give the answer its own ``deadline``, notices still to come."""
    game.time_left_held = seconds
    game.deadline = deadline
    game.timer_stage = 0


def move_deadline(game: Game, deadline: datetime) -> None:
    """Move the deadline (a tournament's clock), its notices still to come; a time held for
    an offer stays held."""
    game.deadline = deadline
    game.timer_stage = 0


def set_deadline(game: Game, deadline: datetime) -> None:
    """The deadline of a game just created (its notices have not started)."""
    game.deadline = deadline


def advance_timer_stage(
    session: Session, game_id: int, *, version: int, seen: int, stage: int
) -> bool:
    """Move a game's timer notices on from ``seen`` to ``stage`` if the game is still at
    ``version`` with that stage; False when anything changed since the sweep read it (a move,
    another process's sweep): the caller then sends nothing.

    A compare-and-swap on the version as well as the stage: a move committed between the read
    and this write resets the stage to 0 with a new deadline, and checking the stage alone would
    still match (0 -> 1 or 0 -> 2), pushing the fresh deadline's notices ahead (a claim offer to
    a player who has just moved, no reminder for the new deadline). Not counted in the version
    itself: the buttons on the board stay valid.

    :raises ValueError: when ``stage`` does not go forward.
    """
    if stage <= seen:
        raise ValueError(f"the timer stage only goes forward, not from {seen} to {stage}")
    result = session.execute(
        update(Game)
        .where(Game.id == game_id, Game.version == version, Game.timer_stage == seen)
        .values(timer_stage=stage)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def cache_review(session: Session, game_id: int, review: dict[str, Any]) -> None:
    """Keep a finished game's review. Only the cache column is written, outside the version:
    two reviews racing only compute the same review twice."""
    session.execute(
        update(Game)
        .where(Game.id == game_id)
        .values(review=review)
        .execution_options(synchronize_session=False)
    )

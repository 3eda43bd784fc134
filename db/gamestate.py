"""The engine's :class:`~engine.Match` as stored in a game row.

The row keeps ``Match.to_dict()`` as ``state``, the current game's Position ID and Match ID, and
the player to act. The move log is the match's record flattened: every game's events in order,
each game closed by an ``end`` event (winner, points, cube) once it has a result. That list only
ever grows, so the rows still to write are simply those past ``game.event_count``.

A user action, complete::

    with factory.begin() as s:
        row = games.get_game(s, game_id, expected_version=v)
        match = load_match(row)
        match.game.roll(dice)                       # or play_text, double, take, ...
        save_match(s, row, match)                   # state, IDs, move log, result, ratings
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from db.eventids import replayed_ids
from db.games import Finish, NewEvent, NewGame, create_game, save_game
from db.games import GameResult as StoredResult
from db.models import Game, GameStatus, ResultKind
from engine import Event, EventKind, Match, ResultReason
from engine import GameResult as EngineResult

log = logging.getLogger(__name__)

__all__ = [
    "END_KIND",
    "create_match_game",
    "load_match",
    "match_events",
    "result_kind",
    "save_match",
]

END_KIND = "end"
"""The move-log kind that closes a game: player = winner, points, cube_value."""

_CUBE_KINDS = (EventKind.DOUBLE, EventKind.TAKE, EventKind.DROP)


def load_match(row: Game) -> Match:
    """The match stored in ``row``.

    :raises ValueError: when the stored state is not a saved match.
    """
    return Match.from_dict(row.state)


def result_kind(result: EngineResult) -> ResultKind:
    """How a game ended, in the terms of the ``games.result_kind`` column."""
    if result.reason is ResultReason.BEAR_OFF:
        return {1: ResultKind.SINGLE, 2: ResultKind.GAMMON}.get(result.value, ResultKind.BACKGAMMON)
    return {
        ResultReason.DROP: ResultKind.DROP,
        ResultReason.RESIGN: ResultKind.RESIGN,
        ResultReason.FORFEIT: ResultKind.TIMEOUT,
    }[result.reason]


def match_events(match: Match, start: int = 0, before: Match | None = None) -> list[NewEvent]:
    """The move log of ``match`` from row ``start`` on (the whole log by default). The IDs of
    each row are the board right after the action that logged it, found by replaying the rows
    onto ``before``, the match as it stood with ``start`` rows (:mod:`db.eventids`). Without
    it (or when it does not fit) every row gets the IDs its game ended on."""
    ids = replayed_ids(before, match, start) if before is not None else None
    if ids is None and before is not None:
        log.warning("the move log does not replay from the stored state; final IDs instead")
    out: list[NewEvent] = []
    seen = 0  # rows of the log before the current game
    for number, game in enumerate(match.games, start=1):
        rows = len(game.events) + (game.result is not None)
        if seen + rows > start:
            # Earlier games are over; their final IDs are recomputed from their final state.
            pid, mid = game.position_id(), game.match_id()
            skip = max(0, start - seen)
            out.extend(_event(e, number, pid, mid) for e in game.events[skip:])
            if game.result is not None:
                out.append(_end(game.result, number, pid, mid))
        seen += rows
    if ids is not None:
        pairs = zip(out, ids, strict=True)
        out = [replace(row, position_id=p, match_id=m) for row, (p, m) in pairs]
    return out


def _event(e: Event, game_no: int, position_id: str, match_id: str) -> NewEvent:
    value_is_cube = e.kind in _CUBE_KINDS
    return NewEvent(
        kind=e.kind.value,
        position_id=position_id,
        match_id=match_id,
        player=e.player if e.player in (0, 1) else None,  # -1: a tied opening roll
        dice=e.dice,
        play=e.play,
        cube_value=e.value if value_is_cube else None,
        points=None if value_is_cube else e.value,  # a resignation's value (1-3)
        game_no=game_no,
    )


def _end(result: EngineResult, game_no: int, position_id: str, match_id: str) -> NewEvent:
    return NewEvent(
        kind=END_KIND,
        position_id=position_id,
        match_id=match_id,
        player=result.winner,
        cube_value=result.cube,
        points=result.points,
        game_no=game_no,
    )


def _columns(match: Match) -> dict[str, Any]:
    game = match.game
    return {
        "position_id": game.position_id(),
        "match_id": game.match_id(),
        "state": match.to_dict(),
        "turn": None if match.is_over else game.turn,
    }


def create_match_game(
    session: Session,
    match: Match,
    new: NewGame,
    *,
    now: datetime | None = None,
    before: Match | None = None,
) -> Game:
    """A game row for a new ``match`` (its events so far, e.g. the opening roll, included);
    its length and cube are the match's. ``before``: the match before those events (a copy),
    for the IDs of each row."""
    new = replace(new, match_length=match.length, cube=match.cube, variant=match.variant.value)
    events = match_events(match, 0, before)
    return create_game(session, new, events=events, now=now, **_columns(match))


def save_match(
    session: Session, row: Game, match: Match, *, now: datetime | None = None
) -> StoredResult | None:
    """Store ``match`` (changed by one user action) in ``row``: the new state and IDs, the new
    move-log rows, and, when the action ended the match, the result with its rating or
    computer-record update. Returns that result, else None.

    :raises GameMovedOn: another action changed the game since ``row`` was loaded.
    :raises ValueError: ``match`` has fewer events than the log (it is not ``row``'s match).
    """
    total = sum(len(g.events) + (g.result is not None) for g in match.games)
    if total < row.event_count:
        raise ValueError(f"game #{row.id}: the match has {total} events, the log {row.event_count}")
    # Only the rows not yet stored, replayed onto the stored state for their own IDs (an
    # action that logs nothing, a checker step, needs no replay: it is spared the parse).
    before = load_match(row) if row.state and total > row.event_count else None
    events = match_events(match, row.event_count, before)
    finish = None
    if match.is_over and row.status is GameStatus.ACTIVE:
        result, winner = match.game.result, match.winner
        assert result is not None and winner is not None
        kind = result_kind(result)
        status = GameStatus.ABANDONED if kind is ResultKind.TIMEOUT else GameStatus.FINISHED
        finish = Finish(winner, result.points, kind, status)
    return save_game(session, row, events=events, finish=finish, now=now, **_columns(match))

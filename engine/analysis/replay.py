"""A game record turned into the decisions it holds, each with the position and the cube and
score it was taken at: what the review evaluates.

The record (:attr:`engine.Game.events`) keeps every action but not the starting position, so
the start is rebuilt by undoing every recorded play from the final position: games started from
any position (``/play position:``) replay as well as ordinary ones.

>>> from engine import Game
>>> g = Game()
>>> g.opening_roll(3, 1); _ = g.play_text("8/5 6/5")
>>> g.roll((6, 4)); _ = g.play_text("24/14")
>>> [(s.kind, s.player, s.dice) for s in replay(g)]
[('move', 0, (3, 1)), ('no double', 1, None), ('move', 1, (6, 4))]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from engine.bots.decisions import can_double_usefully
from engine.context import MatchContext
from engine.errors import IllegalPlayError
from engine.game import Event, EventKind, Game
from engine.ids import GameState, MatchKey, encode_match_id
from engine.movegen import Dice, Move, Play, legal_plays
from engine.position import Position

__all__ = ["Step", "StepKind", "replay", "start_position"]

StepKind = Literal["move", "no double", "double", "take", "drop"]


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of the record.

    ``position`` and ``ctx`` are seen by the player on roll (``on_roll``); ``player`` is who
    decides: the player on roll, except for ``"take"`` and ``"drop"`` (his opponent, answering
    a double). For ``"move"``: ``dice``, ``plays`` (the legal plays, empty when the dice cannot be
    played), ``played`` (None then) and ``opening`` (the first play of the game, with the dice
    of the opening roll). ``number`` counts the plays of the game up to this decision (a cube
    decision belongs to the play that follows it). ``match_id`` is GNU Backgammon's Match ID of
    the moment.
    """

    kind: StepKind
    player: int
    on_roll: int
    number: int
    position: Position
    ctx: MatchContext
    match_id: str
    dice: Dice | None = None
    plays: tuple[Play, ...] = ()
    played: Play | None = None
    opening: bool = False


def _undo(position: Position, steps: tuple[tuple[int, int, int, bool], ...]) -> Position:
    """The position before ``steps`` (seen by the player who made them) from the one after."""
    try:
        return position.undo_steps(steps)
    except IllegalPlayError as exc:
        raise ValueError(f"the record does not replay: {exc}") from None


def _final_view(game: Game) -> int:
    """Whose view :attr:`Game.position` is at the end of the record: the player on roll's, as
    always (after the winning bear-off, the loser's)."""
    return game.on_roll


def start_position(game: Game) -> tuple[Position, int]:
    """The position the game started from and the player it is seen by (the first to play).

    >>> from engine import Game
    >>> g = Game()
    >>> g.opening_roll(5, 2); _ = g.play_text("13/8 13/11")
    >>> start_position(g) == (Position.initial(), 0)
    True

    :raises ValueError: when the record cannot have led to the final position.
    """
    pos, view = game.position, _final_view(game)
    for event in reversed(game.events):
        if event.kind is not EventKind.MOVE:
            continue
        # The position after his play, seen by the player who made it.
        after = pos.swap_players() if view != event.player else pos
        pos, view = _undo(after, event.steps), event.player
    return pos, view


def _ctx(game: Game, player: int, cube: int, owner: int | None) -> MatchContext:
    """:meth:`Game.context` at another state of the cube."""
    return MatchContext.seen_by(
        player,
        cube_value=cube,
        cube_owner=owner,
        match_length=game.match_length,
        score=game.score,
        crawford=game.crawford,
        jacoby=game.jacoby,
    )


def _match_id(
    game: Game,
    cube: int,
    owner: int | None,
    on_roll: int,
    turn: int,
    dice: Dice | None,
    doubled: bool,
) -> str:
    try:
        return encode_match_id(
            MatchKey(
                cube_value=cube,
                cube_owner=owner,
                player_on_roll=on_roll,
                crawford=game.crawford,
                game_state=GameState.PLAYING,
                turn=turn,
                double_offered=doubled,
                dice=dice or (0, 0),
                match_length=game.match_length,
                score=game.score,
                jacoby=game.jacoby,
            )
        )
    except ValueError:  # pragma: no cover - a state GNU Backgammon's IDs cannot hold
        return ""


def replay(game: Game) -> Iterator[Step]:
    """The decisions of ``game`` in order: every play (forced ones and rolls that cannot be
    played included), every roll made without doubling when a double was possible and could
    matter (:func:`engine.bots.decisions.can_double_usefully`; never in a game without the cube,
    nor before the first play), every double, take and drop. Resignations are left out.

    :raises ValueError: when the record does not replay (an illegal or impossible play).
    """
    pos, on_roll = start_position(game)
    cube, owner, number = 1, None, 0
    doubled = False  # the player on roll doubled this turn (his roll is then no cube decision)
    opening = True
    for event in game.events:
        kind = event.kind
        if kind is EventKind.ROLL:
            ctx = _ctx(game, on_roll, cube, owner)
            if game.cube_enabled and not doubled and can_double_usefully(ctx):
                yield _cube_step("no double", game, on_roll, number, pos, (cube, owner))
        elif kind is EventKind.MOVE:
            dice, plays, played = _played(pos, event, on_roll)
            number += 1
            ctx = _ctx(game, on_roll, cube, owner)
            mid = _match_id(game, cube, owner, on_roll, on_roll, dice, False)
            yield Step(
                "move", on_roll, on_roll, number, pos, ctx, mid, dice, plays, played, opening
            )
            pos = pos.apply(played) if played is not None else pos.swap_players()
            on_roll, doubled, opening = 1 - on_roll, False, False
        elif kind is EventKind.DOUBLE:
            yield _cube_step("double", game, on_roll, number, pos, (cube, owner))
            doubled = True
        elif kind in (EventKind.TAKE, EventKind.DROP):
            answer: StepKind = "take" if kind is EventKind.TAKE else "drop"
            yield _cube_step(answer, game, on_roll, number, pos, (cube, owner))
            if kind is EventKind.TAKE:
                cube, owner = cube * 2, 1 - on_roll


def _played(
    pos: Position, event: Event, on_roll: int
) -> tuple[Dice, tuple[Play, ...], Play | None]:
    """The dice of a recorded play, the legal plays, and the one played (None when the dice
    could not be played); refused when the record does not replay."""
    if event.player != on_roll:
        raise ValueError(f"the record does not replay: player {event.player} plays out of turn")
    assert event.dice is not None
    dice = event.dice
    plays = tuple(legal_plays(pos, dice))
    if not event.steps:
        if plays:
            raise ValueError(f"the record does not replay: {dice} could be played")
        return dice, plays, None
    after = pos.apply(Play(tuple(Move(*s) for s in event.steps)))
    played = next((p for p in plays if p.result_position() == after), None)
    if played is None:
        raise ValueError(f"the record does not replay: {event.play} is not legal")
    return dice, plays, played


def _cube_step(
    kind: StepKind,
    game: Game,
    on_roll: int,
    number: int,
    pos: Position,
    cube: tuple[int, int | None],
) -> Step:
    """A cube decision of the player on roll (no double, double), or of his opponent answering
    his double (take, drop); ``cube`` is the cube's value and owner before it."""
    answering = kind in ("take", "drop")
    player = 1 - on_roll if answering else on_roll
    ctx = _ctx(game, on_roll, *cube)
    mid = _match_id(game, *cube, on_roll, player, None, answering)
    return Step(kind, player, on_roll, number, pos, ctx, mid)

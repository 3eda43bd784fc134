"""One game of backgammon from the opening roll to the result: turns, the doubling cube,
resignations, and a complete record.

Players are numbered 0 and 1 for the whole game (0 is GNU Backgammon's bottom player, usually
the one who started the game in the bot). :attr:`Game.position` is always seen by the player on
roll. Dice come from the caller. Every method checks the rules first and changes nothing when it
refuses (it raises a :class:`~engine.errors.GameStateError` or an
:class:`~engine.errors.IllegalPlayError` whose message says why).

>>> g = Game()
>>> g.opening_roll(3, 1)            # player 0 rolls 3, player 1 rolls 1: player 0 plays 3-1
>>> g.phase, g.on_roll, g.dice
(<Phase.MOVE: 'move'>, 0, (3, 1))
>>> g.play_text("8/5 6/5")
<Play 8/5 6/5>
>>> g.phase, g.on_roll
(<Phase.ROLL: 'roll'>, 1)
>>> g.double(); g.take()
>>> g.cube_value, g.cube_owner
(2, 0)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.context import MatchContext
from engine.errors import AmbiguousPlayError, BackgammonError, GameStateError, IllegalPlayError
from engine.ids import GameState, MatchKey, encode_match_id
from engine.movegen import Dice, Move, Play, validate_dice
from engine.notation import format_play, parse_play, parse_segments
from engine.position import Position
from engine.refusals import why_illegal
from engine.turn import Turn
from engine.variant import Variant

__all__ = ["Event", "EventKind", "Game", "GameResult", "Phase", "ResultReason"]

RESIGN_NAMES = {1: "single game", 2: "gammon", 3: "backgammon"}


class Phase(StrEnum):
    """What the game waits for."""

    OPENING = "opening"  # the opening roll (one die each)
    ROLL = "roll"  # the player on roll may double, or rolls
    MOVE = "move"  # the dice are rolled: the player on roll plays them
    DOUBLED = "doubled"  # a double is offered: the other player takes or drops
    RESIGNED = "resigned"  # a resignation is offered: the other player accepts or rejects
    OVER = "over"


class EventKind(StrEnum):
    OPENING = "opening"  # dice = (player 0's die, player 1's die); player = winner or -1 on a tie
    ROLL = "roll"
    MOVE = "move"  # play = notation ("" when the roll cannot be played)
    DOUBLE = "double"  # value = the cube value offered
    TAKE = "take"
    DROP = "drop"
    RESIGN = "resign"  # value = 1, 2 or 3 (single, gammon, backgammon)
    ACCEPT = "accept"
    REJECT = "reject"
    FORFEIT = "forfeit"  # player = who forfeits (time out, abandonment)


class ResultReason(StrEnum):
    BEAR_OFF = "bear-off"
    DROP = "drop"
    RESIGN = "resign"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the game record."""

    kind: EventKind
    player: int
    dice: Dice | None = None
    play: str | None = None
    steps: tuple[tuple[int, int, int, bool], ...] = ()
    value: int | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        if self.dice is not None:
            d["dice"] = list(self.dice)
        if self.play is not None:
            d["play"] = self.play
        if self.steps:
            d["steps"] = [list(s) for s in self.steps]
        if self.value is not None:
            d["value"] = self.value
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        # Every press loads its game's whole record (tens of events a game): a dict lookup
        # instead of the enum's call, and no generator for the many events without steps.
        dice, steps = d.get("dice"), d.get("steps")
        return cls(
            kind=_EVENT_KINDS[d["kind"]],
            player=int(d["player"]),
            dice=(int(dice[0]), int(dice[1])) if dice else None,
            play=d.get("play"),
            steps=tuple((int(a), int(b), int(c), bool(h)) for a, b, c, h in steps) if steps else (),
            value=d.get("value"),
        )


_EVENT_KINDS = {kind.value: kind for kind in EventKind}

# The Match ID's game state once a game has ended, by how it ended.
_END_STATE = {
    ResultReason.BEAR_OFF: GameState.OVER,
    ResultReason.DROP: GameState.DROPPED,
    ResultReason.RESIGN: GameState.RESIGNED,
    ResultReason.FORFEIT: GameState.RESIGNED,
}


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: ``value`` 1/2/3 (single, gammon, backgammon) times the cube gives
    ``points`` (the Jacoby rule already applied)."""

    winner: int
    value: int
    cube: int
    points: int
    reason: ResultReason

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "value": self.value,
            "cube": self.cube,
            "points": self.points,
            "reason": self.reason.value,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameResult:
        return cls(
            int(d["winner"]),
            int(d["value"]),
            int(d["cube"]),
            int(d["points"]),
            ResultReason(d["reason"]),
        )


class Game:
    """A game in progress (mutable, like python-chess's ``Board``).

    :param match_length: 0 for a money game, else the length of the match it belongs to.
    :param score: the match score before this game (player 0 first).
    :param crawford: True when this is the Crawford game (no doubling).
    :param jacoby: money game only: gammons count only after the cube has been turned.
    :param cube: False to play without the doubling cube.
    :param variant: standard backgammon, nackgammon or hypergammon (the starting position and
        the number of checkers; everything else is the same).

    >>> Game(variant=Variant.HYPERGAMMON).position.pip_counts()
    (69, 69)
    """

    def __init__(
        self,
        *,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        jacoby: bool = False,
        cube: bool = True,
        position: Position | None = None,
        variant: Variant = Variant.STANDARD,
    ) -> None:
        if match_length < 0:
            raise ValueError("the match length cannot be negative")
        if position is not None and position.checkers != variant.checkers:
            raise ValueError(
                f"a {variant.value} game has {variant.checkers} checkers a side, "
                f"not {position.checkers}"
            )
        self.variant = variant
        self.match_length = match_length
        self.score = (int(score[0]), int(score[1]))
        self.crawford = bool(crawford and match_length)
        self.jacoby = bool(jacoby and not match_length)
        self.cube_enabled = cube
        self.position = position or variant.initial_position()
        self.on_roll = 0
        self.phase = Phase.OPENING
        self.dice: Dice | None = None
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.resign_value = 0
        self.resigned_by: int | None = None
        self._resume: Phase | None = None
        self.result: GameResult | None = None
        self.events: list[Event] = []
        self._turn: Turn | None = None

    @classmethod
    def from_key(
        cls,
        position: Position,
        key: MatchKey,
        *,
        jacoby: bool = False,
        cube: bool = True,
        variant: Variant = Variant.STANDARD,
    ) -> Game:
        """A game standing where GNU Backgammon's IDs say (see :meth:`engine.Match.from_ids`,
        which checks the Match ID first): the position seen by the player on roll, and from the
        Match ID the length, score, cube, Crawford flag, who is on roll, the dice if rolled and a
        double on offer."""
        length = key.match_length
        game = cls(
            match_length=length,
            score=key.score if length else (0, 0),
            crawford=bool(length) and key.crawford,
            jacoby=jacoby,
            cube=cube,
            position=position,
            variant=variant,
        )
        game.on_roll = key.player_on_roll
        game.cube_value = key.cube_value
        game.cube_owner = key.cube_owner
        game.phase = Phase.ROLL
        if key.double_offered:
            game.phase = Phase.DOUBLED
        elif key.dice != (0, 0):
            game._start_move(key.dice)
        return game

    # -- who acts -----------------------------------------------------------------------------

    @property
    def turn(self) -> int | None:
        """The player whose decision the game waits for (None at the opening roll or the end)."""
        if self.phase in (Phase.ROLL, Phase.MOVE):
            return self.on_roll
        if self.phase is Phase.DOUBLED:
            return 1 - self.on_roll
        if self.phase is Phase.RESIGNED:
            assert self.resigned_by is not None
            return 1 - self.resigned_by
        return None

    def position_for(self, player: int) -> Position:
        """The position seen by ``player``."""
        return self.position if player == self.on_roll else self.position.swap_players()

    def context(self, player: int) -> MatchContext:
        """Cube and score as ``player`` sees them (for computer players' decisions)."""
        return MatchContext.seen_by(
            player,
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            match_length=self.match_length,
            score=self.score,
            crawford=self.crawford,
            jacoby=self.jacoby,
        )

    def can_double(self) -> bool:
        """Whether the player on roll may offer a double now (the Crawford rule, cube ownership,
        the maximum cube, and no double with a dead cube, as GNU Backgammon rules)."""
        return self._why_no_double() is None

    # -- opening and rolls --------------------------------------------------------------------

    def opening_roll(self, die0: int, die1: int) -> None:
        """Each player rolls one die: a tie is re-rolled, else the higher die's owner plays both.

        :raises GameStateError: outside the opening.
        """
        self._need(Phase.OPENING, "the opening roll is over", "state.opening_over")
        validate_dice((die0, die1))
        if die0 == die1:
            self.events.append(Event(EventKind.OPENING, -1, (die0, die1)))
            return
        winner = 0 if die0 > die1 else 1
        self.events.append(Event(EventKind.OPENING, winner, (die0, die1)))
        self.on_roll = winner
        self._start_move((die0, die1) if winner == 0 else (die1, die0))

    def roll(self, dice: Dice) -> None:
        """The player on roll rolls ``dice``. When they cannot be played the turn passes at once
        (recorded as a move with an empty play).

        :raises GameStateError: when it is not time to roll.
        """
        self._need(Phase.ROLL, self._not_now("roll"), f"state.{self.phase.value}")
        dice = validate_dice(dice)
        self.events.append(Event(EventKind.ROLL, self.on_roll, dice))
        self._start_move(dice)

    def _start_move(self, dice: Dice) -> None:
        self.dice = dice
        self.phase = Phase.MOVE
        self._turn = Turn(self.position, dice)
        if not self._turn.plays:
            self.events.append(Event(EventKind.MOVE, self.on_roll, dice, ""))
            self._pass_turn(self.position.swap_players())

    # -- checker play -------------------------------------------------------------------------

    def legal_plays(self) -> list[Play]:
        """The legal plays of the current roll ([] outside the MOVE phase)."""
        return self._turn.plays if self.phase is Phase.MOVE and self._turn else []

    @property
    def partial(self) -> Turn:
        """The turn being built click by click (steps made so far, available steps).

        :raises GameStateError: outside the MOVE phase.
        """
        self._need(Phase.MOVE, self._not_now("move"), f"state.{self.phase.value}")
        assert self._turn is not None
        return self._turn

    def step(self, src: int, die: int) -> Move:
        """Move one checker from ``src`` with ``die`` as part of the turn being built.

        :raises IllegalPlayError: when the step cannot lead to a legal play.
        """
        self._turn = self.partial.step(src, die)
        return self._turn.steps[-1]

    def undo(self) -> Move:
        """Take back the last checker step of the turn being built.

        :raises IllegalPlayError: when there is none.
        """
        turn = self.partial
        self._turn = turn.undo()
        return turn.steps[-1]

    def confirm(self) -> Play:
        """Play the completed turn built with :meth:`step`.

        :raises IllegalPlayError: when the turn is not complete.
        """
        play = self.partial.play()
        self.play(play)
        return play

    def play_text(self, text: str) -> Play:
        """Play a whole turn written in notation (``"24/18 13/11"``). Once checkers have been
        moved this turn (:meth:`step`), ``text`` may also be the rest of the play: the steps
        made come first.

        >>> g = Game()
        >>> g.opening_roll(5, 3)
        >>> _ = g.step(13, 5)
        >>> g.play_text("24/21")
        <Play 24/21 13/8>

        :raises PlaySyntaxError, IllegalPlayError, AmbiguousPlayError: on bad notation (read
            as a whole play when it is not the rest of one either).
        """
        turn = self.partial
        try:
            play = parse_play(text, self.position, turn.dice)
        except (IllegalPlayError, AmbiguousPlayError) as whole:
            if not turn.steps:
                raise
            made = format_play(Play(turn.steps))
            try:
                play = parse_play(f"{made} {text}", self.position, turn.dice)
            except BackgammonError:
                raise _rest_refusal(text, turn, whole) from None
        self.play(play)
        return play

    def play(self, play: Play) -> None:
        """Play a complete legal play of the current roll.

        :raises IllegalPlayError: when ``play`` is not one of :meth:`legal_plays`.
        """
        turn = self.partial
        legal = {p: p for p in turn.plays}
        chosen = legal.get(play)
        if chosen is None:
            # A play with the same result, written with other steps, is the same play.
            try:
                after = self.position.apply(play)
            except IllegalPlayError:
                steps = [(m.src, m.dst) for m in play.moves]
                raise why_illegal(str(play), steps, self.position, turn.dice) from None
            chosen = next((p for p in turn.plays if p.result_position() == after), None)
        if chosen is None:
            steps = [(m.src, m.dst) for m in play.moves]
            raise why_illegal(str(play), steps, self.position, turn.dice)
        self.events.append(
            Event(EventKind.MOVE, self.on_roll, turn.dice, str(chosen), chosen.moves)
        )
        after = chosen.result_position()
        if after.winner() is not None:
            winner = self.on_roll
            # As after any play, the position is now seen by the other player, who is "on
            # roll" in it (GNU Backgammon shows the loser on roll after the last bear-off).
            self.position = after
            self.on_roll = 1 - winner
            self._finish(winner, after.result_value(), ResultReason.BEAR_OFF)
            return
        self._pass_turn(after)

    def _pass_turn(self, position: Position) -> None:
        self.position = position
        self.on_roll = 1 - self.on_roll
        self.dice = None
        self._turn = None
        self.phase = Phase.ROLL

    # -- the cube -----------------------------------------------------------------------------

    def double(self) -> None:
        """The player on roll offers to double the stake.

        >>> g = Game(match_length=5, score=(4, 2), crawford=True)
        >>> g.opening_roll(3, 1)
        >>> g.double()
        Traceback (most recent call last):
        ...
        engine.errors.GameStateError: no doubling in the Crawford game

        :raises GameStateError: when doubling is not allowed now, with the reason that holds
            for the whole turn when there is one (``cube.disabled``, ``cube.crawford``,
            ``cube.max``, ``cube.owner``, ``cube.dead``), else ``cube.when`` (after the roll).
        """
        refusal = self._why_no_double()
        if refusal is not None:
            raise refusal
        self.events.append(Event(EventKind.DOUBLE, self.on_roll, value=self.cube_value * 2))
        self.phase = Phase.DOUBLED

    def _why_no_double(self) -> GameStateError | None:
        """Why the player on roll may not double now. During his turn, what holds for the
        whole of it comes first (no cube in this game, the Crawford game, the cube at its
        maximum, owned by the opponent, or dead): once he has rolled, that is still the reason,
        not the moment; then only the moment (before rolling)."""
        if self.phase in (Phase.ROLL, Phase.MOVE):
            if not self.cube_enabled:
                return GameStateError(
                    "this game is played without the doubling cube", code="cube.disabled"
                )
            refusal = self.context(self.on_roll).why_no_double(0)
            if refusal is not None:
                return refusal
        if self.phase in (Phase.DOUBLED, Phase.RESIGNED):
            return GameStateError(self._not_now("double"), code=f"state.{self.phase.value}")
        if self.phase is not Phase.ROLL:
            return GameStateError(
                "you can double only at the start of your turn, before rolling", code="cube.when"
            )
        return None

    def take(self) -> None:
        """The doubled player takes: the cube doubles and becomes his."""
        self._need(Phase.DOUBLED, "there is no double to answer", "state.no_double")
        taker = 1 - self.on_roll
        self.cube_value *= 2
        self.cube_owner = taker
        self.events.append(Event(EventKind.TAKE, taker, value=self.cube_value))
        self.phase = Phase.ROLL

    def drop(self) -> None:
        """The doubled player drops: he loses the stake before the double."""
        self._need(Phase.DOUBLED, "there is no double to answer", "state.no_double")
        self.events.append(Event(EventKind.DROP, 1 - self.on_roll, value=self.cube_value))
        self._finish(self.on_roll, 1, ResultReason.DROP)

    # -- resignation --------------------------------------------------------------------------

    def resign(self, player: int, value: int = 1) -> None:
        """``player`` offers to resign a single game (1), a gammon (2) or a backgammon (3).

        :raises GameStateError: when no resignation can be offered now.
        """
        if player not in (0, 1):
            raise ValueError("players are 0 and 1")
        if value not in RESIGN_NAMES:
            raise GameStateError(
                "a resignation is of a single game (1), gammon (2) or backgammon (3)",
                code="resign.value",
            )
        if self.phase not in (Phase.ROLL, Phase.MOVE):
            raise GameStateError(self._not_now("resign"), code=f"state.{self.phase.value}")
        self.events.append(Event(EventKind.RESIGN, player, value=value))
        self._resume = self.phase
        self.phase = Phase.RESIGNED
        self.resign_value = value
        self.resigned_by = player

    def accept_resignation(self) -> None:
        """The opponent accepts: the resigner loses the offered value times the cube."""
        self._need(Phase.RESIGNED, "there is no resignation to answer", "state.no_resignation")
        assert self.resigned_by is not None
        self.events.append(Event(EventKind.ACCEPT, 1 - self.resigned_by, value=self.resign_value))
        self._finish(1 - self.resigned_by, self.resign_value, ResultReason.RESIGN)

    def reject_resignation(self) -> None:
        """The opponent rejects: play goes on where it stopped."""
        self._need(Phase.RESIGNED, "there is no resignation to answer", "state.no_resignation")
        assert self.resigned_by is not None and self._resume is not None
        self.events.append(Event(EventKind.REJECT, 1 - self.resigned_by, value=self.resign_value))
        self.phase = self._resume
        self._resume = None
        self.resign_value = 0
        self.resigned_by = None

    def forfeit(self, loser: int, value: int = 1) -> None:
        """End the game because ``loser`` abandoned it (time limit): scored like an accepted
        resignation of ``value``."""
        if self.phase is Phase.OVER:
            raise GameStateError("the game is already over", code="state.over")
        if value not in RESIGN_NAMES:
            raise ValueError("value is 1, 2 or 3")
        self.events.append(Event(EventKind.FORFEIT, loser, value=value))
        self._finish(1 - loser, value, ResultReason.FORFEIT)

    # -- the end --------------------------------------------------------------------------------

    def _finish(self, winner: int, value: int, reason: ResultReason) -> None:
        counted = value
        if self.jacoby and self.cube_value == 1 and reason is ResultReason.BEAR_OFF:
            # Jacoby: a gammon played out counts single while the cube has not been turned. A
            # resignation counts what was offered, as in GNU Backgammon (its ApplyMoveRecord
            # applies the rule to played-out games only).
            counted = 1
        self.result = GameResult(winner, value, self.cube_value, counted * self.cube_value, reason)
        self.phase = Phase.OVER
        self.dice = None
        self._turn = None
        self._resume = None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    # -- GNU Backgammon IDs -----------------------------------------------------------------------

    def match_key(self) -> MatchKey:
        """The state as GNU Backgammon's Match ID holds it.

        While the game goes on this is the game's state. Once it is over it is what GNU
        Backgammon (1.07, command line) shows after the last action: the score *after* the game,
        the Crawford flag of the *next* game, and the turn, resignation and dice where that
        action left them (see :meth:`_final_key`). The opening roll, before it is rolled, has no
        GNU Backgammon counterpart (gnubg rolls it as it starts a game): it shows as player 0
        to roll, without dice.
        """
        if self.result is not None:
            return self._final_key(self.result)
        turn = self.turn
        return MatchKey(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            player_on_roll=self.on_roll,
            crawford=self.crawford,
            game_state=GameState.PLAYING,
            turn=self.on_roll if turn is None else turn,
            double_offered=self.phase is Phase.DOUBLED,
            resignation=self.resign_value if self.phase is Phase.RESIGNED else 0,
            dice=self.dice or (0, 0),
            match_length=self.match_length,
            score=self.score,
            jacoby=self.jacoby,
        )

    def _final_key(self, result: GameResult) -> MatchKey:
        """GNU Backgammon's Match ID state after the game ended with ``result``:

        * the score includes the game (not capped at the match length: gnubg adds the points);
        * the Crawford flag is the next game's: set when the winner has just reached one point
          short of the match for the first time, cleared after the Crawford game;
        * after the winning bear-off the loser is on roll and to act, as after any play (and
          the Position ID is seen by him); after a drop the doubler stays on roll and the turn
          is the dropper's; after an accepted resignation (or a forfeit, scored as one) the
          turn is the winner's, and the resignation value and any dice rolled stay.
        """
        winner, loser = result.winner, 1 - result.winner
        score = list(self.score)
        score[winner] += result.points
        on_roll, turn, resignation, dice = self.on_roll, self.on_roll, 0, (0, 0)
        if result.reason is ResultReason.BEAR_OFF:
            on_roll = turn = loser
        elif result.reason is ResultReason.DROP:
            turn = loser
        else:
            turn, resignation, dice = winner, result.value, self._dice_at_resignation()
        return MatchKey(
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            player_on_roll=on_roll,
            crawford=self.next_is_crawford(),
            game_state=_END_STATE[result.reason],
            turn=turn,
            double_offered=False,
            resignation=resignation,
            dice=dice,
            match_length=self.match_length,
            score=(score[0], score[1]),
            jacoby=self.jacoby,
        )

    def next_is_crawford(self) -> bool:
        """Whether the next game of the match is the Crawford game (the one place for that rule):
        this game is over and its winner has just reached one point short of the match, for the
        first time (nobody stood there before this game, which is not the Crawford game itself).

        >>> g = Game(match_length=3)
        >>> g.opening_roll(6, 1); g.resign(1, 2); g.accept_resignation()
        >>> g.next_is_crawford()
        True
        """
        n, result = self.match_length, self.result
        if not n or result is None or self.crawford or max(self.score) >= n - 1:
            return False
        return self.score[result.winner] + result.points == n - 1

    def _dice_at_resignation(self) -> Dice:
        """The dice rolled and not yet played when the game was given up, else (0, 0)."""
        for event in reversed(self.events):
            if event.kind in (
                EventKind.RESIGN,
                EventKind.REJECT,
                EventKind.ACCEPT,
                EventKind.FORFEIT,
            ):
                continue
            if event.kind is EventKind.ROLL or (
                event.kind is EventKind.OPENING and event.player != -1  # not a tie
            ):
                assert event.dice is not None
                return event.dice
            break
        return (0, 0)

    def match_id(self) -> str:
        """The GNU Backgammon Match ID of this moment."""
        return encode_match_id(self.match_key())

    def position_id(self) -> str:
        """The GNU Backgammon Position ID of this moment (seen by the player on roll)."""
        return self.position.position_id()

    # -- record ---------------------------------------------------------------------------------

    def last_move(self, player: int | None = None) -> Event | None:
        """The last checker play (by ``player`` if given), for drawing it as arrows."""
        for event in reversed(self.events):
            if event.kind is EventKind.MOVE and (player is None or event.player == player):
                return event
        return None

    # -- persistence ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot; :meth:`from_dict` restores exactly this game."""
        d: dict[str, Any] = {
            "v": 1,
            "position": self.position.position_id(),
            "on_roll": self.on_roll,
            "phase": self.phase.value,
            "dice": list(self.dice) if self.dice else None,
            "cube": self.cube_value,
            "cube_owner": self.cube_owner,
            "cube_enabled": self.cube_enabled,
            "match_length": self.match_length,
            "score": list(self.score),
            "crawford": self.crawford,
            "jacoby": self.jacoby,
            "resign": None
            if self.resigned_by is None
            else {
                "by": self.resigned_by,
                "value": self.resign_value,
                "resume": self._resume.value if self._resume else None,
            },
            "partial": [[m.src, m.die] for m in self._turn.steps] if self._turn else [],
            "result": self.result.to_dict() if self.result else None,
            "events": [e.to_dict() for e in self.events],
        }
        if self.variant is not Variant.STANDARD:
            d["variant"] = self.variant.value
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Restore a game saved by :meth:`to_dict`.

        :raises ValueError: when the snapshot is not a valid game.
        """
        try:
            variant = Variant(d.get("variant", Variant.STANDARD))
            g = cls(
                match_length=int(d["match_length"]),
                score=tuple(d["score"]),
                crawford=bool(d["crawford"]),
                jacoby=bool(d["jacoby"]),
                cube=bool(d["cube_enabled"]),
                position=Position.from_position_id(d["position"], checkers=variant.checkers),
                variant=variant,
            )
            g.on_roll = int(d["on_roll"])
            g.phase = Phase(d["phase"])
            g.cube_value = int(d["cube"])
            g.cube_owner = d["cube_owner"]
            g.events = [Event.from_dict(e) for e in d["events"]]
            g.result = GameResult.from_dict(d["result"]) if d["result"] else None
            resign = d.get("resign")
            if resign:
                g.resigned_by = int(resign["by"])
                g.resign_value = int(resign["value"])
                g._resume = Phase(resign["resume"]) if resign["resume"] else None
            if d["dice"]:
                g.dice = validate_dice(tuple(d["dice"]))
                g._turn = Turn(g.position, g.dice)
                for src, die in d["partial"]:
                    g._turn = g._turn.step(int(src), int(die))
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a saved game: {exc!r}") from None
        return g

    # -- helpers --------------------------------------------------------------------------------

    def _need(self, phase: Phase, message: str, code: str) -> None:
        if self.phase is not phase:
            raise GameStateError(message, code=code)

    def _not_now(self, action: str) -> str:
        return {
            Phase.OPENING: f"cannot {action} before the opening roll",
            Phase.ROLL: f"cannot {action} now: roll (or double) first",
            Phase.MOVE: f"cannot {action} now: the dice are rolled, play them",
            Phase.DOUBLED: f"cannot {action} now: a double waits for an answer",
            Phase.RESIGNED: f"cannot {action} now: a resignation waits for an answer",
            Phase.OVER: f"cannot {action}: the game is over",
        }[self.phase]


def _rest_refusal(text: str, turn: Turn, whole: BackgammonError) -> BackgammonError:
    """Why ``text`` is neither a whole play nor the rest of the one begun: what the text says
    read as a whole play, unless it is too short for one and moves only by dice already
    played (``23/17`` after the 6 of 6-5 was played: "the 6 is played, 5 is left", not "both
    dice can be played")."""
    if whole.code not in ("illegal.partial", "illegal.partial_double"):
        return whole
    left = turn.remaining_dice()
    if not left:  # every die played: nothing is the rest of this play
        return IllegalPlayError(
            "the turn is complete: confirm it or undo a move", code="turn.complete"
        )
    # Read as a whole play already (that is what refused it), so it is notation.
    segments = parse_segments(text)
    pairs = [pair for seg in segments for pair in itertools.pairwise(seg.points)]
    gaps = [a - b for a, b in pairs]
    if not gaps or any(b == 0 for _, b in pairs):  # bearing off may take a larger die
        return whole
    if any(not 1 <= gap <= 6 or gap in left for gap in gaps):
        return whole
    return IllegalPlayError(
        f"{text!r} moves by {gaps[0]}, a die already played: {left} left",
        code="illegal.die_played",
        text=text,
        gap=gaps[0],
        left="-".join(map(str, left)),
    )

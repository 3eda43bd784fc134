"""Building a turn one checker at a time, with undo, as a desktop backgammon program does.

A :class:`Turn` is the partial play of the player on roll: the steps made so far. It offers only
the steps that can still be completed into one of :func:`engine.legal_plays`, so the rules on
playing as many dice as possible (and the larger die when only one can be played) hold at every
click, and it says when the turn is complete.

>>> from engine.position import Position
>>> turn = Turn(Position.initial(), (3, 1))
>>> sorted({s.die for s in turn.available()})
[1, 3]
>>> turn = turn.step(8, 3).step(6, 1)
>>> turn.is_complete(), str(turn.play())
(True, '8/5 6/5')
>>> turn.undo().steps
(Move(src=8, dst=5, die=3, hit=False),)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from engine.errors import IllegalPlayError
from engine.movegen import Dice, Move, Play, checker_steps, legal_plays, validate_dice
from engine.position import Position, apply_step
from engine.refusals import obstacle, step_problem
from engine.writing import format_point

__all__ = ["Step", "Turn"]

Step = Move


@dataclass(frozen=True)
class Turn:
    """The steps played so far this turn (immutable: :meth:`step` and :meth:`undo` return new
    turns). ``position`` is the position at the start of the turn, seen by the player on roll."""

    position: Position
    dice: Dice
    steps: tuple[Move, ...] = ()
    _plays: list[Play] = field(default_factory=list, repr=False, compare=False)
    _targets: dict[tuple[int, ...], Play] = field(default_factory=dict, repr=False, compare=False)
    # available() is asked several times per press (buttons, highlights, the die's check):
    # worked out once per turn object, which never changes.
    _available: tuple[Move, ...] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        validate_dice(self.dice)
        if not self._plays:
            plays = legal_plays(self.position, self.dice)
            object.__setattr__(self, "_plays", plays)
            targets = {self.position.apply_steps(p.moves).board: p for p in plays}
            object.__setattr__(self, "_targets", targets)

    # -- queries ----------------------------------------------------------------------------

    @property
    def plays(self) -> list[Play]:
        """The complete legal plays of this turn."""
        return self._plays

    @property
    def length(self) -> int:
        """How many checker steps a complete play has (0 when no move is possible)."""
        return len(self._plays[0].moves) if self._plays else 0

    def board(self) -> tuple[int, ...]:
        """The 26-int board after the steps so far (still seen by the player on roll)."""
        return self.current_position().board

    def current_position(self) -> Position:
        """The position after the steps so far, still seen by the player on roll (for drawing)."""
        return self.position.apply_steps(self.steps)

    def remaining_dice(self) -> list[int]:
        """Dice not used yet, largest first (a double shows up to four times)."""
        d1, d2 = self.dice
        pool = Counter([d1] * 4 if d1 == d2 else [d1, d2])
        pool.subtract(m.die for m in self.steps)
        return sorted(pool.elements(), reverse=True)

    def available(self) -> list[Move]:
        """Every single-checker step that can still be completed into a legal play.

        >>> from engine.position import Position
        >>> t = Turn(Position.from_position_id("ScRKrBABAAAAAA"), (1, 1))
        >>> [(m.src, m.dst, m.hit) for m in t.available()]
        [(2, 1, True)]
        """
        if self._available is None:
            object.__setattr__(self, "_available", tuple(self._find_available()))
        assert self._available is not None
        return list(self._available)

    def _find_available(self) -> list[Move]:
        if self.is_complete():
            return []
        cells = list(self.board())
        remaining = self.remaining_dice()
        left = self.length - len(self.steps)
        dice = sorted(set(remaining), reverse=True)
        if self.length == 1 and len(dice) == 2 and any(checker_steps(cells, dice[0])):
            # Only one die can be played: the larger when it can, even where the smaller would
            # leave the same position (one checker borne off from the 1-point with 2-1).
            dice = dice[:1]
        out = []
        for die in dice:
            rest = list(remaining)
            rest.remove(die)
            for s, t, h in checker_steps(cells, die):
                move = Move(s, t, die, h)
                after = cells.copy()
                apply_step(after, s, t)
                if self._completable(after, rest, left - 1, {}):
                    out.append(move)
        return out

    def movable_points(self, die: int | None = None) -> set[int]:
        """Points (mover's numbering, 25 = bar) a checker can legally move from now, for one die
        or for any."""
        return {m.src for m in self.available() if die is None or m.die == die}

    def playable_dice(self) -> list[int]:
        """The distinct dice that can be used for the next step, largest first.

        >>> from engine.position import Position
        >>> last = Position.from_position_id("AQAABAAAAAAAAA")  # a checker each, on the 1-points
        >>> Turn(last, (2, 1)).playable_dice()  # only one die is played: the larger one
        [2]
        """
        return sorted({m.die for m in self.available()}, reverse=True)

    def dice_to_play(self) -> list[int]:
        """The dice still to play that the rest of the turn will use, largest first: those of
        :meth:`remaining_dice` some legal play uses, though perhaps not next (a checker on the
        bar enters with the 3 before the 6 can move), a double's value as often as checkers
        can still move with it.

        >>> from engine.position import Position
        >>> last = Position.from_position_id("AQAABAAAAAAAAA")  # a checker each, on the 1-points
        >>> Turn(last, (2, 1)).dice_to_play()  # only one die is played: the larger one
        [2]
        """
        remaining = self.remaining_dice()
        left = self.length - len(self.steps)
        if left <= 0:
            return []
        if self.dice[0] == self.dice[1]:
            return remaining[:left]
        if left >= len(remaining):
            return remaining
        return self.playable_dice()

    def forced_die(self) -> int | None:
        """When a non-double can be played only with one die, that die (else None).

        >>> from engine.position import Position
        >>> Turn(Position.from_position_id("ScRKrBABAAAAAA"), (6, 5)).forced_die()
        6
        """
        d1, d2 = self.dice
        if d1 == d2 or self.length != 1:
            return None
        return self._plays[0].moves[0].die

    def is_complete(self) -> bool:
        """True when the steps make a whole legal play (or no move is possible at all)."""
        if not self._plays:
            return True
        return len(self.steps) == self.length and self.board() in self._targets

    def play(self) -> Play:
        """The legal play the completed steps make.

        :raises IllegalPlayError: when the turn is not complete yet.
        """
        play = self._targets.get(self.board()) if len(self.steps) == self.length else None
        if play is None:
            left = self.length - len(self.steps)
            raise IllegalPlayError(
                f"the turn is not complete: {left} more checker move(s) to play",
                code="turn.incomplete",
                left=left,
            )
        return play

    # -- changes ----------------------------------------------------------------------------

    def step(self, src: int, die: int) -> Turn:
        """The turn after moving one checker from ``src`` with ``die``.

        :raises IllegalPlayError: when that step cannot be part of a legal play.
        """
        for move in self.available():
            if move.src == src and move.die == die:
                return Turn(
                    self.position, self.dice, (*self.steps, move), self._plays, self._targets
                )
        raise self._why_not(src, die)

    def undo(self) -> Turn:
        """The turn without its last step.

        :raises IllegalPlayError: when no step has been made.
        """
        if not self.steps:
            raise IllegalPlayError("there is no checker move to undo", code="turn.nothing_to_undo")
        return Turn(self.position, self.dice, self.steps[:-1], self._plays, self._targets)

    def reset(self) -> Turn:
        """The turn with no step made."""
        return Turn(self.position, self.dice, (), self._plays, self._targets)

    # -- helpers ----------------------------------------------------------------------------

    def _completable(
        self,
        cells: list[int],
        remaining: list[int],
        left: int,
        seen: dict[tuple[object, ...], bool],
    ) -> bool:
        key = (tuple(cells), tuple(remaining))
        if key in seen:
            return seen[key]
        if left == 0:
            ok = key[0] in self._targets
        else:
            ok = False
            for die in set(remaining):
                rest = list(remaining)
                rest.remove(die)
                for s, t, _ in checker_steps(cells, die):
                    after = cells.copy()
                    apply_step(after, s, t)
                    if self._completable(after, rest, left - 1, seen):
                        ok = True
                        break
                if ok:
                    break
        seen[key] = ok
        return ok

    def _why_not(self, src: int, die: int) -> IllegalPlayError:
        where = "the bar" if src == 25 else f"your {src}-point"
        if die not in self.remaining_dice():
            return IllegalPlayError(f"there is no {die} left to play", code="turn.no_die", die=die)
        if self.is_complete():
            return IllegalPlayError(
                "the turn is complete: confirm it or undo a move", code="turn.complete"
            )
        cells = list(self.board())
        if not 1 <= src <= 25 or cells[src] <= 0:
            return IllegalPlayError(
                f"you have no checker on {where}", code="turn.no_checker", point=src
            )
        forced = self.forced_die()
        if forced is not None and die != forced:
            return IllegalPlayError(
                f"only one die can be played this turn, and it must be the {forced}",
                code="turn.forced_die",
                die=forced,
            )
        problem = step_problem(cells, src, die)
        if problem is not None and problem[0] == "enter_first":
            return IllegalPlayError(
                "you must enter your checkers from the bar first", code="turn.enter_first"
            )
        if problem is not None:
            return _step_refused(src, die, problem)
        return IllegalPlayError(
            f"moving a checker from {where} with the {die} would leave a die unplayed, and the "
            "rules ask you to play as many dice as you can",
            code="turn.strands",
            point=src,
            die=die,
        )


def _step_refused(src: int, die: int, problem: tuple[str, int]) -> IllegalPlayError:
    """The refusal of one step the rules forbid, named like a written play's (the step written
    as the play)."""
    kind, point = problem
    text = f"{format_point(src)}/{format_point(max(src - die, 0))}"
    return obstacle(text, kind, (point, src, die))

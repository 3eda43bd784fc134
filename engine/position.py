"""Backgammon positions, always seen from the side to move.

A :class:`Position` is an immutable value. Its board is 26 signed integers, the layout that GNU
Backgammon's neural-network engines and Tesauro's pubeval use, so computer players read it without
conversion:

* ``board[1]`` .. ``board[24]``: the points, numbered from the point of view of the player on roll
  (he moves from 24 toward 1); positive counts are his checkers, negative counts his opponent's;
* ``board[25]``: his checkers on the bar (>= 0);
* ``board[0]``: minus the number of his opponent's checkers on the bar (<= 0).

Checkers that are not on the board have been borne off. Absolute point numbers (the opponent's
numbering, colours, sides of the screen) appear only in notation and rendering.

>>> pos = Position.initial()
>>> pos.position_id()
'4HPwATDgc/ABMA'
>>> pos.pip_counts()
(167, 167)
>>> pos.swap_players() == pos
True
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import NamedTuple, Protocol, TypeAlias

from engine.errors import IllegalPlayError, InvalidPositionError

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "Move",
    "PlaySteps",
    "Point",
    "Position",
    "apply_step",
    "undo_step",
]

Point: TypeAlias = int
"""A point number from the mover's view: 1..24, :data:`BAR` (25) or :data:`OFF` (0)."""

BAR: Point = 25
OFF: Point = 0
CHECKERS = 15


class Move(NamedTuple):
    """One checker moved by one die, in the mover's numbering (``BAR`` = 25, ``OFF`` = 0).

    ``die`` is the die used (it can exceed ``src - dst`` when bearing off from below the die), and
    ``hit`` says whether an opponent's blot was sent to the bar.
    """

    src: int
    dst: int
    die: int
    hit: bool = False


class PlaySteps(Protocol):
    """What :meth:`Position.apply` reads of a play: an :class:`engine.movegen.Play`, which is
    built on positions (so this module names only what it reads, and imports no move
    generator)."""

    @property
    def start(self) -> Position | None: ...

    @property
    def moves(self) -> tuple[Move, ...]: ...

    def result_position(self) -> Position: ...


def apply_step(cells: MutableSequence[int], src: Point, dst: Point) -> bool:
    """Move one of the mover's checkers from ``src`` to ``dst`` on a 26-int board, in place, and
    say whether it hit a blot (sent to the opponent's bar). The engine's one piece of checker
    arithmetic: positions, plays, turns, the replay and the arrows all go through it (and
    :func:`undo_step`, its inverse).

    It checks what is physically possible (a checker to move, moving toward the mover's 1-point,
    a point not held by the opponent), not the rules of the dice: :func:`engine.legal_plays`
    judges those.

    >>> cells = list(Position.initial().board)
    >>> apply_step(cells, 24, 23), cells[24], cells[23]
    (False, 1, 1)

    :raises IllegalPlayError: when the step is not physically possible.
    """
    # Written for speed (the move generator runs it for every step it tries): one comparison
    # each, no chained comparison.
    if src > 25 or dst >= src or dst < 0:
        raise IllegalPlayError(f"{src}/{dst} is not a move of the player on roll")
    n = cells[src]
    if n <= 0:
        raise IllegalPlayError(f"the player on roll has no checker on {src}")
    cells[src] = n - 1
    if dst == OFF:
        return False
    v = cells[dst]
    if v == -1:
        cells[dst] = 1
        cells[0] -= 1
        return True
    if v < -1:
        cells[src] += 1
        raise IllegalPlayError(f"point {dst} is held by the opponent")
    cells[dst] = v + 1
    return False


def undo_step(cells: MutableSequence[int], src: Point, dst: Point, hit: bool) -> None:
    """Take back :func:`apply_step` in place: the checker goes back from ``dst`` to ``src``, and a
    blot it hit comes back from the opponent's bar.

    >>> cells = list(Position.initial().board)
    >>> hit = apply_step(cells, 24, 23); undo_step(cells, 24, 23, hit)
    >>> tuple(cells) == Position.initial().board
    True

    :raises IllegalPlayError: when that step cannot have been made on this board (no checker of
        the mover on ``dst``, a hit with no opponent checker on the bar, ...).
    """
    if not 0 <= dst < src <= 25:
        raise IllegalPlayError(f"{src}/{dst} is not a move of the player on roll")
    if dst != OFF:
        if cells[dst] <= 0 or (hit and (cells[dst] != 1 or cells[0] >= 0)):
            raise IllegalPlayError(f"{src}/{dst}{'*' if hit else ''} cannot have been played")
        cells[dst] -= 1
        if hit:
            cells[dst] = -1
            cells[0] += 1
    if cells[src] < 0:
        raise IllegalPlayError(f"{src}/{dst}: the opponent holds {src}")
    cells[src] += 1


_INITIAL: tuple[int, ...] = (
    0,  # opponent's bar
    -2, 0, 0, 0, 0, 5,  # 1..6: opponent's two back checkers on our 1, our five on the 6
    0, 3, 0, 0, 0, -5,  # 7..12: three on the 8-point, opponent's five on our 12 (his 13)
    5, 0, 0, 0, -3, 0,  # 13..18: five on the mid-point, opponent's three on our 17 (his 8)
    -5, 0, 0, 0, 0, 2,  # 19..24: opponent's five on our 19 (his 6), our two back checkers
    0,  # our bar
)  # fmt: skip


class Position:
    """An immutable, hashable backgammon position seen by the player on roll.

    Build one with :meth:`initial`, :meth:`from_position_id` or :meth:`from_board`; never mutate
    ``board``. Two positions are equal when every checker stands on the same spot.
    """

    __slots__ = ("_board", "_checkers", "_hash")

    _board: tuple[int, ...]
    _checkers: int
    _hash: int

    def __init__(self, board: Iterable[int], *, checkers: int = CHECKERS) -> None:
        """Validate and wrap a 26-int board (see the module docstring for the layout).
        ``checkers`` is how many checkers each side starts with: 15, or 3 in hypergammon
        (see :class:`engine.variant.Variant`); the ones not on the board are borne off.

        >>> Position([0] * 6 + [1] + [0] * 19, checkers=3).borne_off()
        (2, 3)

        :raises InvalidPositionError: when the board cannot occur in a game.
        """
        cells = tuple(int(v) for v in board)
        if not 1 <= checkers <= CHECKERS:
            raise InvalidPositionError(f"a side has 1 to {CHECKERS} checkers, not {checkers}")
        _validate(cells, checkers)
        self._board = cells
        self._checkers = checkers
        self._hash = hash(cells)

    @classmethod
    def _trusted(cls, cells: tuple[int, ...], checkers: int = CHECKERS) -> Position:
        """Wrap a board already known to be valid (the move generator's hot path)."""
        pos = object.__new__(cls)
        pos._board = cells
        pos._checkers = checkers
        pos._hash = hash(cells)
        return pos

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def initial(cls) -> Position:
        """The standard starting position: 2-5-3-5 on the 24, 13, 8 and 6 points for each side.

        >>> Position.initial().board[24], Position.initial().board[6]
        (2, 5)
        """
        return cls._trusted(_INITIAL)

    @classmethod
    def from_board(cls, board: Sequence[int], *, checkers: int = CHECKERS) -> Position:
        """A position from 26 signed ints (bgsage / pubeval layout, player on roll positive),
        each side having ``checkers`` in all (3 in hypergammon).

        >>> Position.from_board([0] * 6 + [1] + [0] * 19).pip_counts()
        (6, 0)

        :raises InvalidPositionError: on a wrong length, too many checkers or a shared point.
        """
        return cls(board, checkers=checkers)

    @classmethod
    def from_position_id(cls, position_id: str, *, checkers: int = CHECKERS) -> Position:
        """Decode a GNU Backgammon Position ID (14 base64 characters), player on roll first.
        The ID carries any number of checkers; ``checkers`` says how many a side has in all
        (3 in hypergammon), so that the others are borne off.

        >>> Position.from_position_id("4HPwATDgc/ABMA") == Position.initial()
        True
        >>> Position.from_position_id("AACgAgAAKgAAAA", checkers=3).pip_counts()
        (69, 69)

        :raises InvalidPositionIdError: when the text is not a valid Position ID (or gives a side
            more than ``checkers``).
        """
        from engine.ids import decode_position_id

        return cls._trusted(decode_position_id(position_id, checkers), checkers)

    @classmethod
    def from_sides(
        cls, mine: Sequence[int], theirs: Sequence[int], *, checkers: int = CHECKERS
    ) -> Position:
        """A position from two 25-entry lists, each from its owner's view (index 0 = his 1-point,
        index 24 = his bar), as GNU Backgammon's ``anBoard[1]`` and ``anBoard[0]``.

        >>> p = Position.initial()
        >>> Position.from_sides(*p.sides()) == p
        True
        """
        if len(mine) != 25 or len(theirs) != 25:
            raise InvalidPositionError("each side needs 25 entries (24 points and the bar)")
        if any(v < 0 for v in mine) or any(v < 0 for v in theirs):
            raise InvalidPositionError("checker counts cannot be negative")
        from engine.ids import board_from_sides

        def clash(point: int) -> InvalidPositionError:
            return InvalidPositionError(f"both players have checkers on point {point}")

        return cls(board_from_sides(mine, theirs, clash), checkers=checkers)

    # -- encoding ---------------------------------------------------------------------------

    def position_id(self) -> str:
        """The GNU Backgammon Position ID of this position, player on roll first.

        >>> Position.initial().position_id()
        '4HPwATDgc/ABMA'
        """
        from engine.ids import encode_position_id

        return encode_position_id(self._board)

    def sides(self) -> tuple[list[int], list[int]]:
        """``(mine, theirs)``: 25 counts each, from each owner's view (index 24 = bar)."""
        b = self._board
        mine = [max(b[p], 0) for p in range(1, 25)] + [b[25]]
        theirs = [max(-b[25 - i], 0) for i in range(1, 25)] + [-b[0]]
        return mine, theirs

    # -- queries ----------------------------------------------------------------------------

    @property
    def board(self) -> tuple[int, ...]:
        """The 26 signed ints (see the module docstring). Read-only."""
        return self._board

    @property
    def checkers(self) -> int:
        """How many checkers each side has in all, borne off included (15; 3 in hypergammon).

        >>> Position.initial().checkers
        15
        """
        return self._checkers

    def checkers_at(self, point: Point) -> int:
        """Signed count on ``point`` (mover's numbering): > 0 the mover's checkers, < 0 the
        opponent's; ``BAR`` gives the mover's bar, ``OFF`` the mover's borne-off checkers.

        >>> Position.initial().checkers_at(13), Position.initial().checkers_at(12)
        (5, -5)
        """
        if point == OFF:
            return self.borne_off()[0]
        if not 1 <= point <= 25:
            raise ValueError(f"no point {point}")
        return self._board[point]

    def bar(self) -> tuple[int, int]:
        """``(mover, opponent)`` checkers on the bar."""
        return self._board[25], -self._board[0]

    def borne_off(self) -> tuple[int, int]:
        """``(mover, opponent)`` checkers borne off.

        >>> Position.initial().borne_off()
        (0, 0)
        """
        b = self._board
        mine = sum(v for v in b[1:] if v > 0)
        theirs = -sum(v for v in b[:25] if v < 0)
        return self._checkers - mine, self._checkers - theirs

    def pip_counts(self) -> tuple[int, int]:
        """``(mover, opponent)`` pip counts; a checker on the bar counts 25.

        >>> Position.initial().pip_counts()
        (167, 167)
        """
        b = self._board
        mine = sum(p * b[p] for p in range(1, 26) if b[p] > 0)
        theirs = sum((25 - p) * -b[p] for p in range(0, 25) if b[p] < 0)
        return mine, theirs

    def is_race(self) -> bool:
        """True when contact is over: every checker of the mover is past every opponent checker.

        >>> Position.initial().is_race()
        False
        """
        b = self._board
        if b[25] or b[0]:
            return False
        back = max((p for p in range(1, 25) if b[p] > 0), default=0)
        front = min((p for p in range(1, 25) if b[p] < 0), default=25)
        return back < front

    def winner(self) -> int | None:
        """``0`` if the mover has borne everything off, ``1`` if the opponent has, else None.

        After the winning play, :meth:`apply` returns the position seen by the loser, so a
        finished game shows ``winner() == 1``.
        """
        b = self._board
        if not any(v > 0 for v in b[1:]):
            return 0
        if not any(v < 0 for v in b[:25]):
            return 1
        return None

    def result_value(self) -> int:
        """1, 2 or 3: single game, gammon or backgammon, for the side that has borne off all
        its checkers (0 while nobody has). The loser is gammoned when he has borne off none, and
        backgammoned when he also has a checker on the bar or in the winner's home board.

        >>> Position.from_board([0, -15] + [0] * 24).result_value()
        3
        """
        winner = self.winner()
        if winner is None:
            return 0
        return self._loss_value(loser_is_mover=winner == 1)

    def _loss_value(self, *, loser_is_mover: bool) -> int:
        pos = self if loser_is_mover else self.swap_players()
        b = pos._board
        if pos.borne_off()[0] > 0:
            return 1
        # The winner's home board is the loser's 19..24 points, plus the loser's bar.
        if b[25] > 0 or any(b[p] > 0 for p in range(19, 25)):
            return 3
        return 2

    # -- transformations --------------------------------------------------------------------

    def swap_players(self) -> Position:
        """The same checkers seen by the other player.

        >>> p = Position.from_board([0] * 6 + [1] + [0] * 19)
        >>> p.swap_players().board[19]
        -1
        """
        b = self._board
        return Position._trusted(tuple([-v for v in reversed(b)]), self._checkers)

    def apply(self, play: PlaySteps) -> Position:
        """The position after ``play``, seen by the opponent, who is now on roll.

        ``play`` should come from :func:`engine.legal_plays` for this position; the engine is the
        only judge of legality, and this method only checks that each step is physically possible.

        >>> from engine import legal_plays
        >>> pos = Position.initial()
        >>> pos.apply(legal_plays(pos, (3, 1))[0]).pip_counts()
        (167, 163)

        :raises IllegalPlayError: when a step moves a checker that is not there or lands on a
            point the opponent holds.
        """
        start = play.start
        if start is self or start == self:
            return play.result_position()
        return self.apply_steps(play.moves, end_turn=True)

    def apply_steps(self, steps: Iterable[Sequence[int]], *, end_turn: bool = False) -> Position:
        """The position after the checker ``steps`` (``(src, dst, ...)`` each, as :class:`Move`),
        still seen by the mover, or by his opponent with ``end_turn`` (as after a whole play).

        >>> Position.initial().apply_steps([(8, 5), (6, 5)]).pip_counts()
        (163, 167)
        >>> Position.initial().apply_steps([(8, 5), (6, 5)], end_turn=True).pip_counts()
        (167, 163)

        :raises IllegalPlayError: when a step is not physically possible (see :func:`apply_step`).
        """
        cells = list(self._board)
        step_ = apply_step  # a local name: this runs for every play the computer weighs
        for step in steps:
            step_(cells, step[0], step[1])
        if end_turn:
            cells.reverse()
            return Position._trusted(tuple([-v for v in cells]), self._checkers)
        return Position._trusted(tuple(cells), self._checkers)

    def undo_steps(self, steps: Sequence[Sequence[int]]) -> Position:
        """The position before the checker ``steps`` (``(src, dst, die, hit)`` each, as
        :class:`Move`), both seen by the player who made them: the inverse of :meth:`apply_steps`.

        >>> pos = Position.initial()
        >>> pos.apply_steps([(8, 5, 3, False), (6, 5, 1, False)]).undo_steps(
        ...     [(8, 5, 3, False), (6, 5, 1, False)]) == pos
        True

        :raises IllegalPlayError: when the steps cannot have led to this position.
        """
        cells = list(self._board)
        for step in reversed(steps):
            undo_step(cells, step[0], step[1], bool(step[3]))
        try:
            return Position(cells, checkers=self._checkers)
        except InvalidPositionError as exc:
            raise IllegalPlayError(f"those steps cannot have led here: {exc}") from None

    # -- dunder -----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._board == other._board and self._checkers == other._checkers

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        if self._checkers != CHECKERS:
            return f"Position.from_position_id({self.position_id()!r}, checkers={self._checkers})"
        return f"Position.from_position_id({self.position_id()!r})"

    def __reduce__(self) -> tuple[object, tuple[tuple[int, ...], int]]:
        return (_restore, (self._board, self._checkers))


def _restore(board: tuple[int, ...], checkers: int = CHECKERS) -> Position:
    """Unpickling (see ``Position.__reduce__``)."""
    return Position(board, checkers=checkers)


def _validate(cells: tuple[int, ...], checkers: int = CHECKERS) -> None:
    if len(cells) != 26:
        raise InvalidPositionError(f"a board has 26 entries, not {len(cells)}")
    if cells[25] < 0:
        raise InvalidPositionError("the mover's bar (index 25) cannot be negative")
    if cells[0] > 0:
        raise InvalidPositionError("the opponent's bar (index 0) cannot be positive")
    mine = sum(v for v in cells[1:] if v > 0)
    theirs = -sum(v for v in cells[:25] if v < 0)
    if mine > checkers or theirs > checkers:
        raise InvalidPositionError(
            f"each side has at most {checkers} checkers (got {mine} and {theirs})"
        )

"""Legal plays: the engine's single authority on what a roll allows.

The generator follows GNU Backgammon's ``GenerateMoves``: it tries every way to play the dice one
checker step at a time, keeps only the plays that use as many dice as possible (and, when only one
die of a non-double can be played, the larger one if it can be), and keeps one play per distinct
resulting position.

>>> from engine.position import Position
>>> [str(p) for p in legal_plays(Position.initial(), (3, 1))][:3]
['24/23 24/21', '24/21 8/7', '24/21 6/5']
>>> len(legal_plays(Position.initial(), (6, 6)))
11
"""

from __future__ import annotations

from engine.position import BAR, OFF, Move, Position, apply_step
from engine.writing import format_moves

__all__ = ["Dice", "Move", "Play", "checker_steps", "legal_plays", "validate_dice"]

Dice = tuple[int, int]


class Play:
    """A complete legal play: the checker steps of one turn, in the order they are played.

    Plays are immutable and hashable; two plays are equal when they make the same steps. Plays
    built by :func:`legal_plays` also remember the position they start from (:attr:`start`), so
    :meth:`Position.apply` needs no checks.

    >>> from engine.position import Position
    >>> play = legal_plays(Position.initial(), (6, 5))[0]
    >>> str(play), play.dice_used()
    ('24/18 13/8', (6, 5))
    """

    __slots__ = ("_moves", "_result", "_start", "_steps")

    _steps: tuple[tuple[int, int, int, bool], ...]
    _moves: tuple[Move, ...] | None
    _start: Position | None
    _result: Position | None

    def __init__(self, moves: tuple[Move, ...] | list[Move]) -> None:
        self._moves = tuple(Move(*m) for m in moves)
        self._steps = tuple(tuple(m) for m in self._moves)  # type: ignore[misc]
        self._start = None
        self._result = None

    @classmethod
    def _make(cls, steps: tuple[tuple[int, int, int, bool], ...], start: Position) -> Play:
        play = object.__new__(cls)
        play._steps = steps
        play._moves = None
        play._start = start
        play._result = None
        return play

    @property
    def start(self) -> Position | None:
        """The position this play starts from when :func:`legal_plays` built it, else None."""
        return self._start

    @property
    def moves(self) -> tuple[Move, ...]:
        """The steps as :class:`Move` values, in the order they are played."""
        if self._moves is None:
            self._moves = tuple(Move(*m) for m in self._steps)
        return self._moves

    def result_position(self) -> Position:
        """The position after this play, seen by the opponent (only for plays from
        :func:`legal_plays`; use :meth:`Position.apply` otherwise)."""
        if self._result is None:
            if self._start is None:
                raise ValueError("this play was not built by legal_plays; use Position.apply")
            self._result = self._start.apply_steps(self._steps, end_turn=True)
        return self._result

    def dice_used(self) -> tuple[int, ...]:
        """The dice this play uses, in order."""
        return tuple(m[2] for m in self._steps)

    def hits(self) -> int:
        """How many opponent checkers this play sends to the bar."""
        return sum(1 for m in self._steps if m[3])

    def __len__(self) -> int:
        return len(self._steps)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self._steps == other._steps

    def __hash__(self) -> int:
        return hash(self._steps)

    def __str__(self) -> str:
        return format_moves(self.moves)

    def __repr__(self) -> str:
        return f"<Play {self}>"


def validate_dice(dice: object) -> Dice:
    """Check that ``dice`` is two ints from 1 to 6 and return them as a tuple.

    >>> validate_dice([3, 1])
    (3, 1)
    """
    if not isinstance(dice, tuple | list) or len(dice) != 2:
        raise ValueError(f"dice must be two values from 1 to 6, not {dice!r}")
    d1, d2 = dice
    if type(d1) is not int or type(d2) is not int or not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise ValueError(f"dice must be two values from 1 to 6, not {dice!r}")
    return d1, d2


# -- generation -----------------------------------------------------------------------------
#
# The hot loops work on plain lists of the 26-int board and plain tuples for steps. Distinct
# results are recognised by an integer key: the sum of the mover's net checker flow, point by
# point, in base-16 digits, plus one flag per point where an opponent blot was hit. The flow and
# the hits determine the resulting position, so equal keys mean equal positions, and the key
# costs four additions instead of a copied board. Move and Position objects are built only for
# the distinct results, and only when asked for.

_W = tuple(1 << (4 * p) for p in range(26))  # one base-16 digit per point (0 = off, 25 = bar)
_H = tuple(1 << (4 * (26 + p)) for p in range(26))  # hit flags above the flow digits

_Step = tuple[int, int, int, bool]  # (src, dst, die, hit)
_Found = dict[int, tuple[_Step, ...]]


def checker_steps(b: list[int], d: int) -> list[tuple[int, int, bool]]:
    """Every single-checker step with die ``d`` on the 26-int board ``b``: ``(src, dst, hit)``.
    The rules of one step (enter from the bar first, the points the opponent holds, bearing off
    only when every checker is home, a larger die only from the highest point) live here.

    >>> checker_steps(list(Position.initial().board), 6)
    [(24, 18, False), (13, 7, False), (8, 2, False)]
    """
    if b[25] > 0:
        v = b[25 - d]
        return [(25, 25 - d, v == -1)] if v >= -1 else []
    top = 24
    while top > 0 and b[top] <= 0:
        top -= 1
    out = []
    if top <= 6:
        # Bearing off: the exact point, or a larger die from the highest point.
        for p in range(top, 0, -1):
            if b[p] > 0:
                t = p - d
                if t > 0:
                    v = b[t]
                    if v >= -1:
                        out.append((p, t, v == -1))
                elif t == 0 or p == top:
                    out.append((p, 0, False))
        return out
    for p in range(top, d, -1):
        if b[p] > 0:
            v = b[p - d]
            if v >= -1:
                out.append((p, p - d, v == -1))
    return out


def _after(b: list[int], src: int, dst: int) -> list[int]:
    # The engine's one step primitive, not a copy of it: with it legal_plays still runs about
    # 53,000 corpus positions/s (CPU time; 53,700 with the former inline copy, target 30,000).
    n = b.copy()
    apply_step(n, src, dst)
    return n


def _key(src: int, dst: int, hit: bool) -> int:
    return _W[dst] - _W[src] + (_H[dst] if hit else 0)


def _generate_non_double(b: list[int], hi: int, lo: int) -> _Found:
    if b[25] == 0 and sum(v for v in b[7:25] if v > 0) >= 2:
        return _generate_non_double_contact(b, hi, lo)
    found: _Found = {}
    singles: dict[int, _Found] = {hi: {}, lo: {}}
    for first, second in ((hi, lo), (lo, hi)):
        for s, t, h in checker_steps(b, first):
            k1 = _key(s, t, h)
            nexts = checker_steps(_after(b, s, t), second)
            if not nexts:
                if not found:
                    singles[first].setdefault(k1, ((s, t, first, h),))
                continue
            m1 = (s, t, first, h)
            for s2, t2, h2 in nexts:
                key = k1 + _key(s2, t2, h2)
                if key not in found:
                    found[key] = (m1, (s2, t2, second, h2))
    if found:
        return found
    return singles[hi] or singles[lo]


def _generate_non_double_contact(b: list[int], hi: int, lo: int) -> _Found:
    """The common case, no checker on the bar and no bear-off possible during the turn.

    Then a step never changes which points are open (a point the opponent holds stays held, and
    a point we leave or reach stays open), so the second die's steps after a first step are the
    first board's steps, minus the source the first step emptied, plus the moved checker going on.
    """
    W, H = _W, _H
    own = [p for p in range(24, 0, -1) if b[p] > 0]
    by_die = {
        d: [(p, p - d, b[p - d] == -1) for p in own if p > d and b[p - d] >= -1] for d in (hi, lo)
    }
    found: _Found = {}
    singles: dict[int, _Found] = {hi: {}, lo: {}}
    for first, second in ((hi, lo), (lo, hi)):
        then = by_die[second]
        for s, t, h in by_die[first]:
            k1 = W[t] - W[s] + (H[t] if h else 0)
            m1 = (s, t, first, h)
            emptied = b[s] == 1
            played = False
            for s2, t2, h2 in then:
                if s2 == s and emptied:
                    continue
                if t2 == t:  # the point we just reached is ours now: no hit there
                    h2 = False
                played = True
                key = k1 + W[t2] - W[s2] + (H[t2] if h2 else 0)
                if key not in found:
                    found[key] = (m1, (s2, t2, second, h2))
            if b[t] <= 0 and t > second:
                # The moved checker stands on a point we did not hold: it may go on.
                t2 = t - second
                v = b[t2]
                if v >= -1:
                    played = True
                    key = k1 + W[t2] - W[t] + (H[t2] if v == -1 else 0)
                    if key not in found:
                        found[key] = (m1, (t, t2, second, v == -1))
            if not played and not found:
                singles[first].setdefault(k1, (m1,))
    if found:
        return found
    return singles[hi] or singles[lo]


def _generate_double(b: list[int], d: int) -> _Found:
    # Breadth first, one die at a time, merging paths that reach the same board. Steps are taken
    # from non-increasing source points (as GNU Backgammon does), which reaches every resulting
    # position once; on a merge the larger last source is kept because it allows more steps.
    layer: dict[int, tuple[list[int], tuple[_Step, ...], int]] = {0: (b, (), BAR)}
    for _ in range(4):
        nxt: dict[int, tuple[list[int], tuple[_Step, ...], int]] = {}
        for key0, (cells, moves, last) in layer.items():
            for s, t, h in checker_steps(cells, d):
                if s > last:
                    continue
                key = key0 + _key(s, t, h)
                seen = nxt.get(key)
                if seen is None or seen[2] < s:
                    nxt[key] = (_after(cells, s, t), (*moves, (s, t, d, h)), s)
        if not nxt:
            break
        layer = nxt
    return {key: moves for key, (_, moves, _) in layer.items() if moves}


def legal_plays(position: Position, dice: Dice) -> list[Play]:
    """Every legal play of ``dice`` in ``position``, one per distinct resulting position.

    Returns ``[]`` when the player on roll cannot move at all. The order is deterministic (the
    order of generation, larger die first); sort the list if you need another.

    >>> from engine.position import Position
    >>> pos = Position.from_position_id("ScRKrBABAAAAAA")
    >>> [str(p) for p in legal_plays(pos, (1, 1))]
    ['2/1*/off']

    :raises ValueError: when ``dice`` is not two values from 1 to 6.
    """
    d1, d2 = validate_dice(dice)
    cells = list(position.board)
    if d1 == d2:
        found = _generate_double(cells, d1)
    else:
        found = _generate_non_double(cells, max(d1, d2), min(d1, d2))
    make = Play._make
    return [make(steps, position) for steps in found.values()]


def nobody_can_move(position: Position) -> bool:
    """True when neither player has a legal play for any roll: the game could never go on
    (both sides on the bar against closed boards, say). Games only reach such a position when
    started from one.

    >>> from engine.position import Position
    >>> nobody_can_move(Position.initial())
    False
    """
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)]
    for side in (position, position.swap_players()):
        if any(legal_plays(side, roll) for roll in rolls):
            return False
    return True


__all__ += ["BAR", "OFF", "nobody_can_move"]

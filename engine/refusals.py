"""Why a written play is not legal: the reason a player reads when ``/move`` is refused.

The written play is checked against the position as it evolves, one die at a time, the way a
player would move the checkers by hand:

1. if the checkers' net movement can be played at all with these dice, the play breaks a rule of
   the whole roll: it plays fewer dice than the roll allows, or the smaller die when only one
   can be played;
2. else, if the dice cannot make the written moves whatever the position (a move of 4 with 6-2,
   bearing off from the 6-point with 1-1, two 6s with 6-2), that is the reason;
3. else every order of the moves and every split of each move into dice is tried step by step;
   the obstacle met the latest (after the most dice played) is the reason: no checker at that
   moment, a checker still on the bar, a point the opponent holds, bearing off with a checker
   still outside the home board, or a larger die from below the highest checker.

Each reason is an :class:`~engine.errors.IllegalPlayError` whose ``code`` and ``params`` the
application shows in the player's language (``engine.illegal.*`` in the bot's catalog).

>>> from engine.position import Position
>>> pos = Position.from_position_id("/w8AgEE7/CcAAA")  # 9 on the 6-point, 1 on the 8, 5 held
>>> why_illegal("8/4", [(8, 4)], pos, (1, 1)).code
'illegal.blocked'
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence, Sized
from dataclasses import dataclass, field

from engine.errors import IllegalPlayError
from engine.movegen import Dice, checker_steps, legal_plays
from engine.position import BAR, OFF, Position, apply_step
from engine.writing import format_point

__all__ = ["obstacle", "step_problem", "why_illegal"]

Written = Sequence[tuple[int, int]]


def step_problem(cells: Sequence[int], src: int, die: int) -> tuple[str, int] | None:
    """Why one checker on ``src`` cannot move ``die`` pips on the 26-int board ``cells`` (mover's
    view), or None when it can: ``("no_checker", src)``, ``("enter_first", src)``,
    ``("blocked", point)``, ``("not_home", farthest point outside the home board)`` or
    ``("higher", highest point)`` (a larger die bears off only from the highest point).

    The same rules as :func:`engine.movegen.checker_steps`, which the move generator runs in its
    hot loop; the tests check that both agree on every point, die and corpus position.

    >>> step_problem(Position.initial().board, 13, 1)
    ('blocked', 12)
    """
    if cells[src] <= 0:
        return ("no_checker", src)
    if cells[BAR] > 0 and src != BAR:
        return ("enter_first", src)
    dst = src - die
    if dst > 0:
        return ("blocked", dst) if cells[dst] <= -2 else None
    outside = max((p for p in range(7, 26) if cells[p] > 0), default=0)
    if outside:
        return ("not_home", outside)
    if dst < 0:
        highest = max(p for p in range(1, 7) if cells[p] > 0)
        if highest > src:
            return ("higher", highest)
    return None


def _roll(dice: Dice) -> str:
    """The roll as the game shows it, the higher die first (``3-2`` whichever fell first).

    >>> _roll((2, 3)), _roll((6, 6))
    ('3-2', '6-6')
    """
    return f"{max(dice)}-{min(dice)}"


def why_illegal(text: str, written: Written, position: Position, dice: Dice) -> IllegalPlayError:
    """The reason why the written steps ``written`` (``(src, dst)`` pairs, ``BAR`` = 25,
    ``OFF`` = 0) are no legal play of ``dice`` in ``position`` (seen by the player on roll).

    >>> from engine.position import Position
    >>> pos = Position.from_position_id("/w8AgEE7/CcAAA")
    >>> str(why_illegal("8/6 6/off", [(8, 6), (6, 0)], pos, (1, 1)))
    "'8/6 6/off': bearing off from your 6-point takes at least 6, and 1-1 moves a checker 4 at most"
    """
    plays = legal_plays(position, dice)
    roll = _roll(dice)
    if not plays:
        return IllegalPlayError(
            f"no legal play with {roll} in {position.position_id()}: the turn passes",
            code="illegal.no_move",
            dice=roll,
        )
    pool = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    reason = None
    if all(0 <= dst < src <= BAR for src, dst in written):  # else not steps of a play at all
        reason = (
            _rule_broken(text, written, position, dice, plays)
            or _outside_when_bearing_off(text, written, position)
            or _dice_misfit(text, written, pool, roll)
            or _first_obstacle(text, written, position, pool)
        )
    return reason or IllegalPlayError(
        f"{text!r} is not a legal play of {roll} (position {position.position_id()})",
        code="illegal.other",
        text=text,
        dice=roll,
    )


# -- 1. the rules of the whole roll ------------------------------------------------------------


def _mover_counts(cells: Sequence[int]) -> tuple[int, ...]:
    return tuple(max(v, 0) for v in cells[1:])


def _dice_to_reach(position: Position, dice: Dice) -> dict[tuple[int, ...], set[int]]:
    """Every distribution of the mover's checkers the dice can physically make, with the numbers
    of dice that make it (dice played one at a time, in any order, by the rules of one step)."""
    pool = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    reached: dict[tuple[int, ...], set[int]] = {}
    layer = {(position.board, tuple(pool))}
    for used in range(1, len(pool) + 1):
        nxt = set()
        for cells, left in layer:
            for die in set(left):
                rest = list(left)
                rest.remove(die)
                for src, dst, _ in checker_steps(list(cells), die):
                    after = list(cells)
                    apply_step(after, src, dst)
                    nxt.add((tuple(after), tuple(rest)))
                    reached.setdefault(_mover_counts(after), set()).add(used)
        layer = nxt
    return reached


def _counts_after(position: Position, written: Written) -> list[int]:
    """The mover's checkers on points 1..25 (the bar last) once the written moves are made,
    whatever the dice (a count below 0: a move from a point without checker)."""
    counts = list(_mover_counts(position.board))
    for src, dst in written:
        counts[src - 1] -= 1
        if dst != OFF:
            counts[dst - 1] += 1
    return counts


def _rule_broken(
    text: str, written: Written, position: Position, dice: Dice, plays: Sequence[Sized]
) -> IllegalPlayError | None:
    counts = _counts_after(position, written)
    used = _dice_to_reach(position, dice).get(tuple(counts))
    if not used:
        return None
    roll = _roll(dice)
    longest = max(len(p) for p in plays)
    fewest = min(used)
    if fewest < longest and dice[0] != dice[1]:
        return IllegalPlayError(
            f"{text!r} plays only one die, but both dice of {roll} can be played here",
            code="illegal.partial",
            text=text,
            dice=roll,
        )
    if fewest < longest:
        return IllegalPlayError(
            f"{text!r} plays {fewest} of the four dice of {roll}, but {longest} can be played here",
            code="illegal.partial_double",
            text=text,
            written=fewest,
            longest=longest,
            dice=roll,
        )
    if longest == 1 and dice[0] != dice[1]:
        die = max(dice)
        return IllegalPlayError(
            f"{text!r} is not legal: only one die can be played, and it must be the {die}",
            code="illegal.forced_die",
            text=text,
            die=die,
        )
    return None


def _outside_when_bearing_off(
    text: str, written: Written, position: Position
) -> IllegalPlayError | None:
    """A bear-off written while a checker stays outside the home board after the whole play:
    checkers only move forward, so that one was outside at the bear-off, in any order of the
    moves, whatever the dice (a held point on the way is beside the point).

    >>> pos = Position.from_position_id("4HPwATDgc/ABMA")  # the opening position
    >>> error = _outside_when_bearing_off("6/off", [(6, 0)], pos)
    >>> error.code, error.params["point"]
    ('illegal.not_home', 24)
    """
    if not any(dst == OFF for _, dst in written):
        return None
    counts = _counts_after(position, written)
    if any(c < 0 for c in counts):
        return None  # a move from a point without checker: that is named step by step
    if counts[BAR - 1] > 0:
        return None  # still on the bar: entering is the first problem, found step by step
    outside = max((p for p in range(7, BAR) if counts[p - 1] > 0), default=0)
    return obstacle(text, "not_home", (outside,)) if outside else None


# -- 2. what the dice cannot make, wherever the checkers stand -----------------------------------


def _fits(src: int, dst: int, dice: Sequence[int]) -> bool:
    """Whether one checker can go from ``src`` to ``dst`` with exactly these dice, as far as
    their pips go (to bear off: enough pips, and not off before the last die)."""
    if not dice:
        return False
    total = sum(dice)
    if dst != OFF:
        return total == src - dst
    return total >= src > total - max(dice)


def _splits(src: int, dst: int, pool: Sequence[int]) -> set[tuple[int, ...]]:
    out = set()
    for n in range(1, len(pool) + 1):
        for combo in itertools.combinations(sorted(pool), n):
            if _fits(src, dst, combo):
                out.add(combo)
    return out


def _dice_misfit(
    text: str, written: Written, pool: list[int], roll: str
) -> IllegalPlayError | None:
    options = []
    for src, dst in written:
        splits = _splits(src, dst, pool)
        if splits:
            options.append(splits)
            continue
        return _out_of_reach(text, src, dst, pool, roll)
    if not _assign(options, Counter(pool)):
        return IllegalPlayError(
            f"{text!r} does not fit the dice: {roll} cannot make all these moves together",
            code="illegal.dice",
            text=text,
            dice=roll,
        )
    return None


def _out_of_reach(text: str, src: int, dst: int, pool: list[int], roll: str) -> IllegalPlayError:
    """The refusal of a step that no sum of the dice makes."""
    step = f"{format_point(src)}/{format_point(dst)}"
    if dst == OFF:
        return IllegalPlayError(
            f"{text!r}: bearing off from your {src}-point takes at least {src}, and {roll} "
            f"moves a checker {sum(pool)} at most",
            code="illegal.off_distance",
            text=text,
            step=step,
            point=src,
            dice=roll,
            most=sum(pool),
        )
    sums = (sum(c) for n in range(1, len(pool) + 1) for c in itertools.combinations(pool, n))
    moves = ", ".join(str(r) for r in sorted(set(sums)))
    return IllegalPlayError(
        f"{text!r}: {step} is a move of {src - dst}, which {roll} cannot make (one checker "
        f"moves {moves})",
        code="illegal.distance",
        text=text,
        step=step,
        gap=src - dst,
        dice=roll,
        moves=moves,
    )


def _assign(options: list[set[tuple[int, ...]]], left: Counter[int]) -> bool:
    """Whether each written move can get its own dice out of ``left``."""
    if not options:
        return True
    for split in options[0]:
        need = Counter(split)
        if all(left[d] >= n for d, n in need.items()) and _assign(options[1:], left - need):
            return True
    return False


# -- 3. step by step ------------------------------------------------------------------------------

# When several obstacles come after the same number of dice, the one no other order of the moves
# could avoid is named first: a point held stays held, a point with no checker and none arriving
# stays empty.
_PRIORITY = {
    "blocked_both": 0,
    "blocked": 1,
    "no_checker": 2,
    "enter_first": 3,
    "no_checker_left": 4,
    "higher": 5,
    "not_home": 6,
}


@dataclass
class _Search:
    written: Written
    start: Sequence[int]
    best: tuple[int, int, str, tuple[int, ...]] | None = None  # (-depth, priority, kind, values)
    seen: set[tuple[object, ...]] = field(default_factory=set)

    def note(self, depth: int, kind: str, *values: int) -> None:
        entry = (-depth, _PRIORITY[kind], kind, values)
        if self.best is None or entry < self.best:
            self.best = entry

    def run(self, cells: list[int], at: tuple[int, ...], left: tuple[int, ...], depth: int) -> None:
        """``at``: where each written move's checker stands now (its source before it moves)."""
        key = (tuple(cells), at, left)
        if key in self.seen:
            return
        self.seen.add(key)
        for i, (point, (src, dst)) in enumerate(zip(at, self.written, strict=True)):
            if point == dst:
                continue
            blocked = []
            tried = 0
            for die in sorted(set(left), reverse=True):
                target = max(point - die, OFF)
                rest = list(left)
                rest.remove(die)
                moved = (*at[:i], target, *at[i + 1 :])
                if not self._feasible(moved, rest):
                    continue  # the dice left could not finish the moves: not a way to play it
                tried += 1
                problem = step_problem(cells, point, die)
                if problem is None and point == src and cells[point] <= self._in_flight(at, point):
                    problem = ("no_checker", point)  # the checkers there are other moves' ones
                if problem is None:
                    after = cells.copy()
                    apply_step(after, point, target)
                    self.run(after, moved, tuple(rest), depth + 1)
                    continue
                kind, value = problem
                if kind == "blocked":
                    blocked.append(value)
                if kind == "no_checker":
                    kind = self._no_checker_kind(point)
                    if not kind:
                        continue  # one may still arrive there: another order of the moves
                if kind == "higher":
                    self.note(depth, kind, value, point, die)
                else:
                    self.note(depth, kind, value)
            if len(blocked) >= 2 and len(blocked) == tried:
                self.note(depth, "blocked_both", *sorted(blocked, reverse=True)[:2])

    def _in_flight(self, at: tuple[int, ...], point: int) -> int:
        """How many written moves have started and stand on ``point`` on their way."""
        return sum(
            1 for p, (s, d) in zip(at, self.written, strict=True) if p == point and p not in (s, d)
        )

    def _feasible(self, at: tuple[int, ...], left: list[int]) -> bool:
        """Whether the dice ``left`` can still carry every move from where it stands to its end."""
        options = []
        for point, (_, dst) in zip(at, self.written, strict=True):
            if point == dst:
                continue
            splits = _splits(point, dst, left)
            if not splits:
                return False
            options.append(splits)
        return _assign(options, Counter(left))

    def _no_checker_kind(self, point: int) -> str:
        """None there at the start and none arriving: there is none at all; more moves from there
        than checkers there and arriving: the play moves too many; else a checker may still
        arrive (another order of the moves): no reason ("")."""
        starts = sum(1 for src, _ in self.written if src == point)
        arriving = sum(1 for _, dst in self.written if dst == point)
        have = max(self.start[point], 0)
        if not have and not arriving:
            return "no_checker"
        return "no_checker_left" if starts > have + arriving else ""


def _first_obstacle(
    text: str, written: Written, position: Position, pool: list[int]
) -> IllegalPlayError | None:
    search = _Search(written, position.board)
    search.run(list(position.board), tuple(src for src, _ in written), tuple(pool), 0)
    if search.best is None:
        return None
    _, _, kind, values = search.best
    return obstacle(text, kind, values)


# The refusal of each obstacle (its code is "illegal." and the key), from the written play
# ``text`` and the points (or die) it names.
_OBSTACLES = {
    "blocked": "{text!r}: your {point}-point is held by your opponent",
    "blocked_both": "{text!r}: both ways are blocked, your opponent holds your {point}-point and "
    "your {other}-point",
    "no_checker_bar": "{text!r}: you have no checker on the bar",
    "no_checker": "{text!r}: you have no checker on your {point}-point to move",
    "no_checker_left_bar": "{text!r} enters more checkers than you have on the bar",
    "no_checker_left": "{text!r} moves more checkers from your {point}-point than you have there",
    "enter_first": "{text!r}: a checker of yours is still on the bar: enter it before moving any "
    "other",
    "not_home": "{text!r}: you can bear off only when all your checkers are in your home board, "
    "and one is still on your {point}-point",
    "bear_off_higher": "{text!r}: a {die} bears a checker off your {point}-point only when none "
    "stands higher, and you have one on your {higher}-point",
}


def obstacle(text: str, kind: str, values: Sequence[int]) -> IllegalPlayError:
    """The refusal naming an obstacle met by the written play ``text``: ``kind`` as
    :func:`step_problem` or the search says it, ``values[0]`` the point concerned (for
    ``"higher"``: the higher point, then the source and the die). :class:`engine.turn.Turn`
    names a refused click with it too."""
    point = values[0]
    params: dict[str, int] = {"point": point}
    if kind == "blocked_both":
        params["other"] = values[1]
    elif kind in ("no_checker", "no_checker_left") and point == BAR:
        kind += "_bar"
    elif kind == "enter_first":
        params = {}
    elif kind not in _OBSTACLES:  # "higher": a larger die bears off only from the highest point
        kind, params = "bear_off_higher", {"point": values[1], "die": values[2], "higher": point}
    message = _OBSTACLES[kind].format(text=text, **params)
    return IllegalPlayError(message, code=f"illegal.{kind}", text=text, **params)

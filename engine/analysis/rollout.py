"""Rollouts: a position played out many times by the evaluator against itself.

A rollout estimates a position's value by playing it to the end (or for a number of plies, then
evaluating) again and again with random dice, each side choosing the best play by the 1-ply
evaluation (bgsage's network, like GNU Backgammon's 0-ply rollouts). It is what experts trust when
two plays are close, because it does not stop at a fixed depth.

Variance reduction works as GNU Backgammon's: at each roll, the *luck* of the roll is the
evaluation of the best play with that roll minus the average, over the 21 rolls, of the
evaluation of the best play with each, and a trial's result is its outcome minus the sum of the
luck of every roll in it. The luck sums to nothing on average, so the estimate stays unbiased and
its spread falls a lot (a perfect evaluator would need a single trial).

The dice come from a :class:`DiceSource` passed in: :class:`SeededDice` makes a rollout
reproducible by its seed, stratifies the first roll (every 36 trials see each of the 36 rolls
once) and gives every candidate the same dice, so their differences are measured more finely than
their values.

The chances are cubeless, those of the player on roll before his roll (:func:`rollout_position`)
or of the mover after each candidate play (:func:`rollout_plays`). The equity is cubeless (money
play without a cube, +1 a single game won) unless the settings ask for a *cubeful* rollout of a
money game: then every trial carries a cube, as GNU Backgammon's cubeful rollouts do. Before each
roll the player on roll, when he may double, doubles if the evaluator's money cube decision says
so (Janowski's interpolation on its cubeless chances, :mod:`engine.bots.cubeful`, with GNU
Backgammon's cube efficiency: 0.68 in contact, 0.6 once both sides are home, by the roller's
pips in a race), and the other side takes or passes by the same decision; a pass ends the
trial. The trial is worth its result times the cube (a truncated trial: the cubeful equity
there, times the cube), and the luck of each roll is counted at the cube of that moment (its
average is still nothing, since the cube is known before the roll), so the estimate stays
unbiased.

>>> from engine import Position
>>> mine = [0] * 24; mine[5] = 1            # one checker on my 6-point
>>> theirs = [0] * 24; theirs[0] = 1        # the opponent bears off next roll
>>> pos = Position.from_sides(mine + [0], theirs + [0])
>>> r = rollout_position(pos, ExactEndgame(), RolloutSettings(trials=72, seed=1))
>>> round(r.equity, 4), r.trials   # 27 rolls of 36 bear my checker off: 2 * 27/36 - 1
(0.5, 72)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.bots.cubeful import gnubg_cube_efficiency, money_cube_equities
from engine.context import MatchContext
from engine.movegen import Dice, Play
from engine.position import CHECKERS, Position

__all__ = [
    "DiceSource",
    "ExactEndgame",
    "Probs",
    "RolloutPlayer",
    "RolloutResult",
    "RolloutSettings",
    "SeededDice",
    "rollout_player",
    "rollout_plays",
    "rollout_position",
]

Probs = tuple[float, float, float, float, float]
"""Cubeless chances: win, win gammon, win backgammon, lose gammon, lose backgammon."""

ROLLS21: tuple[tuple[Dice, int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
)
_OUTCOMES36: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, 7))


class DiceSource(Protocol):
    """Where a rollout's dice come from: the rolls of one trial, first roll first."""

    def rolls(self, trial: int) -> Iterator[Dice]:
        """The dice of trial number ``trial`` (0, 1, ...), as many as the trial asks."""
        ...


class SeededDice:
    """Reproducible dice: the same seed and trial number give the same rolls.

    The first roll is stratified: trials ``36k`` to ``36k + 35`` see each of the 36 outcomes
    once (in an order drawn from the seed); the rest come from a generator seeded by the seed and
    the trial number, so a trial's dice do not depend on how many trials ran before it.

    >>> d = SeededDice(7)
    >>> sorted(next(d.rolls(t)) for t in range(36)) == sorted(_OUTCOMES36)
    True
    >>> list(zip(range(3), d.rolls(5))) == list(zip(range(3), SeededDice(7).rolls(5)))
    True
    """

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        order = list(_OUTCOMES36)
        random.Random(f"rollout/{seed}/first").shuffle(order)
        self._first = tuple(order)

    def rolls(self, trial: int) -> Iterator[Dice]:
        yield self._first[trial % 36]
        rng = random.Random(f"rollout/{self.seed}/{trial}")
        while True:
            yield (rng.randint(1, 6), rng.randint(1, 6))


class RolloutPlayer(Protocol):
    """What a rollout asks of the evaluator (see :func:`rollout_player`)."""

    def moves(self, position: Position) -> dict[Dice, tuple[Position, Probs]]:
        """For each of the 21 rolls (keys ``(a, b)``, ``a <= b``): the position after the best
        play, seen by the opponent (now on roll), and the mover's cubeless chances there, exact
        when the play ends the game."""
        ...

    def move(self, position: Position, dice: Dice) -> tuple[Position, Probs]:
        """:meth:`moves` for one roll (``(a, b)``, ``a <= b``), when no luck is measured."""
        ...

    def probs(self, position: Position) -> Probs:
        """The cubeless chances of the player on roll, before his roll."""
        ...


@dataclass(frozen=True, slots=True)
class RolloutSettings:
    """How to roll out: ``trials`` games (at most), each cut after ``truncate`` plies and then
    evaluated (None: played to the end), with or without variance reduction, dice from ``seed``,
    and stopping early when ``time_limit`` seconds have passed (after at least two trials).

    ``cubeful``: a money game's cube is played (see the module docstring), starting at
    ``cube_value``, owned by ``cube_owner`` (None: centred; 0: the side the rollout is about,
    the player on roll for :func:`rollout_position`, the mover for :func:`rollout_plays`; 1:
    the other), under the Jacoby rule if ``jacoby`` (gammons count only once the cube has been
    turned).

    ``bearoff_stop``: a cubeless trial stops, evaluated, once both sides have every checker in
    their home boards (GNU Backgammon's cubeless rollouts stop there too, on its one-sided
    bear-off database: the evaluator's figures there are exact or nearly, and its bear-off
    play would only add noise and its own small errors).

    ``cube_at_start``: in a cubeful :func:`rollout_position`, the player on roll may double
    before his first roll (False: he does not, the value of not doubling now, which is what
    GNU Backgammon's ``rollout`` of a position gives)."""

    trials: int = 1296
    truncate: int | None = None
    variance_reduction: bool = True
    seed: int | str = 0
    time_limit: float | None = None
    cubeful: bool = False
    cube_value: int = 1
    cube_owner: int | None = None
    jacoby: bool = False
    bearoff_stop: bool = True
    cube_at_start: bool = True

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise ValueError(f"a rollout needs at least one trial, not {self.trials!r}")
        if self.truncate is not None and self.truncate < 1:
            raise ValueError(f"a rollout is truncated after at least one ply, not {self.truncate}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"a time limit is a positive number of seconds, not {self.time_limit}")
        if self.cube_value < 1 or self.cube_owner not in (None, 0, 1):
            raise ValueError(f"no such cube: {self.cube_value} owned by {self.cube_owner}")


@dataclass(slots=True)
class RolloutResult:
    """One rolled-out candidate: mean chances and equity (cubeless, of the side the rollout is
    about), the standard error of the equity and of each chance, and the trials played."""

    play: Play | None
    probs: Probs
    equity: float
    se: float
    probs_se: Probs
    trials: int
    _sums: list[float] = field(default_factory=lambda: [0.0] * 6, repr=False)
    _squares: list[float] = field(default_factory=lambda: [0.0] * 6, repr=False)

    def add(self, outcome: Probs, equity: float | None = None) -> None:
        """Count one trial's (luck-adjusted) outcome and update the figures; ``equity``: the
        trial's cubeful equity, if it is not the cubeless one of ``outcome``."""
        values = (*outcome, _equity(outcome) if equity is None else equity)
        for k, v in enumerate(values):
            self._sums[k] += v
            self._squares[k] += v * v
        self.trials += 1
        self._refresh()

    def merge(self, other: RolloutResult) -> None:
        """Count the trials of ``other`` (the same candidate, other trial numbers) too.

        >>> a, b = RolloutResult.empty(), RolloutResult.empty()
        >>> a.add((1.0, 0.0, 0.0, 0.0, 0.0)); b.add((0.0, 0.0, 0.0, 0.0, 0.0))
        >>> a.merge(b); a.trials, a.equity
        (2, 0.0)
        """
        for k in range(6):
            self._sums[k] += other._sums[k]
            self._squares[k] += other._squares[k]
        self.trials += other.trials
        self._refresh()

    @classmethod
    def empty(cls, play: Play | None = None) -> RolloutResult:
        """No trial yet."""
        zero: Probs = (0.0, 0.0, 0.0, 0.0, 0.0)
        return cls(play, zero, 0.0, 0.0, zero, 0)

    def _refresh(self) -> None:
        n = self.trials
        if n == 0:
            return
        means = [s / n for s in self._sums]
        errors = [_se(s, q, n) for s, q in zip(self._sums, self._squares, strict=True)]
        self.probs = (means[0], means[1], means[2], means[3], means[4])
        self.probs_se = (errors[0], errors[1], errors[2], errors[3], errors[4])
        self.equity, self.se = means[5], errors[5]


def _se(total: float, squares: float, n: int) -> float:
    """Standard error of the mean of ``n`` values from their sum and sum of squares."""
    if n < 2:
        return 0.0
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    return math.sqrt(variance / n)


def _equity(p: Probs) -> float:
    w, wg, wb, lg, lb = p
    return 2.0 * w - 1.0 + wg - lg + wb - lb


def _flip(p: Sequence[float]) -> Probs:
    """The other side's chances (also right for sums of differences, since it is affine in
    the win chance and linear in the rest: see :func:`_flip_delta`)."""
    return (1.0 - p[0], p[3], p[4], p[1], p[2])


def _flip_delta(d: Sequence[float]) -> Probs:
    return (-d[0], d[3], d[4], d[1], d[2])


def _both_home(position: Position) -> bool:
    """Every checker of both sides in its home board (or borne off)."""
    mine, theirs = position.sides()
    return not any(mine[6:]) and not any(theirs[6:])


MAX_CUBE = 64
"""No redouble in a cubeful rollout beyond this cube (GNU Backgammon stops too)."""


@dataclass(slots=True)
class _Cube:
    """A trial's cube: its value and owner (None, or True for the side the trial is about)."""

    value: int
    ours: bool | None
    jacoby: bool

    def roller_may_double(self, ours: bool) -> bool:
        return self.value < MAX_CUBE and self.ours in (None, ours)

    def equities(self, position: Position, before: Probs, ours: bool) -> tuple[float, float, float]:
        """No double, double/take, double/pass for the roller (``ours``: the side the trial is
        about), normalised to the cube, by the money cube decision on his chances ``before``."""
        owner = None if self.ours is None else (0 if self.ours == ours else 1)
        ctx = MatchContext(cube_value=1, cube_owner=owner, jacoby=self.jacoby)
        x = gnubg_cube_efficiency(
            position.is_race(), _both_home(position), position.pip_counts()[0]
        )
        c = money_cube_equities(before, ctx, x=x)
        return c.no_double, c.double_take, c.double_pass

    def won(self, after: Position) -> float:
        """What the mover wins (in points, times the cube) by ending the game in ``after``."""
        return float(
            self.value * (1 if self.jacoby and self.ours is None else after.result_value())
        )

    def mover_equity(self, after: Position, probs: Probs, mover_ours: bool) -> float:
        """The mover's cubeful equity (times the cube) after his play: the game's result if
        it is over, else minus his opponent's, with best cube action, from his chances."""
        if after.borne_off()[1] == CHECKERS:
            return self.won(after)
        theirs = _flip(probs)
        nd, dt, dp = self.equities(after, theirs, not mover_ours)
        best = max(nd, min(dt, dp)) if self.roller_may_double(not mover_ours) else nd
        return -self.value * best


def _cube_turn(
    cube: _Cube, settings: RolloutSettings, pos: Position, before: Probs, ours: bool, ply: int
) -> tuple[float | None, bool]:
    """The cube action before a roll (``before`` is the roller's chances): the trial's cubeful
    value for us when it ends here (truncated, or a double passed) and whether a double was
    passed. A double taken turns the cube."""
    sign = 1.0 if ours else -1.0
    may = cube.roller_may_double(ours) and (ply > 0 or settings.cube_at_start)
    truncated = settings.truncate is not None and ply >= settings.truncate
    if not (may or truncated):
        return None, False
    nd, dt, dp = cube.equities(pos, before, ours)
    if truncated:
        best = max(nd, min(dt, dp)) if may else nd
        return sign * cube.value * best, False
    if min(dt, dp) > nd:  # a double
        if dp <= dt:  # passed: the roller wins the cube
            return sign * cube.value, True
        cube.value, cube.ours = 2 * cube.value, not ours  # taken
    return None, False


def _roll(
    player: RolloutPlayer,
    pos: Position,
    roll: Dice,
    ours: bool,
    settings: RolloutSettings,
    cube: _Cube | None,
    luck: list[float],
) -> tuple[Position, Probs, float]:
    """The roller's play of ``roll`` (its dice in either order): the position after it, its
    chances (the mover's), and the roll's luck in cubeful equity for us; the roll's luck in
    chances is added to ``luck``."""
    a, b = roll
    dice = (min(a, b), max(a, b))
    if not settings.variance_reduction:
        after, probs = player.move(pos, dice)
        return after, probs, 0.0
    table = player.moves(pos)
    after, probs = table[dice]
    mean = [sum(table[r][1][k] * w for r, w in ROLLS21) / 36.0 for k in range(5)]
    delta = [probs[k] - mean[k] for k in range(5)]
    ours_delta = delta if ours else _flip_delta(delta)
    for k, v in enumerate(ours_delta):
        luck[k] += v
    if cube is None:
        return after, probs, 0.0
    # The luck in cubeful equity, by the cube decision's figures.
    values = {r: cube.mover_equity(*table[r], ours) for r, _ in ROLLS21}
    average = sum(values[r] * w for r, w in ROLLS21) / 36.0
    return after, probs, (1.0 if ours else -1.0) * (values[dice] - average)


def _less_luck(outcome: Probs, luck: Sequence[float]) -> Probs:
    """``outcome`` with the luck taken off, chance by chance."""
    return (
        outcome[0] - luck[0],
        outcome[1] - luck[1],
        outcome[2] - luck[2],
        outcome[3] - luck[3],
        outcome[4] - luck[4],
    )


def _stops(settings: RolloutSettings, cubeful: bool, pos: Position, ply: int) -> bool:
    """Whether the trial stops before this roll, on its chances: cut at ``settings.truncate``
    plies, or (cubeless) at a bear-off race when ``settings.bearoff_stop``."""
    truncated = settings.truncate is not None and ply >= settings.truncate
    return truncated or (not cubeful and settings.bearoff_stop and _both_home(pos))


def _trial(
    position: Position,
    player: RolloutPlayer,
    rolls: Iterator[Dice],
    settings: RolloutSettings,
    cube: _Cube | None = None,
) -> tuple[Probs, float]:
    """One game from ``position`` (its player on roll is "us"): our luck-adjusted chances and
    equity (cubeful when ``cube`` is given: it is played, and changed, as the trial goes)."""
    luck = [0.0] * 5
    luck_equity = 0.0  # cubeful: each roll's luck at the cube of the moment
    pos, ours, ply = position, True, 0
    before: Probs | None = None  # the roller's chances before his roll, when known
    value: float | None = None  # the trial's cubeful value for us, once known
    while True:
        if cube is not None:
            before = player.probs(pos) if before is None else before
            # Set only when the trial ends on this roll, so it was None until now.
            value, passed = _cube_turn(cube, settings, pos, before, ours, ply)
            if passed:
                outcome = before if ours else _flip(before)
                break
        if _stops(settings, cube is not None, pos, ply):
            now = before if before is not None else player.probs(pos)
            outcome = now if ours else _flip(now)
            break
        after, probs, roll_luck = _roll(player, pos, next(rolls), ours, settings, cube, luck)
        luck_equity += roll_luck
        if after.borne_off()[1] == CHECKERS:  # the mover has just won
            outcome = probs if ours else _flip(probs)
            if cube is not None:
                value = (1.0 if ours else -1.0) * cube.won(after)
            break
        before = _flip(probs)
        pos, ours, ply = after, not ours, ply + 1
    adjusted = _less_luck(outcome, luck)
    if cube is None or value is None:
        return adjusted, _equity(adjusted)
    return adjusted, value - luck_equity


Progress = Callable[[int, int], None]
"""``progress(done, total)``: called after each round of trials (one trial of every candidate)."""


def _run(
    starts: Sequence[Position],
    results: Sequence[RolloutResult],
    theirs: bool,
    player: RolloutPlayer,
    settings: RolloutSettings,
    dice: DiceSource | None,
    progress: Progress | None,
    first: int,
) -> None:
    source = dice if dice is not None else SeededDice(settings.seed)
    started = time.monotonic()
    owner = settings.cube_owner
    if owner is not None and theirs:  # the trials are about the other side
        owner = 1 - owner
    for t in range(first, first + settings.trials):
        for start, result in zip(starts, results, strict=True):
            cube = None
            if settings.cubeful:
                ours = None if owner is None else owner == 0
                cube = _Cube(settings.cube_value, ours, settings.jacoby)
            outcome, equity = _trial(start, player, source.rolls(t), settings, cube)
            if theirs:
                outcome, equity = _flip(outcome), -equity
            result.add(outcome, equity)
        if progress is not None:
            progress(t + 1 - first, settings.trials)
        limit = settings.time_limit
        if limit is not None and t > first and time.monotonic() - started >= limit:
            break


def rollout_position(
    position: Position,
    player: RolloutPlayer,
    settings: RolloutSettings,
    dice: DiceSource | None = None,
    progress: Progress | None = None,
    first_trial: int = 0,
) -> RolloutResult:
    """The value of ``position`` for the player on roll, before his roll (cubeless, or cubeful
    if the settings say so: then with his cube decision now too, a double passed at once being
    worth exactly the cube, unless ``settings.cube_at_start`` is False, as GNU Backgammon's
    ``rollout`` of a position: the value of not doubling now).

    ``first_trial``: the number of the first trial (the dice of trial ``k`` do not depend on
    the others), so that a long rollout can be run in parts and :meth:`RolloutResult.merge`-d.
    """
    result = RolloutResult.empty()
    _run([position], [result], False, player, settings, dice, progress, first_trial)
    return result


def rollout_plays(
    position: Position,
    plays: Sequence[Play],
    player: RolloutPlayer,
    settings: RolloutSettings,
    dice: DiceSource | None = None,
    progress: Progress | None = None,
    first_trial: int = 0,
) -> list[RolloutResult]:
    """Each play of the player on roll (after his roll) rolled out: the value for him (cubeless,
    or cubeful if the settings say so) of the position after it, the opponent on roll. Every
    play gets the same dice, trial by trial (the trials alternate between the plays, so a time
    limit treats them alike)."""
    afters = [position.apply(play) for play in plays]
    results = [RolloutResult.empty(play) for play in plays]
    finished = [a.borne_off()[1] == CHECKERS for a in afters]
    open_ = [k for k in range(len(plays)) if not finished[k]]
    for k in range(len(plays)):
        if finished[k]:  # the play wins now: its value is exact
            value = afters[k].result_value()
            exact: Probs = (1.0, float(value >= 2), float(value >= 3), 0.0, 0.0)
            points: float | None = None
            if settings.cubeful:
                centred_jacoby = settings.jacoby and settings.cube_owner is None
                points = float(settings.cube_value * (1 if centred_jacoby else value))
            for _ in range(settings.trials):
                results[k].add(exact, points)
    starts = [afters[k] for k in open_]
    chosen = [results[k] for k in open_]
    _run(starts, chosen, True, player, settings, dice, progress, first_trial)
    return results


class ExactEndgame:
    """A tiny evaluator for races of one checker a side, exact, for tests and examples: each
    side bears its checker off as soon as the dice allow (``probs`` is exact too)."""

    def move(self, position: Position, dice: Dice) -> tuple[Position, Probs]:
        return self.moves(position)[dice]

    def moves(self, position: Position) -> dict[Dice, tuple[Position, Probs]]:
        out: dict[Dice, tuple[Position, Probs]] = {}
        for (a, b), _ in ROLLS21:
            from engine.movegen import legal_plays

            plays = legal_plays(position, (a, b))
            afters = [position.apply(p) for p in plays] or [position.swap_players()]
            after = min(afters, key=lambda x: x.pip_counts()[1])
            if after.borne_off()[1] == CHECKERS:
                out[(a, b)] = (after, (1.0, 0.0, 0.0, 0.0, 0.0))
            else:
                out[(a, b)] = (after, _flip(self.probs(after)))
        return out

    def probs(self, position: Position) -> Probs:
        mine, theirs = position.pip_counts()
        if mine == 0:
            return (1.0, 0.0, 0.0, 0.0, 0.0)
        win = _one_roll_chance(mine) + (1.0 - _one_roll_chance(mine)) * (
            1.0 - _one_roll_chance(theirs)
        ) * (1.0 if theirs > 0 else 0.0)
        return (win, 0.0, 0.0, 0.0, 0.0)


def _one_roll_chance(pips: int) -> float:
    """The chance that one roll bears off a lone checker ``pips`` away (pips <= 12 assumed
    enough for the tests; more than one roll needed is counted as a loss for the next)."""
    hits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            reach = 4 * a if a == b else a + b
            hits += reach >= pips
    return hits / 36.0


def rollout_player(engine: str = "auto") -> RolloutPlayer:
    """The evaluator rollouts play with (``engine``: ``"gnubg"``, ``"bgsage"``, ``"fallback"``
    or ``"auto"``, the first of those installed): GNU Backgammon's networks at 0-ply, the
    player of GNU Backgammon's own rollouts (gnubg-nn, :mod:`engine.bots.gnubgnet`), bgsage at
    1-ply, or the pure-Python fallback's best play by its own score. GNU Backgammon's networks
    are for the standard 15 checkers: other positions are played by bgsage (or the fallback).

    >>> rollout_player("gnubg-0")
    Traceback (most recent call last):
    ...
    ValueError: no rollout player 'gnubg-0': auto, gnubg, bgsage, fallback
    """
    from engine.bots import backend, gnubgnet

    if engine not in ("auto", *_ENGINES):
        raise ValueError(f"no rollout player {engine!r}: auto, {', '.join(_ENGINES)}")
    chosen = engine
    if engine == "auto":
        chosen = "gnubg" if gnubgnet.available() else backend()
    if chosen == "gnubg":
        if not gnubgnet.available():
            raise RuntimeError("gnubg-nn is not installed; roll out with bgsage")
        return _GnubgPlayer(rollout_player(backend()))
    if chosen == "bgsage":
        return _SagePlayer()
    return _FallbackPlayer()


_ENGINES = ("gnubg", "bgsage", "fallback")


class _GnubgPlayer:
    def __init__(self, other: RolloutPlayer) -> None:
        self.other = other  # for positions of other than 15 checkers (hypergammon)

    def move(self, position: Position, dice: Dice) -> tuple[Position, Probs]:
        from engine.bots import gnubgnet

        if position.checkers != CHECKERS:
            return self.other.move(position, dice)
        return gnubgnet.rollout_move(position, dice)

    def moves(self, position: Position) -> dict[Dice, tuple[Position, Probs]]:
        from engine.bots import gnubgnet

        if position.checkers != CHECKERS:
            return self.other.moves(position)
        return gnubgnet.rollout_moves(position)

    def probs(self, position: Position) -> Probs:
        from engine.bots import gnubgnet

        if position.checkers != CHECKERS:
            return self.other.probs(position)
        return gnubgnet.rollout_probs(position)


class _SagePlayer:
    def move(self, position: Position, dice: Dice) -> tuple[Position, Probs]:
        from engine.bots import sage

        return sage.rollout_move(position, dice)

    def moves(self, position: Position) -> dict[Dice, tuple[Position, Probs]]:
        from engine.bots import sage

        return sage.rollout_moves(position)

    def probs(self, position: Position) -> Probs:
        from engine.bots import sage

        return sage.rollout_probs(position)


class _FallbackPlayer:
    def move(self, position: Position, dice: Dice) -> tuple[Position, Probs]:
        return self.moves(position)[dice]

    def moves(self, position: Position) -> dict[Dice, tuple[Position, Probs]]:
        from engine.bots import fallback
        from engine.movegen import legal_plays

        out: dict[Dice, tuple[Position, Probs]] = {}
        for dice, _ in ROLLS21:
            afters = [position.apply(p) for p in legal_plays(position, dice)]
            if not afters:
                out[dice] = (position.swap_players(), self._after(position.swap_players()))
                continue
            mover = [a.swap_players() for a in afters]
            k = max(range(len(afters)), key=lambda i: fallback.move_score(position, mover[i]))
            out[dice] = (afters[k], self._after(afters[k]))
        return out

    @staticmethod
    def _after(after: Position) -> Probs:
        """The mover's chances in ``after`` (seen by the opponent, on roll)."""
        from engine.bots import fallback

        if after.borne_off()[1] == CHECKERS:
            value = after.result_value()
            return (1.0, float(value >= 2), float(value >= 3), 0.0, 0.0)
        return fallback.after_probs(after.swap_players())

    def probs(self, position: Position) -> Probs:
        return _flip(self._after(position))

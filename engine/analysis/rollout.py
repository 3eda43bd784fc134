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

Everything here is cubeless (equities of money play without a cube, +1 a single game won), the
chances of the player on roll before his roll (:func:`rollout_position`) or of the mover after
each candidate play (:func:`rollout_plays`).

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
    and stopping early when ``time_limit`` seconds have passed (after at least two trials)."""

    trials: int = 1296
    truncate: int | None = None
    variance_reduction: bool = True
    seed: int | str = 0
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.trials < 1:
            raise ValueError(f"a rollout needs at least one trial, not {self.trials!r}")
        if self.truncate is not None and self.truncate < 1:
            raise ValueError(f"a rollout is truncated after at least one ply, not {self.truncate}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"a time limit is a positive number of seconds, not {self.time_limit}")


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

    def add(self, outcome: Probs) -> None:
        """Count one trial's (luck-adjusted) outcome and update the figures."""
        values = (*outcome, _equity(outcome))
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


def _trial(
    position: Position, player: RolloutPlayer, rolls: Iterator[Dice], settings: RolloutSettings
) -> Probs:
    """One game from ``position`` (its player on roll is "us"): our luck-adjusted chances."""
    luck = [0.0] * 5
    pos, ours, ply = position, True, 0
    while True:
        if settings.truncate is not None and ply >= settings.truncate:
            now = player.probs(pos)
            outcome = now if ours else _flip(now)
            break
        a, b = next(rolls)
        dice = (min(a, b), max(a, b))
        if not settings.variance_reduction:
            after, probs = player.move(pos, dice)
        else:
            table = player.moves(pos)
            after, probs = table[dice]
            mean = [sum(table[r][1][k] * w for r, w in ROLLS21) / 36.0 for k in range(5)]
            delta = [probs[k] - mean[k] for k in range(5)]
            for k, v in enumerate(delta if ours else _flip_delta(delta)):
                luck[k] += v
        if after.borne_off()[1] == CHECKERS:  # the mover has just won
            outcome = probs if ours else _flip(probs)
            break
        pos, ours, ply = after, not ours, ply + 1
    return (
        outcome[0] - luck[0],
        outcome[1] - luck[1],
        outcome[2] - luck[2],
        outcome[3] - luck[3],
        outcome[4] - luck[4],
    )


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
    clock: Callable[[], float] = time.monotonic,
) -> None:
    source = dice if dice is not None else SeededDice(settings.seed)
    started = clock()
    for t in range(first, first + settings.trials):
        for start, result in zip(starts, results, strict=True):
            outcome = _trial(start, player, source.rolls(t), settings)
            result.add(_flip(outcome) if theirs else outcome)
        if progress is not None:
            progress(t + 1 - first, settings.trials)
        limit = settings.time_limit
        if limit is not None and t > first and clock() - started >= limit:
            break


def rollout_position(
    position: Position,
    player: RolloutPlayer,
    settings: RolloutSettings,
    dice: DiceSource | None = None,
    progress: Progress | None = None,
    first_trial: int = 0,
    clock: Callable[[], float] = time.monotonic,
) -> RolloutResult:
    """The cubeless value of ``position`` for the player on roll, before his roll.

    ``first_trial``: the number of the first trial (the dice of trial ``k`` do not depend on
    the others), so that a long rollout can be run in parts and :meth:`RolloutResult.merge`-d.
    ``clock``: what the settings' time limit is read on (seconds).
    """
    result = RolloutResult.empty()
    _run([position], [result], False, player, settings, dice, progress, first_trial, clock)
    return result


def rollout_plays(
    position: Position,
    plays: Sequence[Play],
    player: RolloutPlayer,
    settings: RolloutSettings,
    dice: DiceSource | None = None,
    progress: Progress | None = None,
    first_trial: int = 0,
    clock: Callable[[], float] = time.monotonic,
) -> list[RolloutResult]:
    """Each play of the player on roll (after his roll) rolled out: the cubeless value for him
    of the position after it, the opponent on roll. Every play gets the same dice, trial by
    trial (the trials alternate between the plays, so a time limit treats them alike)."""
    afters = [position.apply(play) for play in plays]
    results = [RolloutResult.empty(play) for play in plays]
    finished = [a.borne_off()[1] == CHECKERS for a in afters]
    open_ = [k for k in range(len(plays)) if not finished[k]]
    for k in range(len(plays)):
        if finished[k]:  # the play wins now: its value is exact
            value = afters[k].result_value()
            exact: Probs = (1.0, float(value >= 2), float(value >= 3), 0.0, 0.0)
            for _ in range(settings.trials):
                results[k].add(exact)
    starts = [afters[k] for k in open_]
    chosen = [results[k] for k in open_]
    _run(starts, chosen, True, player, settings, dice, progress, first_trial, clock)
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
    """The evaluator rollouts play with: bgsage at 1-ply when it is installed (or asked for),
    else the pure-Python fallback's best play by its own score."""
    from engine.bots import backend

    chosen = backend() if engine == "auto" else engine
    if chosen == "bgsage":
        return _SagePlayer()
    return _FallbackPlayer()


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

"""Statistics for the dice: Pearson's chi-square test with its p-value, in the standard library.

>>> result = chi_square([10, 10, 10, 10, 10, 10], [1 / 6] * 6)
>>> result.statistic, result.df, round(result.p_value, 6)
(0.0, 5, 1.0)
>>> round(chi_square([20, 0, 10, 10, 10, 10], [1 / 6] * 6).p_value, 4)
0.0012
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["ChiSquare", "DiceSummary", "chi_square", "chi_square_sf", "summarize_rolls"]


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    df: int
    p_value: float


def chi_square(observed: Sequence[int], probabilities: Sequence[float]) -> ChiSquare:
    """Pearson's goodness-of-fit test of ``observed`` counts against ``probabilities``.

    :raises ValueError: with no observation, or when the two lengths differ.
    """
    if len(observed) != len(probabilities) or len(observed) < 2:
        raise ValueError("need matching counts and probabilities for two categories or more")
    total = sum(observed)
    if total <= 0:
        raise ValueError("no observation to test")
    stat = sum(
        (o - total * p) ** 2 / (total * p) for o, p in zip(observed, probabilities, strict=True)
    )
    df = len(observed) - 1
    return ChiSquare(stat, df, chi_square_sf(stat, df))


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom: the regularized upper
    incomplete gamma function Q(df/2, x/2), by series or continued fraction (Numerical Recipes).

    >>> round(chi_square_sf(11.0705, 5), 4)  # the 5 % critical value for 5 degrees of freedom
    0.05
    """
    if x <= 0:
        return 1.0
    a, z = df / 2.0, x / 2.0
    if z < a + 1:
        return 1.0 - _lower_series(a, z)
    return _upper_fraction(a, z)


def _lower_series(a: float, z: float) -> float:
    term = total = 1.0 / a
    n = a
    for _ in range(10_000):
        n += 1
        term *= z / n
        total += term
        if abs(term) < abs(total) * 1e-15:
            break
    return total * math.exp(-z + a * math.log(z) - math.lgamma(a))


def _upper_fraction(a: float, z: float) -> float:
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-z + a * math.log(z) - math.lgamma(a)) * h


@dataclass(frozen=True)
class DiceSummary:
    """What a set of rolls looks like next to fair dice."""

    rolls: int
    faces: tuple[int, ...]  # how often each face 1..6 showed (two per roll)
    doubles: int
    faces_test: ChiSquare | None
    rolls_test: ChiSquare | None  # the 21 kinds of roll (11, 21, ..., 66) against 1/36 and 2/36

    @property
    def doubles_rate(self) -> float:
        return self.doubles / self.rolls if self.rolls else 0.0


def summarize_rolls(counts: Mapping[tuple[int, int], int]) -> DiceSummary:
    """Face counts, doubles and both chi-square tests for rolls counted as ``{(d1, d2): n}``.

    >>> s = summarize_rolls({(a, b): 1 for a in range(1, 7) for b in range(1, 7)})
    >>> s.rolls, s.doubles, s.faces, round(s.rolls_test.p_value, 3)
    (36, 6, (12, 12, 12, 12, 12, 12), 1.0)
    """
    faces = [0] * 6
    kinds: dict[tuple[int, int], int] = {}
    rolls = doubles = 0
    for (d1, d2), n in counts.items():
        if not (1 <= d1 <= 6 and 1 <= d2 <= 6) or n <= 0:
            continue
        rolls += n
        faces[d1 - 1] += n
        faces[d2 - 1] += n
        doubles += n if d1 == d2 else 0
        key = (max(d1, d2), min(d1, d2))
        kinds[key] = kinds.get(key, 0) + n
    if not rolls:
        return DiceSummary(0, tuple(faces), 0, None, None)
    order = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
    probabilities = [1 / 36 if a == b else 2 / 36 for a, b in order]
    return DiceSummary(
        rolls,
        tuple(faces),
        doubles,
        chi_square(faces, [1 / 6] * 6),
        chi_square([kinds.get(k, 0) for k in order], probabilities),
    )

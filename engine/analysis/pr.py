"""eXtreme Gammon's Performance Rating (PR) of a player, from a review.

**PR** is the equity lost per non-obvious decision times 500, multiplied by 1.5 in a 1-point
match (XG's convention: with no cube to use, the errors of a 1-point match are smaller in
equity, and the factor keeps its PRs comparable with longer matches'). Lower is better; 0 means
every decision was the computer's. The errors are the review's, normalised to the cube's value
(XG's "EMG" errors; see :mod:`engine.analysis.review`), so a 500 × 0.010 loss is a PR of 5
whatever the cube and the score.

**Non-obvious decisions** (the divisor) follow XG's idea of excluding the decisions where there
was nothing to decide, with the review's own flags (:attr:`Decision.unforced`):

* a checker play counts when the roll had more than one legal play (distinct resulting
  positions, as :func:`engine.legal_plays` lists them); forced plays and rolls that cannot be
  played do not. XG also drops plays whose candidates are all within a hair of each other; the
  review does not keep every candidate's equity, so those count here (they lose nothing and only
  lower the PR slightly);
* a cube decision counts when it is a double, a take or a pass, or a no-double that was close
  (GNU Backgammon's "close cube decision": the best cube action worth less than 0.16 more than
  doubling, see :data:`engine.analysis.CLOSE_CUBE`) or wrong. Trivial no-doubles, far from the
  doubling window or too good to double, do not count, as in XG.

The **bands** are XG's (:data:`PR_BANDS`), each bound belonging to the better band: world champ
up to 2.5, world class up to 5, expert up to 7.5, advanced up to 12.5, intermediate up to 17.5,
casual up to 22.5, beginner up to 30, distracted above. A rating over fewer than
:data:`MIN_DECISIONS` non-obvious decisions (a short or abandoned game) does not count in a
player's trend.

>>> pr_band(2.5), pr_band(2.51), pr_band(30), pr_band(30.1)
('world champ', 'world class', 'beginner', 'distracted')
>>> r = PerformanceRating(error=0.120, decisions=12)
>>> round(r.value, 3), r.band, r.counts_in_trend
(5.0, 'world class', True)
>>> round(PerformanceRating(error=0.120, decisions=12, match_length=1).value, 3)
7.5
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.analysis.review import Decision, Review

__all__ = [
    "MIN_DECISIONS",
    "ONE_POINT_FACTOR",
    "PR_BANDS",
    "PR_SCALE",
    "PerformanceRating",
    "is_non_obvious",
    "performance_rating",
    "pooled",
    "pr_band",
]

PR_SCALE = 500.0
"""PR is the equity lost per non-obvious decision times this."""

ONE_POINT_FACTOR = 1.5
"""The multiplier of a 1-point match's PR."""

MIN_DECISIONS = 10
"""A rating over fewer non-obvious decisions than this does not count in the trend."""

PR_BANDS: tuple[tuple[float, str], ...] = (
    (2.5, "world champ"),
    (5.0, "world class"),
    (7.5, "expert"),
    (12.5, "advanced"),
    (17.5, "intermediate"),
    (22.5, "casual"),
    (30.0, "beginner"),
)
"""XG's bands: the first name whose bound is at least the PR; ``"distracted"`` beyond the last."""


def pr_band(pr: float) -> str:
    """XG's name for a PR (see :data:`PR_BANDS`).

    >>> [pr_band(x) for x in (0, 4, 7.5, 12, 17.5, 20, 25)]
    ['world champ', 'world class', 'expert', 'advanced', 'intermediate', 'casual', 'beginner']
    >>> pr_band(45.0)
    'distracted'

    :raises ValueError: for a negative or NaN PR.
    """
    if not pr >= 0.0:  # also refuses NaN
        raise ValueError(f"a PR is a number of at least 0, not {pr!r}")
    for bound, name in PR_BANDS:
        if pr <= bound:
            return name
    return "distracted"


def is_non_obvious(decision: Decision) -> bool:
    """Whether ``decision`` counts in the PR's divisor (see the module docstring): an unforced
    checker play, or a double, take, pass, or close or wrong no-double.

    >>> from engine.context import MatchContext
    >>> def move(unforced: bool) -> Decision:
    ...     return Decision(0, 1, 0, "move", "4HPwATDgc/ABMA", "cAkAAAAAAAAA", MatchContext(),
    ...                     (3, 1), "8/5 6/5", "8/5 6/5", 0.1, 0.1, unforced)
    >>> is_non_obvious(move(True)), is_non_obvious(move(False))
    (True, False)
    """
    return decision.unforced


@dataclass(frozen=True, slots=True)
class PerformanceRating:
    """The errors behind a PR.

    :ivar error: the equity lost over the non-obvious decisions (cube-normalised), summed, with
        the 1-point factor already applied when ratings are pooled (see :func:`pooled`).
    :ivar decisions: the non-obvious decisions.
    :ivar checker_decisions: those that were checker plays (the rest were cube decisions).
    :ivar match_length: the match's length (0 for money): 1 multiplies the PR by 1.5; a pooled
        rating holds 0 and its factors are in ``error``.
    """

    error: float = 0.0
    decisions: int = 0
    checker_decisions: int = 0
    match_length: int = 0

    @property
    def factor(self) -> float:
        """1.5 in a 1-point match, else 1."""
        return ONE_POINT_FACTOR if self.match_length == 1 else 1.0

    @property
    def value(self) -> float | None:
        """The PR (None without non-obvious decisions).

        >>> PerformanceRating(error=0.05, decisions=4).value
        6.25
        >>> PerformanceRating().value is None
        True
        """
        if not self.decisions:
            return None
        return PR_SCALE * self.factor * self.error / self.decisions

    @property
    def band(self) -> str | None:
        """:func:`pr_band` of :attr:`value` (None without decisions)."""
        value = self.value
        return None if value is None else pr_band(value)

    @property
    def counts_in_trend(self) -> bool:
        """True from :data:`MIN_DECISIONS` non-obvious decisions on.

        >>> [PerformanceRating(decisions=n).counts_in_trend for n in (9, 10)]
        [False, True]
        """
        return self.decisions >= MIN_DECISIONS


def performance_rating(
    review: Review, player: int, *, game: int | None = None
) -> PerformanceRating:
    """The PR of ``player`` (0 or 1) over the reviewed match, or in game ``game`` only.

    >>> from engine import Game
    >>> from engine.analysis import review_game
    >>> opening = Game()
    >>> opening.opening_roll(4, 2)
    >>> opening.play_text("24/20 13/11")  # 8/4 6/4 makes a point
    <Play 24/20 13/11>
    >>> r = performance_rating(review_game(opening, engine="fallback"), 0)
    >>> r.decisions, r.value is not None and r.value > 0
    (1, True)

    :raises ValueError: when ``player`` is not 0 or 1.
    """
    if player not in (0, 1):
        raise ValueError(f"players are 0 and 1, not {player!r}")
    error = 0.0
    decisions = checker = 0
    for d in review.decisions:
        if d.player != player or (game is not None and d.game != game):
            continue
        if not is_non_obvious(d):
            continue
        decisions += 1
        checker += d.kind == "move"
        error += d.error
    return PerformanceRating(error, decisions, checker, review.match_length)


def pooled(ratings: Iterable[PerformanceRating]) -> PerformanceRating:
    """Several ratings as one, the way XG pools matches: all the (scaled) errors over all the
    decisions, so a long match weighs more than a short one.

    >>> a = PerformanceRating(error=0.10, decisions=10)            # PR 5
    >>> b = PerformanceRating(error=0.40, decisions=30)            # PR 6.67
    >>> round(pooled([a, b]).value, 3)                             # 500 * 0.5 / 40
    6.25
    >>> round(pooled([PerformanceRating(0.1, 10, match_length=1)]).value, 3)  # factor kept
    7.5
    """
    error = 0.0
    decisions = checker = 0
    for r in ratings:
        error += r.error * r.factor
        decisions += r.decisions
        checker += r.checker_decisions
    return PerformanceRating(error, decisions, checker, 0)

"""XG's Performance Rating from a review: hand-computed cases."""

from __future__ import annotations

import random

import pytest

from engine.analysis import review_match
from engine.analysis.pr import (
    MIN_DECISIONS,
    PerformanceRating,
    performance_rating,
    pooled,
    pr_band,
)
from engine.analysis.review import Decision, DecisionKind, Review
from engine.analysis.selfplay import play_match
from engine.bots import get_bot
from engine.context import MatchContext

POS, MID = "4HPwATDgc/ABMA", "cAkAAAAAAAAA"


def decision(
    player: int, kind: DecisionKind, error: float, *, unforced: bool = True, game: int = 0
) -> Decision:
    dice = (3, 1) if kind == "move" else None
    return Decision(
        game, 1, player, kind, POS, MID, MatchContext(), dice, "x", "y", 0.2 - error, 0.2, unforced
    )


def review(decisions: list[Decision], length: int = 0) -> Review:
    return Review(match_length=length, plies=2, engine="test", games=2, decisions=tuple(decisions))


DECISIONS = [
    decision(0, "move", 0.0),
    decision(0, "move", 0.020),
    decision(0, "move", 0.040, game=1),
    decision(0, "move", 0.0, unforced=False),  # forced: not a decision
    decision(0, "no double", 0.030),  # a close (or wrong) no-double counts
    decision(0, "no double", 0.0, unforced=False),  # far from the window: obvious
    decision(1, "take", 0.100),
    decision(1, "move", 0.010),
]


def test_pr_is_500_times_the_loss_per_non_obvious_decision() -> None:
    r = performance_rating(review(DECISIONS), 0)
    assert (r.decisions, r.checker_decisions) == (4, 3)
    assert r.error == pytest.approx(0.090)
    assert r.value == pytest.approx(500 * 0.090 / 4)  # 11.25
    assert r.band == "advanced"
    assert not r.counts_in_trend
    other = performance_rating(review(DECISIONS), 1)
    assert other.value == pytest.approx(500 * 0.110 / 2)  # 27.5
    assert other.band == "beginner"


def test_one_game_of_the_match() -> None:
    r = performance_rating(review(DECISIONS), 0, game=1)
    assert r.decisions == 1 and r.value == pytest.approx(20.0)


def test_one_point_matches_count_half_as_much_again() -> None:
    r = performance_rating(review(DECISIONS, length=1), 0)
    assert r.value == pytest.approx(1.5 * 500 * 0.090 / 4)  # 16.875
    assert r.band == "intermediate"
    assert performance_rating(review(DECISIONS, length=3), 0).value == pytest.approx(11.25)


def test_no_decision_no_rating() -> None:
    r = performance_rating(review([decision(0, "move", 0.0, unforced=False)]), 0)
    assert r.decisions == 0 and r.value is None and r.band is None and not r.counts_in_trend


def test_trend_threshold() -> None:
    nine = [decision(0, "move", 0.01)] * (MIN_DECISIONS - 1)
    assert not performance_rating(review(nine), 0).counts_in_trend
    ten = [*nine, decision(0, "double", 0.0)]
    assert performance_rating(review(ten), 0).counts_in_trend


@pytest.mark.parametrize(
    ("value", "band"),
    [
        (0.0, "world champ"),
        (2.5, "world champ"),
        (2.500001, "world class"),
        (5.0, "world class"),
        (7.5, "expert"),
        (7.6, "advanced"),
        (12.5, "advanced"),
        (17.5, "intermediate"),
        (22.5, "casual"),
        (22.6, "beginner"),
        (30.0, "beginner"),
        (30.01, "distracted"),
        (250.0, "distracted"),
    ],
)
def test_bands(value: float, band: str) -> None:
    assert pr_band(value) == band


@pytest.mark.parametrize("bad", [-0.1, float("nan")])
def test_a_pr_is_not_negative(bad: float) -> None:
    with pytest.raises(ValueError):
        pr_band(bad)


def test_players_are_0_and_1() -> None:
    with pytest.raises(ValueError):
        performance_rating(review(DECISIONS), 2)


def test_pooling_weighs_by_decisions_and_keeps_the_one_point_factor() -> None:
    a = PerformanceRating(error=0.1, decisions=10, checker_decisions=8)  # PR 5
    b = PerformanceRating(error=0.2, decisions=10, checker_decisions=10, match_length=1)  # 15
    both = pooled([a, b])
    assert (both.decisions, both.checker_decisions) == (20, 18)
    assert both.value == pytest.approx(500 * (0.1 + 1.5 * 0.2) / 20)  # 10
    assert pooled([]).value is None


def test_a_reviewed_game() -> None:
    """On a real review the PR uses exactly the review's unforced decisions and errors."""
    bots = (get_bot("casual", rng=3, engine="fallback"), get_bot("expert", engine="fallback"))
    match = play_match(bots, random.Random(11), length=3)
    rev = review_match(match, engine="fallback")
    for player in (0, 1):
        r = performance_rating(rev, player)
        stats = rev.stats(player)
        assert r.decisions == stats.decisions
        assert r.error == pytest.approx(stats.checker_error + stats.cube_error)
        rate = stats.error_rate
        assert rate is not None  # every player of a match has decisions
        assert r.value == pytest.approx(rate / 2)  # 500 x equity = millipoints / 2


def test_a_self_played_money_game_has_a_rating() -> None:
    """Was the example of performance_rating's docstring: a whole money game played and reviewed."""
    bots = (get_bot("beginner", engine="fallback", rng=1),) * 2
    r = performance_rating(review_match(play_match(bots, random.Random(4)), engine="fallback"), 0)
    assert r.decisions > 0 and r.value is not None and r.value >= 0

"""Rollouts (engine/analysis/rollout.py): reproducible by seed, unbiased, variance reduced."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine import Position, legal_plays
from engine.analysis.rollout import (
    ExactEndgame,
    RolloutSettings,
    SeededDice,
    rollout_player,
    rollout_plays,
    rollout_position,
)
from engine.bots import sage
from engine.bots.possible import possible_probs


def _lone_checkers(mine_point: int, theirs_point: int) -> Position:
    """One checker a side: mine on my ``mine_point``, the opponent's on his ``theirs_point``."""
    mine, theirs = [0] * 25, [0] * 25
    mine[mine_point - 1], theirs[theirs_point - 1] = 1, 1
    return Position.from_sides(mine, theirs)


# One checker on my 6-point against one on the opponent's 1-point: I win exactly when my roll
# bears it off, 27 rolls of 36 (all but 11, 12, 21, 13, 31, 14, 41, 23, 32).
BEAR_OFF = _lone_checkers(6, 1)
EXACT_EQUITY = 2 * 27 / 36 - 1

needs_sage = pytest.mark.skipif(not sage.available(), reason="bgsage is not installed")


def test_same_seed_same_result_other_seed_other_result() -> None:
    pos = Position.initial()
    player = rollout_player("fallback")
    settings = RolloutSettings(trials=4, truncate=2, seed=11)
    a = rollout_position(pos, player, settings)
    b = rollout_position(pos, player, settings)
    c = rollout_position(pos, player, RolloutSettings(trials=4, truncate=2, seed=12))
    assert (a.probs, a.equity, a.se) == (b.probs, b.equity, b.se)
    assert a.equity != c.equity


def test_standard_error_shrinks_with_trials() -> None:
    pos = _lone_checkers(9, 8)
    player = ExactEndgame()
    few = rollout_position(pos, player, RolloutSettings(trials=8, variance_reduction=False))
    many = rollout_position(pos, player, RolloutSettings(trials=288, variance_reduction=False))
    assert few.trials == 8 and many.trials == 288
    assert 0 < many.se < few.se / 3


def test_exact_player_with_variance_reduction_needs_no_luck() -> None:
    # With an exact evaluator the luck adjustment removes all the randomness.
    r = rollout_position(BEAR_OFF, ExactEndgame(), RolloutSettings(trials=36, seed=3))
    assert r.equity == pytest.approx(EXACT_EQUITY)
    assert r.se == pytest.approx(0.0, abs=1e-12)


def test_without_variance_reduction_the_mean_is_near_the_exact_value() -> None:
    settings = RolloutSettings(trials=360, variance_reduction=False, seed=5, bearoff_stop=False)
    r = rollout_position(BEAR_OFF, ExactEndgame(), settings)
    assert r.se > 0.02  # plain luck: 0.87 / sqrt(360)
    assert abs(r.equity - EXACT_EQUITY) < 3 * r.se


def test_first_roll_is_stratified_over_36_trials() -> None:
    dice = SeededDice("strata")
    firsts = [next(dice.rolls(t)) for t in range(72)]
    assert sorted(firsts[:36]) == sorted(firsts[36:])
    assert len(set(firsts[:36])) == 36


def test_trials_of_a_play_use_the_same_dice_for_every_candidate() -> None:
    pos = Position.initial()
    play = legal_plays(pos, (3, 1))[0]
    settings = RolloutSettings(trials=3, truncate=2, seed=2)
    twice = rollout_plays(pos, [play, play], rollout_player("fallback"), settings)
    assert twice[0].equity == twice[1].equity and twice[0].trials == 3


def test_a_play_that_wins_is_exact() -> None:
    pos = _lone_checkers(3, 20)
    plays = legal_plays(pos, (6, 5))
    (result,) = rollout_plays(pos, plays, ExactEndgame(), RolloutSettings(trials=10))
    assert (result.equity, result.se) == (1.0, 0.0)


def test_time_limit_stops_early_after_two_trials() -> None:
    settings = RolloutSettings(trials=10_000, time_limit=1e-9, seed=1)
    r = rollout_position(BEAR_OFF, ExactEndgame(), settings)
    assert r.trials == 2


def test_progress_is_told_after_each_round() -> None:
    seen: list[tuple[int, int]] = []
    rollout_position(
        BEAR_OFF,
        ExactEndgame(),
        RolloutSettings(trials=3),
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize(
    "kwargs",
    [{"trials": 0}, {"truncate": 0}, {"time_limit": 0.0}],
)
def test_bad_settings_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        RolloutSettings(**kwargs)  # type: ignore[arg-type]


@needs_sage
def test_bgsage_bear_off_is_exact_with_variance_reduction() -> None:
    r = rollout_position(BEAR_OFF, rollout_player("bgsage"), RolloutSettings(trials=36, seed=4))
    assert r.equity == pytest.approx(EXACT_EQUITY, abs=0.01)
    assert r.se < 0.01


@needs_sage
def test_bgsage_bear_off_without_variance_reduction() -> None:
    settings = RolloutSettings(trials=144, variance_reduction=False, seed=4, bearoff_stop=False)
    r = rollout_position(BEAR_OFF, rollout_player("bgsage"), settings)
    assert abs(r.equity - EXACT_EQUITY) < 3 * r.se


@needs_sage
def test_bgsage_truncated_rollout_is_reproducible() -> None:
    settings = RolloutSettings(trials=2, truncate=3, seed=9)
    a = rollout_position(Position.initial(), rollout_player("bgsage"), settings)
    b = rollout_position(Position.initial(), rollout_player("bgsage"), settings)
    assert a.equity == b.equity and -1.0 < a.equity < 1.0


def test_a_rollout_in_parts_is_the_same_rollout() -> None:
    pos = Position.initial()
    player = rollout_player("fallback")
    whole = rollout_position(pos, player, RolloutSettings(trials=4, truncate=2, seed=6))
    part = rollout_position(pos, player, RolloutSettings(trials=2, truncate=2, seed=6))
    rest = rollout_position(
        pos, player, RolloutSettings(trials=2, truncate=2, seed=6), first_trial=2
    )
    part.merge(rest)
    assert part.trials == 4
    assert part.equity == pytest.approx(whole.equity) and part.se == pytest.approx(whole.se)


def test_a_cubeful_rollout_plays_the_cube() -> None:
    """I bear off with 27 rolls of 36, else the opponent bears off: cubeless 0.5. With a cube of 2
    that he owns, I win 2 or he redoubles (a sure win for him) and I pass, losing 2: twice the
    cubeless equity, trial by trial (the stratified first roll makes it exact)."""
    settings = RolloutSettings(trials=36, seed=3, variance_reduction=False)
    cubeless = rollout_position(BEAR_OFF, ExactEndgame(), settings)
    owned = RolloutSettings(
        trials=36, seed=3, variance_reduction=False, cubeful=True, cube_value=2, cube_owner=1
    )
    cubeful = rollout_position(BEAR_OFF, ExactEndgame(), owned)
    assert cubeless.equity == pytest.approx(EXACT_EQUITY)
    assert cubeful.equity == pytest.approx(2 * EXACT_EQUITY)
    assert cubeful.probs == pytest.approx(cubeless.probs)  # the chances stay cubeless


def test_a_cubeful_rollout_of_a_position_decides_the_cube_at_once() -> None:
    """My checker is 13 pips away (only 4-4, 5-5 and 6-6 bear it off), his on his 1-point: I do
    not double, he doubles if I miss and I pass, -1 (as the game's end would give, cubeless).
    Far ahead instead (mine on my 6-point, his 8 pips away: 17 rolls of 36 bear it off) I
    double at once and he passes: exactly +1, every trial. ``cube_at_start=False`` (GNU
    Backgammon's ``rollout`` of a position, the value of not doubling now) rolls first."""
    settings = RolloutSettings(trials=36, seed=1, variance_reduction=False, cubeful=True)
    behind = rollout_position(_lone_checkers(13, 1), ExactEndgame(), settings)
    assert behind.equity == pytest.approx(2 * 3 / 36 - 1)
    ahead = rollout_position(_lone_checkers(6, 8), ExactEndgame(), settings)
    assert ahead.equity == 1.0 and ahead.se == 0.0
    rolled = rollout_position(
        _lone_checkers(6, 8), ExactEndgame(), replace(settings, cube_at_start=False)
    )
    assert rolled.equity != 1.0 and rolled.se > 0
    cubeless = rollout_position(
        _lone_checkers(6, 8), ExactEndgame(), replace(settings, cubeful=False)
    )
    assert cubeless.equity < 1.0


def test_cubeful_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="no such cube"):
        RolloutSettings(cubeful=True, cube_value=0)
    with pytest.raises(ValueError, match="no such cube"):
        RolloutSettings(cubeful=True, cube_owner=2)


@needs_sage
def test_cubeful_plays_of_a_hint_same_seed_same_figures() -> None:
    pos = Position.initial()
    plays = legal_plays(pos, (3, 1))[:2]
    settings = RolloutSettings(trials=2, truncate=3, seed=5, cubeful=True)
    a = rollout_plays(pos, plays, rollout_player(), settings)
    b = rollout_plays(pos, plays, rollout_player(), settings)
    assert [r.equity for r in a] == [r.equity for r in b]
    assert all(-3 <= r.equity <= 3 and r.trials == 2 for r in a)


def test_a_cubeless_trial_stops_once_both_sides_bear_off() -> None:
    """Both checkers home: the trial ends at once on the evaluator's figures (GNU Backgammon's
    cubeless rollouts stop on its bear-off database), so even without variance reduction the
    exact evaluator leaves no error; a cubeful trial plays on (the cube still matters)."""
    settings = RolloutSettings(trials=36, variance_reduction=False, seed=5)
    r = rollout_position(BEAR_OFF, ExactEndgame(), settings)
    assert r.equity == pytest.approx(EXACT_EQUITY) and r.se == 0.0
    played = rollout_position(
        BEAR_OFF,
        ExactEndgame(),
        RolloutSettings(trials=36, seed=5, variance_reduction=False, bearoff_stop=False),
    )
    assert played.se > 0


# The opponent has borne six checkers off (one of his is still on my 5-point): I cannot win a
# gammon, yet bgsage's network gives my best plays up to 5% of gammons here.
NO_GAMMON = "/CAICOy7AwAAAA"


def test_possible_chances_rule_out_what_cannot_happen() -> None:
    pos = Position.from_position_id(NO_GAMMON)
    assert pos.borne_off() == (2, 6)
    raw = (0.97, 0.05, 0.01, 0.02, 0.01)
    assert possible_probs(pos.board, raw) == (0.97, 0.0, 0.0, 0.0, 0.0)
    theirs = possible_probs(pos.swap_players().board, (0.03, 0.01, 0.01, 0.05, 0.01))
    assert theirs == (0.03, 0.0, 0.0, 0.0, 0.0)
    # No gammon beyond the wins, no backgammon beyond the gammons.
    assert possible_probs(Position.initial().board, (0.2, 0.3, 0.4, 0.9, 0.9)) == (
        0.2,
        0.2,
        0.2,
        0.8,
        0.8,
    )


@needs_sage
def test_bgsage_rollout_chances_leave_out_impossible_gammons() -> None:
    pos = Position.from_position_id(NO_GAMMON)
    for _, probs in sage.rollout_moves(pos).values():
        assert probs[1] == probs[2] == 0.0
    assert sage.rollout_probs(pos)[1:3] == (0.0, 0.0)
    assert sage.rollout_probs(pos.swap_players())[3:] == (0.0, 0.0)
    # The gammons' luck is then nil in every roll: no noise from chances that cannot happen.
    r = rollout_position(pos, rollout_player("bgsage"), RolloutSettings(trials=12, seed=1))
    assert r.probs[1:3] == (0.0, 0.0) and r.probs_se[1:3] == (0.0, 0.0)

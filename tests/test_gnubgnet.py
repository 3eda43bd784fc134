"""GNU Backgammon's network as the rollouts' player (engine/bots/gnubgnet.py): its plays are
the engine's legal plays, its chances are the player on roll's, and a rollout it plays lands
where GNU Backgammon's own does (tests/data/gnubg-rollouts.json), also where bgsage's play
did not."""

from __future__ import annotations

import random

import pytest

from bench.bench_rollout import Comparison, load
from engine import Position, legal_plays
from engine.analysis.rollout import (
    ROLLS21,
    RolloutSettings,
    rollout_player,
    rollout_position,
)
from engine.bots import backend, gnubgnet
from engine.bots.arena import RandomPlayer, play_game

pytestmark = pytest.mark.skipif(not gnubgnet.available(), reason="gnubg-nn is not installed")


def _positions(count: int, seed: int, every: int = 4) -> list[Position]:
    """Every ``every``-th position of games played at random by the engine's rules, from the
    opening to the end (contact, hits, the bar, races and bear-offs), the player on roll first."""
    rng = random.Random(seed)
    player = RandomPlayer(rng)
    seen: list[Position] = []
    while len(seen) < count * every:
        play_game((player, player), rng, on_move=lambda _s, pos, _d, _p: seen.append(pos))
    return seen[: count * every : every]


def test_every_play_it_makes_is_a_legal_play_of_the_engine() -> None:
    positions = _positions(80, seed=5)
    # The sample reaches every kind of position, so that every branch of the conversion runs.
    assert any(p.bar() != (0, 0) for p in positions)
    assert any(p.is_race() for p in positions)
    assert any(p.borne_off() != (0, 0) for p in positions)
    for pos in positions:
        moves = gnubgnet.rollout_moves(pos)
        assert set(moves) == {dice for dice, _ in ROLLS21}
        for dice, (after, probs) in moves.items():
            plays = legal_plays(pos, dice)
            legal = {pos.apply(p) for p in plays} if plays else {pos.swap_players()}
            assert after in legal, (pos.position_id(), dice, after.position_id())
            if after.winner() is None:
                # The mover's chances after his play are the opponent's before his roll, seen
                # from the other side: a play's value is never read from the wrong side.
                w, wg, wb, lg, lb = gnubgnet.rollout_probs(after)
                assert probs == pytest.approx((1.0 - w, lg, lb, wg, wb), abs=1e-6)


def test_its_chances_are_those_of_the_player_on_roll() -> None:
    mine, theirs = [0] * 25, [0] * 25
    mine[5] = 1  # one checker on my 6-point
    theirs[0] = 1  # the opponent bears off at his next roll
    pos = Position.from_sides(mine, theirs)
    assert gnubgnet.rollout_probs(pos)[0] == pytest.approx(27 / 36, abs=0.005)
    assert gnubgnet.rollout_probs(pos.swap_players())[0] == pytest.approx(1.0, abs=0.005)


def test_bearing_the_last_checker_off_is_the_exact_result() -> None:
    mine, theirs = [0] * 25, [0] * 25
    mine[0] = 2
    theirs[18] = 15  # all fifteen on my 6-point, in my home board: a backgammon
    pos = Position.from_sides(mine, theirs)
    after, probs = gnubgnet.rollout_move(pos, (1, 1))
    assert after.winner() is not None
    assert probs == (1.0, 1.0, 1.0, 0.0, 0.0)


def test_rollouts_play_by_it_when_it_is_installed() -> None:
    settings = RolloutSettings(trials=4, seed=3, truncate=2)
    pos = _positions(30, seed=2)[-1]
    auto = rollout_position(pos, rollout_player(), settings)
    asked = rollout_position(pos, rollout_player("gnubg"), settings)
    assert (auto.equity, auto.se) == (asked.equity, asked.se)


def test_a_hypergammon_position_is_played_by_the_other_evaluator() -> None:
    """gnubg's network knows fifteen checkers a side: three are played by bgsage (or the
    fallback), as before."""
    pos = Position.from_position_id("AACgAgAAKgAAAA", checkers=3)
    player = rollout_player("gnubg")
    other = rollout_player(backend())
    for dice in ((1, 3), (6, 6)):
        assert player.move(pos, dice) == other.move(pos, dice)
    assert player.probs(pos) == other.probs(pos)


DATA = load()


@pytest.mark.parametrize(
    "position_id",
    # A race where bgsage's bring-in lost 0.015 (4 combined standard errors at 72 trials, 16
    # converged), and a contact position where its stronger play won 0.096 (3.4 and 13).
    ["dXcPAAD/HYDAAA", "/AEDALibC4CIAA"],
)
def test_its_rollouts_land_where_gnubgs_own_do(position_id: str) -> None:
    ref = next(r for r in DATA["gnubg"] if r["position_id"] == position_id)
    settings = RolloutSettings(trials=DATA["trials"], seed=DATA["seed"])
    ours = rollout_position(
        Position.from_position_id(position_id), rollout_player("gnubg"), settings
    )
    c = Comparison(position_id, ours.equity, ours.se, ref["equity"], ref["se"])
    assert c.agree, (c.ours, c.ours_se, c.theirs, c.theirs_se)
    # as precise as gnubg's own: agreement does not come from a wide error (a play valued
    # from the wrong side would make one)
    assert ours.se <= 1.5 * ref["se"], (ours.se, ref["se"])

"""The pure-Python fallback's models: match equities, race chances, Janowski, exposure.

Where bgsage is installed, each model is checked against bgsage's own (a published match equity
table, neural-network chances, its implementation of Janowski's formulas).
"""

from __future__ import annotations

import random

import pytest

from engine import Position
from engine.bots import backend, fallback
from engine.bots.cubeful import cube_efficiency, money_cube_equities
from engine.bots.met import match_equity
from engine.bots.race import race_probs
from engine.context import MatchContext
from tests.conftest import load_corpus

needs_bgsage = pytest.mark.skipif(backend() != "bgsage", reason="bgsage is not installed")


def test_match_equity_table_is_consistent() -> None:
    for a in range(1, 12):
        for b in range(1, 12):
            for post in (False, True):
                m = match_equity(a, b, post_crawford=post)
                assert m + match_equity(b, a, post_crawford=post) == pytest.approx(1.0)
                if b > 1:  # the further the opponent, the better
                    assert m > match_equity(a, b - 1, post_crawford=post) - 1e-12


@needs_bgsage
def test_match_equity_model_is_close_to_bgsage_table() -> None:
    from engine.bots import sage

    worst = max(
        abs(match_equity(a, b, post_crawford=p) - sage.match_equity(a, b, post_crawford=p))
        for a in range(1, 12)
        for b in range(1, 12)
        for p in (False, True)
    )
    assert worst < 0.06


def _race_positions() -> list[Position]:
    out = []
    for case in load_corpus():
        pos = Position.from_position_id(str(case["position_id"]))
        if pos.is_race() and pos.winner() is None and pos not in out:
            out.append(pos)
    return out


@pytest.mark.slow
@needs_bgsage
def test_race_model_is_close_to_bgsage() -> None:
    import bgsage

    from engine.bots import sage

    # 2-ply: the network's direct estimate before a roll can be far off near the end.
    analyzer = bgsage.BgBotAnalyzer(eval_level="2ply", cubeful=False)
    errors = []
    for pos in _race_positions()[:100]:
        theirs = analyzer.cube_action(sage.to_sage(pos), 1, "centered", jacoby=False).probs
        ours = race_probs(pos)
        errors.append((abs(ours[0] - theirs.win), abs(ours[1] - theirs.gammon_win)))
    assert len(errors) == 100
    assert sum(e[0] for e in errors) / len(errors) < 0.04  # measured: 0.015
    assert sum(e[1] for e in errors) / len(errors) < 0.04  # measured: 0.020


@needs_bgsage
def test_janowski_matches_bgsage_implementation() -> None:
    import bgbot_cpp

    rng = random.Random(1)
    owners = {None: bgbot_cpp.CubeOwner.CENTERED, 0: bgbot_cpp.CubeOwner.PLAYER}
    owners[1] = bgbot_cpp.CubeOwner.OPPONENT
    for _ in range(300):
        w = rng.random()
        wg = rng.random() * w * 0.5
        lg = rng.random() * (1 - w) * 0.5
        probs = (w, wg, wg * rng.random() * 0.3, lg, lg * rng.random() * 0.3)
        owner = rng.choice([None, 0, 1])
        jacoby = rng.random() < 0.5
        ctx = MatchContext(cube_value=1 if owner is None else 2, cube_owner=owner, jacoby=jacoby)
        ours = money_cube_equities(probs, ctx, x=0.68)
        theirs = bgbot_cpp.cube_decision_1ply(list(probs), 1, owners[owner], 0.68, jacoby=jacoby)
        assert ours.no_double == pytest.approx(theirs.equity_nd, abs=1e-5)
        assert ours.double_take == pytest.approx(theirs.equity_dt, abs=1e-5)


@needs_bgsage
def test_cube_efficiency_matches_bgsage() -> None:
    import bgbot_cpp

    for race in (False, True):
        for pips in ((20, 30), (80, 90), (150, 160)):
            expected = bgbot_cpp.cube_efficiency([0.5, 0, 0, 0, 0], race, *pips)
            assert cube_efficiency(race, pips) == pytest.approx(expected, abs=1e-6)


def test_race_chances_follow_the_pip_count() -> None:
    # The same home boards, the roller one checker further back each time: his chances fall.
    chances = []
    for extra in range(0, 12, 2):
        board = [0] * 26
        board[1:7] = [2, 2, 2, 2, 2, 2]
        board[7 + extra] = 1
        board[19:25] = [-2] * 6
        chances.append(race_probs(Position.from_board(board))[0])
    assert chances == sorted(chances, reverse=True)
    assert 0.3 < chances[0] < 0.8


def test_exposure_counts_blocked_and_open_shots() -> None:
    board = [0] * 26
    board[1], board[7] = -1, 1  # a blot 6 pips in front of an opponent checker
    open_shot = fallback.exposure(board)
    board[3] = board[4] = 2  # our points block 2-2 (via 3) and 3-3 (via 4); 4-2 goes via 5
    blocked = fallback.exposure(board)
    assert open_shot == 17 / 36 * 18 / 25
    assert blocked == 15 / 36 * 18 / 25
    board[7] = 2  # no blot, no exposure
    assert fallback.exposure(board) == 0.0


def test_contact_chances_are_sensible() -> None:
    start = fallback.estimate(Position.initial())
    assert 0.45 < start[0] < 0.6  # the roller is a slight favourite
    assert 0.05 < start[1] < start[0] and 0.05 < start[3] < 1 - start[0]

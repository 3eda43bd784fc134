"""pubeval, written from its published encoding: inputs, weights, weight-set choice, play."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import Position, legal_plays
from engine.bots import pubeval
from engine.bots.arena import RandomPlayer, run_arena
from engine.bots.fallback import PubevalPlayer
from tests.conftest import load_corpus

SHARED = Path(__file__).resolve().parents[2] / "shared" / "pubeval.json"
CORPUS = load_corpus()


def _dot(weights: tuple[float, ...], x: list[float]) -> float:
    return sum(w * v for w, v in zip(weights, x, strict=True))


def test_weights_are_the_published_ones() -> None:
    if not SHARED.exists():
        pytest.skip("../shared/pubeval.json is not here")
    published = json.loads(SHARED.read_text(encoding="utf-8"))
    w = pubeval.weights()
    assert list(w["race"]) == published["race"]
    assert list(w["contact"]) == published["contact"]


def test_encoding_of_one_point() -> None:
    # Point 24 is the first block (j = 1), point 1 the last (j = 24).
    board = [0] * 26
    board[24], board[1], board[13], board[7] = 1, -1, 3, 6
    x = pubeval.encode(board)
    assert x[0:5] == [0.0, 1.0, 0.0, 0.0, 0.0]  # one checker on 24
    assert x[115:120] == [1.0, 0.0, 0.0, 0.0, 0.0]  # an opponent blot on 1
    k13, k7 = 5 * (25 - 13 - 1), 5 * (25 - 7 - 1)
    assert x[k13 : k13 + 5] == [0.0, 0.0, 1.0, 1.0, 0.0]  # exactly three
    assert x[k7 : k7 + 5] == [0.0, 0.0, 1.0, 0.0, 1.5]  # six: (6 - 3) / 2
    assert len(x) == pubeval.INPUTS


def test_bar_and_off_inputs() -> None:
    board = [0] * 26
    board[0], board[6], board[20] = -2, 5, -13  # opponent: 2 on the bar; mover: 5 left, 10 off
    x = pubeval.encode(board)
    assert x[120] == 1.0 and x[121] == pytest.approx(10 / 15)


def test_all_checkers_off_scores_the_published_constant() -> None:
    board = [0] * 26
    board[20] = -15
    for race in (True, False):
        assert pubeval.score(Position.from_board(board), race=race) == 99999999.0


@pytest.mark.parametrize("race", [True, False])
def test_fast_score_equals_the_dot_product(race: bool) -> None:
    rng = random.Random(4)
    for case in rng.sample(CORPUS, 200):
        pos = Position.from_position_id(str(case["position_id"]))
        if pos.borne_off()[0] == 15:
            continue
        w = pubeval.weights()["race" if race else "contact"]
        expected = _dot(w, pubeval.encode(pos.board))
        assert pubeval.score(pos, race=race) == pytest.approx(expected, abs=1e-9)


def _first(kind: str, wanted: bool) -> tuple[Position, tuple[int, int]]:
    for case in CORPUS:
        pos = Position.from_position_id(str(case["position_id"]))
        dice = tuple(case["dice"])
        if pos.is_race() == wanted and len(case["plays"]) >= 2 and case["kind"] == kind:
            return pos, dice  # type: ignore[return-value]
    raise AssertionError("no such case")


@pytest.mark.parametrize("race", [True, False])
def test_weight_set_follows_the_position_before_the_play(race: bool) -> None:
    pos, dice = _first("random-play", race)
    kind = "race" if race else "contact"
    for play in legal_plays(pos, dice):
        after = pos.apply(play).swap_players()
        expected = _dot(pubeval.weights()[kind], pubeval.encode(after.board))
        if after.borne_off()[0] < 15:
            assert pubeval.score_play(pos, play) == pytest.approx(expected)


def test_a_hit_that_breaks_contact_still_uses_contact_weights() -> None:
    # Mover: checkers on 10 and 3; opponent: a blot on 8 and the rest home (his 1..6 = our
    # 19..24). 2-1 lets 10/8* hit; before the play the game is not a race.
    board = [0] * 26
    board[10], board[3], board[8], board[24] = 1, 14, -1, -14
    pos = Position.from_board(board)
    assert not pos.is_race()
    play = next(p for p in legal_plays(pos, (2, 1)) if p.hits())
    after = pos.apply(play).swap_players()
    assert pubeval.score_play(pos, play) == pytest.approx(pubeval.score(after, race=False))


def test_pubeval_opening_plays() -> None:
    start = Position.initial()
    player = PubevalPlayer()
    assert str(player.choose_play(start, (3, 1))) == "8/5 6/5"
    assert str(player.choose_play(start, (6, 1))) == "13/7 8/7"


@pytest.mark.slow
def test_pubeval_crushes_a_random_player() -> None:
    # Published: +2.51 points per game over 10,000 games; 100 seeded games suffice to see it.
    result = run_arena(PubevalPlayer(), RandomPlayer(seed=5), games=100, seed=3)
    assert result.ppg > 2.0

"""Puzzles graded by GNU Backgammon (bench/bench_puzzles_gnubg.py; the whole set: ``python -m
bench puzzles_gnubg``): the set-up handed to gnubg is checked field by field, the cube verdicts
read gnubg's numbers the right way round, and, when gnubg is installed, a sample of the starter
puzzles is set up exactly and graded as the puzzles grade it (skipped without gnubg; ``GNUBG=``
hides it)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bench.bench_puzzles import DATA, load
from bench.bench_puzzles_gnubg import WITHIN, gnubg_setup, grade, setup_problems, verdict
from engine import Position, decode_match_id
from tests.tools._gnubg import gnubg_binary

PUZZLES = load(DATA)
BY_ID = {p["id"]: p for p in PUZZLES}
TAKE = next(p for p in PUZZLES if p["decision"] in ("take", "drop"))
DOUBLE = next(p for p in PUZZLES if p["decision"] in ("double", "no double"))
MATCH = next(
    p
    for p in PUZZLES
    if p["kind"] == "checker" and p["context"]["score"][0] != p["context"]["score"][1]
)


def seen_of(puzzle: dict[str, Any]) -> dict[str, Any]:
    """What a faithful gnubg reports for ``puzzle``'s set-up (players as its Match ID numbers
    them)."""
    setup = gnubg_setup(puzzle)
    key = decode_match_id(setup["match_id"])
    mine, theirs = Position.from_position_id(puzzle["position_id"]).sides()
    mover = key.player_on_roll
    return {
        "position_id": setup["position_id"],
        "match_id": setup["match_id"],
        "board": [list(theirs), list(mine)],
        "cubeinfo": {
            "cube": key.cube_value,
            "cubeowner": -1 if key.cube_owner is None else key.cube_owner,
            "move": mover,
            "matchto": key.match_length,
            "score": list(key.score),
            "crawford": int(key.crawford),
        },
        "posinfo": {"dice": list(key.dice), "turn": mover, "doubled": 0, "gamestate": 1},
        "jacoby": False,
    }


def test_a_take_is_set_up_as_the_doublers_decision() -> None:
    key = decode_match_id(TAKE["match_id"])
    assert key.double_offered and key.turn != key.player_on_roll
    setup = gnubg_setup(TAKE)
    handed = decode_match_id(setup["match_id"])
    assert not handed.double_offered
    assert handed.turn == handed.player_on_roll == key.player_on_roll
    assert (handed.cube_value, handed.score, handed.match_length) == (
        key.cube_value,
        key.score,
        key.match_length,
    )
    assert setup["position_id"] == TAKE["position_id"]


@pytest.mark.parametrize("puzzle", [TAKE, DOUBLE, MATCH], ids=lambda p: p["id"])
def test_a_faithful_setup_has_no_problem(puzzle: dict[str, Any]) -> None:
    assert setup_problems(puzzle, gnubg_setup(puzzle), seen_of(puzzle)) == []


def _flip_side(seen: dict[str, Any]) -> None:
    seen["board"].reverse()


def _wrong_owner(seen: dict[str, Any]) -> None:
    seen["cubeinfo"]["cubeowner"] = 1 - seen["cubeinfo"]["move"]


def _crawford(seen: dict[str, Any]) -> None:
    seen["cubeinfo"]["crawford"] = 1 - seen["cubeinfo"]["crawford"]


def _swap_score(seen: dict[str, Any]) -> None:
    seen["cubeinfo"]["score"].reverse()


def _other_mover(seen: dict[str, Any]) -> None:
    seen["cubeinfo"]["move"] = seen["posinfo"]["turn"] = 1 - seen["posinfo"]["turn"]


def _dice(seen: dict[str, Any]) -> None:
    seen["posinfo"]["dice"] = [6, 6] if seen["posinfo"]["dice"] != [6, 6] else [1, 1]


def _jacoby(seen: dict[str, Any]) -> None:
    seen["jacoby"] = True


@pytest.mark.parametrize(
    ("spoil", "named"),
    [
        (_flip_side, "board"),
        (_wrong_owner, "cube owner"),
        (_crawford, "Crawford"),
        (_swap_score, "score"),
        (_other_mover, "score"),  # seen from the other side, the uneven score is the wrong way
        (_dice, "dice"),
        (_jacoby, "Jacoby"),
    ],
)
def test_a_setup_gnubg_reads_differently_is_named(spoil: Any, named: str) -> None:
    puzzle = MATCH
    seen = seen_of(puzzle)
    spoil(seen)
    problems = setup_problems(puzzle, gnubg_setup(puzzle), seen)
    assert any(p.startswith(named) for p in problems), problems


def _cube_seen(puzzle: dict[str, Any], nd: float, dt: float, dp: float) -> dict[str, Any]:
    return {**seen_of(puzzle), "cube": {"nd": nd, "dt": dt, "dp": dp}}


def test_cube_verdicts_read_gnubgs_equities_the_right_way_round() -> None:
    take = copy.deepcopy(TAKE)
    take["choices"][0]["answer"] = "take"
    # The doubler's DT 0.6 < DP 1.0: the taker takes; DT 1.3: the taker passes, losing 0.3.
    v = verdict(take, gnubg_setup(take), _cube_seen(take, 0.5, 0.6, 1.0))
    assert (v.theirs, v.agree, v.loss) == ("take", True, 0.0)
    assert v.margin == pytest.approx(0.4)
    v = verdict(take, gnubg_setup(take), _cube_seen(take, 0.5, 1.3, 1.0))
    assert (v.theirs, v.agree) == ("pass", False)
    assert v.loss == pytest.approx(0.3)
    double = copy.deepcopy(DOUBLE)
    double["choices"][0]["answer"] = "no double"
    # ND 0.7 against min(DT 0.9, DP 1.0) = 0.9: double, by 0.2; too good (ND 1.2 > DP): no double.
    v = verdict(double, gnubg_setup(double), _cube_seen(double, 0.7, 0.9, 1.0))
    assert (v.theirs, v.agree) == ("double", False)
    assert v.loss == pytest.approx(0.2)
    v = verdict(double, gnubg_setup(double), _cube_seen(double, 1.2, 1.4, 1.0))
    assert (v.theirs, v.agree, v.loss) == ("no double", True, 0.0)


SAMPLE = [TAKE, DOUBLE, *(p for k, p in enumerate(PUZZLES) if k % 25 == 3)]


@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon is not installed")
def test_a_sample_is_set_up_exactly_and_graded_as_the_puzzles_grade_it() -> None:
    verdicts = grade(SAMPLE)
    assert [v.id for v in verdicts] == [p["id"] for p in SAMPLE]
    for v in verdicts:
        assert v.problems == [], v.id
        assert v.agree or v.loss <= WITHIN, (v.id, v.ours, v.theirs, v.loss)
    assert sum(v.agree for v in verdicts) >= len(verdicts) - 1

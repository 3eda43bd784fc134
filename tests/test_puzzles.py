"""The starter puzzle set (engine/data/puzzles.jsonl, made by bench/make_puzzles.py): every
puzzle is a legal position with legal answers and consistent numbers; a sample agrees with a
deeper analysis (the whole set: ``python -m bench puzzles``)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.bench_puzzles import DATA, context, load, recheck
from bench.make_puzzles import CLEAR
from engine import Position, decode_match_id, legal_plays, parse_play
from engine.bots import backend
from engine.xgid import parse_xgid

PUZZLES = load(DATA)
CUBE_ANSWERS = {"no double": {"double", "no double"}, "double": {"double", "no double"}}
CUBE_ANSWERS |= {"take": {"take", "pass"}, "drop": {"take", "pass"}}


def test_the_set_is_there() -> None:
    assert len(PUZZLES) >= 150
    assert len({p["id"] for p in PUZZLES}) == len(PUZZLES)
    assert len({(p["position_id"], str(p["dice"])) for p in PUZZLES}) == len(PUZZLES)
    kinds = {p["kind"] for p in PUZZLES}
    assert kinds == {"checker", "cube"}


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p["id"] for p in PUZZLES])
def test_puzzle_is_consistent(puzzle: dict[str, Any]) -> None:
    position = Position.from_position_id(puzzle["position_id"])
    key = decode_match_id(puzzle["match_id"])
    ctx = context(puzzle)
    xgid = parse_xgid(puzzle["xgid"])
    assert (xgid.position_id(), xgid.match_id()) == (puzzle["position_id"], puzzle["match_id"])
    assert (key.cube_value, key.match_length) == (ctx.cube_value, ctx.match_length)
    assert sorted(key.score) == sorted(ctx.score)
    choices = puzzle["choices"]
    equities = [c["equity"] for c in choices]
    assert equities == sorted(equities, reverse=True)
    assert equities[0] - equities[1] >= CLEAR  # one right answer
    answers = [c["answer"] for c in choices]
    assert puzzle["played"] in answers
    played_equity = equities[answers.index(puzzle["played"])]
    assert played_equity == puzzle["played_equity"]
    assert puzzle["error"] == pytest.approx(equities[0] - played_equity, abs=1e-6)
    assert puzzle["error"] >= 0.050
    if puzzle["kind"] == "cube":
        assert puzzle["dice"] is None
        assert set(answers) == CUBE_ANSWERS[puzzle["decision"]]
        assert key.double_offered == (puzzle["decision"] in ("take", "drop"))
        return
    dice = (puzzle["dice"][0], puzzle["dice"][1])
    assert sorted(key.dice) == sorted(dice)
    legal = legal_plays(position, dice)
    assert len(legal) >= 2
    for choice in choices:
        play = parse_play(choice["answer"], position, dice)
        assert play in legal
        assert [[m.src, m.dst, m.die, m.hit] for m in play.moves] == choice["steps"]
    played = parse_play(puzzle["played"], position, dice)
    assert [[m.src, m.dst, m.die, m.hit] for m in played.moves] == puzzle["played_steps"]


SAMPLE = [p for k, p in enumerate(PUZZLES) if k % 50 == 7]


@pytest.mark.skipif(backend() != "bgsage", reason="the puzzles were analysed by bgsage")
@pytest.mark.parametrize("puzzle", SAMPLE, ids=[p["id"] for p in SAMPLE])
def test_sample_agrees_with_a_deeper_analysis(puzzle: dict[str, Any]) -> None:
    best, loss = recheck(puzzle)
    assert best == puzzle["choices"][0]["answer"] or loss <= 0.010


def test_cube_choices_are_the_deciders_equities() -> None:
    from bench.make_puzzles import cube_choices
    from engine.analysis.review import Decision
    from engine.context import MatchContext

    def cube(kind: str) -> Decision:
        return Decision(
            0, 3, 1, kind, "4HPwATDgc/ABMA", "cAkAAAAAAAAA", MatchContext(), None,  # type: ignore[arg-type]
            kind, "", 0.0, 0.0, True, cube=(0.40, 0.55, 1.0),
        )  # fmt: skip

    # Doubling is right (DT 0.55 < DP 1.0 beats ND 0.40); a no-double loses 0.15.
    choices, played = cube_choices(cube("no double"))
    assert [(c["answer"], c["equity"]) for c in choices] == [("double", 0.55), ("no double", 0.4)]
    assert played == 0.4
    # The taker's equities are minus the doubler's: take -0.55, pass -1; a drop loses 0.45.
    choices, played = cube_choices(cube("drop"))
    assert [(c["answer"], c["equity"]) for c in choices] == [("take", -0.55), ("pass", -1.0)]
    assert played == -1.0


def test_a_puzzle_is_made_of_the_confirming_analysis(monkeypatch: pytest.MonkeyPatch) -> None:
    """``make_puzzle(confirm=...)`` evaluates the decision again at the confirming depth and keeps
    it only when that analysis finds the review's best answer, clear by :data:`CLEAR`, with the
    played decision still losing 0.050; the stored equities and error are that analysis'."""
    import engine.analysis.puzzle as puzzle_module
    from engine.analysis.puzzle import make_puzzle
    from engine.analysis.review import Decision
    from engine.context import MatchContext

    # Reviewed: a no double that should have been a double, ND 0.40, DT 0.55, DP 1.0: 0.15 lost.
    d = Decision(
        0, 3, 1, "no double", "4HPwATDgc/ABMA", "cAkAAAAAAAAA", MatchContext(), None,
        "no double", "double", 0.40, 0.55, True, cube=(0.40, 0.55, 1.0),
    )  # fmt: skip
    asked: list[int] = []

    def deeper_says(nd: float, dt: float, dp: float = 1.0) -> None:
        def fake(decision: Decision, plies: int, engine: str) -> tuple[float, float, float]:
            asked.append(plies)
            assert engine == "fallback"  # the evaluator the caller names (the review's)
            return nd, dt, dp

        monkeypatch.setattr(puzzle_module, "cube_equities", fake)

    unconfirmed = make_puzzle(d, 2)
    assert unconfirmed is not None and unconfirmed["error"] == pytest.approx(0.15)
    assert unconfirmed["plies"] == 2
    deeper_says(0.45, 0.52)  # still a double, 0.07 lost: made of the deeper numbers
    made = make_puzzle(d, 2, confirm=3, engine="fallback")
    assert made is not None and made["plies"] == 3
    assert made["error"] == pytest.approx(0.07)
    assert [(c["answer"], c["equity"]) for c in made["choices"]] == [
        ("double", 0.52),
        ("no double", 0.45),
    ]
    assert made["choices"][0]["cube"] == [0.45, 0.52, 1.0]
    assert made["played_equity"] == 0.45
    deeper_says(0.50, 0.53)  # the same answer, 0.030 lost: no longer a blunder
    assert make_puzzle(d, 2, confirm=3, engine="fallback") is None
    deeper_says(0.60, 0.55)  # the deeper analysis prefers another answer
    assert make_puzzle(d, 2, confirm=3, engine="fallback") is None
    deeper_says(0.40, 0.40 + CLEAR - 0.001)  # the same answer, not clear (nor a blunder)
    assert make_puzzle(d, 2, confirm=3, engine="fallback") is None
    # below the threshold: not asked
    assert make_puzzle(d, 2, min_error=0.2, confirm=3, engine="fallback") is None
    assert asked == [3, 3, 3, 3]


def test_a_stored_puzzle_gives_back_its_decision() -> None:
    """``bench.make_puzzles.as_decision``: what ``--refilter`` confirms again is the decision the
    puzzle was made of (same moment, answers and numbers)."""
    from bench.make_puzzles import as_decision, cube_choices

    for puzzle in PUZZLES:
        d = as_decision(puzzle)
        assert (d.position_id, d.match_id, d.context) == (
            puzzle["position_id"],
            puzzle["match_id"],
            context(puzzle),
        )
        assert (d.best, d.played) == (puzzle["choices"][0]["answer"], puzzle["played"])
        assert d.error == pytest.approx(puzzle["error"], abs=1e-6)
        if puzzle["kind"] == "cube":
            choices, played = cube_choices(d)
            assert choices == puzzle["choices"] and played == puzzle["played_equity"]
        else:
            assert d.played_play == parse_play(
                puzzle["played"], d.position, (puzzle["dice"][0], puzzle["dice"][1])
            )

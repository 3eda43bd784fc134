"""The engine agrees with GNU Backgammon on every case of the shared corpus."""

from __future__ import annotations

import pytest

from engine import Position, legal_plays, parse_play
from tests.conftest import load_corpus

CASES = load_corpus()


def _id(case: dict[str, object]) -> str:
    return f"{case['kind']}-{case['position_id']}-{case['dice']}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_legal_plays_match_gnubg(case: dict[str, object]) -> None:
    pos = Position.from_position_id(str(case["position_id"]))
    dice = tuple(case["dice"])  # type: ignore[arg-type]
    plays = legal_plays(pos, dice)  # type: ignore[arg-type]
    got = sorted(pos.apply(p).position_id() for p in plays)
    assert got == case["plays"]
    # One play per distinct result, and notation reads back to the same play.
    assert len(set(got)) == len(got)
    for play in plays:
        assert parse_play(str(play), pos, dice) == play  # type: ignore[arg-type]


def test_corpus_covers_every_kind() -> None:
    kinds = {c["kind"] for c in CASES}
    assert kinds == {"random-play", "pubeval-play", "synthetic", "endgame", "partial-roll"}
    assert len(CASES) == 1250

"""World class decides the cube at 3-ply (issue 31, item 3): on the sampled cube decisions where
bgsage 2-ply (every other level's depth) disagrees with GNU Backgammon 1.07 at 2 plies
(tests/data/gnubg-cube.json, made by bench/bench_cube.py), world class decides like gnubg."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Position
from engine.bots import get_bot, level_spec, sage
from engine.context import MatchContext

DATA: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "gnubg-cube.json").read_text(encoding="utf-8")
)
HARD = [DATA["decisions"][k] for k in DATA["hard"]]


def gnubg_choice(row: dict[str, Any]) -> bool:
    """gnubg 2-ply's answer: double (the doubler's decision) or take (the taker's)."""
    nd, dt, dp = row["gnubg2"]
    return min(dt, dp) > nd if row["decision"] == "double" else dt <= dp


def test_world_class_searches_the_cube_deeper_than_expert() -> None:
    assert level_spec("world class").cube_ply == 3 > level_spec("expert").cube_ply


def test_the_sample_is_300_decisions_with_gnubgs_equities() -> None:
    assert len(DATA["decisions"]) == 300 and len(HARD) >= 1
    assert all(len(r["gnubg2"]) == 3 and r["gnubg2"][2] == 1.0 for r in DATA["decisions"])


@pytest.mark.skipif(not sage.available(), reason="bgsage is not installed")
@pytest.mark.parametrize("row", HARD, ids=[r["id"] for r in HARD])
def test_world_class_decides_like_gnubg_where_2_ply_does_not(row: dict[str, Any]) -> None:
    position = Position.from_position_id(row["position_id"])
    ctx = MatchContext.from_dict(row["ctx"])
    world, expert = get_bot("world class", rng=1), get_bot("expert", rng=1)
    decide = "should_double" if row["decision"] == "double" else "should_take"
    assert getattr(expert, decide)(position, ctx) != gnubg_choice(row)  # the 2-ply miss
    assert getattr(world, decide)(position, ctx) == gnubg_choice(row)

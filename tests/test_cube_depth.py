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
from engine.bots.decisions import CubeEquities, _free_double, can_double_usefully
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


def _doubles(count: int) -> list[tuple[Position, MatchContext]]:
    rows = [r for r in DATA["decisions"] if r["decision"] == "double"]
    cases = [
        (Position.from_position_id(r["position_id"]), MatchContext.from_dict(r["ctx"]))
        for r in rows
    ]
    # The decisions should_double screens (a free double past Crawford is searched).
    return [(p, c) for p, c in cases if can_double_usefully(c) and not _free_double(c)][:count]


def _recording(calls: list[tuple[Any, Any]]) -> Any:
    def runner(fn, *args):  # type: ignore[no-untyped-def]
        result = fn(*args)
        calls.append((fn, result))
        return result

    return runner


@pytest.mark.skipif(not sage.available(), reason="bgsage is not installed")
def test_world_class_screens_its_doubles_and_decides_as_the_full_search() -> None:
    # The 2-ply screen ends most double decisions without the 3-ply search, and changes none:
    # on sampled double decisions, world class doubles exactly where the full search would.
    world = get_bot("world class", rng=1)
    screened = 0
    for position, ctx in _doubles(16):
        calls: list[tuple[Any, Any]] = []
        sage.run_cube_with(_recording(calls))
        try:
            doubles = world.should_double(position, ctx)
        finally:
            sage.run_cube_with(None)
        assert [fn for fn, _ in calls] == [sage.screened_cube]
        screened += calls[0][1] is None
        full = sage.search_cube(position, ctx, 3)[0]
        assert doubles == (min(full.double_take, full.double_pass) > full.no_double), ctx
    assert 0 < screened < 16


@pytest.mark.skipif(not sage.available(), reason="bgsage is not installed")
@pytest.mark.parametrize(
    ("level", "ctx", "searched"),
    [
        ("world class", MatchContext(), "screened_cube"),
        ("expert", MatchContext(), "screened_cube"),  # at 2 plies: no screen, the search itself
        ("advanced", MatchContext(), "search_cube"),  # noisy: may double where the screen is far
        ("world class", MatchContext(match_length=7, score=(4, 6)), "search_cube"),  # free double
    ],
)
def test_which_double_decisions_are_screened(level: str, ctx: MatchContext, searched: str) -> None:
    calls: list[Any] = []

    def runner(fn, position, ctx, ply):  # type: ignore[no-untyped-def]
        calls.append((fn.__name__, ply))
        no_double = CubeEquities(0.1, -0.4, 1.0)
        return no_double if fn is sage.screened_cube else (no_double, (0.5, 0.1, 0.0, 0.1, 0.0))

    sage.run_cube_with(runner)
    try:
        get_bot(level, rng=1).should_double(Position.initial(), ctx)
    finally:
        sage.run_cube_with(None)
    assert calls == [(searched, level_spec(level).cube_ply)]

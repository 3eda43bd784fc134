"""Cube decisions graded by GNU Backgammon 2-ply (issue 31, item 3: world class's cube "at least
as good as gnubg 1-ply's on the same positions", a cube decision within 1 s).

``python -m bench cube`` samples ``CUBE_DECISIONS`` (300) cube decisions from seeded self-play
games between computer levels (money games and 5- and 7-point matches): every double decision
(the player on roll may double) and every take decision met, 300 of them drawn with a seed, the
take decisions all kept. GNU Backgammon 1.07 (``gnubg -t -q``, ``set gnubgid`` then ``hint``,
see bench/gnubg_puzzles.py) gives each its cubeful No double, Double/take and Double/pass at 2
plies (the reference), and at 1 and 0 plies (its choices, graded like ours). bgsage gives its own
at 2 and 3 plies (the engine's numbering: gnubg's 1 and 2 plies). Each choice costs the
reference's equity of the best action minus that of the action chosen; the figure is the mean
cost per decision in millipoints (thousandths of the cube), lower is better. The decisions and
the reference's equities are written to ``$CUBE_OUT`` when set (tests/data/gnubg-cube.json was
made so). ``--quick``: 40 decisions, no gnubg 0-ply.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.common import Figure, check, percentile
from engine import Position
from engine.bots.decisions import CubeEquities
from engine.context import MatchContext

NAME = "cube"
DECISIONS = int(os.environ.get("CUBE_DECISIONS", "300"))
BUDGET_MS = 1000.0
LEVEL_PAIRS = (("intermediate", "advanced"), ("advanced", "expert"), ("expert", "world class"))


class _Recorder:
    """A computer player that notes every cube decision it is asked (doubler's view)."""

    def __init__(self, bot: Any, seen: list[tuple[str, Position, MatchContext]]) -> None:
        self.bot, self.seen = bot, seen

    def choose_play(self, *args: Any) -> Any:
        return self.bot.choose_play(*args)

    def should_double(self, position: Position, ctx: MatchContext) -> bool:
        self.seen.append(("double", position, ctx))
        return bool(self.bot.should_double(position, ctx))

    def should_take(self, position: Position, ctx: MatchContext) -> bool:
        self.seen.append(("take", position, ctx))
        return bool(self.bot.should_take(position, ctx))


def sample(count: int, seed: str = "cube-bench") -> list[tuple[str, Position, MatchContext]]:
    """``count`` cube decisions of seeded self-play games (every take decision kept)."""
    from engine.analysis.selfplay import play_match
    from engine.bots import get_bot

    seen: list[tuple[str, Position, MatchContext]] = []
    k = 0
    while len(seen) < 3 * count:
        low, high = LEVEL_PAIRS[k % len(LEVEL_PAIRS)]
        bots = (
            _Recorder(get_bot(low, rng=random.Random(f"{seed}/{k}/0")), seen),
            _Recorder(get_bot(high, rng=random.Random(f"{seed}/{k}/1")), seen),
        )
        play_match(bots, random.Random(f"{seed}/{k}"), length=(0, 5, 7)[k % 3])
        k += 1
    takes = [d for d in seen if d[0] == "take"]
    doubles = [d for d in seen if d[0] == "double"]
    rng = random.Random(seed)
    chosen = takes[:count] + rng.sample(doubles, max(0, count - len(takes)))
    return chosen[:count]


def gnubg_setup(index: int, position: Position, ctx: MatchContext) -> dict[str, Any]:
    from engine import encode_match_id
    from engine.ids import MatchKey

    key = MatchKey(
        cube_value=ctx.cube_value,
        cube_owner=ctx.cube_owner,
        match_length=ctx.match_length,
        score=ctx.score,
        crawford=ctx.crawford,
        jacoby=bool(ctx.jacoby and not ctx.match_length),
    )
    return {
        "id": str(index),
        "kind": "cube",
        "position_id": position.position_id(),
        "match_id": encode_match_id(key),
        "jacoby": bool(ctx.jacoby and not ctx.match_length),
    }


def gnubg_cube(setups: Sequence[dict[str, Any]], plies: int) -> list[CubeEquities]:
    """GNU Backgammon's No double, Double/take, Double/pass of each set-up at ``plies``."""
    from bench.gnubg_puzzles import SCRIPT
    from tests.tools._gnubg import run_in_gnubg

    with tempfile.TemporaryDirectory() as tmp:
        given, out = Path(tmp) / "in.json", Path(tmp) / "out.jsonl"
        given.write_text(json.dumps(list(setups)), encoding="utf-8")
        run_in_gnubg(SCRIPT, {"in": str(given), "out": str(out), "plies": plies}, timeout=7200)
        rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return [CubeEquities(r["cube"]["nd"], r["cube"]["dt"], r["cube"]["dp"]) for r in rows]


def cost(kind: str, chooser: CubeEquities, ref: CubeEquities) -> float:
    """What the chooser's action costs by the reference's equities (doubler's view)."""
    if kind == "double":
        doubles = min(chooser.double_take, chooser.double_pass) - chooser.no_double > 0
        best = max(ref.no_double, min(ref.double_take, ref.double_pass))
        return best - (min(ref.double_take, ref.double_pass) if doubles else ref.no_double)
    takes = chooser.double_pass - chooser.double_take >= 0
    chosen = ref.double_take if takes else ref.double_pass
    return chosen - min(ref.double_take, ref.double_pass)


def ours(
    decisions: Sequence[tuple[str, Position, MatchContext]], ply: int
) -> tuple[list[CubeEquities], list[float], list[float]]:
    """bgsage's cube equities of each decision at ``ply``, and the milliseconds each took
    (wall clock, and CPU time of the process: on a shared machine the wall clock mostly
    measures the others)."""
    from engine.bots import sage

    out, wall, cpu = [], [], []
    for _, position, ctx in decisions:
        started, used = time.perf_counter(), time.process_time()
        out.append(sage.cube_equities(position, ctx, ply))
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return out, wall, cpu


def _mean_mp(
    kinds: Sequence[str], chooser: Sequence[CubeEquities], ref: Sequence[CubeEquities]
) -> float:
    costs = [cost(k, c, r) for k, c, r in zip(kinds, chooser, ref, strict=True)]
    return 1000.0 * sum(costs) / len(costs)


def _ours(
    decisions: Sequence[tuple[str, Position, MatchContext]],
    kinds: Sequence[str],
    ref: Sequence[CubeEquities],
    gnubg1: float,
) -> list[Figure]:
    """bgsage at 2 and 3 plies graded; world class's depth held to gnubg 1-ply's figure and
    to the time budget."""
    from engine.bots import level_spec

    world = level_spec("world class").cube_ply
    figures = []
    for ply in (2, 3):
        equities, times, cpu = ours(decisions, ply)
        mp = _mean_mp(kinds, equities, ref)
        tag = " (world class)" if ply == world else ""
        bound = round(gnubg1, 2) if ply == world else None
        figures += [
            check(NAME, f"bgsage {ply}-ply vs gnubg 2-ply{tag}", mp, "mp/decision", at_most=bound),
            check(
                NAME,
                f"bgsage {ply}-ply cube decision p95{tag}",
                percentile(times, 95),
                "ms",
                at_most=BUDGET_MS if ply == world else None,
            ),
            Figure(
                NAME, f"bgsage {ply}-ply cube decision p95, CPU time", percentile(cpu, 95), "ms"
            ),
        ]
    return figures


def _screened(
    decisions: Sequence[tuple[str, Position, MatchContext]], ref: Sequence[CubeEquities]
) -> list[Figure]:
    """World class's double decisions through its screen (:func:`engine.bots.sage.double_analysis`:
    a 2-ply screen, the 3-ply search only where the position is not far from doubling) against
    the full 3-ply search: how many the screen ends, how many it changes (none, as a target), the
    mean cost by gnubg 2-ply, and the CPU time per decision both ways."""
    from engine.bots import level_spec, sage
    from engine.bots.decisions import _free_double, can_double_usefully

    ply = level_spec("world class").cube_ply
    rows = [  # the decisions should_double screens: a free double is searched
        (p, c, r)
        for (kind, p, c), r in zip(decisions, ref, strict=True)
        if kind == "double" and can_double_usefully(c) and not _free_double(c)
    ]
    ended = changed = 0
    costs, full_ms, screened_ms = [], [], []
    for position, ctx, r in rows:
        used = time.process_time()
        full = sage.search_cube(position, ctx, ply)[0]
        full_ms.append((time.process_time() - used) * 1000)
        used = time.process_time()
        screened = sage.screened_cube(position, ctx, ply)
        screened_ms.append((time.process_time() - used) * 1000)
        ended += screened is None
        chooser = screened or CubeEquities(1.0, -1.0, -1.0)  # ended: no double
        changed += cost("double", chooser, full) != cost("double", full, full)
        costs.append(cost("double", chooser, r))
    n = max(1, len(rows))
    return [
        Figure(NAME, "world class double decisions ended by the 2-ply screen", ended, f"of {n}"),
        check(NAME, "world class double decisions the screen changes", changed, "", at_most=0),
        Figure(NAME, "world class screened vs gnubg 2-ply (doubles)", 1000 * sum(costs) / n, "mp"),
        Figure(NAME, "double decision CPU, full 3-ply search (mean)", sum(full_ms) / n, "ms"),
        Figure(NAME, "double decision CPU, screened (mean)", sum(screened_ms) / n, "ms"),
    ]


def run(quick: bool = False) -> list[Figure]:
    from engine.bots import sage
    from tests.tools._gnubg import gnubg_binary

    if gnubg_binary() is None or not sage.available():
        print(f"  {NAME}: needs GNU Backgammon and bgsage; nothing graded", file=sys.stderr)
        return [Figure(NAME, "skipped: no gnubg or bgsage", 0, "")]
    decisions = sample(40 if quick else DECISIONS)
    kinds = [d[0] for d in decisions]
    setups = [gnubg_setup(i, p, c) for i, (_, p, c) in enumerate(decisions)]
    ref = gnubg_cube(setups, 2)
    n = len(decisions)
    figures = [Figure(NAME, f"decisions ({sum(k == 'take' for k in kinds)} takes)", n, "")]
    gnubg1 = _mean_mp(kinds, gnubg_cube(setups, 1), ref)
    figures.append(Figure(NAME, "gnubg 1-ply vs gnubg 2-ply", gnubg1, "mp/decision"))
    if not quick:
        figures.append(
            Figure(
                NAME,
                "gnubg 0-ply vs gnubg 2-ply",
                _mean_mp(kinds, gnubg_cube(setups, 0), ref),
                "mp/decision",
            )
        )
    figures += _ours(decisions, kinds, ref, gnubg1)
    figures += _screened(decisions, ref)
    out = os.environ.get("CUBE_OUT")
    if out:
        rows = [
            {
                **s,
                "decision": k,
                "ctx": c.to_dict(),
                "gnubg2": [r.no_double, r.double_take, r.double_pass],
            }
            for s, k, (_, _, c), r in zip(setups, kinds, decisions, ref, strict=True)
        ]
        Path(out).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return figures

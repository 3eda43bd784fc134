"""The starter puzzles against a deeper analysis (issue 18): "on 200 generated puzzles, the best
play agrees with a deeper analysis in at least 95% of the cases and every disagreement is within
0.010".

Every puzzle of ``engine/data/puzzles.jsonl`` (made at bgsage's 3 plies by
``bench/make_puzzles.py``) is analysed again at 4 plies: a checker play by ranking every legal
play (the recorded best one searched at full depth too), a cube decision by the cube equities of
the position. A disagreement's size is the deeper analysis' equity of its own best answer minus
its equity of the recorded best. ``--quick`` checks the first ten puzzles.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import Figure, check
from engine.analysis.puzzle import deeper, puzzle_context

NAME = "puzzles"
DATA = Path(__file__).resolve().parent.parent / "engine" / "data" / "puzzles.jsonl"
DEEPER = 4


def load(path: Path = DATA) -> list[dict[str, Any]]:
    """The puzzles of a JSON-lines file."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


context = puzzle_context
"""The :class:`MatchContext` recorded with a puzzle (seen by the player on roll)."""


def recheck(puzzle: dict[str, Any], plies: int = DEEPER) -> tuple[str, float]:
    """The deeper analysis' best answer and how much the recorded best loses against it (0.0
    when they agree)."""
    best, loss, _ = deeper(puzzle, plies)
    return best, loss


def run(quick: bool = False) -> list[Figure]:
    puzzles = load()
    if quick:
        puzzles = puzzles[:10]
    started = time.perf_counter()
    losses: list[float] = []
    for k, puzzle in enumerate(puzzles):
        best, loss = recheck(puzzle)
        if best != puzzle["choices"][0]["answer"]:
            losses.append(loss)
            print(
                f"  puzzles: {puzzle['id']}: {DEEPER} plies prefer {best} to "
                f"{puzzle['choices'][0]['answer']} by {loss:.4f}",
                file=sys.stderr,
            )
        if (k + 1) % 20 == 0:
            elapsed = time.perf_counter() - started
            print(f"  puzzles: {k + 1} checked, {elapsed:.0f} s", file=sys.stderr, flush=True)
    n = len(puzzles)
    agree = 100.0 * (n - len(losses)) / n if n else float("nan")
    return [
        check(
            NAME, f"best answer agrees with {DEEPER} plies ({n} puzzles)", agree, "%", at_least=95
        ),
        check(NAME, "largest disagreement", max(losses, default=0.0), "equity", at_most=0.010),
        Figure(NAME, "seconds per puzzle at 4 plies", (time.perf_counter() - started) / n, "s"),
    ]

"""Move generation speed over the GNU Backgammon corpus (issue: rules engine, >= 30,000/s)."""

from __future__ import annotations

import json
import time

from bench.common import CORPUS, Figure, best_of, check
from engine import Position, legal_plays


def run(quick: bool = False) -> list[Figure]:
    rows = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    cases = [(Position.from_position_id(r["position_id"]), tuple(r["dice"])) for r in rows]
    repeats = 2 if quick else 7

    def plays_only() -> float:
        start = time.perf_counter()
        for pos, dice in cases:
            legal_plays(pos, dice)
        return time.perf_counter() - start

    def with_results() -> float:
        start = time.perf_counter()
        for pos, dice in cases:
            for play in legal_plays(pos, dice):
                pos.apply(play)
        return time.perf_counter() - start

    n = len(cases)
    return [
        check(
            "movegen",
            f"legal_plays over the corpus ({n} positions)",
            n / best_of(repeats, plays_only),
            "pos/s",
            at_least=30_000,
        ),
        check(
            "movegen", "legal_plays + apply every play", n / best_of(repeats, with_results), "pos/s"
        ),
    ]

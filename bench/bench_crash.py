"""Crash safety (issue: integrity): 50 scripted games, each killed with SIGKILL at a random
moment and resumed; zero lost, half-applied or diverging games (--quick: 3 games)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from bench.common import Figure, check
from bench.crash import crash_one


def run(quick: bool = False) -> list[Figure]:
    games = 3 if quick else 50
    rng = random.Random(7)
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{Path(tmp) / 'crash.sqlite3'}"
        reference = f"sqlite:///{Path(tmp) / 'reference.sqlite3'}"
        # Kills after 2 to 80 acknowledged actions: anywhere in the first half of a game (110+).
        results = [
            crash_one(db, reference, channel, rng, kill_after=(2, 80))
            for channel in range(1, games + 1)
        ]
    mid_game = sum(1 for r in results if r.mid_game)
    return [
        check("crash", "games killed and resumed", float(len(results)), "games", at_least=games),
        check("crash", "killed mid-game", float(mid_game), "games", at_least=games),
        check(
            "crash",
            "acknowledged actions lost",
            float(sum(r.lost for r in results)),
            "games",
            at_most=0,
        ),
        check(
            "crash",
            "half-applied actions",
            float(sum(r.half_applied for r in results)),
            "games",
            at_most=0,
        ),
        check(
            "crash", "diverging games", float(sum(r.diverged for r in results)), "games", at_most=0
        ),
        check(
            "crash",
            "unfinished after resume",
            float(sum(not r.finished for r in results)),
            "games",
            at_most=0,
        ),
    ]

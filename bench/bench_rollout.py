"""The engine's rollouts against GNU Backgammon's (issue 31, item 4: "within two combined
standard errors in at least 90% of them", on at least 20 positions).

``python -m bench rollout`` rolls out each position of tests/data/gnubg-rollouts.json (the player
on roll before his roll; ten races and twelve contact positions of the starter puzzles, and the
opening position) with the engine's rollout (:mod:`engine.analysis.rollout`: bgsage 1-ply play,
variance reduction, cubeless, played to the end) and the file's trials and seed, and compares each
cubeless equity with GNU Backgammon 1.07's rollout of the same position with the same settings
(0-ply play, variance reduction, quasi-random dice) stored in the file: a position agrees when
the two equities differ by at most two combined standard errors, ``2 * sqrt(se1^2 + se2^2)``.
``--quick`` rolls out the five shortest races only. ``ROLLOUT_GNUBG_REFRESH=1`` (with gnubg
installed) rolls the positions out in GNU Backgammon again and rewrites the file first.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import Figure, check

NAME = "rollout"
DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "gnubg-rollouts.json"
AGREE = 90.0


def load(path: Path = DATA) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def refresh(path: Path = DATA) -> None:
    """Roll the file's positions out again in GNU Backgammon, with the file's settings."""
    from bench.gnubg_rollouts import gnubg_rollouts

    data = load(path)
    started = time.perf_counter()
    results = gnubg_rollouts(data["positions"], data["trials"], data["seed"])
    data["gnubg"] = [dataclasses.asdict(r) for r in results]
    data["gnubg_seconds"] = round(time.perf_counter() - started, 1)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


@dataclasses.dataclass
class Comparison:
    position_id: str
    ours: float
    ours_se: float
    theirs: float
    theirs_se: float

    @property
    def combined(self) -> float:
        return math.sqrt(self.ours_se**2 + self.theirs_se**2)

    @property
    def agree(self) -> bool:
        return abs(self.ours - self.theirs) <= 2 * self.combined + 1e-9


def compare(data: dict[str, Any], count: int | None = None) -> tuple[list[Comparison], float]:
    """Our rollout of the first ``count`` positions (all by default) against gnubg's, and our
    seconds per trial."""
    from engine import Position
    from engine.analysis.rollout import RolloutSettings, rollout_player, rollout_position

    player = rollout_player()
    settings = RolloutSettings(trials=data["trials"], seed=data["seed"])
    out: list[Comparison] = []
    started = time.perf_counter()
    for ref in data["gnubg"][:count]:
        r = rollout_position(Position.from_position_id(ref["position_id"]), player, settings)
        out.append(Comparison(ref["position_id"], r.equity, r.se, ref["equity"], ref["se"]))
    per_trial = (time.perf_counter() - started) / max(1, len(out) * settings.trials)
    return out, per_trial


def run(quick: bool = False) -> list[Figure]:
    from engine.bots import sage

    if not sage.available():
        print(f"  {NAME}: bgsage is not installed; nothing compared", file=sys.stderr)
        return [Figure(NAME, "skipped: no bgsage", 0, "")]
    if os.environ.get("ROLLOUT_GNUBG_REFRESH") == "1":
        refresh()
    data = load()
    comparisons, per_trial = compare(data, 5 if quick else None)
    for c in comparisons:
        mark = "" if c.agree else "  <- outside 2 SE"
        print(
            f"  {NAME}: {c.position_id} ours {c.ours:+.4f} ({c.ours_se:.4f}) "
            f"gnubg {c.theirs:+.4f} ({c.theirs_se:.4f}){mark}",
            file=sys.stderr,
        )
    n = len(comparisons)
    agree = 100.0 * sum(c.agree for c in comparisons) / n
    label = f"{n} positions, {data['trials']} trials"
    return [
        check(NAME, f"within 2 combined SE of gnubg 1.07 ({label})", agree, "%", at_least=AGREE),
        Figure(
            NAME,
            "mean |ours - gnubg|",
            sum(abs(c.ours - c.theirs) for c in comparisons) / n,
            "equity",
        ),
        Figure(NAME, "mean combined SE", sum(c.combined for c in comparisons) / n, "equity"),
        Figure(NAME, "seconds per trial (ours, bgsage 1-ply, VR)", per_trial, "s"),
    ]

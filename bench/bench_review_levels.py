"""Do the review's error rates rank the computer levels, as an independent analysis does?
(issue 9: "error rates agree with an independent analysis in ranking the levels").

Each level plays money games with the cube against itself, with seeded dice; the review
(:func:`engine.analysis.review_match`, 2 plies) gives the level's error rate over both sides'
decisions (all errors over all unforced moves and cube decisions). When GNU Backgammon is
installed (``/usr/games/gnubg``, or ``$GNUBG``), the same games are exported as Jellyfish
``.mat`` files (:func:`engine.write_mat`), imported and analysed by it (its default analysis:
2-ply, cubeful) and its own statistics give a second error rate per level. The figures: each
rate, whether each analysis ranks the levels from beginner to world class (strictly
decreasing), and how many pairs of levels the two analyses order differently.

Each level plays games until they hold 150 plays (``--quick``: 40 plays, three levels).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path

from bench.common import Figure, check
from engine import EventKind, Match, write_mat
from engine.analysis import review_match
from engine.analysis.review import review_engine
from engine.analysis.selfplay import play_match
from engine.bots import LEVELS, get_bot

GNUBG = os.environ.get("GNUBG", "/usr/games/gnubg")

_SCRIPT = """
import json, sys
import gnubg
gnubg.command("set confirm new off")
for path in {paths!r}:
    gnubg.command("import mat " + path)
    gnubg.command("analyse match")
    stats = gnubg.match(analysis=1, statistics=1, verbose=0)["stats"]
    print("STATS " + json.dumps({{"path": path, "stats": stats}}), flush=True)
"""


@dataclass
class Tally:
    """Errors and decisions summed over games (both sides of each game)."""

    error: float = 0.0
    decisions: int = 0
    checker_error: float = 0.0
    unforced: int = 0

    @property
    def rate(self) -> float:
        return 1000 * self.error / self.decisions if self.decisions else float("nan")

    @property
    def checker_rate(self) -> float:
        return 1000 * self.checker_error / self.unforced if self.unforced else float("nan")


def level_games(level: str, plays: int) -> list[Match]:
    """Self-play money games of ``level`` (cube on) until they hold ``plays`` plays at least,
    reproducibly."""
    out: list[Match] = []
    total = 0
    while total < plays:
        k = len(out)
        bots = (get_bot(level, rng=2 * k), get_bot(level, rng=2 * k + 1))
        match = play_match(bots, random.Random(f"review-levels/{level}/{k}"), length=0)
        total += sum(e.kind is EventKind.MOVE for e in match.games[0].events)
        out.append(match)
    return out


def our_tally(matches: list[Match], plies: int) -> Tally:
    t = Tally()
    for match in matches:
        review = review_match(match, plies=plies)
        for s in review.players:
            t.error += s.checker_error + s.cube_error
            t.decisions += s.decisions
            t.checker_error += s.checker_error
            t.unforced += s.unforced_moves
    return t


def gnubg_tallies(files: dict[str, list[Path]]) -> dict[str, Tally] | None:
    """GNU Backgammon's own statistics for each level's files (None without GNU Backgammon)."""
    if not shutil.which(GNUBG) and not Path(GNUBG).exists():
        return None
    paths = [str(p) for ps in files.values() for p in ps]
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(_SCRIPT.format(paths=paths))
        script = f.name
    try:
        out = subprocess.run(
            ["nice", GNUBG, "-t", "-q", "-p", script],
            capture_output=True,
            text=True,
            timeout=3600,
            check=False,
        ).stdout
    finally:
        os.unlink(script)
    by_path = {}
    for line in out.splitlines():
        if line.startswith("STATS "):
            d = json.loads(line[6:])
            by_path[d["path"]] = d["stats"]
    tallies = {}
    for level, ps in files.items():
        t = Tally()
        for p in ps:
            stats = by_path.get(str(p))
            if stats is None:
                return None  # GNU Backgammon failed on a file: no comparison
            for side in ("X", "O"):
                moves, cube = stats[side]["moves"], stats[side]["cube"]
                # The cube's "error-skill" is gnubg's rate per close cube decision, not a
                # total: the total is the sum of its kinds of cube errors.
                kinds = [k for k in cube if k.startswith("err-") and k.endswith("-skill")]
                t.error += moves["error-skill"] + sum(cube[k] for k in kinds)
                t.decisions += moves["unforced-moves"] + cube["close-cube"]
                t.checker_error += moves["error-skill"]
                t.unforced += moves["unforced-moves"]
        tallies[level] = t
    return tallies


def _ranks(rates: dict[str, float], levels: list[str]) -> bool:
    values = [rates[level] for level in levels]
    return all(a > b for a, b in pairwise(values))


def _discordant(a: dict[str, float], b: dict[str, float], levels: list[str]) -> int:
    return sum((a[x] - a[y]) * (b[x] - b[y]) < 0 for x, y in combinations(levels, 2))


def run(quick: bool = False) -> list[Figure]:
    levels = ["beginner", "intermediate", "expert"] if quick else list(LEVELS)
    plays = 40 if quick else 150
    engine = review_engine()  # the review's evaluator
    figures: list[Figure] = []
    ours: dict[str, float] = {}
    files: dict[str, list[Path]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for level in levels:
            matches = level_games(level, plays)
            t = our_tally(matches, 2)
            ours[level] = t.rate
            figures.append(
                check(
                    "review-levels",
                    f"{level}: review error rate, 2 plies ({t.decisions} decisions, {engine})",
                    t.rate,
                    "mp",
                )
            )
            files[level] = []
            for k, m in enumerate(matches):
                path = Path(tmp) / f"{level.replace(' ', '-')}-{k}.mat"
                path.write_text(write_mat(m, (f"{level} A", f"{level} B")))
                files[level].append(path)
        figures.append(
            Figure(
                "review-levels",
                "review ranks the levels (strictly decreasing rates)",
                float(_ranks(ours, levels)),
                "yes=1",
                "1",
                _ranks(ours, levels),
            )
        )
        theirs = gnubg_tallies(files)
    if theirs is None:
        figures.append(Figure("review-levels", "GNU Backgammon comparison: skipped", 0, ""))
        return figures
    gnu = {level: t.rate for level, t in theirs.items()}
    for level in levels:
        figures.append(
            check(
                "review-levels",
                f"{level}: GNU Backgammon error rate ({theirs[level].decisions} decisions)",
                gnu[level],
                "mp",
            )
        )
    figures.append(
        Figure(
            "review-levels",
            "GNU Backgammon ranks the levels (strictly decreasing rates)",
            float(_ranks(gnu, levels)),
            "yes=1",
        )
    )
    discordant = _discordant(ours, gnu, levels)
    pairs = len(levels) * (len(levels) - 1) // 2
    figures.append(
        check(
            "review-levels",
            f"pairs of levels ordered differently by the two (of {pairs})",
            discordant,
            "pairs",
            at_most=0,
        )
    )
    return figures

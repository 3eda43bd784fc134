"""XG's Performance Rating of the computer's levels (issue 18).

Each level plays money games with the cube against itself, with seeded dice and noise; every game
is reviewed at 2 plies (what ``/review`` uses) and :func:`engine.analysis.pr.performance_rating`
gives both sides' errors and non-obvious decisions, pooled per level the way XG pools matches
(all errors over all decisions). The levels take turns game by game, so a run stopped early still
has as many games for each; every round prints the running figures on stderr.

``BENCH_PR_GAMES`` sets the games per level (default 200; ``--quick``: 2, three levels) and
``BENCH_PR_JOBS`` the worker processes (default: one per core); every game has its own seeds, so
the figures do not depend on the number of workers. The
figures: each level's PR with its band and its decisions, and whether the PRs fall level by level.
"""

from __future__ import annotations

import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise

from bench.common import Figure, check
from engine.analysis import review_match
from engine.analysis.pr import PerformanceRating, performance_rating, pooled
from engine.analysis.selfplay import play_match
from engine.bots import LEVELS, backend, get_bot

NAME = "pr"


def level_game(level: str, k: int) -> list[PerformanceRating]:
    """Game ``k`` of ``level`` against itself, reviewed: both sides' ratings."""
    bots = (get_bot(level, rng=2 * k), get_bot(level, rng=2 * k + 1))
    match = play_match(bots, random.Random(f"pr/{level}/{k}"), length=0)
    review = review_match(match, plies=2)
    return [performance_rating(review, player) for player in (0, 1)]


def _line(level: str, r: PerformanceRating) -> str:
    value = r.value
    shown = "-" if value is None else f"{value:.2f} ({r.band})"
    return f"{level}: PR {shown} over {r.decisions} decisions"


def _task(task: tuple[str, int]) -> list[PerformanceRating]:
    return level_game(*task)


def _progress(
    games: int, levels: list[str], ratings: dict[str, list[PerformanceRating]], elapsed: float
) -> None:
    summary = "; ".join(_line(level, pooled(ratings[level])) for level in levels)
    print(f"  pr: {games} games per level, {elapsed:.0f} s: {summary}", file=sys.stderr)


def run(quick: bool = False) -> list[Figure]:
    levels = ["beginner", "intermediate", "expert"] if quick else list(LEVELS)
    games = 2 if quick else int(os.environ.get("BENCH_PR_GAMES", "200"))
    ratings: dict[str, list[PerformanceRating]] = {level: [] for level in levels}
    tasks = [(level, k) for k in range(games) for level in levels]
    jobs = int(os.environ.get("BENCH_PR_JOBS", os.cpu_count() or 1))
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        # map keeps the order of the tasks, so each round is complete when its last level is.
        for (level, k), result in zip(tasks, pool.map(_task, tasks), strict=True):
            ratings[level].extend(result)
            if level == levels[-1]:
                _progress(k + 1, levels, ratings, time.perf_counter() - started)
    figures: list[Figure] = []
    values: list[float] = []
    for level in levels:
        r = pooled(ratings[level])
        value = r.value if r.value is not None else float("nan")
        values.append(value)
        name = f"{level}: PR, {r.band} ({games} games, {r.decisions} decisions, {backend()})"
        figures.append(check(NAME, name, value, "PR"))
    falling = all(a > b for a, b in pairwise(values))
    figures.append(Figure(NAME, "PR falls level by level", float(falling), "yes=1", "1", falling))
    return figures

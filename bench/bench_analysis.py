"""Analysis speed (issue 9: "the review of a 60-move game is ready in under 5 s at 2-ply").

The game: a money game with the cube between the advanced and the expert computer players, dice
from a fixed seed: 60 plays, a double taken, a redouble dropped (:func:`sample_match`). Plies
follow bgsage's numbering, the project's (2 is GNU Backgammon's 1-ply; 3 is its 2-ply).

Each review starts with empty evaluation caches; the "cold" figure is the first review of the
process (it also builds bgsage's analyzers and loads its networks, which a running bot has
already done), the others the median of several runs. Hints and cube hints are timed on every
position of the game.
"""

from __future__ import annotations

import random
import statistics
import time

from bench.common import Figure, check
from engine import EventKind, Match
from engine.analysis import cube_hint, get_evaluator, hint, review_match
from engine.analysis.replay import replay
from engine.analysis.review import review_engine
from engine.analysis.selfplay import play_match
from engine.bots import get_bot, gnubgsearch

SEED = 7
MOVES = 60


def sample_match() -> Match:
    """The benchmark's game: 60 plays with cube actions, always the same."""
    bots = (get_bot("advanced", rng=SEED), get_bot("expert", rng=SEED + 1))
    match = play_match(bots, random.Random(f"bench-analysis/{SEED}"), length=0)
    game = match.games[0]
    moves = sum(e.kind is EventKind.MOVE for e in game.events)
    if moves != MOVES or not any(e.kind is EventKind.DOUBLE for e in game.events):
        raise RuntimeError(f"the sample game changed: {moves} plays (the players changed?)")
    return match


def _review_time(match: Match, plies: int) -> float:
    for engine in ("auto", "gnubg") if gnubgsearch.available() else ("auto",):
        get_evaluator(plies, engine=engine).clear()
    start = time.perf_counter()
    review_match(match, plies=plies)
    return time.perf_counter() - start


def run(quick: bool = False) -> list[Figure]:
    match = sample_match()
    engine = review_engine()  # the review's evaluator
    cold = _review_time(match, 2)
    runs = [_review_time(match, 2) for _ in range(1 if quick else 3)]
    figures = [
        check("analysis", f"review of a {MOVES}-move game, 2 plies, first ({engine})", cold, "s"),
        check(
            "analysis",
            f"review of a {MOVES}-move game, 2 plies, median of {len(runs)} ({engine})",
            statistics.median(runs),
            "s",
            at_most=5.0,
        ),
    ]
    if not quick and engine != "fallback":
        figures.append(
            check(
                "analysis",
                f"review of a {MOVES}-move game, 3 plies (GNU 2-ply), first ({engine})",
                _review_time(match, 3),
                "s",
            )
        )
    steps = list(replay(match.games[0]))
    moves = [s for s in steps if s.kind == "move" and len(s.plays) >= 2]
    hint_times = []
    for s in moves[: 10 if quick else None]:
        assert s.dice is not None
        start = time.perf_counter()
        hint(s.position, s.dice, s.ctx, n=5)
        hint_times.append(time.perf_counter() - start)
    cubes = [s for s in steps if s.kind in ("no double", "double")]
    cube_times = []
    for s in cubes[: 5 if quick else None]:
        start = time.perf_counter()
        cube_hint(s.position, s.ctx)
        cube_times.append(time.perf_counter() - start)
    figures.append(
        check(
            "analysis",
            "hint, 5 best plays, 2 plies (median)",
            1000 * statistics.median(hint_times),
            "ms",
        )
    )
    if cube_times:
        figures.append(
            check(
                "analysis",
                "cube hint, 2 plies (median)",
                1000 * statistics.median(cube_times),
                "ms",
            )
        )
    return figures

"""The review's PR against GNU Backgammon's (issue 31: "PR within one point of GNU Backgammon").

Ten seeded computer-vs-computer games (:data:`GAMES`: seven money games and three 3-point
matches, every level from beginner to world class on one side or the other) are played by the
engine, reviewed by the project's own review (:func:`engine.analysis.review_match`, what
``/review`` runs, at ``BENCH_PR_PLIES`` plies, default
:data:`bot.service.analysis.REVIEW_PLIES`) and exported as Jellyfish ``.mat`` files
(:func:`engine.write_mat`), which GNU Backgammon 1.07 (``gnubg``, ``/usr/games/gnubg`` or
``$GNUBG``) imports and analyses with ``analyse match`` at its 2-ply,
cubeful (``set analysis chequerplay evaluation plies 2``, the same for the cube). Each player's
PR is 500 times his equity lost per non-obvious decision (:mod:`engine.analysis.pr`); gnubg's
is 500 times its normalised (EMG) errors, checker play and cube, over its unforced moves and
close cube decisions (its ``show statistics match``). The games are played without the Jacoby
rule and gnubg analyses them so (``set jacoby off``: its default, the Jacoby rule in money
games, is not in a ``.mat`` file, and it changes the cube's value in every money game).

The figures: each player's PR both ways with the decisions each counted (checker plays and
cube decisions) and the errors (checker play and cube) behind it, and over the 20
players the mean absolute difference (target at most 1.0), the mean signed difference (ours
minus gnubg's, target within +/-0.5) and the players with gnubg's PR under 10 whose XG band
differs (target 0). gnubg's analysis of a game is kept in ``BENCH_PR_GNUBG_CACHE`` (a JSON file,
by the ``.mat`` text's hash), so comparing review settings does not analyse the games again.
``--quick``: the first three games; ``BENCH_PR_GAMES_GNUBG`` (default 10) plays more, the
pairings again with new seeds; ``BENCH_PR_FIRST_GAME`` (default 0) starts further on, for
another set of seeds (``BENCH_PR_FIRST_GAME=20``: games 20 to 29).
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import Figure, check
from bot.service.analysis import REVIEW_PLIES
from engine import Match, write_mat
from engine.analysis import review_match
from engine.analysis.pr import is_non_obvious, pr_band
from engine.analysis.pr import performance_rating as our_pr
from engine.analysis.review import review_engine
from engine.analysis.selfplay import play_match
from engine.bots import get_bot
from tests.tools._gnubg import gnubg_binary, run_in_gnubg

NAME = "pr_gnubg"
SCRIPT = Path(__file__).resolve().parent / "gnubg_analyse.py"
CACHE = Path(os.environ.get("BENCH_PR_GNUBG_CACHE", Path(tempfile.gettempdir()) / "pr-gnubg.json"))
PLIES = int(os.environ.get("BENCH_PR_PLIES", str(REVIEW_PLIES)))
SETTINGS = "gnubg 2-ply, jacoby off, breakdown"
"""Part of a cached analysis's key: an analysis made otherwise is not reused."""

GAMES: tuple[tuple[str, str, int], ...] = (
    ("beginner", "casual", 0),
    ("casual", "intermediate", 0),
    ("intermediate", "advanced", 0),
    ("advanced", "expert", 0),
    ("expert", "world_class", 0),
    ("beginner", "expert", 0),
    ("intermediate", "world_class", 0),
    ("beginner", "advanced", 3),
    ("casual", "expert", 3),
    ("intermediate", "world_class", 3),
)
"""(player 0's level, player 1's level, match length; 0 is a money game)."""


@dataclass(frozen=True)
class Player:
    """One side of one game, rated both ways."""

    game: int
    level: str
    ours: float
    our_decisions: int
    gnubg: float
    gnubg_decisions: int
    our_split: tuple[float, int, float, int] = (0.0, 0, 0.0, 0)
    """The review's (checker error, unforced plays, cube error, cube decisions)."""
    gnubg_split: tuple[float, int, float, int] = (0.0, 0, 0.0, 0)
    """gnubg's (checker error, unforced moves, cube error, close cube decisions)."""


def play(k: int) -> Match:
    """Game ``k`` (the pairing ``GAMES[k % 10]``), reproducibly."""
    a, b, length = GAMES[k % len(GAMES)]
    bots = (get_bot(a, rng=1000 + 2 * k), get_bot(b, rng=1001 + 2 * k))
    return play_match(bots, random.Random(f"pr-gnubg/{k}"), length=length)


def _names(k: int) -> tuple[str, str]:
    a, b, _ = GAMES[k % len(GAMES)]
    return (f"{a}0", f"{b}1")


def _load_cache() -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(CACHE.read_text(encoding="utf-8"))
        return data
    except (OSError, ValueError):
        return {}


Split = tuple[float, int, float, int]


def gnubg_ratings(mats: list[str]) -> list[list[Split]] | None:
    """For each ``.mat`` text, gnubg's ``(checker error, unforced moves, cube error, close cube
    decisions)`` of player 0 and player 1 (None without GNU Backgammon)."""
    if gnubg_binary() is None:
        return None
    cache = _load_cache()
    keys = [hashlib.sha256((SETTINGS + m).encode()).hexdigest()[:20] for m in mats]
    missing = [k for k in dict.fromkeys(keys) if k not in cache]
    if missing:
        with tempfile.TemporaryDirectory() as tmp:
            files: list[str] = []
            for key, mat in zip(keys, mats, strict=True):
                if key in missing and key not in [Path(f).stem for f in files]:
                    path = Path(tmp) / f"{key}.mat"
                    path.write_text(mat, encoding="utf-8")
                    files.append(str(path))
            out = Path(tmp) / "out.jsonl"
            args = {"files": files, "out": str(out), "plies": 2, "jacoby": False}
            run_in_gnubg(SCRIPT, args, echo=True)
            for line in out.read_text(encoding="utf-8").splitlines():
                d = json.loads(line)
                cache[Path(d["path"]).stem] = d["players"]
        CACHE.write_text(json.dumps(cache), encoding="utf-8")
    return [[(float(c), int(n), float(q), int(k)) for c, n, q, k in cache[key]] for key in keys]


def _pr(error: float, decisions: int, length: int) -> float:
    factor = 1.5 if length == 1 else 1.0
    return 500 * factor * error / decisions if decisions else float("nan")


def compare(indices: list[int]) -> list[Player] | None:
    """Every player of the games ``indices``, rated by the review and by gnubg."""
    matches = [play(k) for k in indices]
    theirs = gnubg_ratings([write_mat(m, _names(k)) for k, m in zip(indices, matches, strict=True)])
    if theirs is None:
        return None
    players = []
    for k, match, gnu in zip(indices, matches, theirs, strict=True):
        review = review_match(match, plies=PLIES)
        for side in (0, 1):
            mine = our_pr(review, side)
            c, n, q, close = gnu[side]
            value = mine.value if mine.value is not None else float("nan")
            level = str(GAMES[k % len(GAMES)][side])
            gnu_pr = _pr(c + q, n + close, match.length)
            counted = [d for d in review.decisions if d.player == side and is_non_obvious(d)]
            plays = [d for d in counted if d.kind == "move"]
            cubes = [d for d in counted if d.kind != "move"]
            split = (
                sum(d.error for d in plays),
                len(plays),
                sum(d.error for d in cubes),
                len(cubes),
            )
            players.append(
                Player(k, level, value, mine.decisions, gnu_pr, n + close, split, gnu[side])
            )
    return players


def _split(s: Split) -> str:
    return f"{s[1]} plays {s[0]:.3f}, {s[3]} cube {s[2]:.3f}"


def summary(players: list[Player]) -> tuple[float, float, int]:
    """Mean absolute difference, mean signed difference (ours minus gnubg's) and the players
    under PR 10 (gnubg's) whose band differs."""
    diffs = [p.ours - p.gnubg for p in players]
    bands = sum(p.gnubg < 10 and pr_band(p.ours) != pr_band(p.gnubg) for p in players)
    return statistics.fmean(abs(d) for d in diffs), statistics.fmean(diffs), bands


def run(quick: bool = False) -> list[Figure]:
    first = int(os.environ.get("BENCH_PR_FIRST_GAME", "0"))
    count = 3 if quick else int(os.environ.get("BENCH_PR_GAMES_GNUBG", "10"))
    indices = list(range(first, first + count))
    players = compare(indices)
    if players is None:
        return [Figure(NAME, "GNU Backgammon comparison: skipped (no gnubg)", 0, "")]
    figures = []
    for p in players:
        name = (
            f"game {p.game} {p.level}: PR ours {p.ours:.2f} ({p.our_decisions} decisions) - "
            f"gnubg {p.gnubg:.2f} ({p.gnubg_decisions}), {pr_band(p.ours)} / {pr_band(p.gnubg)}"
        )
        figures.append(Figure(NAME, name, p.ours - p.gnubg, "PR"))
        print(f"  {name}", file=sys.stderr)
        # Where the difference comes from: decisions counted and errors, checker play and cube.
        print(f"      ours  {_split(p.our_split)}", file=sys.stderr)
        print(f"      gnubg {_split(p.gnubg_split)}", file=sys.stderr)
    mean_abs, mean_signed, bands = summary(players)
    ours = sum(p.ours * p.our_decisions for p in players) / sum(p.our_decisions for p in players)
    gnu = sum(p.gnubg * p.gnubg_decisions for p in players)
    gnu /= sum(p.gnubg_decisions for p in players)
    figures.append(Figure(NAME, "pooled PR of every player, ours", ours, "PR"))
    figures.append(Figure(NAME, "pooled PR of every player, gnubg's", gnu, "PR"))
    engine = review_engine()  # the review's evaluator
    where = f"{len(players)} players, review at {PLIES} plies, {engine}"
    figures.append(check(NAME, f"mean |PR difference| ({where})", mean_abs, "PR", at_most=1.0))
    figures.append(
        Figure(
            NAME,
            "mean PR difference, ours minus gnubg's",
            mean_signed,
            "PR",
            "within +/-0.5",
            abs(mean_signed) <= 0.5,
        )
    )
    figures.append(
        check(NAME, "players under PR 10 in a different XG band", bands, "players", at_most=0)
    )
    return figures

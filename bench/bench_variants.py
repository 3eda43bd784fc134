"""The computer in the variants (issue 33): every level against a reference, cubeless money
games in the arena (duplicate games: each dice sequence twice, seats swapped).

* nackgammon: every level against Tesauro's pubeval (as the standard game's bench_bots does);
* hypergammon: every level against a random player and against a simple heuristic
  (:class:`HeuristicPlayer`: hit, then keep blots out of direct reach, then race).

Printed: points per game (ppg) with the 95% confidence interval, and the share of games won.
The levels use the backend installed (bgsage, else the pure-Python fallback). ``--quick`` plays a
few games; a full run plays ``GAMES`` per pairing (fewer for world class, which searches 3-ply).

    python -m bench variants
"""

from __future__ import annotations

import sys

from bench.common import Figure
from engine import Dice, Play, Position, Variant, legal_plays
from engine.bots import LEVELS, backend, get_bot
from engine.bots.arena import ArenaResult, RandomPlayer, run_arena
from engine.bots.fallback import PubevalPlayer
from engine.bots.protocol import PlayChooser
from engine.context import MatchContext

NAME = "variants"
SEED = 20261204
GAMES = 300
WORLD_CLASS_GAMES = 60


class HeuristicPlayer:
    """A simple hypergammon player: the play that hits most, then leaves the fewest blots an
    opponent checker behind them reaches with one die (1..6 pips), then leaves the fewest pips."""

    level = "heuristic"

    def choose_play(
        self, position: Position, dice: Dice, ctx: MatchContext | None = None
    ) -> Play | None:
        plays = legal_plays(position, dice)
        if not plays:
            return None
        return max(plays, key=lambda p: _score(position.apply(p).swap_players()))


def _score(after: Position) -> tuple[int, int, int]:
    """``after`` seen by the player who has just moved (he moves toward his 1-point)."""
    b = after.board
    hits = -b[0]
    theirs = [0] * (-b[0]) + [q for q in range(1, 25) for _ in range(-b[q]) if b[q] < 0]
    exposed = sum(1 for p in range(1, 25) if b[p] == 1 and any(0 < p - q <= 6 for q in theirs))
    return hits, -exposed, -after.pip_counts()[0]


def _line(variant: Variant, level: str, rival: str, result: ArenaResult) -> str:
    lo, hi = result.ci95
    won = 100.0 * result.wins[0] / result.games
    return (
        f"{variant.value:<12} {level:<13} vs {rival:<10} {result.games:>4} games: "
        f"{result.ppg:+.3f} ppg ({lo:+.3f}..{hi:+.3f}), wins {won:.0f}%"
    )


def _pairings() -> list[tuple[Variant, str, PlayChooser]]:
    return [
        (Variant.NACKGAMMON, "pubeval", PubevalPlayer()),
        (Variant.HYPERGAMMON, "random", RandomPlayer(seed=SEED)),
        (Variant.HYPERGAMMON, "heuristic", HeuristicPlayer()),
    ]


def run(quick: bool) -> list[Figure]:
    figures: list[Figure] = []
    print(f"  backend: {backend()}", file=sys.stderr)
    for variant, rival_name, rival in _pairings():
        for level in LEVELS:
            games = 4 if quick else WORLD_CLASS_GAMES if level == "world class" else GAMES
            result = run_arena(
                get_bot(level, rng=SEED),
                rival,
                games=games,
                seed=SEED,
                start=variant.initial_position(),
            )
            print("  " + _line(variant, level, rival_name, result), file=sys.stderr, flush=True)
            what = f"{variant.value} {level} vs {rival_name}"
            figures.append(Figure(NAME, f"{what} (ppg)", result.ppg, "ppg"))
            figures.append(
                Figure(NAME, f"{what} (wins)", 100.0 * result.wins[0] / result.games, "%")
            )
    return figures

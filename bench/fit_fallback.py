"""Fit the fallback's contact model: winning and gammon chances from pubeval's score.

pubeval gives a score, not a probability. The pure-Python fallback needs chances for its cube
decisions and its answers to resignations, so this script plays pubeval against itself (seeded
dice, engine rules), records the pubeval score of every contact play (seen by the player who
made it) and the game's result, and fits three one-variable logistic regressions (Newton's
method): P(win), P(win a gammon or backgammon) and P(lose one) for the player who has just
moved. It prints the constants that ``engine/bots/fallback.py`` uses. (Race plays are left out:
across race positions pubeval's race score does not even rank the winning chances, its fitted
slope is negative, so races use the pip-count model instead.)

    .venv/bin/python -m bench.fit_fallback [games]
"""

from __future__ import annotations

import math
import random
import sys

from engine import Dice, Play, Position
from engine.bots import pubeval
from engine.bots.arena import play_game
from engine.bots.fallback import PubevalPlayer

Sample = tuple[float, int, int, int]
Move = tuple[int, bool, float]  # seat, race, score


def _samples(games: int) -> dict[bool, list[Sample]]:
    """``(score, won, won_gammon, lost_gammon)`` for every play of every game, by race flag."""
    player = PubevalPlayer()
    out: dict[bool, list[Sample]] = {False: [], True: []}
    for game in range(games):
        moves: list[Move] = []

        def record(
            seat: int, pos: Position, dice: Dice, play: Play | None, moves: list[Move] = moves
        ) -> None:
            if play is not None:
                after = pos.apply(play).swap_players()
                if after.winner() is None:
                    race = pos.is_race()
                    moves.append((seat, race, pubeval.score(after, race=race)))

        result = play_game((player, player), random.Random(f"fit/{game}"), on_move=record)
        for seat, race, score in moves:
            won = seat == result.winner
            gammon = result.value >= 2
            out[race].append((score, int(won), int(won and gammon), int(not won and gammon)))
    return out


def fit_logistic(xs: list[float], ys: list[int], iterations: int = 25) -> tuple[float, float]:
    """``(a, b)`` maximising the likelihood of ``P(y=1) = 1 / (1 + exp(-(a x + b)))``."""
    a = b = 0.0
    for _ in range(iterations):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = 1.0 / (1.0 + math.exp(-(a * x + b)))
            r, w = y - p, p * (1.0 - p)
            ga, gb = ga + r * x, gb + r
            haa, hab, hbb = haa + w * x * x, hab + w * x, hbb + w
        det = haa * hbb - hab * hab
        a += (hbb * ga - hab * gb) / det
        b += (haa * gb - hab * ga) / det
    return a, b


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 2000
    samples = _samples(games)
    contact, race = samples[False], samples[True]
    print(f"{len(contact)} contact plays ({len(race)} race plays) from {games} self-play games")
    xs = [s[0] for s in contact]
    for name, column in (("WIN", 1), ("WIN_GAMMON", 2), ("LOSE_GAMMON", 3)):
        a, b = fit_logistic(xs, [int(s[column]) for s in contact])  # columns 1-3: 0 or 1
        print(f"{name} = ({a:.5f}, {b:.5f})")


if __name__ == "__main__":
    main(sys.argv[1:])

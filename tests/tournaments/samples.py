"""Sample tournaments and their pictures, for the tests and for looking at.

``python -m tests.tournaments.samples DIR`` writes every sample picture to ``DIR``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from bot.tournaments import (
    Bracket,
    MatchResult,
    Round,
    WinType,
    arena_pairings,
    arena_standings,
    pending_matches,
    round_robin_schedule,
    round_robin_standings,
    seed_by_rating,
    swiss_round,
    swiss_standings,
)
from bot.tournaments.pictures import bracket_picture, standings_picture

FIRST = ["Ann", "Bob", "Chloé", "Dmitri", "Eve", "Fatima", "Grégoire", "Hiro", "Inès", "Jonas"]
LONG = [
    "Maximilian Alexander von Hohenzollern-Sigmaringen",
    "Anastasiya Konstantinovna Vorontsova-Dashkova",
    "xX_BackgammonDestroyer_2000_Xx",
    "Jean-Baptiste de La Rochefoucauld",
    "Ααλέξανδρος Παπαδόπουλος 🎲",
]


def names(n: int, *, long: bool = False) -> dict[int, str]:
    """Names for players 1..n: short ones, or a long one every third player."""
    out = {}
    for p in range(1, n + 1):
        if long and p % 3 == 1:
            out[p] = LONG[(p // 3) % len(LONG)]
        else:
            out[p] = f"{FIRST[p % len(FIRST)]} {p}"
    return out


def knockout(
    n: int, *, played_rounds: int, seed: int = 1
) -> tuple[Bracket, dict[tuple[int, int], int], dict[tuple[int, int], tuple[int, int]]]:
    """A knockout of ``n`` players seeded by rating, ``played_rounds`` rounds played (the
    favourite usually wins), with 5-point match scores."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    ratings = {p: 2000.0 - 10 * p + rng.uniform(0, 30) for p in players}
    bracket = Bracket.seeded(seed_by_rating(players, ratings))
    winners: dict[tuple[int, int], int] = {}
    scores: dict[tuple[int, int], tuple[int, int]] = {}
    for _ in range(played_rounds):
        for m in pending_matches(bracket, winners):
            if m.key[0] >= played_rounds:
                continue
            assert m.top is not None and m.bottom is not None
            top_wins = rng.random() < 0.7
            winners[m.key] = m.top if top_wins else m.bottom
            lose = rng.randrange(5)
            scores[m.key] = (5, lose) if top_wins else (lose, 5)
    return bracket, winners, scores


def swiss(n: int, rounds: int, seed: int = 2) -> tuple[list[int], list[MatchResult], list[int]]:
    """A Swiss of ``n`` players after ``rounds`` rounds of random results."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    results: list[MatchResult] = []
    previous: list[Round] = []
    byes: list[int] = []
    for _ in range(rounds):
        table = swiss_standings(players, results, byes)
        rnd = swiss_round(
            [r.player for r in table], scores={r.player: r.score for r in table}, previous=previous
        )
        previous.append(rnd)
        if rnd.bye is not None:
            byes.append(rnd.bye)
        for a, b in rnd.pairs:
            results.append(MatchResult(a, b) if rng.random() < 0.5 else MatchResult(b, a))
    return players, results, byes


def arena(
    n: int, matches: int, seed: int = 3
) -> tuple[list[int], list[MatchResult], dict[int, float]]:
    """An arena of ``n`` players after about ``matches`` matches, and their ratings."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    ratings = {p: 1800.0 - 25 * p for p in players}
    results: list[MatchResult] = []
    last: dict[int, int] = {}
    while len(results) < matches:
        table = {r.player: r.points for r in arena_standings(players, results)}
        rnd = arena_pairings(players, points=table, ratings=ratings, last_opponent=last)
        for a, b in rnd.pairs:
            w, lo = (a, b) if rng.random() < 0.5 + 0.02 * (b - a) else (b, a)
            kind = rng.choice([WinType.SINGLE] * 6 + [WinType.GAMMON] * 3 + [WinType.BACKGAMMON])
            results.append(MatchResult(w, lo, win_type=kind))
            last[a], last[b] = b, a
    return players, results, ratings


def _bracket(n: int, rounds: int, lang: str, long: bool) -> bytes:
    bracket, winners, scores = knockout(n, played_rounds=rounds)
    title = "Coupe du club" if lang == "fr" else "Club Cup"
    sub = (
        "Élimination directe · matchs en 5 points" if lang == "fr" else "Knockout · 5-point matches"
    )
    return bracket_picture(
        bracket, winners, names(n, long=long), scores=scores, title=title, subtitle=sub, lang=lang
    )


SAMPLES: dict[str, Callable[[], bytes]] = {
    "bracket-8-done": lambda: _bracket(8, 3, "en", False),
    "bracket-6-byes-fr": lambda: _bracket(6, 1, "fr", False),
    "bracket-16-long": lambda: _bracket(16, 2, "en", True),
    "bracket-32-long-fr": lambda: _bracket(32, 5, "fr", True),
    "bracket-32-start": lambda: _bracket(27, 0, "en", False),
    "bracket-32-from-16": lambda: bracket_picture(
        *knockout(32, played_rounds=2)[:2],
        names(32, long=True),
        title="Club Cup",
        from_round=1,
    ),
    "round-robin-8": lambda: standings_picture(
        "round_robin",
        round_robin_standings(
            list(range(1, 9)),
            [
                MatchResult(a, b, 5, (a * b) % 5) if (a + b) % 3 else MatchResult(b, a, 5, 2)
                for r in round_robin_schedule(list(range(1, 9)))
                for a, b in r.pairs
            ],
        ),
        names(8, long=True),
        title="Weekly round robin",
        subtitle="Round robin · 8 players · 5-point matches",
    ),
    "swiss-20-fr": lambda: standings_picture(
        "swiss",
        swiss_standings(*swiss(20, 5)),
        names(20, long=True),
        viewer=7,
        title="Suisse du jeudi",
        subtitle="Système suisse · 5 rondes · matchs en 3 points",
        lang="fr",
    ),
    "swiss-256-page": lambda: standings_picture(
        "swiss", swiss_standings(*swiss(256, 8)), names(256), viewer=200, title="Big Swiss"
    ),
    "arena-12": lambda: standings_picture(
        "arena",
        arena_standings(*arena(12, 60)),
        names(12, long=True),
        title="Friday arena",
        subtitle="Arena · 1 hour · 1-point matches",
    ),
    "arena-12-fr": lambda: standings_picture(
        "arena", arena_standings(*arena(12, 60)), names(12), title="Arène du vendredi", lang="fr"
    ),
}


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else ".")
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SAMPLES.items():
        (out / f"{name}.png").write_bytes(make())
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

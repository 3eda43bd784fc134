"""Tournaments (issue 17): pairing a 256-player Swiss round and drawing its standings, each
under 100 ms; the other pictures of tournaments and ladders (a bracket, a ladder) timed and
weighed too (issue 30: drawn in palette indices, as the board).

The Swiss has had a few rounds of random results first (so score groups, floaters and the
players already met all play their part). Pairing is measured with and without the standings
it needs (the ranking and the scores come from them); the standings picture is measured as
the bot posts it (a page of 32 rows) and as the whole 256-row table: drawn again (as after every
result: the names' masks cached) and drawn the first time (every name and number new), each
with its median and 95th percentile against the target.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from bench.common import Figure, check, percentile, times_ms
from bot.tournaments import MatchResult, Round, swiss_round, swiss_standings
from bot.tournaments.pictures import standings_picture
from render.fonts import clean_name
from render.ladder import LadderPicture, LadderRow, render_ladder
from render.tournament import BracketGame, BracketPicture, Entrant, render_bracket
from render.tournament_draw import _shaded, _stamp_mask, fit_name, fit_text

PLAYERS = 256
TARGET_MS = 100.0


def _swiss(rounds: int, seed: int = 17) -> tuple[list[int], list[MatchResult], list[Round]]:
    """A 256-player Swiss after ``rounds`` rounds of random results."""
    rng = random.Random(seed)
    players = list(range(1, PLAYERS + 1))
    results: list[MatchResult] = []
    previous: list[Round] = []
    for _ in range(rounds):
        table = swiss_standings(players, results)
        rnd = swiss_round(
            [r.player for r in table], scores={r.player: r.score for r in table}, previous=previous
        )
        previous.append(rnd)
        for a, b in rnd.pairs:
            results.append(MatchResult(a, b) if rng.random() < 0.5 else MatchResult(b, a))
    return players, results, previous


def _best_median_ms(
    fn: Callable[[], object], batches: int, n: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """The lowest median of several batches (the machine is shared)."""
    return min(statistics.median(times_ms(fn, n, clock)) for _ in range(batches))


def _spread(bench: str, name: str, times: list[float], unit: str = "ms") -> list[Figure]:
    """The median and the 95th percentile of ``times``, each against the target."""
    return [
        check(bench, f"{name}: median", statistics.median(times), unit, at_most=TARGET_MS),
        check(bench, f"{name}: p95", percentile(times, 95), unit, at_most=TARGET_MS),
    ]


def _cold() -> None:
    """Forget every cached text mask and fitted name: a table drawn for the first time."""
    for cached in (_shaded, _stamp_mask, fit_name, fit_text, clean_name):
        cached.cache_clear()


def bracket_32() -> BracketPicture:
    """A 32-player knockout, three rounds played (the favourite wins, 5-point matches), the
    quarter-finals to play; every fifth name long, the viewer (seed 3) still in."""

    def entrant(seed: int, score: int | None) -> Entrant:
        name = f"Player {seed}" if seed % 5 else f"Maximilian Alexander von Hohenzollern {seed}"
        return Entrant(name, seed, score, mine=seed == 3)

    seeds, rounds = list(range(1, 33)), []
    for r in range(5):
        played = r < 3
        pairs = [(seeds[i], seeds[len(seeds) - 1 - i]) for i in range(len(seeds) // 2)]
        rounds.append(
            tuple(
                BracketGame(
                    entrant(a, 5 if played else None),
                    entrant(b, (a + b) % 5 if played else None),
                    winner=0 if played else None,
                )
                for a, b in pairs
            )
        )
        seeds = [a for a, _ in pairs]
    return BracketPicture(tuple(rounds), title="Club Cup", subtitle="Knockout · 5-point matches")


def ladder_20() -> LadderPicture:
    """A ladder of 20 rungs: two challenges being played, the viewer on rung 7, five results."""
    rows = tuple(
        LadderRow(
            k,
            f"Member number {k}",
            "⚔ Member 5, 40 h left" if k in (3, 5) else "may challenge rungs 1 to 3",
            busy=k in (3, 5),
            top=k == 1,
            highlight=k == 7,
        )
        for k in range(1, 21)
    )
    results = tuple(f"Member {k} beat Member {k - 1} and took rung {k - 1}" for k in range(3, 8))
    rules = "5-point matches · with the cube · rated · challenge up to 3 rungs above · 72 h to play"
    return LadderPicture("Club ladder, season 2", rules, rows, "Latest results", results)


def _pictures(quick: bool) -> list[Figure]:
    """A bracket and a ladder: CPU time drawn again (the text's masks cached) and the first
    time (every cache emptied), and the PNG's size."""
    n = 5 if quick else 40
    figures = []
    pictures: list[tuple[str, Callable[[], bytes]]] = [
        ("32-player bracket (3 rounds played)", lambda: render_bracket(bracket_32())),
        ("20-rung ladder", lambda: render_ladder(ladder_20())),
    ]
    for name, draw in pictures:
        kb = len(draw()) / 1000
        cpu = statistics.median(times_ms(draw, n, time.process_time))
        cold = statistics.median(times_ms(draw, max(3, n // 4), time.process_time, before=_cold))
        figures += [
            check("tournament", f"{name}: CPU median", cpu, "ms"),
            check("tournament", f"{name}: drawn the first time, CPU median", cold, "ms"),
            check("tournament", f"{name}: PNG size", kb, "KB"),
        ]
    return figures


def run(quick: bool = False) -> list[Figure]:
    batches, n = (2, 3) if quick else (3, 10)
    rounds = 3 if quick else 6
    players, results, previous = _swiss(rounds)
    table = swiss_standings(players, results)
    ranking = [r.player for r in table]
    scores = {r.player: r.score for r in table}
    names = {p: f"Player number {p}" for p in players}

    def pair() -> Round:
        return swiss_round(ranking, scores=scores, previous=previous)

    def standings_and_pair() -> Round:
        rows = swiss_standings(players, results)
        return swiss_round(
            [r.player for r in rows], scores={r.player: r.score for r in rows}, previous=previous
        )

    # The worst case the search can meet: no pairing avoids a repeat (players 255 and 256 have
    # met everybody but player 1), and it only learns so after its whole budget of steps.
    stuck = [Round(tuple((a, x) for a in (255, 256) for x in range(2, a)))]

    def pair_stuck() -> Round:
        return swiss_round(players, scores={}, previous=stuck)

    rnd = pair()
    met = {frozenset(p) for r in previous for p in r.pairs}
    repeats = sum(frozenset(p) in met for p in rnd.pairs)
    samples = 5 if quick else 40
    pair_times = times_ms(pair, samples)
    both_ms = _best_median_ms(standings_and_pair, batches, n)
    stuck_ms = _best_median_ms(pair_stuck, batches, n)
    page_ms = _best_median_ms(
        lambda: standings_picture("swiss", table, names, viewer=200, title="Swiss"), batches, n
    )

    def full() -> bytes:
        return standings_picture("swiss", table, names, rows=None, title="Swiss")

    # Drawn again (the bot redraws the table after every result, with the same names and
    # numbers: their masks are cached) and drawn for the first time (every cache emptied).
    full_times = times_ms(full, samples)
    # CPU time too: when other processes share the two cores, wall time says more about them.
    full_cpu_ms = statistics.median(times_ms(full, samples, time.process_time))
    cold_times = times_ms(full, max(3, samples // 4), before=_cold)
    page_kb = len(standings_picture("swiss", table, names, viewer=200, title="Swiss")) / 1000
    full_kb = len(full()) / 1000
    bench = "tournament"
    return [
        *_spread(bench, f"Swiss pairing, 256 players, round {rounds + 1}", pair_times),
        check(bench, "standings + pairing, 256 players", both_ms, "ms", at_most=TARGET_MS),
        check(bench, "repeat pairings in that round", repeats, "pairs", at_most=0),
        check(bench, "Swiss pairing, a repeat unavoidable", stuck_ms, "ms", at_most=TARGET_MS),
        check(bench, "standings picture, 32-row page", page_ms, "ms", at_most=TARGET_MS),
        *_spread(bench, "standings picture, all 256 rows", full_times),
        check(bench, "the same, CPU time: median", full_cpu_ms, "ms", at_most=TARGET_MS),
        *_spread(bench, "the same, drawn the first time", cold_times),
        check(bench, "32-row page PNG size", page_kb, "KB"),
        check(bench, "256-row PNG size", full_kb, "KB"),
        *_pictures(quick),
    ]

"""The production dice source (issue: integrity): a chi-square test over 1,000,000 rolls, drawn
as games draw them (a fresh CSPRNG seed per game, dice from the seed and a counter); p > 0.001
(--quick: 50,000 rolls)."""

from __future__ import annotations

import time
from collections import Counter

from bench.common import Figure, check
from bot.dice import GameDice
from bot.stats import summarize_rolls

ROLLS_PER_GAME = 500


def run(quick: bool = False) -> list[Figure]:
    total = 50_000 if quick else 1_000_000
    counts: Counter[tuple[int, int]] = Counter()
    start = time.perf_counter()
    drawn = 0
    while drawn < total:
        dice = GameDice.fresh()
        for _ in range(min(ROLLS_PER_GAME, total - drawn)):
            counts[dice.roll()] += 1
            drawn += 1
    elapsed = time.perf_counter() - start
    summary = summarize_rolls(counts)
    assert summary.faces_test is not None and summary.rolls_test is not None
    return [
        Figure("dice", "rolls drawn", float(summary.rolls), "rolls"),
        check(
            "dice",
            "faces: chi-square p-value (5 df)",
            summary.faces_test.p_value,
            "",
            at_least=0.001,
        ),
        Figure("dice", "faces: chi-square statistic", summary.faces_test.statistic, ""),
        check(
            "dice",
            "21 kinds of roll: chi-square p-value (20 df)",
            summary.rolls_test.p_value,
            "",
            at_least=0.001,
        ),
        Figure("dice", "21 kinds of roll: chi-square statistic", summary.rolls_test.statistic, ""),
        Figure("dice", "doubles rate", 100 * summary.doubles_rate, "%"),
        Figure("dice", "rolls per second", summary.rolls / elapsed, "rolls/s"),
    ]

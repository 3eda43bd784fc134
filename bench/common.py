"""Shared helpers for the benchmarks: a figure row, timing and percentiles."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "data" / "legal-plays.jsonl"


@dataclass
class Figure:
    """One measured figure, with its target when the issue names one."""

    bench: str
    name: str
    value: float
    unit: str
    target: str = ""
    ok: bool | None = None  # None when there is no target

    def row(self) -> tuple[str, str, str, str, str]:
        value = f"{self.value:,.3f}" if abs(self.value) < 100 else f"{self.value:,.0f}"
        status = "" if self.ok is None else ("ok" if self.ok else "MISSED")
        return (self.bench, self.name, f"{value} {self.unit}", self.target, status)


def check(
    bench: str,
    name: str,
    value: float,
    unit: str,
    *,
    at_least: float | None = None,
    at_most: float | None = None,
) -> Figure:
    """A figure compared with a bound (``at_least`` or ``at_most``)."""
    if at_least is not None:
        return Figure(bench, name, value, unit, f">= {at_least:,} {unit}", value >= at_least)
    if at_most is not None:
        return Figure(bench, name, value, unit, f"<= {at_most:,} {unit}", value <= at_most)
    return Figure(bench, name, value, unit)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(sorted(values), n=100, method="inclusive")[int(q) - 1]


def times_ms(
    fn: Callable[[], object],
    n: int,
    clock: Callable[[], float] = time.perf_counter,
    before: Callable[[], object] | None = None,
) -> list[float]:
    """``n`` timings of ``fn`` in milliseconds by ``clock`` (``time.process_time`` for CPU
    time); ``before`` runs untimed before each."""
    times = []
    for _ in range(n):
        if before is not None:
            before()
        start = clock()
        fn()
        times.append((clock() - start) * 1000)
    return times


def best_of(repeats: int, fn: Callable[[], float]) -> float:
    """The best of several runs of a timing function (less noise from other processes)."""
    return min(fn() for _ in range(repeats))


def print_table(figures: Sequence[Figure]) -> None:
    header = ("benchmark", "figure", "value", "target", "")
    rows = [header, *(f.row() for f in figures)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(header))]
    for i, r in enumerate(rows):
        print("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))

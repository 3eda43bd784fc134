"""A crowd pressing at once (issue 30 item 3): does the board slow down with the crowd?

``python -m bench crowd [--quick]`` builds the real bot as the load benchmark does
(:mod:`bench.bench_load`: ``create_bot``, its fake interactions through the adapter's press
path, the process tuned and the drawing workers started as ``run_bot`` does) on a fresh
database, then has 5 and then 40 players press at once, each in a game of his own against
another person, at human pace (a think time drawn from an exponential law, mean
``BENCH_CROWD_THINK`` seconds, between a board and the next press). Each measure prints the
board's final answer (the message shown: the press's reply with its picture) p50 and p95 for
both crowds and the ratio 40 / 5 (the issue's goal: at most 2), and where the board's time went:
before the service (the wait for a press thread), in it, after it (the calls to Discord), each
picture (the wait for the drawing worker included), each write or commit (SQLite's write lock
included), and the CPU per press of the bot's process and of the drawing worker.

It runs on SQLite and, when ``TEST_POSTGRES_URL`` answers, on PostgreSQL, each
``BENCH_CROWD_RUNS`` times (default 2, 1 with ``--quick``: a shared machine's figures vary from run
to run).

Environment: ``BENCH_CROWD_SIZES`` (default ``5,40``), ``BENCH_CROWD_SECONDS`` the measuring
window of each crowd (default 30; 8 with ``--quick``), ``BENCH_CROWD_THINK`` (default 1),
``BENCH_CROWD_RUNS``, ``BENCH_CROWD_DATABASES`` (``sqlite,postgresql``),
``BENCH_CROWD_RTT`` the seconds each call to Discord takes (default 0.05: a deferral and the
answer that follows it are two round trips, an answer at once one), ``BENCH_CROWD_DEBUG=1``
(print the slowest presses of each window, stage by stage), and the load
benchmark's ``BENCH_LOAD_DRAW_PROCESSES`` / ``BENCH_LOAD_THREADS`` / ``BENCH_LOAD_CROWD``.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event

from bench.bench_load import (
    _BOX,
    Load,
    Stats,
    Timing,
    _check_tasks,
    _open,
    _pg_url,
    _start,
    workers_cpu,
    workers_cpu_since,
)
from bench.common import Figure, percentile

RAMP = 2.0  # seconds of play before each window, not measured


@dataclass
class Where:
    """Where the board's time went, press by press (ms)."""

    before: list[float] = field(default_factory=list)  # made -> a thread starts the service
    service: list[float] = field(default_factory=list)  # the service's call, drawing included
    after: list[float] = field(default_factory=list)  # the service's reply -> shown
    drawing: list[float] = field(default_factory=list)  # waiting for each picture
    writing: list[float] = field(default_factory=list)  # each write statement and commit


class Probe:
    """Marks when each ordinary interaction's service call starts and ends (on its
    :class:`~bench.bench_load.Timing`) and times each picture (the heavy pools' and the drawers'
    entry points wrapped)."""

    def __init__(self) -> None:
        self.writing: list[float] = []
        self._began = threading.local()
        self.drawing: list[float] = []
        self.timings: list[Timing] = []
        self._lock = threading.Lock()

    @staticmethod
    def wrap_work(fn: Callable[[], Any]) -> Callable[[], Any]:
        def work() -> Any:
            box = _BOX.get(None)  # the interaction's (the thread runs in its context)
            started = time.perf_counter()
            try:
                return fn()
            finally:
                if box is not None:
                    box.service_span = (started, time.perf_counter())  # type: ignore[attr-defined]

        return work

    def wrap_draw(self, call: Callable[..., bytes]) -> Callable[..., bytes]:
        def timed(*args: Any, **kwargs: Any) -> bytes:
            started = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                with self._lock:
                    self.drawing.append((time.perf_counter() - started) * 1000)

        return timed

    def listen(self, engine: Any) -> None:
        """Time each write (the statements that take SQLite's write lock, and commits)."""

        def before(_c: Any, _cu: Any, sql: str, *_: Any) -> None:
            self._began.at = time.perf_counter() if not sql.lstrip().startswith("SELECT") else 0

        def after(*_: Any) -> None:
            at = getattr(self._began, "at", 0)
            if at:
                self.writing.append((time.perf_counter() - at) * 1000)

        def commit_before(_c: Any) -> None:
            self._began.at = time.perf_counter()

        event.listen(engine, "before_cursor_execute", before)
        event.listen(engine, "after_cursor_execute", after)
        event.listen(engine, "commit", commit_before)
        event.listen(engine.pool, "reset", after)  # the commit done: the connection returns

    def reset(self) -> Where:
        with self._lock:
            timings, self.timings, drawing, self.drawing = self.timings, [], self.drawing, []
            writing, self.writing = self.writing, []
        where = Where(drawing=drawing, writing=writing)
        if os.environ.get("BENCH_CROWD_DEBUG"):
            for timing in sorted(timings, key=lambda t: -(t.final or 0) + t.start)[:8]:
                span = getattr(timing, "service_span", (timing.start, timing.start))
                print(
                    f"  slow: total {((timing.final or 0) - timing.start) * 1000:.0f} "
                    f"before {(span[0] - timing.start) * 1000:.0f} "
                    f"service {(span[1] - span[0]) * 1000:.0f} "
                    f"first {((timing.first or 0) - timing.start) * 1000:.0f}"
                )
        for timing in timings:
            span = getattr(timing, "service_span", None)
            if span is None or timing.final is None:
                continue
            where.before.append((span[0] - timing.start) * 1000)
            where.service.append((span[1] - span[0]) * 1000)
            where.after.append((timing.final - span[1]) * 1000)
        return where


class ProbedLoad(Load):
    """The load, keeping each press's timing for the probe."""

    probe: Probe

    async def _press(self, table: Any, actor: Any, custom_id: str) -> Timing:
        timing = await super()._press(table, actor, custom_id)
        self.probe.timings.append(timing)
        return timing


@contextmanager
def _probed(probe: Probe) -> Iterator[None]:
    from bot import heavy
    from bot.drawers import DRAWERS

    pools = heavy.POOLS
    submit = pools.ordinary_submit

    def probed_submit(fn: Callable[[], Any], *, user: object = None) -> Any:
        return submit(probe.wrap_work(fn), user=user)

    pools.ordinary_submit = probed_submit  # type: ignore[method-assign]
    DRAWERS.call = probe.wrap_draw(DRAWERS.call)  # type: ignore[method-assign]
    try:
        yield
    finally:
        del pools.ordinary_submit
        del DRAWERS.call


@dataclass
class Crowd:
    players: int
    board: list[float]
    where: Where
    errors: int
    cpu: float = 0.0  # CPU seconds of the bot's process over the window
    workers_cpu: float = 0.0  # of the processes it started (the drawing worker)
    seconds: float = 1.0


async def _crowds(db_url: str, sizes: list[int], seconds: float, think: float) -> list[Crowd]:
    bot, service, engine = _open(db_url)
    await _start(bot)
    load = ProbedLoad(bot, service)
    probe = load.probe = Probe()
    probe.listen(engine)
    out = []
    try:
        with _probed(probe):
            for size in sizes:
                await asyncio.to_thread(load.add_games, size - len(load.tables), computer_share=0.0)
                out.append(await _window(load, probe, size, seconds, think))
    finally:
        await asyncio.to_thread(engine.dispose)
    return out


async def _window(load: Load, probe: Probe, size: int, seconds: float, think: float) -> Crowd:
    """``size`` players (the first ``size`` games) pressing for ``seconds`` after a ramp."""
    load.stop.clear()
    for table in load.tables:
        table.think = think
    tasks = [asyncio.create_task(load.players(load.tables[:size]))]
    await asyncio.sleep(RAMP)
    load.stats, _ = Stats(), probe.reset()
    cpu, workers, started = time.process_time(), workers_cpu(), time.perf_counter()
    await asyncio.sleep(seconds)
    stats, where = load.stats, probe.reset()
    crowd = Crowd(size, stats.ordinary.final, where, stats.errors)
    crowd.cpu, crowd.workers_cpu = time.process_time() - cpu, workers_cpu_since(workers)
    crowd.seconds = time.perf_counter() - started
    load.stop.set()
    _check_tasks(await asyncio.gather(*tasks, return_exceptions=True))
    return crowd


def _p(values: list[float], q: float) -> float:
    return percentile(values, q) if values else 0.0


def _figures(label: str, crowds: list[Crowd]) -> list[Figure]:
    out = []
    for c in crowds:
        tag = f"{label}, {c.players} players"
        out.append(Figure("crowd", f"{tag}: presses answered", len(c.board), ""))
        out.append(Figure("crowd", f"{tag}: board p50", _p(c.board, 50), "ms"))
        out.append(Figure("crowd", f"{tag}: board p95", _p(c.board, 95), "ms"))
        w = c.where
        out.append(Figure("crowd", f"{tag}: before the service p95", _p(w.before, 95), "ms"))
        out.append(Figure("crowd", f"{tag}: in the service p95", _p(w.service, 95), "ms"))
        out.append(Figure("crowd", f"{tag}: after the service p95", _p(w.after, 95), "ms"))
        out.append(Figure("crowd", f"{tag}: each picture p95", _p(w.drawing, 95), "ms"))
        out.append(Figure("crowd", f"{tag}: each write or commit p95", _p(w.writing, 95), "ms"))
        out.append(Figure("crowd", f"{tag}: each write or commit max", max(w.writing or [0]), "ms"))
        presses = max(1, len(c.board))
        out.append(Figure("crowd", f"{tag}: bot's CPU per press", c.cpu / presses * 1000, "ms"))
        drawing = c.workers_cpu / presses * 1000
        out.append(Figure("crowd", f"{tag}: drawing worker's CPU per press", drawing, "ms"))
        out.append(Figure("crowd", f"{tag}: bot's CPU (cores)", c.cpu / c.seconds, ""))
        if c.errors:
            out.append(Figure("crowd", f"{tag}: errors", c.errors, "", "0", False))
    if len(crowds) >= 2:
        small, big = crowds[0], crowds[-1]
        ratio = _p(big.board, 95) / max(_p(small.board, 95), 1e-9)
        name = f"{label}: board p95, {big.players} / {small.players} players"
        out.append(Figure("crowd", name, ratio, "x", "<= 2 x", ratio <= 2.0))
    return out


def run(quick: bool = False) -> list[Figure]:
    from bench import bench_load

    sizes_env = os.environ.get("BENCH_CROWD_SIZES")
    sizes = [int(x) for x in sizes_env.split(",")] if sizes_env else [5, 40]
    seconds = float(os.environ.get("BENCH_CROWD_SECONDS") or (8 if quick else 30))
    think = float(os.environ.get("BENCH_CROWD_THINK") or 1.0)
    runs = int(os.environ.get("BENCH_CROWD_RUNS") or (1 if quick else 2))
    databases = (os.environ.get("BENCH_CROWD_DATABASES") or "sqlite,postgresql").split(",")
    figures: list[Figure] = []
    bench_load.LATENCY[0] = float(os.environ.get("BENCH_CROWD_RTT") or 0.05)
    try:
        for n in range(1, runs + 1):
            figures += _one_run(n, databases, sizes, seconds, think)
    finally:
        bench_load.LATENCY[0] = 0.0  # the other benchmarks' fake Discord answers at once
    return figures


def _one_run(
    n: int, databases: list[str], sizes: list[int], seconds: float, think: float
) -> list[Figure]:
    figures: list[Figure] = []
    if "sqlite" in databases:
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{Path(tmp) / 'crowd.sqlite3'}"
            crowds = asyncio.run(_crowds(url, sizes, seconds, think))
        figures += _figures(f"SQLite run {n}", crowds)
    pg = _pg_url() if "postgresql" in databases else None
    if pg is not None:
        crowds = asyncio.run(_crowds(pg, sizes, seconds, think))
        figures += _figures(f"PostgreSQL run {n}", crowds)
    return figures

"""One person's flood of ordinary commands (issue 27 item 1), through the Discord adapter.

``python -m bench flood [--quick]`` builds the real bot on a fresh database as the load
benchmark does (:mod:`bench.bench_load`: its fake interactions, the adapter's ``answer``), with
one game between two people pressing at machine pace. It measures their presses' final answer
(median and max) alone, then while one other person keeps N commands in flight (``/export``,
``/verify``, ``/stats`` and ``/dice`` in turn, each fired again as soon as it is answered, after
a gap standing for Discord's round trip), for N = 12, 64 and 256: with the per-person limit on
ordinary interactions (``heavy.POOLS.ordinary_per_user``), without it, and as the bot was
before issue 27 (every command straight to the four threads). It also counts the flood's
commands answered and refused "busy".

Environment: ``BENCH_FLOOD_SECONDS`` the window of each measure (default 10; 3 with
``--quick``), ``BENCH_FLOOD_LEVELS`` the commands in flight (e.g. ``12,256``),
``BENCH_FLOOD_GAP`` the seconds between an answer and the next command of the same slot
(default 0.05), ``BENCH_FLOOD_LIMIT`` the per-person limit to try (default the bot's),
``BENCH_FLOOD_UNCAPPED=0`` skips the runs without the limit (a person's interactions still
run one at a time) and as before issue 27 (side by side, without a limit).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import os
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bench_load import Load, Stats, _open, _start
from bench.common import Figure, percentile
from bot import heavy
from bot.service import Actor, Where

COMMANDS = ("export", "verify", "stats", "dice")
UNCAPPED = 1 << 30  # a per-person limit nobody reaches: the bot as it was before the limit


@dataclass
class Flood:
    """What the flooding person got back."""

    answered: int = 0
    refused: int = 0
    seconds: list[float] = field(default_factory=list)  # answered commands' final answer (ms)


async def _flooder(load: Load, game_id: int, in_flight: int, gap: float, flood: Flood) -> None:
    """One person keeping ``in_flight`` commands going until the load stops."""
    who = Actor(load._new_id(), "flooder")
    where = Where(channel_id=load._new_id(), guild_id=7)

    async def slot(n: int) -> None:
        while not load.stop.is_set():
            name = COMMANDS[n % len(COMMANDS)]
            n += 1
            options: dict[str, Any] = {"game": game_id} if name in ("export", "verify") else {}
            timing = await load._command(who, where, name, **options)
            if timing.reply is None:  # answered without reaching the service: refused busy
                flood.refused += 1
            else:
                flood.answered += 1
                flood.seconds.append(((timing.final or time.perf_counter()) - timing.start) * 1e3)
            await asyncio.sleep(gap)

    await asyncio.gather(*(slot(n) for n in range(in_flight)))


async def _window(
    load: Load, seconds: float, flood_task: Callable[[], Awaitable[None]] | None = None
) -> Stats:
    """The two people press for ``seconds`` (after a short ramp), alongside the flood."""
    load.stop.clear()
    load.stats = Stats()
    players = [asyncio.create_task(load.players(load.tables))]
    flooding = [asyncio.ensure_future(flood_task())] if flood_task else []
    await asyncio.sleep(min(1.0, seconds / 3))  # the flood fills up; not measured
    load.stats = Stats()
    await asyncio.sleep(seconds)
    stats = load.stats
    load.stop.set()
    await asyncio.gather(*players, *flooding, return_exceptions=True)
    return stats


def _press_figures(label: str, stats: Stats) -> list[Figure]:
    final = stats.ordinary.final or [0.0]
    return [
        Figure("flood", f"{label}: another player's press, median", percentile(final, 50), "ms"),
        Figure("flood", f"{label}: another player's press, max", max(final), "ms"),
        Figure("flood", f"{label}: presses answered", len(stats.ordinary.final), ""),
    ]


async def _measure(db_url: str, levels: list[int], seconds: float, gap: float) -> list[Figure]:
    bot, service, engine = _open(db_url)
    await _start(bot)
    load = Load(bot, service)
    try:
        await asyncio.to_thread(load.finish_games, 1)  # for /export and /verify
        await asyncio.to_thread(load.add_games, 1, computer_share=0.0, machine=1)
        figures = _press_figures("alone", await _window(load, seconds))
        for tag, mode in _modes():
            with mode():
                for n in levels:
                    figures += await _flooded(load, f"{n} in flight, {tag}", n, seconds, gap)
    finally:
        await asyncio.to_thread(engine.dispose)
    return figures


async def _flooded(load: Load, label: str, n: int, seconds: float, gap: float) -> list[Figure]:
    """The figures of one window with a flood of ``n`` commands in flight."""
    flood = Flood()
    flooder = functools.partial(_flooder, load, load.finished[0], n, gap, flood)
    stats = await _window(load, seconds, flooder)
    return [
        *_press_figures(label, stats),
        Figure("flood", f"{label}: flood answered", flood.answered, ""),
        Figure("flood", f"{label}: flood refused busy", flood.refused, ""),
    ]


Mode = Callable[[], contextlib.AbstractContextManager[None]]


def _modes() -> list[tuple[str, Mode]]:
    """The bot as it is (its limit, or ``BENCH_FLOOD_LIMIT``), without the limit (a person's
    interactions still one at a time), and as before issue 27 (unless
    ``BENCH_FLOOD_UNCAPPED=0``)."""
    limit = int(os.environ.get("BENCH_FLOOD_LIMIT") or heavy.POOLS.ordinary_per_user)
    modes: list[tuple[str, Mode]] = [(f"limit {limit}", functools.partial(_limit, limit))]
    if os.environ.get("BENCH_FLOOD_UNCAPPED") != "0":
        modes.append(("one at a time, no limit", functools.partial(_limit, UNCAPPED)))
        modes.append(("as before", _as_before))
    return modes


@contextlib.contextmanager
def _limit(cap: int) -> Iterator[None]:
    default = heavy.POOLS.ordinary_per_user
    heavy.POOLS.ordinary_per_user = cap
    try:
        yield
    finally:
        heavy.POOLS.ordinary_per_user = default


@contextlib.contextmanager
def _as_before() -> Iterator[None]:
    """Every ordinary interaction straight to the pool's threads, whoever sent it: no limit,
    and a person's run side by side (the bot before issue 27)."""
    pools = heavy.POOLS

    def submit(fn: Callable[[], Any], *, user: object = None) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        pools._ordinary_jobs += 1  # for crowded(), as then
        done = pools.ordinary.submit(contextvars.copy_context().run, fn)
        done.add_done_callback(lambda _: loop.call_soon_threadsafe(pools._ordinary_done, None))
        return asyncio.wrap_future(done, loop=loop)

    setattr(pools, "ordinary_submit", submit)  # noqa: B010  (an instance attribute, for now)
    try:
        yield
    finally:
        delattr(pools, "ordinary_submit")


def run(quick: bool = False) -> list[Figure]:
    seconds = float(os.environ.get("BENCH_FLOOD_SECONDS") or (3 if quick else 10))
    levels_env = os.environ.get("BENCH_FLOOD_LEVELS")
    levels = [int(x) for x in levels_env.split(",")] if levels_env else [12, 64, 256]
    gap = float(os.environ.get("BENCH_FLOOD_GAP") or 0.05)
    with tempfile.TemporaryDirectory() as tmp:
        db_url = f"sqlite:///{Path(tmp) / 'flood.sqlite3'}"
        return asyncio.run(_measure(db_url, levels, seconds, gap))

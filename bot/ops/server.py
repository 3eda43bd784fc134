"""``/healthz`` and ``/metrics`` on a local port (``METRICS_PORT``), served by aiohttp in the bot's
event loop, built off it.

``/healthz`` answers 200 ``ok`` when the database answers a ``SELECT 1`` and 503 otherwise, at
the latest ``health_timeout`` seconds after the ping started: the ping runs in a thread of its
own, one at a time, and requests arriving meanwhile share its outcome (when the database hangs,
a ping can hold its thread for the connection's own time limits, about 11 s; a thread per
request would pile up). ``/metrics`` is Prometheus' text format, the gauges (active games, the
analysis queue) read when it is built: built in a thread, one build at a time, and served again
for ``metrics_fresh`` seconds, so a storm of scrapes costs one build (2,000 scrapes built on the
event loop held it 10.7 s). A ticker task samples the event loop's lag.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot import heavy
from bot.ops import metrics

__all__ = ["HEALTH_TIMEOUT", "METRICS_FRESH", "MetricsServer", "serving"]

log = logging.getLogger(__name__)

HEALTH_TIMEOUT = 5.0  # seconds for the database to answer /healthz (and the games' count)
METRICS_FRESH = 1.0  # seconds a built /metrics text is served again
LAG_PERIOD = 0.5

T = TypeVar("T")


class Shared(Generic[T]):
    """One run of ``make`` at a time: callers arriving while it runs share its outcome, and a
    result is reused for ``fresh`` seconds after it came (event loop only)."""

    def __init__(self, make: Callable[[], Awaitable[T]], fresh: float = 0.0) -> None:
        self._make = make
        self._fresh = fresh
        self._flight: asyncio.Future[T] | None = None
        self._started = 0.0
        self._kept: tuple[float, T] | None = None  # (when, result) of the last success

    async def get(self, timeout: float | None = None) -> T:
        """The outcome of the run in flight, or of a new one; :class:`TimeoutError` when it has
        not come ``timeout`` seconds after that run started (the run goes on, for the next)."""
        now = time.monotonic()
        if self._kept is not None and now - self._kept[0] < self._fresh:
            return self._kept[1]
        if self._flight is None:
            self._flight = asyncio.ensure_future(self._make())
            self._started = now
            self._flight.add_done_callback(self._landed)
        if timeout is None:
            return await asyncio.shield(self._flight)
        left = self._started + timeout - now
        if left <= 0:  # the run in flight is already late: say so now, not in another timeout
            raise TimeoutError(f"no answer within {timeout:g} s")
        try:
            return await asyncio.wait_for(asyncio.shield(self._flight), left)
        except TimeoutError:
            raise TimeoutError(f"no answer within {timeout:g} s") from None

    def _landed(self, done: asyncio.Future[T]) -> None:
        self._flight = None
        if not done.cancelled() and done.exception() is None:
            self._kept = (time.monotonic(), done.result())


class MetricsServer:
    """The endpoints. ``ping`` checks the database (blocking; run in a thread); ``active_games``
    counts the games in progress (blocking; None when unknown). ``health_timeout`` bounds the
    wait for either; ``metrics_fresh`` is how long a built ``/metrics`` text is served again."""

    def __init__(
        self,
        ping: Callable[[], None],
        active_games: Callable[[], int] | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        health_timeout: float = HEALTH_TIMEOUT,
        metrics_fresh: float = METRICS_FRESH,
    ) -> None:
        self.ping = ping
        self.active_games = active_games
        self.host = host
        self.port = port
        self.health_timeout = health_timeout
        # A thread each: a ping or a count stuck on a hung database holds its own only, never
        # the event loop's default threads (which other work needs) nor the build of /metrics.
        self._threads = {n: ThreadPoolExecutor(1, thread_name_prefix=n) for n in _THREADS}
        self._pings: Shared[None] = Shared(lambda: self._in("ping", self.ping))
        self._counts: Shared[int] = Shared(self._count)
        self._texts: Shared[bytes] = Shared(self._build, fresh=metrics_fresh)
        self._runner: web.AppRunner | None = None
        self._ticker: asyncio.Task[None] | None = None

    async def start(self) -> int:
        """Listen; the port actually bound (useful with port 0)."""
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])  # the port bound (port 0: a free one)
        self._ticker = asyncio.create_task(_lag_ticker())
        log.info("health and metrics on http://%s:%d/healthz and /metrics", self.host, self.port)
        return self.port

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
        if self._runner is not None:
            await self._runner.cleanup()
        for threads in self._threads.values():
            threads.shutdown(wait=False, cancel_futures=True)  # a hung ping is not waited for

    def _in(self, name: str, fn: Callable[[], T]) -> asyncio.Future[T]:
        return asyncio.get_running_loop().run_in_executor(self._threads[name], fn)

    async def _healthz(self, request: web.Request) -> web.Response:
        try:
            await self._pings.get(self.health_timeout)
        except Exception as error:  # any failure is an unhealthy database
            log.warning("health check failed: %s", error)
            return web.Response(status=503, text=f"database unavailable: {type(error).__name__}\n")
        return web.Response(text="ok\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        body = await self._texts.get()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _build(self) -> bytes:
        """Read the gauges, then render the text in a thread (it walks every series)."""
        if self.active_games is not None:
            try:
                metrics.ACTIVE_GAMES.set(await self._counts.get(self.health_timeout))
            except Exception:  # the last count stays
                log.warning("counting the active games failed", exc_info=True)
        waiting, running = heavy.POOLS.queued()  # here: the pools count on the event loop
        metrics.ANALYSIS_QUEUE.set(waiting)
        metrics.ANALYSIS_RUNNING.set(running)
        return await self._in("metrics", lambda: generate_latest(metrics.REGISTRY))

    async def _count(self) -> int:
        assert self.active_games is not None
        return await self._in("games", self.active_games)


_THREADS = ("ping", "games", "metrics")


async def _lag_ticker() -> None:
    while True:
        started = time.perf_counter()
        await asyncio.sleep(LAG_PERIOD)
        metrics.LOOP_LAG.observe(max(0.0, time.perf_counter() - started - LAG_PERIOD))


def database_probes(factory: object) -> tuple[Callable[[], None], Callable[[], int]]:
    """``ping`` and ``active_games`` on a session factory (a ``sessionmaker``)."""
    from sqlalchemy import func, select, text
    from sqlalchemy.orm import Session, sessionmaker

    from db.models import Game, GameStatus

    assert isinstance(factory, sessionmaker)
    sessions: sessionmaker[Session] = factory

    def ping() -> None:
        with sessions() as s:
            s.execute(text("SELECT 1"))

    def active_games() -> int:
        with sessions() as s:
            query = select(func.count()).select_from(Game).where(Game.status == GameStatus.ACTIVE)
            return int(s.execute(query).scalar_one())

    return ping, active_games


@contextlib.asynccontextmanager
async def serving(
    port: int | None, factory: object, host: str = "127.0.0.1"
) -> AsyncIterator[MetricsServer | None]:
    """The endpoints while the bot runs, when a port is configured (else nothing)."""
    if port is None:
        yield None
        return
    ping, active = database_probes(factory)
    server = MetricsServer(ping, active, host=host, port=port)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()

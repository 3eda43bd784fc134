"""``/healthz`` and ``/metrics`` on a local port (``METRICS_PORT``), served by aiohttp in the bot's
event loop.

``/healthz`` answers 200 ``ok`` when the database answers a ``SELECT 1`` (in a thread, with a
timeout) and 503 otherwise; ``/metrics`` is Prometheus' text format, the gauges (active games,
analysis queue) read at each scrape. A ticker task samples the event loop's lag.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot import heavy
from bot.ops import metrics

__all__ = ["HEALTH_TIMEOUT", "MetricsServer", "serving"]

log = logging.getLogger(__name__)

HEALTH_TIMEOUT = 5.0  # seconds for the database to answer /healthz
LAG_PERIOD = 0.5


class MetricsServer:
    """The endpoints. ``ping`` checks the database (blocking; run in a thread); ``active_games``
    counts the games in progress (blocking; None when unknown)."""

    def __init__(
        self,
        ping: Callable[[], None],
        active_games: Callable[[], int] | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.ping = ping
        self.active_games = active_games
        self.host = host
        self.port = port
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

    async def _healthz(self, request: web.Request) -> web.Response:
        try:
            await asyncio.wait_for(asyncio.to_thread(self.ping), HEALTH_TIMEOUT)
        except Exception as error:  # any failure is an unhealthy database
            log.warning("health check failed: %s", error)
            return web.Response(status=503, text=f"database unavailable: {type(error).__name__}\n")
        return web.Response(text="ok\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        if self.active_games is not None:
            try:
                count = await asyncio.wait_for(asyncio.to_thread(self.active_games), HEALTH_TIMEOUT)
                metrics.ACTIVE_GAMES.set(count)
            except Exception:
                log.warning("counting the active games failed", exc_info=True)
        waiting, running = heavy.POOLS.queued()
        metrics.ANALYSIS_QUEUE.set(waiting)
        metrics.ANALYSIS_RUNNING.set(running)
        body = generate_latest(metrics.REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})


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

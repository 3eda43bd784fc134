"""The web board: a page per game, drawn in the browser, live, from which a player plays
through the same service calls as a Discord button (see README, "Web board").

:func:`web_links` reads the settings (``WEB_PORT``, ``WEB_HOST``, ``PUBLIC_URL``,
``WEB_SECRET``); :class:`~bot.web.server.WebServer` serves the pages on an event loop;
:class:`Background` runs it on a loop of its own, for the terminal (which has none).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Config
from bot.web.links import Links, load_secret

if TYPE_CHECKING:
    from bot.service import Service
    from bot.web.server import WebServer

__all__ = ["Background", "Links", "serving_web", "web_links"]


def web_links(config: Config, env: Mapping[str, str] | None = None) -> Links | None:
    """The web board's links when ``WEB_PORT`` is set, else None (no page, no link)."""
    import os

    if config.web_port is None:
        return None
    secret = load_secret(os.environ if env is None else env, Path(config.web_secret_file))
    return Links(secret, config.public_url)


class Background:
    """A web server on an event loop in a thread of its own (the terminal's), started and
    stopped from the calling thread."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="web", daemon=True)

    def start(self) -> None:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(timeout=30)

    def stop(self) -> None:
        if not self._thread.is_alive():
            return
        asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)
        self.loop.close()


@contextlib.asynccontextmanager
async def serving_web(service: Service, config: Config) -> AsyncIterator[WebServer | None]:
    """The web board on the running loop (the Discord bot's) while the bot runs, when
    ``WEB_PORT`` is set (else nothing listens)."""
    links = web_links(config)
    if links is None or config.web_port is None:
        yield None
        return
    import os

    from bot.web.activity import ActivitySettings
    from bot.web.server import WebServer

    activity = ActivitySettings.from_env(os.environ)
    server = WebServer(service, links, config.web_host, config.web_port, activity)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()

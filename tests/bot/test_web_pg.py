"""Two bot processes on one PostgreSQL database: a page served by one hears of an action made
through the other (its news comes by ``NOTIFY``, at the action's commit), and when the news
connection is lost the pages read again once it is back (``TEST_POSTGRES_URL``; skipped
without it)."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import text

from bot.service import Reply, Service, Settings
from bot.web.links import Links
from bot.web.server import WebServer
from db import notify
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade
from tests.bot.conftest import ALICE, ScriptedDice, press
from tests.bot.test_tournaments_pg import pg_url  # noqa: F401 - the fixture
from tests.bot.test_web import (
    accepted,
    links,  # noqa: F401 - the fixture
    news,
    page_token,
    path,
)

pytestmark = pytest.mark.postgres
KILL = text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :n")


def process(url: str, script: deque[int]) -> Service:
    """A bot process's service on the shared database: its own engine and pool."""
    factory = make_session_factory(make_engine(url, pool_size=2))
    return Service(
        factory,
        settings=Settings(announce_games=True),
        new_dice=lambda: ScriptedDice(script, bytes(range(32))),
        dice_for=lambda seed, counter: ScriptedDice(script, seed, counter),
    )


@pytest.fixture
def pair(pg_url: str) -> Iterator[tuple[Service, Service, deque[int]]]:  # noqa: F811
    upgrade(make_engine(pg_url))
    script: deque[int] = deque()
    one, two = process(pg_url, script), process(pg_url, script)
    yield one, two, script
    for service in (one, two):
        bind = service.factory.kw["bind"]
        bind.dispose()


@pytest.fixture
async def served(
    pair: tuple[Service, Service, deque[int]],
    links: Links,  # noqa: F811
) -> AsyncIterator[tuple[WebServer, TestClient[Any, Any]]]:
    """The second process's web board, listening for the first one's news."""
    server = WebServer(pair[1], links, "127.0.0.1", 0)
    client = TestClient(TestServer(server.app()))
    await client.start_server()
    assert server.listener is not None
    await asyncio.wait_for(server.listener.listening.wait(), 60)
    yield server, client
    await client.close()


async def watching(
    one: Service,
    script: deque[int],
    client: TestClient[Any, Any],
    links: Links,  # noqa: F811
) -> tuple[Reply, Any, int]:
    """A game made through the first process, and a page open on it in the second: the board,
    the page's event stream (its first news read) and the game's version."""
    board = accepted(one, script)
    assert board.game_id is not None
    url = path(links.game_url(board.game_id))
    _, state = await page_token(client, url)
    stream = await client.get(url + "/events")
    assert (await stream.content.readline()).startswith(b"retry:")
    assert (await next_news(stream))["version"] == state["version"]
    return board, stream, int(state["version"])


async def next_news(stream: Any) -> dict[str, Any]:
    return await asyncio.wait_for(news(stream), 60)


async def test_a_page_hears_an_action_made_by_another_process(
    pair: tuple[Service, Service, deque[int]],
    served: tuple[WebServer, TestClient[Any, Any]],
    links: Links,  # noqa: F811
) -> None:
    one, _, script = pair
    board, stream, version = await watching(one, script, served[1], links)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, lambda: press(one, ALICE, board, "13"))
    assert (await next_news(stream))["version"] == version + 1
    stream.close()


async def test_pages_read_again_when_the_news_comes_back(
    pair: tuple[Service, Service, deque[int]],
    served: tuple[WebServer, TestClient[Any, Any]],
    links: Links,  # noqa: F811
) -> None:
    one, two, script = pair
    server, client = served
    assert server.listener is not None
    board, stream, version = await watching(one, script, client, links)
    # The listening connection dies (a database restart, a network cut) ...
    with one.factory() as s:
        killed = s.execute(KILL, {"n": f"backgammon-bot-listen-{two.deps.origin}"}).all()
    assert killed == [(True,)]
    await asyncio.wait_for(until(lambda: not server.listener.listening.is_set()), 60)
    # ... and while it is down, an action is made through the other process: no news of it.
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, lambda: press(one, ALICE, board, "13"))
    # Back, the listener has every open page read again: the action is seen.
    assert (await next_news(stream))["version"] == version + 1
    stream.close()


async def until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.01)


def test_news_is_sent_at_commit_and_not_for_a_rolled_back_action(pg_url: str) -> None:  # noqa: F811
    import psycopg

    engine = make_engine(pg_url)
    raw = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(raw, autocommit=True) as listening:
        listening.execute(f"LISTEN {notify.CHANNEL}")
        factory = make_session_factory(engine)
        with factory.begin() as s:
            notify.announce(s, "me", [3, 1, 3])
        try:
            with factory.begin() as s:
                notify.announce(s, "me", [99])
                raise RuntimeError("the action fails")
        except RuntimeError:
            pass
        heard = [n.payload for n in listening.notifies(timeout=2)]
    assert [p for p in heard if p.startswith("me:")] == ["me:1,3"]  # other tests may speak
    engine.dispose()

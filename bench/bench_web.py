"""The web board (issue 29): page weight (goal under 150 KB, everything included), time to a
drawn board on loopback in headless Chromium (goal p95 under 300 ms), live update delay after
the action is committed with 200 open pages (goal p95 under 200 ms), and the CPU per page view
and per live update (goal under 2 ms): the CPU of the server's threads (its loop and the pool
threads reading the games), the clients' threads left out (Linux).

``python -m bench.bench_web --screens docs`` also writes the README's pictures (360 px and
desktop)."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import threading
import time
import urllib.request
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bench.common import Figure, check, percentile, times_ms
from bot.service import Actor, Reply, Service, Where
from bot.service.customid import GameAction
from bot.web import Background
from bot.web.links import Links
from bot.web.live import RateLimit
from bot.web.server import WebServer
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade

NAME = "web"
ANN, BEN = Actor(11, "Ann"), Actor(22, "Ben")
HERE = Where(channel_id=1, guild_id=2, guild_locale="en-US")
CY, DI = Actor(33, "Cy"), Actor(44, "Di")
THERE = Where(channel_id=3, guild_id=2, guild_locale="en-US")


@contextmanager
def board() -> Iterator[tuple[Service, Links]]:
    """A service on a fresh SQLite file and its web board on a free port."""
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{folder}/bench.sqlite3")
        upgrade(engine)
        service = Service(make_session_factory(engine))
        links = Links(b"bench" * 8, "http://127.0.0.1:0")
        web = WebServer(service, links, "127.0.0.1", 0)
        web.per_address = RateLimit(rate=1e6, burst=1e6)  # every request comes from loopback
        server = Background(web)
        server.start()
        links.public_url = f"http://127.0.0.1:{server.server.port}"
        try:
            yield service, links
        finally:
            server.stop()
            engine.dispose()


def people_game(
    service: Service, pair: tuple[Actor, Actor] = (ANN, BEN), where: Where = HERE
) -> Reply:
    """A game between two people (Ann and Ben), the opening rolled."""
    made = service.challenge(pair[0], where, pair[1], points=5)
    accept = next(b for b in made.buttons if "accept" in b.custom_id)
    return service.press(pair[1], where, accept.custom_id)


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=30) as response:
        data: bytes = response.read()
        return data


def page_weight(links: Links, game_id: int, at: int | None = None) -> float:
    url = links.player_url(game_id, ANN.id) + ("" if at is None else f"&at={at}")
    html = fetch(url)
    assets = [fetch(f"{links.public_url}/static/{name}") for name in ("board.js", "board.css")]
    return (len(html) + sum(map(len, assets))) / 1024


def drawn_times(links: Links, game_id: int, loads: int) -> list[float]:
    """Milliseconds from navigation to the board drawn, page after page (Chromium)."""
    from tests.bot.web_browser import available, chromium

    if not available():
        return []
    driver = chromium()
    try:
        out = []
        for _ in range(loads):
            driver.get(links.game_url(game_id))
            out.append(
                float(driver.find_element("css selector", "body").get_attribute("data-drawn"))
            )
        return out
    finally:
        driver.quit()


async def _listen(
    url: str, pages: int, got: list[list[float]], ready: threading.Event, stop: threading.Event
) -> None:
    import aiohttp

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        streams = [await session.get(url) for _ in range(pages)]
        for stream in streams:
            await stream.content.readline()  # retry: the stream is open
        ready.set()

        async def read(stream: aiohttp.ClientResponse, times: list[float]) -> None:
            async for line in stream.content:
                if line.startswith(b"data: "):
                    times.append(time.perf_counter())

        tasks = [asyncio.ensure_future(read(s, t)) for s, t in zip(streams, got, strict=True)]
        await asyncio.sleep(0)
        while not stop.is_set() and not all(len(t) >= ACTIONS for t in got):
            await asyncio.sleep(0.01)
        for task in tasks:
            task.cancel()


ACTIONS = 6


def live_delays(service: Service, links: Links, pages: int) -> tuple[list[float], float]:
    """Milliseconds from each action's commit to each open page's news; CPU per update."""
    reply = people_game(service, (CY, DI), THERE)
    assert reply.game_id is not None
    url = links.game_url(reply.game_id) + "/events"
    committed: list[float] = []
    service.on_game_changed(lambda game_id: committed.append(time.perf_counter()))
    got: list[list[float]] = [[] for _ in range(pages)]
    ready, stop = threading.Event(), threading.Event()
    listening = _listen(url, pages, got, ready, stop)
    listener = threading.Thread(target=asyncio.run, args=(listening,), daemon=True)
    listener.start()
    ready.wait(120)
    cpu = server_cpu(listener.native_id)
    plays = deque(["13", "13", "confirm"] * ACTIONS)
    while len(committed) < ACTIONS and plays:
        time.sleep(0.3)
        reply = _press(service, reply, plays.popleft(), (CY, DI), THERE)
    listener.join(30)
    stop.set()
    listener.join(10)
    used = server_cpu(listener.native_id) - cpu  # the presses run in this thread: left out
    cpu_ms = used * 1000 / max(1, len(committed) * pages)
    # Each page's news against the latest commit before it (two quick commits may share one).
    delays = [
        (seen - max(c for c in committed if c <= seen)) * 1000
        for times in got
        for seen in times
        if any(c <= seen for c in committed)
    ]
    return delays, cpu_ms


def _press(
    service: Service,
    reply: Reply,
    word: str,
    pair: tuple[Actor, Actor] = (ANN, BEN),
    where: Where = HERE,
) -> Reply:
    """Whoever's turn it is presses the first button matching ``word`` (or rolls, or moves)."""
    for actor in pair:
        for button in reply.buttons:
            if button.disabled:
                continue
            action = GameAction.parse(button.custom_id)
            if word in (button.label.lower(), action and action.action.value) or (
                button.label == word
            ):
                answer = service.press(actor, where, button.custom_id)
                if not answer.ephemeral:
                    return answer
        for button in reply.buttons:
            if (not button.disabled and ":pt:" in button.custom_id) or ":roll" in button.custom_id:
                answer = service.press(actor, where, button.custom_id)
                if not answer.ephemeral:
                    return answer
    return reply


def server_cpu(*clients: int | None) -> float:
    """Seconds of CPU used by this process's threads but the clients' (Linux: /proc), the
    web server's loop and the pool threads that read the games for it."""
    import os

    skip = {threading.get_native_id(), *clients}
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for task in os.listdir("/proc/self/task"):
        if int(task) in skip:
            continue
        try:
            fields = Path(f"/proc/self/task/{task}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def page_cpu(links: Links, game_id: int, views: int) -> float:
    """Server CPU per page view, in ms (the client, urllib in this thread, left out); the
    game's state is read once and shared by the views of the next two seconds."""
    url = links.game_url(game_id)
    cpu = server_cpu()
    for _ in range(views):
        fetch(url)
    return (server_cpu() - cpu) * 1000 / views


def run(quick: bool = False) -> list[Figure]:
    from bot.drawers import DRAWERS

    DRAWERS.start(1)  # as the bot does on two cores or more: pictures off its GIL
    try:
        return _figures(quick)
    finally:
        DRAWERS.stop()


def _figures(quick: bool) -> list[Figure]:
    figures = []
    with board() as (service, links):
        game = service.play(ANN, HERE, level="beginner").game_id
        assert game is not None
        figures.append(
            check(
                NAME,
                "page weight (HTML + script + style)",
                page_weight(links, game),
                "KB",
                at_most=150,
            )
        )
        reviewed, steps = reviewed_game(service)
        figures.append(
            check(
                NAME,
                "page weight, a reviewed game's replay (review and chart included)",
                page_weight(links, reviewed, at=steps // 2),
                "KB",
                at_most=150,
            )
        )
        times = drawn_times(links, game, 5 if quick else 40)
        if times:
            figures.append(
                check(
                    NAME,
                    "time to a drawn board p95 (Chromium, loopback)",
                    percentile(times, 95),
                    "ms",
                    at_most=300,
                )
            )
        figures.append(
            check(
                NAME,
                "server CPU per page view (state shared 2 s)",
                page_cpu(links, game, 20 if quick else 200),
                "ms",
                at_most=2,
            )
        )
        reads = times_ms(lambda: service.web_state(game, None, "en"), 20 if quick else 200)
        figures.append(
            Figure(NAME, "a page's state read from the database, p50", percentile(reads, 50), "ms")
        )
        pages = 20 if quick else 200
        delays, cpu = live_delays(service, links, pages)
        figures.append(
            check(
                NAME,
                f"live update delay p95, {pages} open pages",
                percentile(delays, 95),
                "ms",
                at_most=200,
            )
        )
        figures.append(check(NAME, "server CPU per live update per page", cpu, "ms", at_most=2))
    return figures


def reviewed_game(service: Service) -> tuple[int, int]:
    """A game of Ann against the computer played to its end and reviewed (at the shallowest
    depth: the page's weight does not depend on it); its number and its count of actions."""
    import bot.service.analysis as analysis
    from tests.bot.conftest import play_out

    start = service.play(ANN, THERE, level="beginner", points=3)
    assert start.game_id is not None
    play_out(service, ANN, THERE, start, limit=3000)
    depth, analysis.REVIEW_PLIES = analysis.REVIEW_PLIES, 1
    try:
        service.review(ANN, THERE, start.game_id)
    finally:
        analysis.REVIEW_PLIES = depth
    return start.game_id, service.web_state(start.game_id, None, "en")["actions_count"]


def screens(folder: Path) -> None:
    """The README's pictures: a game in progress at phone and desktop widths."""
    from tests.bot.web_browser import chromium

    with board() as (service, links):
        reply = people_game(service)
        assert reply.game_id is not None
        reply = _press(service, reply, "13")
        assert reply.game_id is not None
        player = ANN if service.web_state(reply.game_id, ANN.id, "en")["turn"] == "me" else BEN
        driver = chromium()
        try:
            for width, height, name in ((360, 780, "phone"), (1200, 760, "desktop")):
                driver.set_window_size(width, height)
                driver.get(links.player_url(reply.game_id, player.id))
                driver.find_element("css selector", "svg[data-position-id]")
                time.sleep(0.5)
                driver.save_screenshot(str(folder / f"web-board-{name}.png"))
        finally:
            driver.quit()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--screens", type=Path, help="write the README's pictures here")
    args = parser.parse_args()
    if args.screens:
        screens(args.screens)
    else:
        from bench.common import print_table

        print_table(run())

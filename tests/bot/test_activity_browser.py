"""The Discord Activity in a real headless Chromium: the Activity page framed by a fake Discord
client (another origin) that speaks the Embedded App SDK's ``postMessage`` protocol, a fake
Discord API behind the code's exchange, and the channel's game shown to everyone in the
Activity: Alice moves, Bob rolls, Carol watches, at phone and desktop widths (skipped when the
distribution's Chromium is not installed)."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from aiohttp import web

from bot.i18n import t
from bot.service import Service
from bot.web import Background
from bot.web.activity import ActivitySettings
from bot.web.links import Links
from bot.web.server import WebServer
from tests.bot.conftest import ALICE, CHANNEL
from tests.bot.fake_discord import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET, FakeDiscord
from tests.bot.test_web import accepted
from tests.bot.test_web_browser import by, changes, click_move, drawn, version
from tests.bot.web_browser import available, chromium, wait_for

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not available(), reason="no Chromium and chromedriver (apt: chromium)"),
]

LAUNCH = "frame_id=f-1&instance_id=i-1&platform=desktop&channel_id=5000&guild_id=9000"


class Threaded:
    """An aiohttp app on a loop of its own, on a free loopback port (the fake Discord)."""

    def __init__(self, app: web.Application) -> None:
        self.runner = web.AppRunner(app)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.port = 0

    def _run(self, work: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(timeout=30)

    def start(self) -> str:
        self.thread.start()
        self._run(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self._run(site.start())
        self.port = self.runner.addresses[0][1]
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self._run(self.runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@pytest.fixture
def discord() -> Iterator[tuple[FakeDiscord, str]]:
    fake = FakeDiscord()
    server = Threaded(fake.app())
    url = server.start()
    yield fake, url
    server.stop()


@pytest.fixture
def activity(service: Service, discord: tuple[FakeDiscord, str]) -> Iterator[str]:
    """The web board with the Activity on; its address."""
    _, fake_url = discord
    settings = ActivitySettings(CLIENT_ID, CLIENT_SECRET, BOT_TOKEN, fake_url + "/api", (fake_url,))
    links = Links(b"v" * 32, "http://127.0.0.1:0")
    server = Background(WebServer(service, links, "127.0.0.1", 0, settings))
    server.start()
    links.public_url = f"http://127.0.0.1:{server.server.port}"
    yield links.public_url
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium()
    yield driver
    driver.quit()


def launch(browser: Any, fake_url: str, activity: str, user: int) -> None:
    """Open the Activity as ``user`` in the fake client, and step into its frame once the
    board shows."""
    browser.switch_to.default_content()
    code = f"good-{user}-{uuid.uuid4().hex}"
    target = quote(f"{activity}/?{LAUNCH}", safe="")
    browser.get(f"{fake_url}/host?code={code}&activity={target}")
    wait_for(browser, lambda d: d.execute_script("return window.authenticated"))
    log = browser.execute_script("return window.log")
    assert log[0] == [0, None, "f-1", CLIENT_ID]  # the handshake: frame and application
    assert [entry[1] for entry in log[1:3]] == ["AUTHORIZE", "AUTHENTICATE"]
    assert browser.execute_script("return window.authenticated") == f"tok-{user}"
    browser.switch_to.frame("activity")
    drawn(browser)


def actions(browser: Any) -> list[str]:
    """The page's buttons' actions, read in one step: a redraw between finding the buttons
    and reading them (the live stream, the Activity's own checks) cannot leave one stale."""
    script = "return [...document.querySelectorAll('#actions button')].map(b => b.dataset.action)"
    return list(browser.execute_script(script))


def buttons(browser: Any) -> dict[str, Any]:
    found = browser.find_elements(*by("#actions button"))
    return {b.get_attribute("data-action"): b for b in found}


def test_the_channels_game_in_the_activity_played_and_watched(
    service: Service,
    script: deque[int],
    discord: tuple[FakeDiscord, str],
    activity: str,
    browser: Any,
    tmp_path: Path,
) -> None:
    fake, fake_url = discord
    made = accepted(service, script)  # Alice against Bob in the channel: Alice to move 5-2
    launch(browser, fake_url, activity, 101)
    body = browser.find_element(*by("body"))
    assert body.get_attribute("data-game") == str(made.game_id)
    assert body.get_attribute("data-seated") == "1"
    assert browser.find_element(*by("#role")).text == t("web.player", "en")
    assert len(fake.exchanged) == 1
    browser.save_screenshot(str(tmp_path / "activity-alice-desktop.png"))
    while browser.find_elements(*by("g.movable")):  # Alice plays her 5-2 by clicks
        click_move(browser)
    confirm = wait_for(browser, lambda d: buttons(d).get("confirm"))
    before = version(browser)
    confirm.click()
    changes(browser, before)
    assert actions(browser) == ["resign"]  # Bob's turn now: Alice may only resign
    script.extend([6, 4])
    launch(browser, fake_url, activity, 202)  # Bob, in the same Activity, rolls
    roll = wait_for(browser, lambda d: buttons(d).get("roll"))
    before = version(browser)
    roll.click()
    changes(browser, before)
    assert not browser.find_element(*by("#refusal")).is_displayed()
    assert service.web_state(made.game_id, None, "en")["dice"] == [6, 4]
    browser.set_window_size(360, 800)
    launch(browser, fake_url, activity, 303)  # Carol is in the Activity, not in the game
    body = browser.find_element(*by("body"))
    assert body.get_attribute("data-seated") == ""
    assert browser.find_element(*by("#role")).text == t("web.spectator", "en")
    assert not buttons(browser) and not browser.find_elements(*by("g.movable"))
    assert browser.find_element(*by("svg")).size["width"] <= 360
    browser.save_screenshot(str(tmp_path / "activity-carol-phone.png"))
    browser.set_window_size(1200, 900)
    browser.switch_to.default_content()


def settled_status(browser: Any) -> str:
    """The Activity's status line once it says more than that it is connecting (on a busy
    machine the page is read while the handshake with Discord is still going on)."""
    connecting = t("activity.connecting", "en")

    def settled(driver: Any) -> str | None:
        text = str(driver.find_element(*by("#activity-status")).text)
        return text if text and text != connecting else None

    return str(wait_for(browser, settled))


def test_the_activity_page_outside_discord_says_where_to_open_it(
    activity: str, browser: Any, tmp_path: Path
) -> None:
    browser.switch_to.default_content()
    browser.get(activity + "/")
    status = settled_status(browser)
    assert status == t("activity.outside", "en")
    assert not browser.find_element(*by("#app")).is_displayed()
    browser.save_screenshot(str(tmp_path / "activity-outside.png"))


def test_without_a_game_the_activity_waits_for_one(
    service: Service,
    script: deque[int],
    discord: tuple[FakeDiscord, str],
    activity: str,
    browser: Any,
    tmp_path: Path,
) -> None:
    _, fake_url = discord
    browser.switch_to.default_content()
    target = quote(f"{activity}/?{LAUNCH}", safe="")
    browser.get(f"{fake_url}/host?code=good-101-{uuid.uuid4().hex}&activity={target}")
    browser.switch_to.frame("activity")
    status = settled_status(browser)
    assert status == t("activity.no_game", "en")
    assert not browser.find_element(*by("#app")).is_displayed()
    browser.save_screenshot(str(tmp_path / "activity-waiting.png"))
    made = accepted(service, script)  # a game starts in the channel: the page shows it
    drawn(browser)
    body = browser.find_element(*by("body"))
    assert body.get_attribute("data-game") == str(made.game_id)
    assert not browser.find_element(*by("#activity-status")).is_displayed()
    browser.switch_to.default_content()


def test_a_spectator_catches_up_even_without_the_live_stream(
    service: Service,
    script: deque[int],
    discord: tuple[FakeDiscord, str],
    activity: str,
    browser: Any,
) -> None:
    """Should Discord's proxy hold back the board's server-sent events (untestable here), the
    Activity's own checks of the channel's game still bring the board up to date."""
    _, fake_url = discord
    accepted(service, script)
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/events*"]})
    try:
        launch(browser, fake_url, activity, 303)
        before = version(browser)
        reply = service.move(ALICE, CHANNEL, "13/8 13/11")  # played elsewhere (Discord)
        assert not reply.ephemeral, reply.text
        wait_for(browser, lambda d: version(d) != before)
        assert browser.find_element(*by("body")).get_attribute("data-live") != "1"
    finally:
        browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        browser.switch_to.default_content()

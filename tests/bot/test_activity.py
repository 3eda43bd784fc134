"""The web board as a Discord Activity, without a browser: the code's exchange with a fake
Discord (a good code, a bad one, one sent again, Discord down or unreachable, a person not in
the Activity), the session (scoped to a person and a channel, expiring), the channel's game
shown to everyone and acted on by its players only, rate limits, bounded bodies, and a bot
without the application's credentials saying so."""

from __future__ import annotations

import asyncio
import html
import json
from collections import deque
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.i18n import t
from bot.service import Service, Where
from bot.web import activity, activity_routes
from bot.web.activity import ActivitySettings, Sessions
from bot.web.activity_routes import ActivityRoutes
from bot.web.links import Links
from bot.web.live import RateLimit
from bot.web.server import WebServer
from tests.bot.conftest import ALICE, BOB, CHANNEL
from tests.bot.fake_discord import BOT_TOKEN, CLIENT_ID, CLIENT_SECRET, FakeDiscord
from tests.bot.test_web import accepted

NOW = [1_000_000.0]
Client = TestClient[Any, Any]


@pytest.fixture
def links() -> Links:
    NOW[0] = 1_000_000.0
    return Links(b"a" * 32, "http://board.test", clock=lambda: NOW[0])


@pytest.fixture
def discord() -> FakeDiscord:
    return FakeDiscord()


@pytest.fixture
async def fake(discord: FakeDiscord) -> AsyncIterator[Client]:
    client = TestClient(TestServer(discord.app()))
    await client.start_server()
    yield client
    await client.close()


def settings(api_url: str) -> ActivitySettings:
    return ActivitySettings(CLIENT_ID, CLIENT_SECRET, BOT_TOKEN, api_url)


@pytest.fixture
def web(service: Service, links: Links, fake: Client) -> WebServer:
    """The web board with the Activity on, talking to the fake Discord."""
    return WebServer(service, links, "127.0.0.1", 0, settings(str(fake.make_url("/api"))))


@pytest.fixture
async def board(web: WebServer) -> AsyncIterator[Client]:
    client = TestClient(TestServer(web.app()))
    await client.start_server()
    yield client
    await client.close()


async def sign_in(board: Client, code: str, instance: str = "i-1") -> tuple[int, dict[str, Any]]:
    response = await board.post("/api/activity/token", json={"code": code, "instance_id": instance})
    return response.status, await response.json()


async def channel_game(board: Client, session: str) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {session}"}
    response = await board.get("/api/activity/game?lang=en", headers=headers)
    return response.status, await response.json()


async def act(board: Client, boot: dict[str, Any], **body: Any) -> tuple[int, dict[str, Any]]:
    query = f"?as={boot['as']}" if boot["as"] else ""
    headers = {"X-Page-Token": boot["page"]} if boot["page"] else {}
    response = await board.post(boot["base"] + "/act" + query, json=body, headers=headers)
    return response.status, await response.json()


def test_settings_come_from_the_environment() -> None:
    assert ActivitySettings.from_env({}) is None
    partial = {"DISCORD_CLIENT_ID": CLIENT_ID, "DISCORD_CLIENT_SECRET": "x"}
    assert ActivitySettings.from_env(partial) is None  # no bot token: instances unreadable
    full = ActivitySettings.from_env(partial | {"DISCORD_TOKEN": "b"})
    assert full is not None and full.api_url == "https://discord.com/api" and full.origins == ()
    env = partial | {"DISCORD_TOKEN": "b", "DISCORD_API_URL": "http://127.0.0.1:9/api/"}
    env["DISCORD_ACTIVITY_ORIGINS"] = "http://127.0.0.1:8001/, http://localhost:8002"
    tested = ActivitySettings.from_env(env)
    assert tested is not None and tested.api_url == "http://127.0.0.1:9/api"
    assert tested.origins == ("http://127.0.0.1:8001", "http://localhost:8002")
    assert ActivitySettings.from_env(env | {"DISCORD_CLIENT_ID": "not-a-number"}) is None


def test_a_session_is_one_persons_in_one_channel_until_it_expires() -> None:
    now = [100.0]
    sessions = Sessions(Links(b"s" * 32, "http://x").sign, lambda: now[0], seconds=60)
    token = sessions.make(ALICE.id, 5000, 9000)
    found = sessions.check(token)
    assert found is not None and (found.user_id, found.channel_id, found.guild_id) == (
        ALICE.id,
        5000,
        9000,
    )
    user, channel, guild, expires, mac = token.split(".")
    assert sessions.check(f"{BOB.id}.{channel}.{guild}.{expires}.{mac}") is None
    assert sessions.check(f"{user}.5001.{guild}.{expires}.{mac}") is None
    assert sessions.check(f"{user}.{channel}.9001.{expires}.{mac}") is None
    assert sessions.check(f"{user}.{channel}.{guild}.{int(expires) + 999}.{mac}") is None
    assert sessions.check(f"0{user}.{channel}.{guild}.{expires}.{mac}") is None
    assert sessions.check("1.2.3.4") is None and sessions.check("") is None
    dm = sessions.check(sessions.make(ALICE.id, 6000))
    assert dm is not None and dm.guild_id is None
    now[0] = 161.0
    assert sessions.check(token) is None


async def test_without_credentials_the_activity_says_it_is_not_set_up(
    service: Service, links: Links
) -> None:
    client = TestClient(TestServer(WebServer(service, links, "127.0.0.1", 0).app()))
    await client.start_server()
    try:
        status, answer = await sign_in(client, "good-101-a")
        assert (status, answer["text"]) == (503, t("activity.off", "en"))
        status, answer = await channel_game(client, "1.2.3.x")
        assert (status, answer["text"]) == (503, t("activity.off", "en"))
        # A visitor at the root (back from a bad link's page) is told how to reach a game,
        # not what the bot's host should set; and no "Back" that leads to the same page.
        response = await client.get("/", headers={"Accept-Language": "fr-FR"})
        page = await response.text()
        assert response.status == 200 and html.escape(t("web.home", "fr")) in page
        assert "static/activity.js" not in page and 'id="back"' not in page
        # Framed by Discord, the page still says the Activity is not set up (for the host).
        framed = await (await client.get("/?frame_id=f-1&instance_id=i-1")).text()
        assert '"client_id": null' in framed and "static/activity.js" in framed
    finally:
        await client.close()


async def test_the_activity_page_is_the_boards_with_its_own_script_first(board: Client) -> None:
    response = await board.get("/", headers={"Accept-Language": "fr-FR"})
    page = await response.text()
    assert response.status == 200 and response.headers["Cache-Control"] == "no-store"
    assert "static/activity.js" in page and "static/board.js" not in page
    assert '<p id="activity-status"' in page and 'id="board"' in page and 'lang="fr"' in page
    conf = json.loads(page.split('id="activity" type="application/json">')[1].split("</script>")[0])
    assert conf["client_id"] == CLIENT_ID and "https://discord.com" in conf["origins"]
    assert conf["words"]["outside"] == t("activity.outside", "fr")


async def test_a_good_code_signs_in_and_the_channels_game_is_shown_to_everyone(
    board: Client, service: Service, script: deque[int], discord: FakeDiscord, links: Links
) -> None:
    made = accepted(service, script)  # Alice against Bob in the channel, Alice to move
    status, answer = await sign_in(board, "good-101-x")
    assert status == 200 and answer["ok"] and answer["user"] == {"id": "101", "name": "Alice"}
    assert answer["access_token"] == "tok-101" and discord.exchanged == ["good-101-x"]
    status, game = await channel_game(board, answer["session"])
    assert status == 200 and game["game"] == made.game_id
    boot = game["boot"]
    assert boot["state"]["seat"] is not None and boot["as"] and boot["page"]
    assert boot["base"] == links.game_path(made.game_id)
    _, carol = await sign_in(board, "good-303-x")  # in the Activity, not in the game
    _, watched = await channel_game(board, carol["session"])
    assert watched["game"] == made.game_id and watched["boot"]["state"]["seat"] is None
    assert watched["boot"]["as"] is None and watched["boot"]["page"] is None


async def test_a_seated_player_acts_and_a_spectator_never_can(
    board: Client, service: Service, script: deque[int]
) -> None:
    accepted(service, script)
    _, alice = await sign_in(board, "good-101-y")
    _, game = await channel_game(board, alice["session"])
    boot, state = game["boot"], game["boot"]["state"]
    src, _, die = state["moves"][0]
    status, answer = await act(
        board, boot, version=state["version"], action="move", arg=f"{src}-{die}"
    )
    assert status == 200 and answer["ok"], answer
    assert answer["state"]["version"] > state["version"]
    _, carol = await sign_in(board, "good-303-y")
    _, watched = await channel_game(board, carol["session"])
    seen = watched["boot"]
    status, answer = await act(board, seen, version=answer["state"]["version"], action="undo")
    assert (status, answer["text"]) == (403, t("web.watch_only", "en"))
    forged = seen | {"page": boot["page"]}  # Alice's page token without her link: no
    status, answer = await act(board, forged, version=1, action="undo")
    assert status == 403


async def test_a_bad_or_replayed_code_is_refused(board: Client, discord: FakeDiscord) -> None:
    status, answer = await sign_in(board, "forged-101")
    assert (status, answer["text"]) == (403, t("activity.bad_code", "en"))
    assert (await sign_in(board, "good-101-z"))[0] == 200
    status, answer = await sign_in(board, "good-101-z")  # the same code again
    assert (status, answer["text"]) == (403, t("activity.bad_code", "en"))
    assert discord.exchanged.count("good-101-z") == 1  # refused before Discord was asked
    for bad in ({"code": "a b", "instance_id": "i-1"}, {"code": "x"}, ["good-1"], "{"):
        response = await board.post("/api/activity/token", data=json.dumps(bad))
        assert response.status == 400, bad
    response = await board.post("/api/activity/token", data="x" * 5000)
    assert response.status == 413


async def test_a_person_not_in_the_activity_gets_no_session(board: Client) -> None:
    status, answer = await sign_in(board, "good-404-a")  # Dave: a real person, elsewhere
    assert (status, answer["text"]) == (403, t("activity.not_here", "en"))
    status, answer = await sign_in(board, "good-101-a", instance="i-2")  # no such instance
    assert (status, answer["text"]) == (403, t("activity.not_here", "en"))


async def test_discord_down_or_unreachable_is_said_and_the_code_may_be_tried_again(
    board: Client, discord: FakeDiscord, service: Service, links: Links
) -> None:
    discord.down = True
    status, answer = await sign_in(board, "good-101-d")
    assert (status, answer["text"]) == (502, t("activity.discord_down", "en"))
    discord.down = False
    assert (await sign_in(board, "good-101-d"))[0] == 200
    unreachable = WebServer(service, links, "127.0.0.1", 0, settings("http://127.0.0.1:9/api"))
    client = TestClient(TestServer(unreachable.app()))
    await client.start_server()
    try:
        status, answer = await sign_in(client, "good-101-e")
        assert (status, answer["text"]) == (502, t("activity.discord_down", "en"))
    finally:
        await client.close()


async def test_an_expired_or_forged_session_is_refused(board: Client) -> None:
    _, alice = await sign_in(board, "good-101-s")
    assert (await channel_game(board, alice["session"]))[0] == 200
    user, _, guild, expires, mac = alice["session"].split(".")
    status, answer = await channel_game(board, f"{user}.5001.{guild}.{expires}.{mac}")
    assert (status, answer["text"]) == (401, t("activity.expired", "en"))
    NOW[0] += 3601
    status, answer = await channel_game(board, alice["session"])
    assert (status, answer["text"]) == (401, t("activity.expired", "en"))
    response = await board.get("/api/activity/game")  # no session at all
    assert response.status == 401


async def test_no_game_in_the_channel_is_said(board: Client, service: Service) -> None:
    _, alice = await sign_in(board, "good-101-n")
    status, answer = await channel_game(board, alice["session"])
    assert status == 200 and answer["game"] is None
    assert answer["text"] == t("activity.no_game", "en")
    elsewhere = Where(channel_id=6000, guild_id=9000, guild_locale="en-US")
    service.play(ALICE, elsewhere, level="beginner", points=1)  # another channel's game
    assert (await channel_game(board, alice["session"]))[1]["game"] is None


async def test_exchanges_and_reads_are_rate_limited(
    board: Client, web: WebServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = web
    limited = WebServer(server.service, server.links, "127.0.0.1", 0, server.activity)
    monkeypatch.setattr(activity_routes, "EXCHANGES", (0.0, 3))  # no refill: deterministic
    limited.per_person = RateLimit(rate=0.0, burst=2)
    client = TestClient(TestServer(limited.app()))
    await client.start_server()
    try:
        statuses = [(await sign_in(client, f"good-101-r{i}"))[0] for i in range(4)]
        assert statuses == [200, 200, 200, 429]
        _, alice = await sign_in(board, "good-101-q")
        reads = [(await channel_game(client, alice["session"]))[0] for _ in range(3)]
        assert reads == [200, 200, 429]
    finally:
        await client.close()


def test_the_service_finds_the_channels_game(service: Service, script: deque[int]) -> None:
    assert service.activity_game(5000, 9000) is None
    made = accepted(service, script)
    assert made.game_id is not None and CHANNEL.channel_id == 5000
    assert service.activity_game(5000, 9000) == made.game_id
    assert service.activity_game(424242, 9000) is None
    # Moved to a thread of its own: an Activity in the channel it came from still shows it.
    assert service.game_moved(made.game_id, thread_id=7000, parent_id=5000, message_id=1)
    assert service.activity_game(5000, 9000) == made.game_id
    assert service.activity_game(7000, 9000) == made.game_id  # in the thread itself too
    assert service.activity_game(5000, 9001) is None  # another server's channel: no


async def test_a_slow_discord_holds_up_no_other_request(
    board: Client, discord: FakeDiscord
) -> None:
    discord.hang = asyncio.Event()
    pending = asyncio.ensure_future(sign_in(board, "good-101-h"))
    while not discord.exchanged:  # the exchange is under way, and Discord does not answer
        await asyncio.sleep(0.01)
    response = await board.get("/")  # meanwhile the server answers everyone else
    assert response.status == 200 and not pending.done()
    discord.hang.set()
    assert (await pending)[0] == 200


async def test_discord_too_slow_is_discord_down(
    board: Client, discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(activity, "TIMEOUT", 0.2)
    discord.hang = asyncio.Event()  # never set: Discord never answers
    status, answer = await sign_in(board, "good-101-t")
    assert (status, answer["text"]) == (502, t("activity.discord_down", "en"))
    discord.hang.set()


async def test_the_client_to_discord_closes_with_the_server(web: WebServer) -> None:
    app = web.app()
    routes = next(
        cb.__self__
        for cb in app.on_cleanup
        if isinstance(getattr(cb, "__self__", None), ActivityRoutes)
    )
    client = TestClient(TestServer(app))
    await client.start_server()
    await sign_in(client, "good-101-c")
    assert routes.api is not None and routes.api._http is not None
    await client.close()
    assert routes.api._http is None


async def test_wrong_credentials_are_the_hosts_to_fix(
    service: Service, links: Links, fake: Client
) -> None:
    api = str(fake.make_url("/api"))
    wrong_secret = ActivitySettings(CLIENT_ID, "not-it", BOT_TOKEN, api)
    wrong_token = ActivitySettings(CLIENT_ID, CLIENT_SECRET, "not-it", api)
    for wrong in (wrong_secret, wrong_token):
        client = TestClient(TestServer(WebServer(service, links, "127.0.0.1", 0, wrong).app()))
        await client.start_server()
        try:
            status, answer = await sign_in(client, "good-101-w")
            assert (status, answer["text"]) == (503, t("activity.off", "en")), wrong
        finally:
            await client.close()

"""The web board without a browser: its links (signed, scoped, expiring), its pages' data, its
actions pressed through the service with the service's refusals, and its live stream (an
action made elsewhere reaches an open page), on aiohttp's test client."""

from __future__ import annotations

import asyncio
import html
import io
import json
import re
from collections import deque
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urljoin

import pytest
from aiohttp.test_utils import TestClient

from bot.i18n import t
from bot.service import Reply, Service
from bot.terminal import Terminal
from bot.web import live
from bot.web.links import Links
from bot.web.server import MAX_BODY, WebServer
from tests.bot.conftest import ALICE, BOB, CHANNEL, accepted_challenge, press

NOW = [1_000_000.0]


def accepted(service: Service, script: deque[int], points: int = 3) -> Reply:
    """Alice challenges Bob, Bob accepts: Alice opens with 5-2 (her turn to move)."""
    return accepted_challenge(service, script, points=points)


@pytest.fixture
def links() -> Links:
    NOW[0] = 1_000_000.0
    return Links(b"t" * 32, "http://board.test", clock=lambda: NOW[0])


async def page_token(client: TestClient[Any, Any], url: str) -> tuple[str, dict[str, Any]]:
    """Open a page as a browser does; its token and its first state."""
    response = await client.get(url)
    assert response.status == 200
    html = await response.text()
    boot = json.loads(html.split('type="application/json">')[1].split("</script>")[0])
    return boot["page"], boot["state"]


async def act(
    client: TestClient[Any, Any], url: str, page: str | None, **body: Any
) -> tuple[int, dict[str, Any]]:
    path = url.replace("?", "/act?", 1) if "?" in url else url + "/act"
    headers = {} if page is None else {"X-Page-Token": page}
    response = await client.post(path, json=body, headers=headers)
    return response.status, await response.json()


def path(url: str) -> str:
    return url.removeprefix("http://board.test")


def test_links_are_signed_scoped_and_expire(links: Links) -> None:
    token = links.player_token(5, ALICE.id)
    assert links.player_of(5, token) == ALICE.id
    assert links.player_of(6, token) is None  # another game
    user, expires, mac = token.split(".")
    assert links.player_of(5, f"{BOB.id}.{expires}.{mac}") is None  # another person
    assert links.player_of(5, f"{user}.{int(expires) + 3600}.{mac}") is None  # made longer
    assert links.player_of(5, "1.2") is None
    NOW[0] += links.hours * 3600 + 1
    assert links.player_of(5, token) is None  # expired
    assert links.key(5) != links.key(6)
    assert not Links(b"other" * 8, "http://x").check_key(5, links.key(5))


async def test_a_page_needs_its_key(client: TestClient[Any, Any], service: Service) -> None:
    game = service.play(ALICE, CHANNEL, level="beginner").game_id
    assert game is not None
    assert (await client.get(f"/g/{game}/wrongkeywrongkey")).status == 404
    assert (await client.get(f"/g/{game}/wrongkeywrongkey/state")).status == 404


async def test_the_spectator_sees_the_board_and_cannot_act(
    client: TestClient[Any, Any], service: Service, links: Links, script: deque[int]
) -> None:
    game = accepted(service, script).game_id
    assert game is not None
    url = path(links.game_url(game))
    page, state = await page_token(client, url)
    assert page is None and state["seat"] is None
    assert state["buttons"] == [] and state["moves"] == []
    assert state["names"] == ["Alice", "Bob"] and state["dice"] == [5, 2]
    assert sum(state["mine"]) + state["off"][0] == 15
    status, body = await act(client, url, "x.y", version=state["version"], action="roll")
    assert status == 403 and body["text"] == t("web.watch_only", "en")


async def test_a_player_resigns_out_of_turn_from_his_page(
    client: TestClient[Any, Any], service: Service, links: Links, script: deque[int]
) -> None:
    # /resign works in turn or not: Bob's page, during Alice's move, has Resign too, and its
    # offers carry his seat, as the menu /resign opens for him does.
    game = accepted(service, script).game_id  # Alice to move her opening 5-2
    assert game is not None
    url = path(links.player_url(game, BOB.id))
    page, state = await page_token(client, url)
    assert [b["action"] for b in state["buttons"]] == ["resign"]
    assert state["buttons"][0]["arg"] is None  # it opens the offers, sends nothing
    offers = [(b["label"], b["arg"]) for b in state["resign"]]
    assert offers == [
        ("Single game (1 point)", "1-1"),
        ("Gammon (2 points)", "2-1"),
        ("Backgammon (3 points)", "3-1"),
    ]
    _, watching = await page_token(client, path(links.game_url(game)))
    assert watching["buttons"] == [] and watching["resign"] == []  # a spectator's: none
    status, body = await act(
        client, url, page, version=state["version"], action="resign", arg="1-1"
    )
    assert status == 200 and body["ok"], body
    after = body["state"]
    assert after["phase"] == "resigned" and after["turn"] == "them"  # Alice to answer
    assert after["buttons"] == [] and after["resign"] == []  # an offer waits: no second one


async def test_a_player_moves_through_the_service(
    client: TestClient[Any, Any], service: Service, links: Links, script: deque[int]
) -> None:
    game = accepted(service, script).game_id
    assert game is not None
    url = path(links.player_url(game, ALICE.id))
    page, state = await page_token(client, url)
    assert state["seat"] == 0 and [13, 8, 5] in state["moves"]
    # One tap offers a resignation: each offer says what it gives away.
    offers = [b["label"] for b in state["resign"]]
    assert offers == ["Single game (1 point)", "Gammon (2 points)", "Backgammon (3 points)"]
    # The page's own way to move: it lights both dice's points, no die is chosen.
    assert state["prompt"] == (
        "**Alice** rolled 5-2: drag a checker from a highlighted point to where it goes, or tap "
        "it, then one of the points that light up."
    )
    # Bob's page and a spectator's say whose move it is, and nothing to pick: their pages
    # light no point and have no die to choose (the message's words told them to).
    assert not state["dark_me"]  # Alice, the first seat, plays the light checkers (○)
    for other, dark in ((links.player_url(game, BOB.id), True), (links.game_url(game), False)):
        _, theirs = await page_token(client, path(other))
        assert theirs["prompt"] == "**Alice** rolled 5-2 and is moving."
        assert theirs["dark_me"] is dark  # Bob's own checkers are the dark ones (●)
    status, body = await act(client, url, page, version=state["version"], action="move", arg="13-5")
    assert status == 200 and body["ok"], body
    after = body["state"]
    assert after["version"] == state["version"] + 1
    assert after["mine"][7] == state["mine"][7] + 1  # a checker more on her 8 point
    # The same press again (a second tab, a double click): stale, and the page is told to reload.
    status, body = await act(client, url, page, version=state["version"], action="move", arg="13-5")
    assert not body["ok"] and body["text"] == t("web.stale", "en")
    assert body["state"]["version"] == after["version"]  # nothing changed


async def test_an_action_answers_with_what_happened_on_the_way(
    client: TestClient[Any, Any], service: Service, links: Links, script: deque[int]
) -> None:
    """Against the computer a confirmed move leads through its roll and play: the page was
    shown only where they led. The action's answer gives the lines the message gives."""
    script.extend([3, 1])  # the person opens with 3-1
    started = service.play(ALICE, CHANNEL, level="beginner")
    assert started.game_id is not None
    url = path(links.player_url(started.game_id, ALICE.id))
    page, state = await page_token(client, url)
    for arg in ("8-3", "6-1"):  # from a point, by a die
        status, body = await act(
            client, url, page, version=state["version"], action="move", arg=arg
        )
        assert status == 200 and body["ok"], body
        state = body["state"]
    script.extend([6, 4])  # the computer's roll
    status, body = await act(client, url, page, version=state["version"], action="confirm")
    assert status == 200 and body["ok"], body
    events = body["events"]
    assert "Alice played **8/5 6/5**." in events
    assert any(line.startswith("Computer (beginner) rolled 6-4 and played") for line in events)
    # What happened only: the headline, the prompt and the IDs are the state's, shown apart.
    assert not any("Position ID" in line or "roll the dice" in line for line in events)
    assert not any(line.startswith("**Alice** ⚪") for line in events)
    # A refusal tells no events: nothing happened.
    status, body = await act(client, url, page, version=state["version"], action="confirm")
    assert not body["ok"] and body["events"] == []


async def test_refusals_come_from_the_service(
    client: TestClient[Any, Any], service: Service, links: Links, script: deque[int]
) -> None:
    game = accepted(service, script).game_id
    assert game is not None
    bob = path(links.player_url(game, BOB.id))
    page, state = await page_token(client, bob)
    status, body = await act(client, bob, page, version=state["version"], action="undo")
    assert not body["ok"] and body["text"] == t("error.not_your_turn", "en")
    # A page token made for another page, another person or forged: the page may not act.
    alice = path(links.player_url(game, ALICE.id))
    status, body = await act(client, alice, page, version=state["version"], action="undo")
    assert status == 403 and body["text"] == t("web.forged", "en")
    status, body = await act(client, bob, None, version=state["version"], action="undo")
    assert status == 403
    # A link whose signature does not hold: refused before anything is read.
    status, body = await act(client, bob + "x", page, version=state["version"], action="undo")
    assert status == 403 and body["text"] == t("web.bad_link", "en")
    status, body = await act(client, bob, page, version=state["version"], action="fly")
    assert status == 400 and body["text"] == t("web.bad_request", "en")
    big = await client.post(
        bob.replace("?", "/act?"),
        data=b"{" + b" " * MAX_BODY + b"}",
        headers={"X-Page-Token": page},
    )
    assert big.status == 413 and (await big.json())["text"] == t("web.too_big", "en")


async def test_a_french_reader_gets_french(
    client: TestClient[Any, Any], service: Service, links: Links, script: deque[int]
) -> None:
    game = accepted(service, script).game_id
    assert game is not None
    url = path(links.player_url(game, BOB.id))
    response = await client.get(url, headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"})
    html = await response.text()
    assert '<html lang="fr">' in html and t("web.spectator", "fr") in html
    page, state = await page_token(client, url + "&lang=fr")
    _, body = await act(client, url + "&lang=fr", page, version=state["version"], action="undo")
    assert body["text"] == t("error.not_your_turn", "fr")


async def test_an_open_page_hears_an_action_made_elsewhere(
    client: TestClient[Any, Any], service: Service, links: Links, script: deque[int]
) -> None:
    board = accepted(service, script)
    assert board.game_id is not None
    _, state = await page_token(client, path(links.game_url(board.game_id)))
    stream = await client.get(path(links.game_url(board.game_id)) + "/events")
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    assert (await stream.content.readline()).startswith(b"retry:")
    first = await news(stream)  # the state as it is when the page connects
    assert first["version"] == state["version"]
    # Alice plays from Discord (or the terminal): a press on her board message.
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, lambda: press(service, ALICE, board, "13"))
    assert (await news(stream))["version"] == state["version"] + 1
    stream.close()


async def news(stream: Any) -> dict[str, Any]:
    """The next state a page's event stream brings."""
    data = b""
    while not data.startswith(b"data: "):
        data = await asyncio.wait_for(stream.content.readline(), 30)
    result: dict[str, Any] = json.loads(data[len(b"data: ") :])
    return result


def test_the_service_tells_committed_changes_only(service: Service, script: deque[int]) -> None:
    told: list[int] = []
    service.on_game_changed(told.append)
    board = accepted(service, script)
    assert board.game_id in told
    told.clear()
    refused = press(service, BOB, board, "13")  # Alice's turn
    assert refused.ephemeral and told == []  # refused: nothing saved, nothing told
    press(service, ALICE, board, "13")
    assert told == [board.game_id]


def test_the_terminal_names_each_board_page(
    service: Service, links: Links, script: deque[int], tmp_path: Path
) -> None:
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=tmp_path, user="Ann", web=links)
    script.extend([5, 2])
    term.run(["/challenge Ben points:1", "/as Ben", "Accept", "/as Ann"])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    boards = [r for r in replies if r["position_id"]]
    assert boards and all("web" in r for r in boards)
    game = int(boards[-1]["web"].split("/g/")[1].split("/")[0])
    token = boards[-1]["web"].split("?as=")[1]
    assert links.player_of(game, token) == term._person("Ben").id  # Ben's own link (he acted)
    assert all("web" not in r for r in replies if not r["position_id"])
    plain = io.StringIO()
    Terminal(service, out=plain, images=tmp_path, user="Ann", web=links).run(["/board"])
    line = next(x for x in plain.getvalue().splitlines() if x.startswith("Web board: "))
    assert links.player_of(game, line.split("?as=")[1]) == term._person("Ann").id
    silent = io.StringIO()
    Terminal(service, out=silent, json_mode=True, images=tmp_path, user="Ann").run(["/board"])
    assert "web" not in json.loads(silent.getvalue().splitlines()[-1])  # no WEB_PORT, no link


def test_a_replay_shows_the_ids_of_export_at_every_action(
    service: Service, script: deque[int]
) -> None:
    board = accepted(service, script, points=1)
    assert board.game_id is not None
    for label in ("13", "13", "Confirm"):
        board = press(service, ALICE, board, label)
    assert service.resign(BOB, CHANNEL, 1).text  # Bob offers to resign; Alice accepts
    game = board.game_id
    board = service.press(
        ALICE,
        CHANNEL,
        next(
            b.custom_id
            for b in service.board(ALICE, CHANNEL, game).buttons
            if ":accept" in b.custom_id
        ),
    )
    assert service.web_state(game, None, "en")["over"]
    export = service.export(ALICE, CHANNEL, game)
    text = next(a for a in export.attachments if a.name.endswith("-ids.txt")).data.decode()
    rows = [
        tuple(line.split("->")[1].split()[0].split(":"))
        for line in text.splitlines()
        if "->" in line and not line.startswith("#")
    ]
    assert len(rows) >= 4
    for k, row in enumerate(rows, start=1):
        state = service.web_state(game, ALICE.id, "en", at=k)
        assert (state["position_id"], state["match_id"]) == row, k
        assert state["buttons"] == [] and state["at"] == k
    assert service.web_state(game, None, "en", at=10**6)["at"] == len(rows)  # the last


async def test_too_many_requests_are_refused(
    client: TestClient[Any, Any], service: Service, links: Links, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The buckets' clock stands still: on a busy machine 60 requests took over a second, and
    # the 20 a second refilled faster than they came (no 429 at the end).
    monkeypatch.setattr(live, "time", SimpleNamespace(monotonic=lambda: 1_000.0))
    game = service.play(ALICE, CHANNEL, level="beginner").game_id
    assert game is not None
    url = path(links.game_url(game)) + "/state"
    statuses = [(await client.get(url)).status for _ in range(60)]
    assert statuses[0] == 200 and statuses[-1] == 429  # 40 at once from one address


async def test_the_server_closes_with_open_streams(service: Service, links: Links) -> None:
    import aiohttp

    game = service.play(ALICE, CHANNEL, level="beginner").game_id
    assert game is not None
    server = WebServer(service, links, "127.0.0.1", 0)
    await server.start()
    url = f"http://127.0.0.1:{server.port}{links.game_path(game)}/events"
    async with aiohttp.ClientSession() as session:
        stream = await session.get(url)
        assert (await stream.content.readline()).startswith(b"retry:")
        await asyncio.wait_for(server.stop(), 20)  # the open page does not hold it
        rest = await asyncio.wait_for(stream.content.read(), 20)  # its stream ended
        assert rest.strip() == b""


def test_a_discord_board_carries_the_page_link(links: Links, service: Service) -> None:
    from bot.discord_app import components

    board = service.play(ALICE, CHANNEL, level="beginner")
    assert components.build_view(board) is not None
    before = [getattr(item, "url", None) for item in components.build_view(board).children]
    assert not any(before)  # no web board, no link
    components.WEB["links"] = links
    try:
        view = components.build_view(board)
        assert view is not None
        urls = [getattr(item, "url", None) for item in view.children]
        assert links.game_url(board.game_id or 0) in urls
        refusal = service.press(BOB, CHANNEL, board.buttons[0].custom_id)
        assert components.build_view(refusal) is None  # a private refusal: no link
    finally:
        components.WEB.pop("links", None)


async def test_a_bad_link_gets_a_page_that_says_so(
    client: TestClient[Any, Any], service: Service, links: Links
) -> None:
    game = service.play(ALICE, CHANNEL, level="beginner").game_id
    assert game is not None
    NOW[0] += links.hours * 3600 + 1  # yesterday's link
    response = await client.get(path(links.player_url(game, ALICE.id)) + "x&lang=fr")
    assert response.status == 403 and response.content_type == "text/html"
    assert t("web.bad_link", "fr").replace("’", "&#x27;") in await response.text() or (
        t("web.bad_link", "fr") in await response.text()
    )


def test_a_variant_game_says_so_and_shows_its_checkers(
    service: Service, script: deque[int]
) -> None:
    script.extend((6, 1))  # Alice opens
    start = service.play(ALICE, CHANNEL, level="beginner", variant="hypergammon")
    assert start.game_id is not None
    for lang, word in (("en", "hypergammon"), ("fr", "hypergammon")):
        state = service.web_state(start.game_id, ALICE.id, lang)
        assert word in state["headline"].lower(), state["headline"]
    state = service.web_state(start.game_id, ALICE.id, "en")
    assert sum(state["mine"]) + state["off"][0] == 3  # three checkers a side, not fifteen
    assert sum(state["theirs"]) + state["off"][1] == 3


def test_a_replay_heads_each_moment_with_its_own_score(
    service: Service, script: deque[int]
) -> None:
    """A 2-point match: Bob resigns the first game as a gammon (Alice leads 2-0, the match is
    over). Early moments of the replay show the score then (0-0), not the final one."""
    board = accepted(service, script, points=2)
    game = board.game_id
    assert game is not None
    for label in ("13", "13", "Confirm"):
        board = press(service, ALICE, board, label)
    assert not service.resign(BOB, CHANNEL, 2).ephemeral
    accept = next(
        b.custom_id for b in service.board(ALICE, CHANNEL, game).buttons if ":accept" in b.custom_id
    )
    service.press(ALICE, CHANNEL, accept)
    assert "score 2–0" in service.web_state(game, None, "en")["headline"]
    assert "score 0–0" in service.web_state(game, None, "en", at=1)["headline"]


def test_the_page_speaks_french_in_the_terminal_s_terms() -> None:
    # The page said "pion" and "points de course" where the board and the terminal say "dame"
    # and "pips"; and a stale press answered with Discord's "use the latest message".
    from bot.i18n.fr import MESSAGES
    from render.labels import counted

    french = " ".join(v for k, v in MESSAGES.items() if k.startswith("web."))
    assert " pion" not in french and "points de course" not in french
    assert t("web.pips", "fr") in counted("fr", "pips", 2)
    # The page draws the game as it is with the refusal: no "reload" (the page has).
    assert "message" not in t("web.stale", "en") and "telle qu’elle est" in t("web.stale", "fr")
    assert "reload" not in t("web.stale", "en") and "recharg" not in t("web.stale", "fr")


def test_the_page_posts_through_one_send_function() -> None:
    # /act and /review had each their own copy of the fetch, the refusal and the redraw.
    from importlib import resources

    script = (resources.files("bot.web") / "static" / "board.js").read_text(encoding="utf-8")
    assert script.count('method: "POST"') == 1
    assert script.count("await fetch(base + path") == 1
    assert 'send("/act"' in script and 'send("/review"' in script


def _notice_link(page: str, element: str) -> str:
    """The ``href`` of the notice page's element ``element`` (``back``, ``lang``, the style)."""
    match = re.search(rf'<(?:a|link) (?:id="{element}"|rel="{element}") href="([^"]*)"', page)
    assert match, page
    return html.unescape(match[1])


@pytest.mark.parametrize(
    ("lang", "header"), [("en", "en-GB,en;q=0.8"), ("fr", "fr-CA,fr;q=0.9,en;q=0.5")]
)
async def test_an_unknown_address_gets_the_boards_own_page_in_the_visitors_language(
    client: TestClient[Any, Any], lang: str, header: str
) -> None:
    """Not the HTTP library's bare "404: Not Found": the board's style, the catalog's words
    in the browser's language, a link back and the other language's switch."""
    other = "fr" if lang == "en" else "en"
    for url in ("/nowhere", "/g/12/key/nothing/here/", "/g/twelve/key", "/static/none.css"):
        response = await client.get(url, headers={"Accept-Language": header})
        assert response.status == 404 and response.content_type == "text/html", url
        page = await response.text()
        assert f'<html lang="{lang}">' in page
        assert html.escape(t("web.not_found_title", lang)) in page
        assert html.escape(t("web.not_found", lang)) in page
        assert html.escape(t("web.back", lang)) in page
        style = urljoin(url, _notice_link(page, "stylesheet"))
        assert style == "/static/board.css" and (await client.get(style)).status == 200
        assert urljoin(url, _notice_link(page, "back")) == "/"
        switched = await client.get(urljoin(url, _notice_link(page, "lang")))
        assert switched.status == 404 and f'<html lang="{other}">' in await switched.text()
    # The data and actions still answer in JSON (the page's script reads the text).
    state = await client.get("/g/12/wrongkeywrongkey/state", headers={"Accept-Language": header})
    assert state.status == 404 and (await state.json())["text"] == t("web.no_game", lang)


async def test_a_game_page_that_is_not_there_says_so_on_the_same_page(
    client: TestClient[Any, Any], service: Service
) -> None:
    game = service.play(ALICE, CHANNEL, level="beginner").game_id
    assert game is not None
    response = await client.get(f"/g/{game}/wrongkeywrongkey?lang=fr")
    assert response.status == 404 and response.content_type == "text/html"
    page = await response.text()
    assert '<html lang="fr">' in page and html.escape(t("web.no_game", "fr")) in page
    assert html.escape(t("web.not_found_title", "fr")) in page
    assert urljoin(f"/g/{game}/wrongkeywrongkey", _notice_link(page, "back")) == "/"

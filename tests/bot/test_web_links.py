"""The game's web link where people look (issue 29): ``/games``, ``/watch``, ``/export``,
``/review``, the end of a game and a tournament's standings carry it while the web board is
on (the page anyone may watch; a player's private link only in ``/games``, which he alone
sees), and nothing of the kind without it. The Discord adapter shows what the service says
(a line, a link button on a board), the terminal prints it."""

from __future__ import annotations

import io
import random
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest

from bot.discord_app import components
from bot.i18n import t
from bot.service import Reply, Service, Where
from bot.terminal import Terminal
from bot.web.links import Links
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, accepted_challenge, play_out
from tests.bot.tournament_players import ORGANIZER, people, play_some, playing

HERE = Where(channel_id=7000, guild_id=9100, guild_locale="en-US")


pytestmark = pytest.mark.usefixtures("quick_reviews")  # reviews at 1 ply


@pytest.fixture
def links() -> Links:
    return Links(b"l" * 32, "https://board.example.org", clock=lambda: 1_000_000.0)


@pytest.fixture
def web_on(service: Service, links: Links) -> Iterator[Links]:
    service.serve_web(links)
    yield links
    service.serve_web(None)


def line_of(links: Links, game: int, lang: str = "en") -> str:
    return t("web.link_line", lang, url=links.game_url(game))


def no_link(reply: Reply) -> None:
    assert "board.example.org" not in reply.text and "🌐" not in reply.text, reply.text


def in_progress(service: Service, script: deque[int]) -> Reply:
    return accepted_challenge(service, script, points=3, rated=False)


def test_watch_and_export_carry_the_page_anyone_may_watch(
    service: Service, links: Links, script: deque[int]
) -> None:
    board = in_progress(service, script)
    game = board.game_id
    assert game is not None
    off = (service.watch(BOB, CHANNEL, game_id=game), service.export(ALICE, CHANNEL, game))
    for reply in off:
        no_link(reply)
    service.serve_web(links)
    watched = service.watch(BOB, CHANNEL, game_id=game)
    assert watched.text.endswith("\n" + line_of(links, game))
    exported = service.export(ALICE, CHANNEL, game)
    assert line_of(links, game) in exported.text and "?as=" not in exported.text
    # The Discord adapter sends the text as it is: the line shows; the terminal prints it once.
    out = io.StringIO()
    Terminal(service, out=out, user="Bob", web=links).run([f"/watch game:{game}"])
    printed = out.getvalue()
    assert printed.count(links.game_url(game)) == 1 and "<https" not in printed, printed


def test_review_carries_the_replay_link(service: Service, links: Links) -> None:
    start = service.play(ALICE, DM, level="beginner", points=1)
    play_out(service, ALICE, DM, start)
    game = start.game_id
    assert game is not None
    no_link(service.review(ALICE, DM, game))
    service.serve_web(links)
    for lang, who in (("en", ALICE), ("fr", ALICE.__class__(ALICE.id, "Alice", locale="fr"))):
        reviewed = service.review(who, DM, game)
        assert not reviewed.ephemeral
        assert reviewed.text.endswith(line_of(links, game, lang)), reviewed.text
        assert len(reviewed.text) <= 2000


def test_the_end_of_a_game_carries_its_link(
    service: Service, links: Links, web_on: Links, tmp_path: Any
) -> None:
    start = service.play(ALICE, CHANNEL, level="beginner", points=1)
    end = play_out(service, ALICE, CHANNEL, start)
    assert "Rematch" in [b.label for b in end.buttons]
    # The last board: its link button on Discord (a board's), its line in the terminal.
    assert end.game_id == start.game_id and end.position_id and not end.ephemeral
    components.WEB["links"] = links
    try:
        view = components.build_view(end)
        assert view is not None
        urls = [getattr(item, "url", None) for item in view.children]
        assert links.game_url(end.game_id or 0) in urls
    finally:
        components.WEB.pop("links", None)
    assert components.build_view(end) is not None
    assert not any(getattr(i, "url", None) for i in components.build_view(end).children)


def test_games_lists_each_game_with_the_players_own_link(
    service: Service, links: Links, script: deque[int]
) -> None:
    board = in_progress(service, script)
    game = board.game_id
    assert game is not None
    no_link(service.games(ALICE, CHANNEL))
    service.serve_web(links)
    listed = service.games(ALICE, CHANNEL)
    assert listed.ephemeral  # his alone: his private link, to play from the page
    url = listed.text.split("🌐 <")[1].split(">")[0]
    assert url.startswith(links.game_url(game) + "?as=")
    assert links.player_of(game, url.split("?as=")[1]) == ALICE.id
    bobs = service.games(BOB, CHANNEL).text.split("🌐 <")[1].split(">")[0]
    assert links.player_of(game, bobs.split("?as=")[1]) == BOB.id


def test_tournament_standings_list_each_matchs_link(service: Service, links: Links) -> None:
    players = people(4)
    created = service.tournament(ORGANIZER, HERE, "create", name="Club night", format="knockout")
    tid = int(created.buttons[0].custom_id.split(":")[1])
    for p in players:
        assert not service.tournament(p, HERE, "join").ephemeral
    assert not service.tournament(ORGANIZER, HERE, "start").ephemeral
    shown = service.tournament(ORGANIZER, HERE, "standings", tournament=tid)
    no_link(shown)
    service.serve_web(links)
    shown = service.tournament(ORGANIZER, HERE, "standings", tournament=tid)
    games = [g for g, _, _ in playing(service.factory, tid)]
    assert len(games) == 2
    assert t("tournament.web_title", "en") in shown.text
    for game in games:
        assert f"<{links.game_url(game)}>" in shown.text
    assert "?as=" not in shown.text
    assert "R1 · Player" in shown.text
    # The standings posted when a match ends, and the champion's message, carry them too.
    by_id = {p.id: p for p in players}
    posted: list[Reply] = []

    def keep(reply: Reply) -> None:
        posted.extend(reply.followups)
        posted.extend(p.reply for p in reply.posts if hasattr(p, "reply"))

    play_some(service, service.factory, tid, by_id, HERE, games=100, rng=random.Random(3),
              on_reply=keep)  # fmt: skip
    texts = "\n".join(r.text for r in posted)
    assert all(f"<{links.game_url(g)}>" in texts for g in games), texts
    assert "champion" in texts


def test_the_list_of_links_stays_within_a_message(service: Service, links: Links) -> None:
    from bot.tournaments.running.view import WEB_TEXT, web_lines

    class Match:
        def __init__(self, n: int) -> None:
            self.game_id, self.round, self.slot = n, 0, n
            self.player0_id, self.player1_id = 2 * n, 2 * n + 1
            self.status = None

    from types import SimpleNamespace

    state: Any = SimpleNamespace(
        matches=[Match(n) for n in range(1, 65)],
        names={i: f"Player with a long name {i}" for i in range(200)},
    )
    text = web_lines(state, "en", lambda g: links.game_url(g or 0))
    assert len(text) <= WEB_TEXT + 200
    assert text.splitlines()[-1].startswith("… and ")
    assert web_lines(state, "en", None) == ""


async def test_the_web_board_gives_its_links_while_it_serves(
    service: Service, links: Links, script: deque[int]
) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from bot.web.server import WebServer

    game = in_progress(service, script).game_id
    assert game is not None
    client = TestClient(TestServer(WebServer(service, links, "127.0.0.1", 0).app()))
    await client.start_server()
    try:
        assert line_of(links, game) in service.watch(BOB, CHANNEL, game_id=game).text
    finally:
        await client.close()
    no_link(service.watch(BOB, CHANNEL, game_id=game))  # stopped: no page, no link

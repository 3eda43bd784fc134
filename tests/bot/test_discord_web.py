"""The web board in Discord (SimCord): a link button to the game's page on every board while
the web board runs, and ``/board``'s private link, sent to the player alone."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator

import pytest
from simcord import Env

from bot.discord_app import components as discord_components
from bot.web.links import Links
from tests.bot.test_discord_sim import components, env, locales, response, simcord_bot

__all__ = ["env", "locales", "simcord_bot"]  # SimCord's fixtures, shared


@pytest.fixture
def links() -> Iterator[Links]:
    made = Links(b"d" * 32, "https://board.example.org")
    discord_components.WEB["links"] = made
    yield made
    discord_components.WEB.pop("links", None)


async def test_a_board_links_to_its_page_and_board_sends_the_private_link(
    env: Env, script: deque[int], links: Links
) -> None:
    ann = env.create_user("ann")
    script.extend([3, 1])
    board = response(await ann.slash("play", level="beginner"))
    game = int(board.content.split("game #")[1].split()[0]) if "game #" in board.content else 1
    urls = [c.get("url") for c in components(board) if c.get("style") == 5]
    assert urls == [links.game_url(game)]
    again = await ann.slash("board")
    private = [f for f in again.followups if "?as=" in f.content]
    assert len(private) == 1
    token = private[0].content.split("?as=")[1].split()[0]
    assert links.player_of(game, token) == ann.id
    assert private[0].flags.ephemeral


async def test_watch_and_games_show_the_links_the_service_gives(
    env: Env, script: deque[int], links: Links
) -> None:
    from tests.bot.test_discord_sim import member

    guild = env.create_guild("Club")
    room = guild.create_text_channel("tables")
    ann, ben = member(env, guild, "ann"), member(env, guild, "ben")
    script.extend([3, 1])
    board = response(await ann.slash(room, "play", level="beginner"))
    url = next(c["url"] for c in components(board) if c.get("style") == 5)  # the board's button
    game = int(url.split("/g/")[1].split("/")[0])
    watched = response(await ben.slash(room, "watch", game=game))
    assert f"<{links.game_url(game)}>" not in watched.content  # the service's line: not on
    env.bot.service.serve_web(links)  # as the web board does when it starts
    try:
        watched = response(await ben.slash(room, "watch", game=game))
        assert watched.flags.ephemeral
        assert f"<{links.game_url(game)}>" in watched.content
        mine = response(await ann.slash(room, "games"))
        assert f"<{links.game_url(game)}?as={ann.id}." in mine.content  # hers alone
    finally:
        env.bot.service.serve_web(None)

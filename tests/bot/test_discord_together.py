# ruff: noqa: F811 - the fixtures of test_discord_sim are imported, and named as parameters
"""Playing together through a simulated Discord (SimCord, which models threads): a challenge
accepted in a channel is played in its own thread, which a spectator can read and not act in;
where no thread can be opened (no permission, Discord refusing, a user install) play stays in
the channel; "your turn" direct messages, one per game and turn, held in quiet hours; /games and
/watch."""

from __future__ import annotations

from collections import deque
from typing import Any

import discord
import pytest
import simcord
from simcord import Env, ResponseMessage

from bot.discord_app.cogs.notices import Notices
from bot.i18n import t
from bot.service import Service
from tests.bot.conftest import Clock
from tests.bot.test_discord_sim import (  # noqa: F401 - fixtures
    SETTLE_TIMEOUT,
    env,
    fresh,
    guild,
    is_board,
    is_ping,
    labels,
    locales,
    member,
    new_bot,
    response,
    simcord_bot,
)

# As in test_discord_sim (a module's mark is its own): a hang guard, not the 5 s default that a
# loaded machine exceeded while a thread was opened.
pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_TIMEOUT)


def messages(channel: Any, viewer: Any = None) -> list[ResponseMessage]:
    """What ``viewer`` (everyone by default) reads in a channel or thread, oldest first."""
    env = channel._env
    seen = channel.history(viewer=viewer) if viewer is not None else channel.history()
    return [ResponseMessage(env, env.backend.get_message(channel.id, m.id)) for m in seen]


def boards(channel: Any, viewer: Any = None) -> list[ResponseMessage]:
    return [m for m in messages(channel, viewer) if is_board(m)]


async def challenge_accepted(
    env: Env, channel: Any, a: Any, b: Any, script: deque[int], **options: Any
) -> ResponseMessage:
    """``a`` challenges ``b`` in ``channel`` and ``b`` accepts (``a`` opens with 5-2); the
    challenge message as it is after the answer."""
    challenge = response(await a.slash(channel, "challenge", opponent=b, **options))
    script.extend([5, 2])
    accepted = await b.click(challenge, label="Accept")
    assert not accepted.ephemeral
    return fresh(env, challenge)


def notices(bot: discord.Client) -> Notices:
    cog = bot.get_cog("Notices")  # loaded as an extension: its own module object
    assert cog is not None and type(cog).__name__ == "Notices"
    return cog  # type: ignore[return-value]


def dms(user: Any) -> list[ResponseMessage]:
    return messages(user.dm_channel)


async def test_a_challenge_is_played_in_its_own_thread_that_a_spectator_follows(
    env: Env, guild: Any, script: deque[int], service: Service
) -> None:
    channel = guild.create_text_channel("tables")
    alice, bob, carol = (member(env, guild, n) for n in ("alice", "bob", "carol"))
    intro = await challenge_accepted(env, channel, alice, bob, script, rated=False)
    # The channel keeps one line; the game went to a thread opened from the challenge.
    assert "game #1 is played in the thread below" in intro.content
    assert intro.components == [] and intro.attachments == []
    (thread,) = channel.threads
    assert thread.id == intro.id and thread.name == "Game #1: alice vs bob"
    assert {alice.id, bob.id} <= set(env.backend.get_channel(thread.id).thread_members)
    (board,) = boards(thread)
    assert "bob accepts the challenge" in board.content
    assert any(is_ping(m) and f"<@{alice.id}>" in m.content for m in messages(thread))
    # A spectator reads the live board, and cannot act on it.
    assert [m.id for m in boards(thread, viewer=carol)] == [board.id]
    for label in labels(board):
        refused = await carol.click(board, label=label)
        assert refused.ephemeral, label
        assert response(refused).content == t("error.spectator", "en", id=1)
    assert fresh(env, board).content == board.content  # nothing moved
    watched = await carol.slash(thread, "watch")  # the game of this thread
    view = response(watched)
    assert watched.ephemeral and is_board(view) and labels(view) == ["Refresh"]
    # The players play in the thread: commands there, buttons there, after a restart too.
    moved = await alice.slash(thread, "move", play="13/8 13/11")
    assert not moved.ephemeral and response(moved).channel_id == thread.id
    assert (await carol.slash(channel, "watch", game=1)).ephemeral
    await env.restart_bot(new_bot(service))
    refreshed = response(await carol.click(view, label="Refresh"))  # edits the private board
    assert refreshed.id == view.id and labels(refreshed) == ["Refresh"]
    position = response(moved).content.split("Position ID `")[1][:14]
    assert f"Position ID `{position}`" in refreshed.content  # the board as it is now
    offer = response(await bob.slash(thread, "resign", value=1))
    over = response(await alice.click(offer, label="Accept"))
    assert "🏁" in over.content and over.channel_id == thread.id
    # The result is told in the channel, in one line after the intro.
    last = messages(channel)[-1]
    assert last.content.startswith("🏁 Game #1, alice vs bob:") and "alice** wins" in last.content
    assert len(boards(channel)) == 0  # no board ever filled the channel


async def test_without_the_permission_play_stays_in_the_channel(
    env: Env, guild: Any, script: deque[int]
) -> None:
    no_threads = discord.PermissionOverwrite(create_public_threads=False)
    channel = guild.create_text_channel("no-threads", overwrites={guild.me: no_threads})
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    board = await challenge_accepted(env, channel, alice, bob, script)
    assert is_board(board) and "bob accepts the challenge" in board.content
    assert channel.threads == []
    moved = await alice.slash(channel, "move", play="13/8 13/11")
    assert not moved.ephemeral and response(moved).channel_id == channel.id


async def test_when_discord_refuses_the_thread_play_stays_in_the_channel(
    env: Env, guild: Any, script: deque[int]
) -> None:
    channel = guild.create_text_channel("tables")
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    env.inject_error("POST", "/channels/*/messages/*/threads", status=403, code=50013)
    board = await challenge_accepted(env, channel, alice, bob, script)
    assert is_board(board) and labels(board) and channel.threads == []
    assert not (await alice.slash(channel, "board")).ephemeral


async def test_the_server_setting_keeps_games_in_the_channel(
    env: Env, guild: Any, script: deque[int]
) -> None:
    channel = guild.create_text_channel("tables")
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    manager = guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[manager])
    assert "server" in boss.available_commands(channel)
    assert "server" not in alice.available_commands(channel)  # hidden from the others (and
    # refused by the service if sent anyway: test_together.py)
    saved = await boss.slash(channel, "server", threads=False)
    assert "A thread for each game: off" in response(saved).content
    board = await challenge_accepted(env, channel, alice, bob, script)
    assert is_board(board) and channel.threads == []


async def test_a_user_install_plays_in_the_channel(
    env: Env, guild: Any, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    original = simcord.interactions.base_payload

    def user_installed(backend: Any, **kw: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kw)
        payload["authorizing_integration_owners"] = {"1": str(kw["user_id"])}
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", user_installed)
    channel = guild.create_text_channel("tables")
    alice, bob = member(env, guild, "alice"), member(env, guild, "bob")
    board = await challenge_accepted(env, channel, alice, bob, script)
    assert is_board(board) and channel.threads == []


# -- your turn, /games -----------------------------------------------------------------------


async def test_three_games_one_notice_per_turn_and_all_in_games(
    env: Env, guild: Any, script: deque[int], clock: Clock
) -> None:
    ann = env.create_user("ann")
    alice = guild.add_member(ann)
    others = [member(env, guild, n) for n in ("bob", "carol", "dave")]
    await ann.slash("settings", notify=True)
    threads = []
    for other in others:
        channel = guild.create_text_channel(f"table-{other.name}")
        await challenge_accepted(env, channel, alice, other, script)
        threads.append(channel.threads[0])
        clock.advance(seconds=10)  # past the pause between two challenges of one person
    cog = notices(env.bot)
    assert await cog.send_due() == 3  # each game waits for ann: one message each
    assert await cog.send_due() == 0  # and no more, however often the sweep runs
    sent = dms(ann)
    assert len(sent) == 3 and all(is_board(m) for m in sent)
    assert all("Your turn against" in m.content for m in sent)
    assert {f"/{th.id}/" in " ".join(m.content for m in sent) for th in threads} == {True}
    # A turn each way in the first game: one more message, for that game only.
    clock.advance(minutes=5)
    await alice.slash(threads[0], "move", play="13/8 13/11")
    assert await cog.send_due() == 0  # bob asked for none
    clock.advance(minutes=5)
    board = response(await others[0].slash(threads[0], "board"))
    script.extend([6, 5])
    rolled = response(await others[0].click(board, label="Roll"))
    assert "bob rolls 6-5" in rolled.content
    await others[0].slash(threads[0], "move", play="24/13")
    assert await cog.send_due() == 1
    assert await cog.send_due() == 0
    assert len(dms(ann)) == 4 and "game #1" in dms(ann)[-1].content
    listing = await ann.slash("games")
    text = response(listing).content
    assert listing.ephemeral and all(f"against **{o.name}**" in text for o in others)
    assert all(f"https://discord.com/channels/{guild.id}/{th.id}" in text for th in threads)


async def test_quiet_hours_hold_the_message_until_they_end(
    env: Env, guild: Any, script: deque[int], clock: Clock
) -> None:
    channel = guild.create_text_channel("tables")
    ann = env.create_user("ann")
    alice, bob = guild.add_member(ann), member(env, guild, "bob")
    # The fake clock says 12:00 UTC: 13:00 in Paris, within 13-15.
    await ann.slash("settings", notify=True, quiet="13-15", timezone="Europe/Paris")
    await challenge_accepted(env, channel, alice, bob, script)
    cog = notices(env.bot)
    assert await cog.send_due() == 0
    clock.advance(hours=1, minutes=30)
    assert await cog.send_due() == 0 and dms(ann) == []
    clock.advance(minutes=30)
    assert await cog.send_due() == 1 and len(dms(ann)) == 1
    refused = await ann.slash("settings", timezone="Atlantis/Capital")
    assert refused.ephemeral and "is not a time zone" in response(refused).content


async def test_games_pages_with_previous_and_next(env: Env, guild: Any, script: deque[int]) -> None:
    ann = env.create_user("ann")
    alice = guild.add_member(ann)
    for n in range(6):
        other = member(env, guild, f"p{n}")
        channel = guild.create_text_channel(f"t{n}")
        await other.slash(channel, "challenge", opponent=alice)  # six challengers, one each
    first = response(await ann.slash("games"))
    assert "(6) · page 1/2" in first.content and labels(first) == ["Next"]
    second = response(await ann.click(first, label="Next"))
    assert second.id == first.id and "page 2/2" in second.content
    assert labels(second) == ["Previous"]

# ruff: noqa: F811 - the fixtures of test_discord_sim are imported, and named as parameters
"""A tournament through a simulated Discord (SimCord): created, joined, started, its match
played with the buttons in a thread of its own opened in the tournament's channel with both
players added, the result and the standings reported in the channel; where no thread can be
opened the match is played in the channel; a restart never opens a second thread."""

from __future__ import annotations

from collections import deque
from datetime import datetime, timedelta
from typing import Any

import discord
import pytest
from simcord import Env, ResponseMessage

from bot.discord_app.together import open_match_thread
from bot.i18n import t
from bot.service import Reply, Service
from bot.service.replies import ThreadPlan
from tests.bot.test_discord_sim import (  # noqa: F401 - fixtures
    ROLL_SCRIPT_LIMIT,
    components,
    env,
    fresh,
    guild,
    is_board,
    labels,
    locales,
    member,
    new_bot,
    response,
    simcord_bot,
)
from tests.bot.test_discord_together import boards, messages

Actor = Any


async def registered(env: Env, guild: Any, channel: Any, **options: Any) -> tuple[Any, ...]:
    """Olga (Manage Server) creates a knockout in ``channel``, Ann and Bob join, Olga starts:
    (olga, ann, bob, the announcement, the Start press)."""
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    ann, bob = member(env, guild, "ann"), member(env, guild, "bob")
    made = await olga.slash(channel, "tournament", action="create", name="Friday", **options)
    assert not made.ephemeral, response(made).content
    announcement = response(made)
    for player in (ann, bob):
        assert not (await player.click(announcement, label="Join")).ephemeral
    started = await olga.click(announcement, label="Start")
    assert not started.ephemeral
    return olga, ann, bob, announcement, started


async def press_once(env: Env, players: tuple[Actor, Actor], board: ResponseMessage) -> bool:
    """Press what the board offers (Roll, a whole play, Confirm, a point), as whichever player
    may; False when the game is over (a tournament match leaves no button, not even Rematch)."""
    board = fresh(env, board)
    names = labels(board)
    if not components(board):
        return False
    menus = [c for c in components(board) if c["type"] == 3]
    points = [
        c for c in components(board) if c["type"] == 2 and c["custom_id"].split(":")[3] == "pt"
    ]
    for player in players:
        if "Roll" in names:
            result = await player.click(board, label="Roll")
        elif menus:
            value = menus[0]["options"][0]["value"]
            result = await player.select(board, [value], custom_id=menus[0]["custom_id"])
        elif "Confirm" in names:
            result = await player.click(board, label="Confirm")
        elif points:
            result = await player.click(board, custom_id=points[0]["custom_id"])
        else:
            raise AssertionError(f"nothing to press: {board.content}\n{names}")
        if not result.ephemeral:  # the other player's turn: refused, nothing changed
            assert response(result).channel_id == board.channel_id  # answered in the thread
            return True
    raise AssertionError(f"neither player may press: {board.content}")


async def test_a_match_is_played_in_its_thread_and_reported_in_the_channel(
    env: Env, guild: Any, script: deque[int]
) -> None:
    channel = guild.create_text_channel("club")
    _, ann, bob, _, started = await registered(env, guild, channel)
    # The channel keeps one line for the match; the board is in a thread opened from it.
    (thread,) = channel.threads
    assert thread.name in ("Friday, round 1: ann vs bob", "Friday, round 1: bob vs ann")
    intro = next(m for m in messages(channel) if m.id == thread.id)
    assert "played in the thread below" in intro.content and "**ann**" in intro.content
    assert boards(channel) == [] and not any(is_board(f) for f in started.followups)
    assert {ann.id, bob.id} <= set(env.backend.get_channel(thread.id).thread_members)
    (board,) = boards(thread)
    assert f"<@{ann.id}>" in board.content and f"<@{bob.id}>" in board.content
    # The players press the buttons of the board in the thread, to the end of the match.
    for _ in range(ROLL_SCRIPT_LIMIT):
        if not await press_once(env, (ann, bob), board):
            break
    else:
        raise AssertionError("the match did not end")
    # The result and the champion are told in the tournament's channel, not in the thread.
    said = [m.content for m in messages(channel)]
    result = next(i for i, s in enumerate(said) if s.startswith("🏆 Game #1: **"))
    champion = [m for m in messages(channel) if "is the champion" in m.content]
    assert len(champion) == 1 and said.index(champion[0].content) == result + 1
    assert [a.filename for a in champion[0].attachments] == ["standings.png"]
    assert not any("is the champion" in m.content for m in messages(thread))
    standings = await ann.slash(channel, "tournament", action="standings")
    assert not standings.ephemeral
    assert [a.filename for a in response(standings).attachments] == ["standings.png"]
    listed = response(await bob.slash(channel, "tournament", action="list"))
    assert "Friday" in listed.content and "🏆" in listed.content


async def test_when_discord_refuses_the_thread_the_match_is_played_in_the_channel(
    env: Env, guild: Any
) -> None:
    channel = guild.create_text_channel("club")
    env.inject_error("POST", "/channels/*/messages/*/threads", status=403, code=50013)
    await registered(env, guild, channel)
    assert channel.threads == []
    (board,) = boards(channel)
    assert labels(board)  # a working board, with its buttons
    assert not any("thread below" in m.content for m in messages(channel))  # line taken back


async def test_without_the_permission_or_with_threads_off_the_match_stays_in_the_channel(
    env: Env, guild: Any
) -> None:
    no_threads = discord.PermissionOverwrite(create_public_threads=False)
    channel = guild.create_text_channel("club", overwrites={guild.me: no_threads})
    *_, started = await registered(env, guild, channel)
    assert channel.threads == [] and len([f for f in started.followups if is_board(f)]) == 1
    assert not any("thread below" in m.content for m in messages(channel))


async def test_threads_off_for_the_server_keep_the_match_in_the_channel(
    env: Env, guild: Any
) -> None:
    channel = guild.create_text_channel("club")
    boss = guild.add_member(
        env.create_user("boss"),
        roles=[guild.create_role("managers", permissions=discord.Permissions(manage_guild=True))],
    )
    saved = await boss.slash(channel, "server", threads=False)
    assert "A thread for each game: off" in response(saved).content
    *_, started = await registered(env, guild, channel)
    assert channel.threads == [] and len([f for f in started.followups if is_board(f)]) == 1


async def test_a_restart_never_opens_a_second_thread_for_a_match(
    env: Env, guild: Any, service: Service
) -> None:
    channel = guild.create_text_channel("club")
    _, ann, bob, *_ = await registered(env, guild, channel)
    (thread,) = channel.threads
    # The match's board handed to the adapter again (a retried post, another process, a new
    # process after a restart): the match has its thread, no second one is opened.
    await env.restart_bot(new_bot(service))
    plan = ThreadPlan(1, "Friday, round 1: again", (ann.id, bob.id), "again")
    again = Reply(text="the board again", thread=plan, channel_id=channel.id)
    assert await open_match_thread(env.bot, channel.id, again)
    assert [th.id for th in channel.threads] == [thread.id]
    assert len(boards(thread)) == 1 and not any(m.content == "again" for m in messages(channel))


# -- the Discord scheduled event ---------------------------------------------------------------


def events(env: Env, guild: Any) -> list[Any]:
    return list(env.backend.get_guild(guild.id).scheduled_events.values())


def without_event_permissions(env: Env, guild: Any) -> None:
    """The bot's own role loses Create Events and Manage Events."""
    backend = env.backend
    role = next(r for r in backend.get_guild(guild.id).roles.values() if r.managed)
    perms = discord.Permissions(role.permissions)
    perms.update(manage_events=False, create_events=False)
    backend.edit_role(guild.id, role.id, {"permissions": perms.value})


async def test_a_tournament_with_a_start_time_is_a_scheduled_event_cancelled_with_it(
    env: Env, guild: Any
) -> None:
    channel = guild.create_text_channel("club")
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    made = await olga.slash(
        channel, "tournament", action="create", name="Friday", format="swiss", start=60
    )
    assert not made.ephemeral and made.followups == []  # nothing to tell the organizer
    (event,) = events(env, guild)
    assert event.name == "Friday" and event.entity_type == 3  # external
    assert (
        event.entity_metadata["location"] == f"https://discord.com/channels/{guild.id}/{channel.id}"
    )
    assert "swiss" in (event.description or "").lower() and "/tournament" in event.description
    start = datetime.fromisoformat(event.scheduled_start_time)
    end = datetime.fromisoformat(event.scheduled_end_time)
    assert timedelta(hours=1) <= end - start <= timedelta(days=1)
    cancelled = await olga.slash(channel, "tournament", action="cancel")
    assert not cancelled.ephemeral
    assert events(env, guild)[0].status == 4  # cancelled with the tournament


async def test_the_event_starts_and_completes_with_the_tournament(
    env: Env, guild: Any, script: deque[int]
) -> None:
    channel = guild.create_text_channel("club")
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    ann, bob = member(env, guild, "ann"), member(env, guild, "bob")
    made = response(await olga.slash(channel, "tournament", action="create", name="Sat", start=30))
    for player in (ann, bob):
        await player.click(made, label="Join")
    await olga.click(made, label="Start")  # before its time: the event starts too
    (event,) = events(env, guild)
    assert event.status == 2  # active
    (thread,) = channel.threads
    offer = response(await ann.slash(thread, "resign", value=1))
    if "not your turn" in offer.content:
        offer = response(await bob.slash(thread, "resign", value=1))
        await ann.click(offer, label="Accept")
    else:
        await bob.click(offer, label="Accept")
    assert any("is the champion" in m.content for m in messages(channel))
    assert events(env, guild)[0].status == 3  # completed


async def test_without_the_permission_the_tournament_is_created_and_the_organizer_told(
    env: Env, guild: Any
) -> None:
    channel = guild.create_text_channel("club")
    without_event_permissions(env, guild)
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    made = await olga.slash(channel, "tournament", action="create", name="Friday", start=60)
    assert not made.ephemeral and "Friday" in made.response.content
    (told,) = made.followups
    assert told.ephemeral and "Create Events" in told.content
    assert events(env, guild) == []
    assert "Friday" in response(await olga.slash(channel, "tournament", action="info")).content


async def test_when_discord_refuses_the_event_the_tournament_goes_on(env: Env, guild: Any) -> None:
    channel = guild.create_text_channel("club")
    env.inject_error("POST", "/guilds/*/scheduled-events", status=500)
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    made = await olga.slash(channel, "tournament", action="create", name="Friday", start=60)
    assert not made.ephemeral and events(env, guild) == []
    assert [f.content for f in made.followups] == [t("tournament.event_failed", "en")]
    cancelled = await olga.slash(channel, "tournament", action="cancel")
    assert not cancelled.ephemeral  # no event to cancel: nothing breaks


async def test_without_a_start_time_no_event_is_published(env: Env, guild: Any) -> None:
    channel = guild.create_text_channel("club")
    await registered(env, guild, channel)
    assert events(env, guild) == []


async def test_at_its_start_time_the_sweep_opens_the_match_threads_and_starts_the_event(
    env: Env, guild: Any
) -> None:
    channel = guild.create_text_channel("club")
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    players = [member(env, guild, n) for n in ("ann", "bob", "cy", "di")]
    made = response(await olga.slash(channel, "tournament", action="create", name="Sun", start=5))
    for player in players:
        await player.click(made, label="Join")
    cog = env.bot.get_cog("Timers")
    assert cog is not None
    env.bot.service.clock.advance(minutes=6)  # type: ignore[attr-defined]
    await cog.sweep.coro(cog)  # type: ignore[attr-defined]  # one pass of the background task
    threads = channel.threads
    assert len(threads) == 2 and all(th.name.startswith("Sun, round 1: ") for th in threads)
    assert all(len(boards(th)) == 1 for th in threads) and boards(channel) == []
    assert events(env, guild)[0].status == 2  # started with the tournament
    await cog.sweep.coro(cog)  # type: ignore[attr-defined]  # again: nothing new
    assert len(channel.threads) == 2


async def test_a_no_show_loses_the_match_and_its_thread_says_so(
    env: Env, guild: Any, script: deque[int]
) -> None:
    # A tournament's no-show loses without a claim: the reminder says so, and once the time
    # is out the thread's board is the last one (the one left there loses its buttons) and
    # the channel gets the result line, as a match played to its end does.
    channel = guild.create_text_channel("club")
    await registered(env, guild, channel)
    (thread,) = channel.threads
    (board,) = boards(thread)
    assert labels(board)  # the opening roll's board: whoever is to move has his buttons
    cog = env.bot.get_cog("Timers")
    assert cog is not None
    clock = env.bot.service.clock
    clock.advance(hours=23, minutes=30)  # type: ignore[attr-defined]
    await cog.sweep.coro(cog)  # type: ignore[attr-defined]
    (reminder,) = [m for m in messages(thread) if m.content.startswith("⏰")]
    assert "before you forfeit the match" in reminder.content
    clock.advance(hours=1)  # type: ignore[attr-defined]
    await cog.sweep.coro(cog)  # type: ignore[attr-defined]
    last = boards(thread)[-1]
    assert last.id != board.id and "did not play in time and forfeits the match" in last.content
    assert labels(fresh(env, board)) == [] and labels(last) == []  # nothing left to press
    # The games' score is not the match's: the line says how it was decided, not "1-0".
    (said,) = [m.content for m in messages(channel) if m.content.startswith("🏆 Game #1: **")]
    assert said.endswith(" by forfeit.") and "–" not in said


@pytest.mark.parametrize("typed_in", ["channel", "thread"])
async def test_a_withdrawal_ends_the_match_in_its_thread_too(
    env: Env, guild: Any, script: deque[int], typed_in: str
) -> None:
    # The channel said ann withdraws and forfeits; her match's board in the thread kept its
    # buttons, each press answered "This game is over". Its last board is posted there,
    # whether she withdrew from the channel or from the match's own thread.
    channel = guild.create_text_channel("club")
    _, ann, _, _, _ = await registered(env, guild, channel)
    (thread,) = channel.threads
    (board,) = boards(thread)
    asked = await ann.slash(
        channel if typed_in == "channel" else thread, "tournament", action="leave"
    )
    assert asked.ephemeral and "Withdraw" in labels(response(asked))
    gone = await ann.click(response(asked), label="Withdraw")
    assert not gone.ephemeral and "forfeits the match in progress" in gone.response.content
    last = boards(thread)[-1]
    assert last.id != board.id and "**ann** forfeits the match." in last.content
    assert labels(fresh(env, board)) == [] and labels(last) == []
    # The withdrawal's message says which match she forfeits: no second line of it.
    assert not [m for m in messages(channel) if m.content.startswith("🏆 Game #1: **")]

# ruff: noqa: F811 - the fixtures of test_discord_sim are imported, and named as parameters
"""A ladder through a simulated Discord (SimCord): created by a member who may manage the
server, joined (with its Join button, or the command), a challenge made with ``player:`` and
played with the buttons in a thread of its own opened in the ladder's channel, the result and
the ladder's picture posted in the channel; a challenge out of range refused in the member's
language, changing nothing; Show answering privately."""

from __future__ import annotations

from collections import deque
from typing import Any

import discord
from simcord import Env

from tests.bot.test_discord_sim import (  # noqa: F401 - fixtures
    ROLL_SCRIPT_LIMIT,
    env,
    fresh,
    guild,
    labels,
    locales,
    member,
    response,
    simcord_bot,
)
from tests.bot.test_discord_together import boards, messages
from tests.bot.test_discord_tournament import press_once


async def test_a_ladder_challenge_played_in_its_thread(
    env: Env, guild: Any, script: deque[int], locales: dict[int, str]
) -> None:
    channel = guild.create_text_channel("ladder")
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    ann, bob, cy = (member(env, guild, n) for n in ("ann", "bob", "cy"))
    made = await olga.slash(channel, "ladder", action="create", name="Evenings", points=1, reach=1)
    assert not made.ephemeral, response(made).content
    assert [a.filename for a in response(made).attachments] == ["ladder.png"]
    # Ann presses the Join button of the ladder's message; Bob and Cy type the command.
    pressed = await ann.click(response(made), label="Join")
    assert not pressed.ephemeral and "ann joins" in response(pressed).content
    for player in (bob, cy):
        joined = await player.slash(channel, "ladder", action="join")
        assert not joined.ephemeral and "joins" in response(joined).content
    # Out of range (reach 1: Cy on rung 3 may challenge rung 2 only), in French for Cy.
    locales[cy.id] = "fr"
    far = await cy.slash(channel, "ladder", action="challenge", player=ann)
    assert far.ephemeral and "plus de 1 échelon au-dessus" in response(far).content
    assert not channel.threads  # nothing started
    locales[cy.id] = "en-US"
    challenged = await cy.slash(channel, "ladder", action="challenge", player=bob)
    assert not challenged.ephemeral, response(challenged).content
    (thread,) = channel.threads
    assert thread.name in ("Evenings: cy vs bob",)
    assert {bob.id, cy.id} <= set(env.backend.get_channel(thread.id).thread_members)
    (board,) = boards(thread)
    for _ in range(ROLL_SCRIPT_LIMIT):
        # A ladder's game is a usual one: over, it offers a Rematch (a casual game).
        if labels(fresh(env, board)) == ["Rematch"]:
            break
        if not await press_once(env, (bob, cy), board):
            break
    else:
        raise AssertionError("the match did not end")
    said = [m for m in messages(channel) if "🪜 **Evenings**: " in m.content]
    assert len(said) == 1 and ("takes rung 2" in said[0].content or "stay" in said[0].content)
    assert [a.filename for a in said[0].attachments] == ["ladder.png"]
    assert not any("🪜 **Evenings**: " in m.content for m in messages(thread))
    shown = await ann.slash(channel, "ladder", action="show")
    assert [a.filename for a in response(shown).attachments] == ["ladder.png"]
    mine = await bob.click(response(shown), label="Show")  # privately, Bob's rung in blue
    assert mine.ephemeral and [a.filename for a in response(mine).attachments] == ["ladder.png"]


async def test_the_timer_forfeits_a_challenge_past_its_deadline(env: Env, guild: Any) -> None:
    channel = guild.create_text_channel("ladder")
    staff = guild.create_role("Staff", permissions=discord.Permissions(manage_guild=True))
    olga = guild.add_member(env.create_user("olga"), roles=[staff])
    ann, bob = member(env, guild, "ann"), member(env, guild, "bob")
    await olga.slash(channel, "ladder", action="create", name="Weekly", hours=2, points=1)
    for player in (ann, bob):
        await player.slash(channel, "ladder", action="join")
    made = await bob.slash(channel, "ladder", action="challenge", player=ann)
    assert not made.ephemeral, response(made).content
    cog = env.bot.get_cog("Timers")
    assert cog is not None
    env.bot.service.clock.advance(hours=3)  # type: ignore[attr-defined]
    await cog.sweep.coro(cog)  # type: ignore[attr-defined]  # one pass of the background task
    late = [m for m in messages(channel) if "not played by its deadline" in m.content]
    assert len(late) == 1
    moved = [m for m in messages(channel) if m.content.startswith("🪜 **Weekly**: ")]
    assert len(moved) == 2 and [a.filename for a in moved[-1].attachments] == ["ladder.png"]
    await cog.sweep.coro(cog)  # type: ignore[attr-defined]  # again: nothing new
    assert len([m for m in messages(channel) if "by its deadline" in m.content]) == 1

# ruff: noqa: F811 - the fixtures of test_discord_sim are imported, and named as parameters
"""A consultation game through a simulated Discord (SimCord): ``/consult`` posts the board and
a native poll of the team's choices; members vote on the poll (moving a vote moves it), with
``/vote`` and with ``/move``; the sweep closes the vote, ends the poll and posts the next board
and poll; a restart in the middle posts a lost poll again; a vote on a closed poll changes
nothing; refusals in the member's language."""

from __future__ import annotations

from collections import deque
from typing import Any

from simcord import Env, ResponseMessage
from sqlalchemy import select

from bot.service import Actor
from bot.service.consult import MAX_PLAYS
from db.models import ConsultVote
from tests.bot.test_discord_sim import (  # noqa: F401 - fixtures
    env,
    guild,
    locales,
    member,
    new_bot,
    response,
    simcord_bot,
)
from tests.bot.test_discord_together import messages


def polls(channel: Any) -> list[ResponseMessage]:
    """The messages of the channel that carry a poll, oldest first."""
    env = channel._env
    stored = [env.backend.get_message(channel.id, m.id) for m in channel.history()]
    return [ResponseMessage(env, m) for m in stored if m.poll is not None]


def poll_of(env: Env, message: ResponseMessage) -> Any:
    """The poll as Discord holds it now (its answers, its votes, whether it ended)."""
    return env.backend.get_message(message.channel_id, message.id).poll


def stop_loop(env: Env) -> Any:
    cog = env.bot.get_cog("Consultations")
    assert cog is not None
    cog.loop.cancel()  # the test runs its passes itself
    return cog


async def test_a_consultation_played_with_polls(
    env: Env, guild: Any, script: deque[int], locales: dict[int, str]
) -> None:
    channel = guild.create_text_channel("consult")
    ann, bob, cy = (member(env, guild, n) for n in ("ann", "bob", "cy"))
    cog = stop_loop(env)
    script.extend([5, 2])  # the team opens with 5-2: a play to vote on
    started = await ann.slash(channel, "consult", level="expert", minutes=2)
    assert not started.ephemeral, response(started).content
    assert "starts a consultation game" in response(started).content
    (poll_message,) = polls(channel)
    poll = poll_of(env, poll_message)
    assert 2 <= len(poll.answers) <= MAX_PLAYS + 1 <= 10
    assert poll.answers[-1].text.startswith("Another play")
    assert all(len(a.text) <= 55 for a in poll.answers)
    # Votes on the poll: Bob for the second answer, Cy for the first then moved to the second.
    await bob.vote(poll_message, answer=2)
    await cy.vote(poll_message, answer=1)
    await cy.vote(poll_message, answer=2)
    # Ann with the command; "another play" on the poll counts nothing.
    voted = await ann.slash(channel, "vote", choice=1)
    assert voted.ephemeral and "Your vote on vote 1" in response(voted).content
    last = len(poll.answers)
    await ann.vote(poll_message, answer=last)
    # In French, a choice out of range is refused and changes nothing.
    locales[bob.id] = "fr"
    bad = await bob.slash(channel, "vote", choice=10)
    assert bad.ephemeral and "Choisissez une réponse" in response(bad).content
    locales[bob.id] = "en-US"
    # A restart in the middle: the poll is still there, nothing is posted again...
    await env.restart_bot(new_bot(env.bot.service))  # type: ignore[attr-defined]
    cog = stop_loop(env)
    assert await cog.restore() == 0
    env.bot.service.clock.advance(minutes=2)  # type: ignore[attr-defined]
    assert await cog.sweep() == 1
    assert await cog.sweep() == 0  # closed once
    second = poll.answers[1].text
    said = [m.content for m in messages(channel) if "Vote 1: **" in m.content]
    assert len(said) == 1 and f"**{second}** with 2 of 3 votes" in said[0]
    assert poll_of(env, poll_message).finalized  # ended by the bot
    following = polls(channel)[-1]
    assert following.id != poll_message.id and not poll_of(env, following).finalized


async def test_a_lost_poll_is_posted_again_after_a_restart(
    env: Env, guild: Any, script: deque[int]
) -> None:
    channel = guild.create_text_channel("consult")
    ann, bob = member(env, guild, "ann"), member(env, guild, "bob")
    cog = stop_loop(env)
    script.extend([5, 2])
    await ann.slash(channel, "consult", level="expert", minutes=30)
    (lost,) = polls(channel)
    await bob.vote(lost, answer=1)
    env.backend.delete_message(channel.id, lost.id)  # gone, as in a restart that lost it
    await env.restart_bot(new_bot(env.bot.service))  # type: ignore[attr-defined]
    cog = stop_loop(env)
    # The bot's first pass after the start posts it again (here, or in the pass just below).
    await cog.restore()
    (again,) = polls(channel)
    assert again.id != lost.id
    assert any("its poll was lost" in m.content for m in messages(channel))
    assert await cog.restore() == 0  # there now
    env.bot.service.clock.advance(minutes=30)  # type: ignore[attr-defined]
    assert await cog.sweep() == 1
    said = [m.content for m in messages(channel) if "Vote 1: **" in m.content]
    assert len(said) == 1 and "with 1 of 1 vote" in said[0]  # Bob's vote kept


async def test_closing_a_vote_early_ends_its_poll(
    env: Env, guild: Any, script: deque[int], locales: dict[int, str]
) -> None:
    channel = guild.create_text_channel("consult")
    ann, bob = member(env, guild, "ann"), member(env, guild, "bob")
    stop_loop(env)
    script.extend([5, 2])
    await ann.slash(channel, "consult", level="expert", minutes=60)
    (first,) = polls(channel)
    locales[bob.id] = "fr"
    refused = await bob.slash(channel, "vote", close=True)
    assert refused.ephemeral and "Seul le membre" in response(refused).content
    assert not poll_of(env, first).finalized  # nothing changed
    closed = await ann.slash(channel, "vote", close=True)
    assert not closed.ephemeral and "nobody voted" in response(closed).content
    assert poll_of(env, first).finalized
    latest = polls(channel)[-1]
    assert latest.id != first.id and not poll_of(env, latest).finalized
    # Discord takes no vote on an ended poll; one in flight as it ended changes nothing.
    service = env.bot.service  # type: ignore[attr-defined]
    service.consult_poll_vote(Actor(bob.id, "bob"), first.id, 1)
    (info,) = service.consult_polls()
    assert info.message_id == latest.id and info.decision == 2
    with service.factory() as s:
        assert s.scalars(select(ConsultVote)).all() == []

"""A consultation's votes as Discord polls (``/consult``, see :mod:`bot.service.consult`).

The board goes out as the reply's message; the vote follows it as a native poll of its own
(a poll cannot be added to a message by an edit, and a deferred command's answer is an edit).
Discord counts a poll's length in whole hours, at least one: the service closes the vote at
its own time and the adapter then ends the poll (:func:`end_poll`). A vote on the poll reaches
the service from the gateway's poll events (:mod:`bot.discord_app.cogs.consult`).
"""

from __future__ import annotations

import asyncio
import logging
import math
from datetime import timedelta
from typing import TYPE_CHECKING

import discord

from bot.service.replies import Poll, Reply

if TYPE_CHECKING:
    from bot.service import Service

__all__ = ["discord_poll", "end_poll", "post_poll"]

log = logging.getLogger(__name__)

MAX_HOURS = 32 * 24  # Discord's longest poll


def discord_poll(spec: Poll) -> discord.Poll:
    """The poll Discord shows: the question, the answers in order (ids 1 to 10), open for the
    whole hours that cover the vote."""
    hours = min(MAX_HOURS, max(1, math.ceil(spec.seconds / 3600)))
    poll = discord.Poll(question=spec.question[:300], duration=timedelta(hours=hours))
    for answer in spec.answers[:10]:
        poll.add_answer(text=answer[:55])
    return poll


async def _messageable(client: discord.Client, channel_id: int) -> discord.abc.Messageable | None:
    channel = client.get_channel(channel_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(channel_id)
        except discord.HTTPException:
            log.warning("cannot reach channel %s for a consultation's poll", channel_id)
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None


async def post_poll(client: discord.Client, channel_id: int | None, reply: Reply) -> int | None:
    """Post the reply's vote as a poll in ``channel_id`` and tell the service its message; a
    poll the service no longer wants (its vote closed meanwhile) is ended at once. Returns the
    poll's message id."""
    spec = reply.poll
    if spec is None or reply.ephemeral:
        return None
    channel_id = reply.channel_id or channel_id
    service: Service | None = getattr(client, "service", None)
    channel = await _messageable(client, channel_id) if channel_id is not None else None
    if channel is None:
        return None
    try:
        message = await channel.send(poll=discord_poll(spec))
    except discord.HTTPException:
        log.warning("could not post the poll of consultation %s", spec.consultation_id)
        return None
    if service is None:
        return message.id
    taken = await asyncio.to_thread(
        service.consult_posted, spec.consultation_id, spec.decision, message.id
    )
    if not taken:
        await _end(message)
    return message.id


async def end_poll(client: discord.Client, channel_id: int | None, message_id: int | None) -> None:
    """End a consultation's poll the service has closed (nothing when it is gone)."""
    if channel_id is None or message_id is None:
        return
    channel = await _messageable(client, channel_id)
    if channel is None:
        return
    try:
        message = await channel.fetch_message(message_id)
    except discord.HTTPException:
        return
    await _end(message)


async def _end(message: discord.Message) -> None:
    if message.poll is not None and message.poll.is_finalised():
        return
    try:
        await message.end_poll()
    except (discord.HTTPException, ValueError, discord.ClientException):
        log.info("the poll of message %s could not be ended", message.id)

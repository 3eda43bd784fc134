"""Consultation games on Discord: the votes' sweep (every few seconds the service closes the
votes past their time, and this cog posts what follows: the board, the next poll), the polls
lost in a restart posted again, and the votes cast on the polls sent to the service."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.discord_app.polls import end_poll, post_poll
from bot.discord_app.together import send_to_channel
from bot.service.people import Actor
from bot.service.timers import Notice

if TYPE_CHECKING:
    from bot.discord_app.client import BackgammonBot

__all__ = ["Consultations"]

log = logging.getLogger(__name__)

SWEEP_SECONDS = 10  # how late a vote may close after its time


class Consultations(commands.Cog):
    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot
        self._restored = False
        self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=SWEEP_SECONDS)
    async def loop(self) -> None:
        if not self._restored:
            self._restored = True
            await self.restore()
        await self.sweep()

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    @loop.error
    async def _failed(self, error: BaseException) -> None:
        log.error("the consultations' sweep failed; it starts again", exc_info=error)
        self.loop.restart()

    async def sweep(self) -> int:
        """Close the votes past their time and post what follows; returns how many."""
        notices = await asyncio.to_thread(self.bot.service.consult_sweep)
        for notice in notices:
            await self.post(notice)
        return len(notices)

    async def post(self, notice: Notice) -> None:
        reply = notice.reply
        await end_poll(self.bot, notice.channel_id, reply.ends_poll)
        if notice.channel_id is None:
            return
        if await send_to_channel(self.bot, notice.channel_id, reply):
            await post_poll(self.bot, notice.channel_id, reply)
        for extra in reply.followups:
            await send_to_channel(self.bot, extra.channel_id or notice.channel_id, extra)

    async def restore(self) -> int:
        """After a start: each open vote whose poll message is gone (never posted, or deleted)
        is posted again, with the time it has left; returns how many."""
        again = 0
        for info in await asyncio.to_thread(self.bot.service.consult_polls):
            if info.channel_id is None or await self._still_there(info.channel_id, info.message_id):
                continue
            notice = await asyncio.to_thread(self.bot.service.consult_repost, info.consultation_id)
            if notice is not None:
                await self.post(notice)
                again += 1
        return again

    async def _still_there(self, channel_id: int, message_id: int | None) -> bool:
        if message_id is None:
            return False
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            try:
                fetched = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return True  # out of reach: nothing to post there either
            if not isinstance(fetched, discord.abc.Messageable):
                return True
            channel = fetched
        try:
            await channel.fetch_message(message_id)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            return True
        return True

    @commands.Cog.listener()
    async def on_raw_poll_vote_add(self, payload: discord.RawPollVoteActionEvent) -> None:
        await self._vote(payload, added=True)

    @commands.Cog.listener()
    async def on_raw_poll_vote_remove(self, payload: discord.RawPollVoteActionEvent) -> None:
        await self._vote(payload, added=False)

    async def _vote(self, payload: discord.RawPollVoteActionEvent, *, added: bool) -> None:
        user = self.bot.get_user(payload.user_id)
        if user is None:
            try:
                user = await self.bot.fetch_user(payload.user_id)
            except discord.HTTPException:
                user = None
        if user is not None and user.bot:
            return
        name = user.display_name if user is not None else str(payload.user_id)
        actor = Actor(payload.user_id, name)
        await asyncio.to_thread(
            self.bot.service.consult_poll_vote,
            actor,
            payload.message_id,
            payload.answer_id,
            added=added,
        )


async def setup(bot: BackgammonBot) -> None:
    await bot.add_cog(Consultations(bot))

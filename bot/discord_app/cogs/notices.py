""" "Your turn" messages: every minute the service says which notices are due (each claimed in
the database, so restarts and several processes send it once) and this cog sends them as
direct messages, after checking that the game still waits for that player."""

from __future__ import annotations

import asyncio
import logging
from io import BytesIO
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.discord_app.components import build_view
from bot.service.drills import DrillNotice
from bot.service.notices import DirectNotice

if TYPE_CHECKING:
    from bot.discord_app.client import BackgammonBot

__all__ = ["Notices"]

log = logging.getLogger(__name__)


class Notices(commands.Cog):
    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot
        self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(minutes=1)
    async def loop(self) -> None:
        await self.send_due()

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    @loop.error
    async def _failed(self, error: BaseException) -> None:
        log.error("the turn notices failed; they start again in a minute", exc_info=error)
        self.loop.restart()

    async def send_due(self) -> int:
        """Send the notices due now; returns how many went out."""
        notices = await asyncio.to_thread(self.bot.service.turn_notices)
        sent = 0
        for notice in notices:
            sent += await self._send(notice)
        for drill in await asyncio.to_thread(self.bot.service.drill_notices):
            sent += await self._send_drill(drill)
        return sent

    async def _send_drill(self, notice: DrillNotice) -> int:
        """The day's drill (and on Mondays the week's summary), claimed already."""
        try:
            user = self.bot.get_user(notice.user_id) or await self.bot.fetch_user(notice.user_id)
            for reply in notice.replies:
                files = (
                    [discord.File(BytesIO(reply.image), reply.image_name)] if reply.image else []
                )
                await user.send(
                    reply.text[:2000],
                    files=files,
                    view=build_view(reply) or discord.utils.MISSING,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        except discord.HTTPException:  # DMs closed, or the user is gone
            log.info("could not send the daily drill of %s", notice.user_id)
            return 0
        return 1

    async def _send(self, notice: DirectNotice) -> int:
        service = self.bot.service
        waiting = await asyncio.to_thread(
            service.still_waiting, notice.game_id, notice.user_id, notice.deadline
        )
        if not waiting:  # moved on or finished since it was claimed: never a stale notice
            return 0
        reply = notice.reply
        files = [discord.File(BytesIO(reply.image), reply.image_name)] if reply.image else []
        try:
            user = self.bot.get_user(notice.user_id) or await self.bot.fetch_user(notice.user_id)
            await user.send(
                reply.text[:2000], files=files, allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.HTTPException:  # DMs closed, or the user is gone
            log.info("could not send the turn notice of game %s", notice.game_id)
            return 0
        return 1


async def setup(bot: BackgammonBot) -> None:
    await bot.add_cog(Notices(bot))

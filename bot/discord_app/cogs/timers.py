"""The move timer's sweep: every minute, the service says which reminders, claim offers and
expiries are due (all from the database, so restarts and several shards are fine) and this cog
posts them in their channels."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.discord_app.events import move_event
from bot.discord_app.together import open_match_thread, send_to_channel
from bot.i18n import DEFAULT, language
from bot.service.timers import Notice

if TYPE_CHECKING:
    from bot.discord_app.client import BackgammonBot

log = logging.getLogger(__name__)


class Timers(commands.Cog):
    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot
        self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    def _lang_of(self, guild_id: int | None) -> str:
        guild = self.bot.get_guild(guild_id) if guild_id else None
        return language(str(guild.preferred_locale)) if guild else DEFAULT

    @tasks.loop(minutes=1)
    async def sweep(self) -> None:
        # Any shard process may sweep: the notice stages in the database make sure a notice is
        # sent once, and the REST API reaches a channel whichever shard serves its guild.
        # Tournaments first (starts, arenas closing, no-shows and empty time banks forfeiting),
        # so that a tournament game is decided before the move timer offers a claim.
        notices = await asyncio.to_thread(self.bot.service.tournament_sweep)
        notices += await asyncio.to_thread(self.bot.service.ladder_sweep)  # deadlines, drops
        notices += await asyncio.to_thread(self.bot.service.sweep, lang_of=self._lang_of)
        for notice in notices:
            await self._post(notice)

    @sweep.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    @sweep.error
    async def _failed(self, error: BaseException) -> None:
        log.error("the timer sweep failed; it starts again in a minute", exc_info=error)
        self.sweep.restart()

    async def _post(self, notice: Notice) -> None:
        if notice.channel_id is None:
            return
        reply = notice.reply
        if reply.event is not None:
            await move_event(self.bot, notice.guild_id, reply.event)
        if await open_match_thread(self.bot, notice.channel_id, reply):
            return  # a tournament match, played in its own thread
        await send_to_channel(self.bot, notice.channel_id, reply)


async def setup(bot: BackgammonBot) -> None:
    await bot.add_cog(Timers(bot))

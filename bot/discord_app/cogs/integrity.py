"""Fair dice: /verify, /dice."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.cogs import everywhere
from bot.discord_app.replies import answer, user_actor, who
from bot.discord_app.translator import ls

if TYPE_CHECKING:
    from bot.discord_app.client import BackgammonBot

Interaction = discord.Interaction["BackgammonBot"]
GameId = app_commands.Range[int, 1, 2**53 - 1]


class Integrity(commands.Cog):
    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("cmd.verify.name"), description=ls("cmd.verify.description"))
    @app_commands.rename(game=ls("cmd.verify.opt.game.name"))
    @app_commands.describe(game=ls("cmd.verify.opt.game.description"))
    @everywhere
    async def verify(self, interaction: Interaction, game: GameId) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.verify(actor, where, game))

    @app_commands.command(name=ls("cmd.dice.name"), description=ls("cmd.dice.description"))
    @app_commands.rename(user=ls("cmd.dice.opt.user.name"))
    @app_commands.describe(user=ls("cmd.dice.opt.user.description"))
    @everywhere
    async def dice(self, interaction: Interaction, user: discord.User | None = None) -> None:
        actor, where = who(interaction)
        other = user_actor(user) if user is not None else None
        service = self.bot.service
        await answer(interaction, lambda: service.dice_stats(actor, where, other))


async def setup(bot: BackgammonBot) -> None:
    await bot.add_cog(Integrity(bot))

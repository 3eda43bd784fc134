"""Analysis: /hint, /review, /export."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.cogs import everywhere
from bot.discord_app.replies import answer, who
from bot.discord_app.translator import ls

if TYPE_CHECKING:
    from bot.discord_app.client import BackgammonBot

Interaction = discord.Interaction["BackgammonBot"]
GameId = app_commands.Range[int, 1, 2**53 - 1]


class Analysis(commands.Cog):
    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("cmd.hint.name"), description=ls("cmd.hint.description"))
    @everywhere
    async def hint(self, interaction: Interaction) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(
            interaction, lambda: service.hint(actor, where), private=True, analysis="hints"
        )

    @app_commands.command(name=ls("cmd.review.name"), description=ls("cmd.review.description"))
    @app_commands.rename(game=ls("cmd.review.opt.game.name"))
    @app_commands.describe(game=ls("cmd.review.opt.game.description"))
    @everywhere
    async def review(self, interaction: Interaction, game: GameId | None = None) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        # The review's computation is shared per game in the service (the reply is per reader).
        await answer(interaction, lambda: service.review(actor, where, game), analysis="analysis")

    @app_commands.command(name=ls("cmd.export.name"), description=ls("cmd.export.description"))
    @app_commands.rename(game=ls("cmd.export.opt.game.name"))
    @app_commands.describe(game=ls("cmd.export.opt.game.description"))
    @everywhere
    async def export(self, interaction: Interaction, game: GameId | None = None) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.export(actor, where, game), private=True)


async def setup(bot: BackgammonBot) -> None:
    await bot.add_cog(Analysis(bot))

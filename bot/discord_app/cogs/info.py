"""Information: /leaderboard, /stats, /history, /rules, /help."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.discord_app.cogs import everywhere
from bot.discord_app.replies import answer, user_actor, who
from bot.discord_app.translator import ls

if TYPE_CHECKING:
    from bot.discord_app.client import BackgammonBot

Interaction = discord.Interaction["BackgammonBot"]
SCOPE_CHOICES = [
    Choice(name=ls("cmd.leaderboard.choice.server"), value="server"),
    Choice(name=ls("cmd.leaderboard.choice.global"), value="global"),
]


class Info(commands.Cog):
    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot

    @app_commands.command(
        name=ls("cmd.leaderboard.name"), description=ls("cmd.leaderboard.description")
    )
    @app_commands.rename(scope=ls("cmd.leaderboard.opt.scope.name"))
    @app_commands.describe(scope=ls("cmd.leaderboard.opt.scope.description"))
    @app_commands.choices(scope=SCOPE_CHOICES)
    @everywhere
    async def leaderboard(self, interaction: Interaction, scope: str = "server") -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.leaderboard(actor, where, scope))  # type: ignore[arg-type]

    @app_commands.command(name=ls("cmd.stats.name"), description=ls("cmd.stats.description"))
    @app_commands.rename(user=ls("cmd.stats.opt.user.name"))
    @app_commands.describe(user=ls("cmd.stats.opt.user.description"))
    @everywhere
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        actor, where = who(interaction)
        target = user_actor(user) if user is not None else None
        service = self.bot.service
        await answer(interaction, lambda: service.stats(actor, where, target))

    @app_commands.command(name=ls("cmd.history.name"), description=ls("cmd.history.description"))
    @everywhere
    async def history(self, interaction: Interaction) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.history(actor, where), private=True)

    @app_commands.command(name=ls("cmd.rules.name"), description=ls("cmd.rules.description"))
    @everywhere
    async def rules(self, interaction: Interaction) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.rules(actor, where), private=True)

    @app_commands.command(name=ls("cmd.help.name"), description=ls("cmd.help.description"))
    @everywhere
    async def help(self, interaction: Interaction) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.help(actor, where), private=True)


async def setup(bot: BackgammonBot) -> None:
    await bot.add_cog(Info(bot))

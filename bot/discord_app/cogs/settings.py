"""A player's settings: /settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.discord_app.cogs import everywhere
from bot.discord_app.replies import answer, who
from bot.discord_app.translator import ls

if TYPE_CHECKING:
    from bot.discord_app.client import BackgammonBot

Interaction = discord.Interaction["BackgammonBot"]
LANGUAGE_CHOICES = [
    Choice(name=ls(f"settings.lang_{code}"), value=code) for code in ("en", "fr", "auto")
]


class PlayerSettings(commands.Cog):
    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("cmd.settings.name"), description=ls("cmd.settings.description"))
    @app_commands.rename(
        language=ls("cmd.settings.opt.language.name"),
        auto_roll=ls("cmd.settings.opt.auto_roll.name"),
        auto_forced=ls("cmd.settings.opt.auto_forced.name"),
        mirrored=ls("cmd.settings.opt.mirrored.name"),
    )
    @app_commands.describe(
        language=ls("cmd.settings.opt.language.description"),
        auto_roll=ls("cmd.settings.opt.auto_roll.description"),
        auto_forced=ls("cmd.settings.opt.auto_forced.description"),
        mirrored=ls("cmd.settings.opt.mirrored.description"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    @everywhere
    async def settings(
        self,
        interaction: Interaction,
        language: str | None = None,
        auto_roll: bool | None = None,
        auto_forced: bool | None = None,
        mirrored: bool | None = None,
    ) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(
            interaction,
            lambda: service.settings_command(
                actor,
                where,
                language=language,
                auto_roll=auto_roll,
                auto_forced=auto_forced,
                mirrored=mirrored,
            ),
            private=True,
        )


async def setup(bot: BackgammonBot) -> None:
    await bot.add_cog(PlayerSettings(bot))

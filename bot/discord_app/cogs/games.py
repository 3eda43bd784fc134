"""Playing: /play, /challenge, /move, /undo, /board, /resign."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot.discord_app.cogs import everywhere, guilds_only
from bot.discord_app.replies import answer, user_actor, who
from bot.discord_app.translator import ls
from bot.service import Settings
from engine.bots import LEVELS

if TYPE_CHECKING:
    from bot.discord_app.client import BackgammonBot

MAX_POINTS = Settings().max_match_length
Interaction = discord.Interaction["BackgammonBot"]
Points = app_commands.Range[int, 0, MAX_POINTS]
Notation = app_commands.Range[str, 1, 100]
IdText = app_commands.Range[str, 1, 20]  # a Position ID has 14 characters, a Match ID 12
LEVEL_CHOICES = [Choice(name=ls(f"level.{level}"), value=level) for level in LEVELS]
RESIGN_CHOICES = [
    Choice(name=ls("resign.single"), value=1),
    Choice(name=ls("resign.gammon"), value=2),
    Choice(name=ls("resign.backgammon"), value=3),
]
MAX_AUTOCOMPLETE = 25


class Games(commands.Cog):
    def __init__(self, bot: BackgammonBot) -> None:
        self.bot = bot

    @app_commands.command(name=ls("cmd.play.name"), description=ls("cmd.play.description"))
    @app_commands.rename(
        level=ls("cmd.play.opt.level.name"),
        points=ls("cmd.play.opt.points.name"),
        cube=ls("cmd.play.opt.cube.name"),
        position=ls("cmd.play.opt.position.name"),
        match=ls("cmd.play.opt.match.name"),
    )
    @app_commands.describe(
        level=ls("cmd.play.opt.level.description"),
        points=ls("cmd.play.opt.points.description"),
        cube=ls("cmd.play.opt.cube.description"),
        position=ls("cmd.play.opt.position.description"),
        match=ls("cmd.play.opt.match.description"),
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    @everywhere
    async def play(
        self,
        interaction: Interaction,
        level: str = "intermediate",
        points: Points = 0,
        cube: bool = True,
        position: IdText | None = None,
        match: IdText | None = None,
    ) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(
            interaction,
            lambda: service.play(
                actor,
                where,
                level=level,
                points=points,
                cube=cube,
                position_id=position,
                match_id=match,
            ),
        )

    @app_commands.command(
        name=ls("cmd.challenge.name"), description=ls("cmd.challenge.description")
    )
    @app_commands.rename(
        opponent=ls("cmd.challenge.opt.opponent.name"),
        points=ls("cmd.challenge.opt.points.name"),
        cube=ls("cmd.challenge.opt.cube.name"),
        rated=ls("cmd.challenge.opt.rated.name"),
    )
    @app_commands.describe(
        opponent=ls("cmd.challenge.opt.opponent.description"),
        points=ls("cmd.challenge.opt.points.description"),
        cube=ls("cmd.challenge.opt.cube.description"),
        rated=ls("cmd.challenge.opt.rated.description"),
    )
    @guilds_only  # a challenge waits in a channel both players see
    async def challenge(
        self,
        interaction: Interaction,
        opponent: discord.User,
        points: Points = 0,
        cube: bool = True,
        rated: bool = True,
    ) -> None:
        actor, where = who(interaction)
        other = user_actor(opponent)
        service = self.bot.service
        await answer(
            interaction,
            lambda: service.challenge(actor, where, other, points=points, cube=cube, rated=rated),
        )

    @app_commands.command(name=ls("cmd.move.name"), description=ls("cmd.move.description"))
    @app_commands.rename(play=ls("cmd.move.opt.play.name"))
    @app_commands.describe(play=ls("cmd.move.opt.play.description"))
    @everywhere
    async def move(self, interaction: Interaction, play: Notation) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.move(actor, where, play))

    @move.autocomplete("play")
    async def move_autocomplete(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        # Autocomplete cannot be deferred: the service answers fast and never raises.
        actor, where = who(interaction)
        plays = await asyncio.to_thread(
            self.bot.service.autocomplete_moves, actor, where, current or ""
        )
        return [Choice(name=p[:100], value=p[:100]) for p in plays[:MAX_AUTOCOMPLETE]]

    @app_commands.command(name=ls("cmd.undo.name"), description=ls("cmd.undo.description"))
    @everywhere
    async def undo(self, interaction: Interaction) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.undo(actor, where))

    @app_commands.command(name=ls("cmd.board.name"), description=ls("cmd.board.description"))
    @everywhere
    async def board(self, interaction: Interaction) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.board(actor, where))

    @app_commands.command(name=ls("cmd.resign.name"), description=ls("cmd.resign.description"))
    @app_commands.rename(value=ls("cmd.resign.opt.value.name"))
    @app_commands.describe(value=ls("cmd.resign.opt.value.description"))
    @app_commands.choices(value=RESIGN_CHOICES)
    @everywhere
    async def resign(self, interaction: Interaction, value: int = 1) -> None:
        actor, where = who(interaction)
        service = self.bot.service
        await answer(interaction, lambda: service.resign(actor, where, value))


async def setup(bot: BackgammonBot) -> None:
    await bot.add_cog(Games(bot))

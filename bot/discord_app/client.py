"""The bot: an ``AutoShardedBot`` holding the service, its cogs and its persistent components."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot import heavy
from bot.compose import service_settings
from bot.config import Config
from bot.discord_app.commands import build_commands
from bot.discord_app.components import (
    ChallengeComponent,
    GameComponent,
    LadderComponent,
    PageComponent,
    PuzzleComponent,
    TournamentComponent,
)
from bot.discord_app.replies import RESPONSE_WINDOW, answer, report_error, who
from bot.discord_app.translator import CatalogTranslator

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from bot.service import Service

__all__ = ["EXTENSIONS", "BackgammonBot", "BackgammonTree"]

log = logging.getLogger(__name__)

# The slash commands come from the service's command table (bot.discord_app.commands); the
# timers cog owns the background sweep of move deadlines, the notices cog the "your turn" DMs.
EXTENSIONS = (
    "bot.discord_app.cogs.timers",
    "bot.discord_app.cogs.notices",
    "bot.discord_app.cogs.consult",
)


class BackgammonTree(app_commands.CommandTree["BackgammonBot"]):
    """The command tree: every unexpected error is logged and answered with an apology."""

    async def on_error(
        self, interaction: discord.Interaction[BackgammonBot], error: app_commands.AppCommandError
    ) -> None:
        await report_error(interaction, error)


class BackgammonBot(commands.AutoShardedBot):
    """The Discord bot around a :class:`~bot.service.Service`.

    :param service: the use cases (None only for a bot that syncs commands and nothing else).
    :param config: settings (shards, development guild).
    :param engine: the database engine the bot owns and disposes of when it closes.
    """

    tree: BackgammonTree

    def __init__(
        self, service: Service | None, *, config: Config, engine: Engine | None = None
    ) -> None:
        if config.shard_ids is not None and config.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
        shards: dict[str, Any] = {"shard_count": config.shard_count}
        if config.shard_ids is not None:  # this process serves these shards only
            shards["shard_ids"] = list(config.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            # Slash commands and buttons need no more; the polls' votes of a consultation game
            # come with guild_polls (not a privileged intent).
            intents=discord.Intents(guilds=True, guild_polls=True),
            tree_cls=BackgammonTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **shards,
        )
        self._service = service
        self.config = config
        self._engine = engine
        # Seconds to wait for the service before deferring an interaction (see replies.answer).
        self.defer_after = 1.0
        # Seconds Discord gives the first response, from the interaction's creation: answers
        # are deferred and late interactions dropped within it (tests on a simulated Discord,
        # whose clock stands still while the machine works, lift it).
        self.response_window = RESPONSE_WINDOW
        # run_bot: once started, leave start-up's objects out of the garbage collector's full
        # passes (bot.heavy.freeze_heap); not in tests, which build many bots in one process.
        self.freeze_heap = False

    @property
    def service(self) -> Service:
        if self._service is None:
            raise RuntimeError("this bot was built without a service (to sync commands only)")
        return self._service

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        if self._service is not None:
            await asyncio.to_thread(self._service.warm_up)
        settings = self._service.settings if self._service else service_settings(self.config)
        for command in build_commands(settings):
            self.tree.add_command(command)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(
            GameComponent,
            ChallengeComponent,
            TournamentComponent,
            LadderComponent,
            PageComponent,
            PuzzleComponent,
        )
        if self.config.dev_guild_id:
            # Development only: guild commands appear at once. Global sync is an explicit step.
            guild = discord.Object(self.config.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild %s", len(synced), guild.id)
        if self.freeze_heap:
            log.info("start-up done: %d objects frozen", heavy.freeze_heap())

    async def on_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        """A button or select menu press (from :mod:`bot.discord_app.components`)."""
        data = cast(dict[str, Any], interaction.data or {})
        values = data.get("values") or []
        value = str(values[0]) if values else None
        try:
            actor, where = who(interaction)
            service = self.service
            await answer(
                interaction, lambda: service.press(actor, where, custom_id, value), component=True
            )
        except Exception as error:  # discord.py would only log it: answer the player too
            await report_error(interaction, error)

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (shards %s of %s, %d guilds)",
            self.user,
            self.shard_ids or "all",
            self.shard_count,
            len(self.guilds),
        )

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if self._engine is not None:
                engine, self._engine = self._engine, None
                await asyncio.to_thread(engine.dispose)
                log.info("database connections closed")

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("unexpected error in %s", event_method)

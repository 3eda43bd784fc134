"""Building, running and syncing the bot."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import signal
import sys
from typing import TYPE_CHECKING

import discord

from bot.config import Config, load_dotenv
from bot.discord_app.client import BackgammonBot

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from bot.service import Service

__all__ = ["create_bot", "open_service", "run_bot", "sync_commands"]

log = logging.getLogger(__name__)


def open_service(config: Config) -> tuple[Service, Engine]:
    """The service on the configured database, upgraded to the latest schema first (built
    by the composition root, as the terminal's)."""
    from bot import compose

    return compose.open_service(config)


def create_bot(config: Config | None = None, *, service: Service | None = None) -> BackgammonBot:
    """The bot, configured from the environment (and ``.env``) unless ``config`` is given, on
    its database (migrated) unless ``service`` is given. Nothing connects to Discord: tests and
    tools can build it and ``await bot.setup_hook()``."""
    if config is None:
        load_dotenv()
        config = Config.from_env()
    engine = None
    if service is None:
        service, engine = open_service(config)
    return BackgammonBot(service, config=config, engine=engine)


def run_bot(config: Config) -> int:
    """Connect and serve until interrupted (Ctrl+C or SIGTERM), then close cleanly."""
    if not config.token:
        print("DISCORD_TOKEN is not set.", file=sys.stderr)
        return 2
    from bot import heavy
    from bot.drawers import DRAWERS
    from bot.ops.server import serving

    bot = create_bot(config)
    heavy.tune_process()
    bot.freeze_heap = True  # after start-up (setup_hook): see heavy.freeze_heap
    heavy.POOLS.use_processes(config.analysis_processes)  # reviews off the bot's GIL
    heavy.POOLS.use_cube_process(config.analysis_processes > 0)  # and cube searches
    DRAWERS.start(config.draw_processes)  # board pictures off the bot's GIL

    async def main() -> None:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):  # Windows has no SIGTERM
            loop.add_signal_handler(signal.SIGTERM, lambda: asyncio.ensure_future(bot.close()))
        factory = bot.service.factory
        async with bot, serving(config.metrics_port, factory, config.metrics_host):
            await _start_with_web(bot, config)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        log.info("interrupted: the bot has closed")
    except discord.LoginFailure:
        print(
            "Discord refused the token in DISCORD_TOKEN: copy it again from the "
            "developer portal (Bot > Reset Token).",
            file=sys.stderr,
        )
        return 1
    return 0


async def _start_with_web(bot: BackgammonBot, config: Config) -> None:
    """Connect, with the web board on the bot's loop when ``WEB_PORT`` is set."""
    from bot.discord_app.components import WEB
    from bot.web import serving_web

    assert bot.service is not None
    async with serving_web(bot.service, config) as web:
        if web is not None:
            WEB["links"] = web.links  # the boards' link buttons, /board's private link
        try:
            await bot.start(config.token or "")
        finally:
            WEB.pop("links", None)


def sync_commands(config: Config, guild_id: int | None = None) -> int:
    """Register the slash commands with Discord: globally (may take a while to show), or in
    one guild (at once; for development)."""
    if not config.token:
        print("DISCORD_TOKEN is not set.", file=sys.stderr)
        return 2
    bot = BackgammonBot(None, config=dataclasses.replace(config, dev_guild_id=None))

    async def main() -> int:
        async with bot:
            await bot.login(config.token or "")  # runs setup_hook: cogs and translator
            if guild_id is not None:
                guild = discord.Object(guild_id)
                bot.tree.copy_global_to(guild=guild)
                synced = await bot.tree.sync(guild=guild)
                where = f"guild {guild_id}"
            else:
                synced = await bot.tree.sync()
                where = "every server and DM (global; may take up to an hour to show)"
        print(
            f"synced {len(synced)} commands to {where}: " + ", ".join(f"/{c.name}" for c in synced)
        )
        return 0

    try:
        return asyncio.run(main())
    except discord.LoginFailure:
        print("Discord refused the token in DISCORD_TOKEN.", file=sys.stderr)
        return 1
    except discord.HTTPException as error:
        print(f"Discord refused the commands: {error}", file=sys.stderr)
        return 1

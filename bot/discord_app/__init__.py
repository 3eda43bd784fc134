"""The Discord adapter: slash commands and persistent buttons over the service layer.

``create_bot()`` builds the bot from the environment without connecting; ``run_bot(config)``
serves; ``sync_commands(config, guild_id=...)`` registers the slash commands (an explicit step,
never done on start except in a development guild).
"""

from bot.discord_app.app import create_bot, open_service, run_bot, sync_commands
from bot.discord_app.client import BackgammonBot

__all__ = ["BackgammonBot", "create_bot", "open_service", "run_bot", "sync_commands"]

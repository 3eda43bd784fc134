"""Where the slash commands may be used (:func:`everywhere`, :func:`guilds_only`; the commands
themselves are built from the service's table in :mod:`bot.discord_app.commands`), and the cogs
of background work (the move timers)."""

from __future__ import annotations

from typing import TypeVar

from discord import app_commands

__all__ = ["everywhere", "guilds_only"]

T = TypeVar("T")


def everywhere(command: T) -> T:
    """Installable on servers and on user accounts; usable in servers, the bot's DMs and
    private channels (set explicitly: left unset, Discord receives null)."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)


def guilds_only(command: T) -> T:
    """Installable everywhere, usable in server channels only (``dm_permission`` false too,
    for clients that still read it)."""
    command = app_commands.allowed_installs(guilds=True, users=True)(command)
    command = app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(command)
    return app_commands.guild_only(command)

"""The slash commands, built from the service's command table (:mod:`bot.service.commands`):
each one's name, options, choices and texts come from the table and the catalog, and its
callback runs the use case the table names (``service.run``). A command is added there, not here."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine
from typing import Any, Optional

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot import heavy
from bot.discord_app.cogs import everywhere, guilds_only
from bot.discord_app.components import WEB
from bot.discord_app.replies import answer, user_actor, who
from bot.discord_app.translator import ls
from bot.i18n import language, t
from bot.service import Actor, Reply, Settings
from bot.service.command_spec import Command, Kind, Option, Surface
from bot.service.commands import COMMANDS

__all__ = ["MAX_AUTOCOMPLETE", "build_commands"]

MAX_AUTOCOMPLETE = 25
Interaction = discord.Interaction[Any]  # the client is a BackgammonBot: .service
Callback = Callable[..., Coroutine[Any, Any, None]]


def build_commands(settings: Settings) -> list[app_commands.Command[Any, ..., None]]:
    """Every slash command of the table, in its order, bounded by the running bot's
    ``settings`` (the longest match it allows)."""
    return [
        _command(spec.configured(settings))
        for spec in COMMANDS
        if spec.surface is not Surface.TERMINAL
    ]


def _command(spec: Command) -> app_commands.Command[Any, ..., None]:
    callback = _callback(spec)
    names = {o.name: ls(f"cmd.{spec.name}.opt.{o.name}.name") for o in spec.options}
    texts = {o.name: ls(f"cmd.{spec.name}.opt.{o.name}.description") for o in spec.options}
    choices = {
        o.name: [Choice(name=ls(c.key), value=c.value) for c in o.choices]
        for o in spec.options
        if o.choices
    }
    if names:
        callback = app_commands.rename(**names)(callback)
        callback = app_commands.describe(**texts)(callback)
    if choices:
        callback = app_commands.choices(**choices)(callback)
    callback = (guilds_only if spec.guild_only else everywhere)(callback)
    if spec.manager:  # Discord shows it to managers only (the service checks again)
        callback = app_commands.default_permissions(manage_guild=True)(callback)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=ls(f"cmd.{spec.name}.name"),
        description=ls(f"cmd.{spec.name}.description"),
        callback=callback,  # its signature is built at run time (see _callback)
    )
    for option in spec.options:
        if option.autocomplete:
            command.autocomplete(option.name)(_move_autocomplete)
    return command


def _callback(spec: Command) -> Callback:
    """A callback whose signature is the command's options (discord.py reads the types)."""
    assert spec.method is not None

    async def callback(interaction: Interaction, **values: Any) -> None:
        actor, where = who(interaction)
        kwargs = {o.keyword: _service_value(o, values.get(o.name, o.default)) for o in spec.options}
        service = interaction.client.service
        shown: list[Reply] = []

        def run() -> Reply:
            shown.append(service.run(spec, actor, where, **kwargs))
            return shown[-1]

        await answer(interaction, run, private=spec.private, analysis=spec.lane_for(kwargs))
        if spec.name == "board" and shown:
            await _private_link(interaction, shown[-1], actor)

    interaction = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    ordered = sorted(spec.options, key=lambda o: not o.required)  # required options first
    params = [interaction, *(_parameter(o) for o in ordered)]
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = spec.name
    return callback


async def _private_link(interaction: Interaction, reply: Reply, actor: Actor) -> None:
    """After ``/board``, when the web board is on: the player's own link to his game's page,
    privately."""
    links = WEB.get("links")
    if links is None or reply.game_id is None or not reply.position_id or reply.ephemeral:
        return
    text = t(
        "web.board_link",
        language(str(interaction.locale)),
        id=reply.game_id,
        hours=links.hours,
        url=links.player_url(reply.game_id, actor.id),
    )
    await interaction.followup.send(text, ephemeral=True)


def _parameter(option: Option) -> inspect.Parameter:
    annotation: Any = {
        Kind.TEXT: str,
        Kind.INTEGER: int,
        Kind.FLAG: bool,
        Kind.USER: discord.User,
    }[option.kind]
    if option.low is not None and option.high is not None and not option.choices:
        annotation = app_commands.Range[annotation, option.low, option.high]
    default: Any = inspect.Parameter.empty
    if not option.required:
        default = option.default
        if default is None:
            annotation = Optional[annotation]  # noqa: UP045 - built at run time for discord.py
    return inspect.Parameter(
        option.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation, default=default
    )


def _service_value(option: Option, value: Any) -> Any:
    if option.kind is Kind.USER and value is not None:
        return user_actor(value)
    return value


async def _move_autocomplete(interaction: Interaction, current: str) -> list[Choice[str]]:
    # Autocomplete cannot be deferred: the service answers fast and never raises. It runs with
    # the person's other interactions, one at a time and two in flight at most: a flood of
    # keystrokes gets no choices rather than every thread.
    actor, where = who(interaction)
    service = interaction.client.service
    try:
        plays = await heavy.POOLS.ordinary_submit(
            lambda: service.autocomplete_moves(actor, where, current or ""), user=actor.id
        )
    except heavy.Busy:  # no message can answer an autocomplete: no choices this time
        return []
    return [Choice(name=p[:100], value=p[:100]) for p in plays[:MAX_AUTOCOMPLETE]]

"""A tournament's Discord scheduled event, the Discord side: publish it when the tournament is
created (an external event at its start time, its channel as the location), where the bot may
create events; mark it started, completed or cancelled with the tournament.

Nothing depends on the event: without the permission, or when Discord refuses, the tournament
goes on; the organizer is told so in one private line.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.i18n import language, t
from bot.service import Reply
from bot.service.replies import TournamentEvent

__all__ = ["move_event", "publish_event", "tournament_events"]

log = logging.getLogger(__name__)


async def tournament_events(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Carry out the events of a reply and of its follow-ups (a finished tournament's
    champion completes it)."""
    for shown in (reply, *reply.followups):
        change = shown.event
        if change is None or shown.ephemeral:
            continue
        if change.action == "publish":
            await publish_event(interaction, change)
        else:
            await move_event(interaction.client, interaction.guild_id, change)


async def publish_event(interaction: discord.Interaction[Any], change: TournamentEvent) -> None:
    """Publish the new tournament's event, where the bot may create events (else the organizer
    is told, privately), and tell the service its id."""
    guild = interaction.client.get_guild(interaction.guild_id or 0)
    perms = interaction.app_permissions
    lang = language(str(interaction.locale) if interaction.locale else None)
    if guild is None or change.start is None or change.end is None:
        return
    if not (perms.create_events or perms.manage_events):
        await _tell(interaction, t("tournament.event_no_permission", lang))
        return
    try:
        event = await guild.create_scheduled_event(
            name=change.name,
            description=change.description,
            start_time=change.start,
            end_time=change.end,
            entity_type=discord.EntityType.external,
            privacy_level=discord.PrivacyLevel.guild_only,
            location=change.location,
        )
    except discord.HTTPException as error:
        log.info("no event for tournament %s: %s", change.tournament_id, error)
        await _tell(interaction, t("tournament.event_failed", lang))
        return
    service = interaction.client.service
    alive = await asyncio.to_thread(service.tournament_event, change.tournament_id, event.id)
    if not alive:  # cancelled meanwhile: the event goes too
        await move_event(interaction.client, guild.id, TournamentEvent(0, "cancel", event.id))


async def move_event(client: discord.Client, guild_id: int | None, change: TournamentEvent) -> None:
    """Mark a published event started, completed or cancelled (an event that has not started
    is started first to be completed, and an event under way is ended to be cancelled: the
    only changes Discord allows). Only logged when it fails."""
    guild = client.get_guild(guild_id) if guild_id else None
    if guild is None or change.event_id is None:
        return
    try:
        event = guild.get_scheduled_event(change.event_id) or await guild.fetch_scheduled_event(
            change.event_id
        )
        await _step(event, change.action)
    except (discord.HTTPException, ValueError) as error:  # gone, or already in that state
        log.info("event %s not moved to %s: %s", change.event_id, change.action, error)


async def _step(event: discord.ScheduledEvent, action: str) -> None:
    scheduled = event.status is discord.EventStatus.scheduled
    active = event.status is discord.EventStatus.active
    if action == "start" and scheduled:
        await event.start()
    elif action == "cancel" and scheduled:
        await event.cancel()
    elif action in ("cancel", "complete") and active:
        await event.end()
    elif action == "complete" and scheduled:
        started = await event.start()
        await started.end()


async def _tell(interaction: discord.Interaction[Any], text: str) -> None:
    try:
        await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell interaction %s about its event", interaction.id)

"""From an interaction to the service and back: who acts where, off the event loop, and the
service's :class:`~bot.service.Reply` shown as a Discord message.

Discord wants every interaction acknowledged within 3 seconds. The service usually answers in a
few milliseconds, but it may block (database, picture, the computer thinking), so it always runs
in a thread; :func:`answer` waits for it ``bot.defer_after`` seconds at most, then defers and
sends the reply when it comes. Answering directly when the work is fast saves a round trip, and
lets a refusal be ephemeral even for a command whose success is public. When the work cannot
start at once (every thread of its pool is taken: the process is saturated), it defers at once:
the player sees the loading state immediately instead of nothing for up to a second.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import replace
from io import BytesIO
from typing import Any, Literal

import discord

from bot import heavy
from bot.discord_app.components import build_view
from bot.discord_app.events import tournament_events
from bot.discord_app.together import (
    can_open_threads,
    open_game_thread,
    open_match_thread,
    remember_board,
    send_posts,
    send_to_channel,
)
from bot.i18n import language, t
from bot.ops import metrics
from bot.service import Actor, Reply, Where

__all__ = ["answer", "apologize", "deliver", "report_error", "user_actor", "who"]

log = logging.getLogger(__name__)

MAX_CONTENT = 2000


def user_actor(user: discord.abc.User, locale: discord.Locale | None = None) -> Actor:
    """A Discord user as the service sees him."""
    return Actor(user.id, user.display_name, str(locale) if locale else None, user.bot)


def who(interaction: discord.Interaction[Any]) -> tuple[Actor, Where]:
    """The acting person and the place of an interaction."""
    guild_locale = interaction.guild_locale
    where = Where(
        channel_id=interaction.channel_id,
        guild_id=interaction.guild_id,
        guild_locale=str(guild_locale) if guild_locale else None,
        threads=can_open_threads(interaction),
        manager=bool(interaction.guild_id and interaction.permissions.manage_guild),
    )
    actor = user_actor(interaction.user, interaction.locale)
    if interaction.guild_id is not None and _organizer(interaction):
        actor = replace(actor, organizer=True)
    return actor, where


def _organizer(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member may organize tournaments: Manage Server, or the configured role."""
    if interaction.permissions.manage_guild:
        return True
    service = getattr(interaction.client, "service", None)
    role = service.settings.organizer_role if service is not None else None
    roles = getattr(interaction.user, "roles", ())
    return role is not None and any(role in (str(r.id), r.name) for r in roles)


def _content(reply: Reply) -> str:
    text = reply.text
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


def _mentions(reply: Reply) -> discord.AllowedMentions:
    """Only the people the service names may be pinged: never @everyone or a role."""
    users = [discord.Object(i) for i in reply.mentions]
    return discord.AllowedMentions(
        everyone=False, roles=False, users=users or False, replied_user=False
    )


def _files(reply: Reply) -> list[discord.File]:
    files = []
    if reply.image is not None:
        files.append(discord.File(BytesIO(reply.image), filename=reply.image_name))
    # Discord takes ten files per message; the service sends at most nine besides the picture.
    for extra in reply.attachments[: 10 - len(files)]:
        files.append(discord.File(BytesIO(extra.data), filename=extra.name))
    return files


async def answer(
    interaction: discord.Interaction[Any],
    call: Callable[[], Reply],
    *,
    component: bool = False,
    private: bool = False,
    analysis: Literal["analysis", "hints"] | None = None,
    key: Hashable | None = None,
) -> None:
    """Run ``call`` (a service method) in a thread and show its reply.

    :param component: the interaction is a button or select press (replies may edit its message).
    :param private: the reply is always ephemeral (a deferral is then ephemeral too).
    :param analysis: heavy work, run in that bounded pool of :data:`bot.heavy.POOLS` (reviews:
        ``analysis``; ``hints``), which may refuse it at once ("busy"), never in the threads of
        ordinary interactions.
    :param key: with ``analysis``, requests with the same key share one computation.
    """
    started = time.perf_counter()
    work, crowded = await _start(interaction, call, analysis, key, component, private)
    if work is None:  # refused at once: the lane is full, or this person sent too many
        return
    # The reply waits ``defer_after`` at most before a deferral; none at all when the work
    # cannot start at once (every thread of its pool taken): the player sees Discord's
    # "thinking" state now rather than nothing, and the reply follows.
    budget: float = 0.0 if crowded else getattr(interaction.client, "defer_after", 1.0)
    if budget > 0:
        await asyncio.wait({work}, timeout=budget)
    deferred = not work.done()
    if deferred:
        if component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True, ephemeral=private)
    reply = await work
    await _show(interaction, reply, component=component, private=private)
    kind = "analysis" if analysis else "ordinary"
    _record(interaction, kind, reply, time.perf_counter() - started, deferred, private)


async def _show(
    interaction: discord.Interaction[Any], reply: Reply, *, component: bool, private: bool
) -> None:
    """Show the reply: in the game's new thread when it opens one, else where it was asked;
    then the turn ping, the messages for other channels and the follow-ups."""
    if not await open_game_thread(interaction, reply, component=component):
        message_id = await deliver(
            interaction, reply, component=component, deferred_private=private
        )
        await remember_board(interaction, reply, message_id, component=component)
        await _ping(interaction, reply)
    await send_posts(interaction.client, reply)  # a match's result, then what it led to
    await _followups(interaction, reply)
    await tournament_events(interaction, reply)


def _record(
    interaction: discord.Interaction[Any],
    kind: str,
    reply: Reply,
    seconds: float,
    deferred: bool,
    private: bool,
) -> None:
    """Count an answered interaction in the metrics and log it (deferred ones at INFO)."""
    refused = reply.ephemeral and not private  # a private answer is not always a refusal
    metrics.observe(kind, seconds, "refused" if refused else "ok", deferred=deferred)
    log.log(
        logging.INFO if deferred else logging.DEBUG,
        "%s by %s answered in %.0f ms%s",
        _what(interaction),
        interaction.user.id,
        seconds * 1000,
        " (deferred)" if deferred else "",
    )


async def _start(
    interaction: discord.Interaction[Any],
    call: Callable[[], Reply],
    analysis: Literal["analysis", "hints"] | None,
    key: Hashable | None,
    component: bool,
    private: bool,
) -> tuple[asyncio.Future[Reply] | None, bool]:
    """Start ``call`` in its pool: (its future, whether it must wait for a thread), or (None,
    False) when its pool refused it (the "busy" reply is then shown): an analysis lane that is
    full, or a person who already has as many interactions in flight as one may."""
    user = interaction.user.id
    try:
        if not analysis:
            crowded = heavy.POOLS.crowded()
            return heavy.POOLS.ordinary_submit(call, user=user), crowded
        pool: heavy.HeavyPool = getattr(heavy.POOLS, analysis)
        crowded = pool.crowded()
        return pool.submit(call, key=key, user=user), crowded
    except heavy.Busy as busy:
        lang = language(str(interaction.locale) if interaction.locale else None)
        refusal = Reply(t(busy.key, lang), ephemeral=True)
        await deliver(interaction, refusal, component=component, deferred_private=private)
        metrics.observe("analysis" if analysis else "ordinary", 0.0, "busy")
        return None, False


async def _ping(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Tell the player whose turn it now is, in a short message of its own that pings only
    him (the board message was edited, or carries no mention)."""
    if not reply.ping or reply.ephemeral:
        return
    mentions = discord.AllowedMentions(
        everyone=False,
        roles=False,
        users=[discord.Object(i) for i in reply.mentions],
        replied_user=False,
    )
    try:
        await interaction.followup.send(reply.ping, allowed_mentions=mentions)
    except discord.HTTPException:
        log.warning("could not send the turn notice of interaction %s", interaction.id)


async def _followups(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Post the messages the action made besides its reply (a tournament's next boards and
    standings), each a message of its own: in the channel it names (a tournament's, even when
    the action was in a match's thread), a match's board in a thread of its own where one
    can be opened."""
    client = interaction.client
    for extra in reply.followups:
        target = extra.channel_id or interaction.channel_id
        if target is not None and await open_match_thread(client, target, extra):
            continue
        if target is not None and target != interaction.channel_id:
            await send_to_channel(client, target, extra)
            continue
        try:
            await interaction.followup.send(
                _content(extra),
                allowed_mentions=_mentions(extra),
                **_new_message_extras(extra, build_view(extra)),
            )
        except discord.HTTPException:
            log.warning("could not post a follow-up of interaction %s", interaction.id)


def _what(interaction: discord.Interaction[Any]) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    return str(data.get("custom_id", "interaction"))


async def deliver(
    interaction: discord.Interaction[Any],
    reply: Reply,
    *,
    component: bool = False,
    deferred_private: bool = False,
) -> int | None:
    """Show ``reply``: the first response, or after a deferral an edit or a follow-up. Returns
    the id of the message that shows it, when known."""
    view = build_view(reply)
    base: dict[str, Any] = {"allowed_mentions": _mentions(reply)}
    replace = component and reply.edit and not reply.ephemeral
    if not interaction.response.is_done():
        return await _respond(interaction, reply, view, base, replace=replace)
    retract = not component and reply.ephemeral and not deferred_private
    if replace or not (component or retract):
        # A deferred component edits its message; a deferred command resolves its "thinking"
        # message (whose visibility was fixed by the deferral).
        message = await interaction.edit_original_response(
            content=_content(reply), attachments=_files(reply), view=view, **base
        )
        return message.id
    extra = _new_message_extras(reply, view)
    if retract:
        # A refusal after a public "thinking" message, whose visibility cannot change: while it
        # is pending, a follow-up would only edit it. Complete it, answer privately, take it
        # back.
        await interaction.edit_original_response(content=_content(reply), **base)
        await interaction.followup.send(_content(reply), ephemeral=True, **extra, **base)
        await interaction.delete_original_response()
        return None
    followup = await interaction.followup.send(
        _content(reply), ephemeral=reply.ephemeral, wait=True, **extra, **base
    )
    return followup.id


async def _respond(
    interaction: discord.Interaction[Any],
    reply: Reply,
    view: discord.ui.View | None,
    base: dict[str, Any],
    *,
    replace: bool,
) -> int | None:
    """The first response: the pressed message edited, or a new message."""
    if replace:
        await interaction.response.edit_message(
            content=_content(reply), attachments=_files(reply), view=view, **base
        )
        return interaction.message.id if interaction.message is not None else None
    extra = _new_message_extras(reply, view)
    sent = await interaction.response.send_message(
        _content(reply), ephemeral=reply.ephemeral, **extra, **base
    )
    return sent.message_id if sent is not None else None


def _new_message_extras(reply: Reply, view: discord.ui.View | None) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    files = _files(reply)
    if files:
        extra["files"] = files
    if view is not None:
        extra["view"] = view
    return extra


async def apologize(interaction: discord.Interaction[Any]) -> None:
    """Tell the player, privately, that something broke on our side. Never raises."""
    text = t("discord.apology", language(str(interaction.locale)))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send the apology for interaction %s", interaction.id)


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Log an unexpected error with its context and apologize to the player."""
    metrics.error()
    original = getattr(error, "original", error)
    log.error(
        "%s failed (user %s, channel %s)",
        _what(interaction),
        interaction.user.id,
        interaction.channel_id,
        exc_info=original,
    )
    await apologize(interaction)

"""From an interaction to the service and back: who acts where, off the event loop, and the
service's :class:`~bot.service.Reply` shown as a Discord message.

Discord wants every interaction acknowledged within 3 seconds. The service usually answers in a
few milliseconds, but it may block (database, picture, the computer thinking), so it always runs
in a thread; :func:`answer` waits for it ``bot.defer_after`` seconds at most, then defers and
sends the reply when it comes. Answering directly when the work is fast saves a round trip, and
lets a refusal be ephemeral even for a command whose success is public. When the work cannot
start at once (every thread of its pool is taken: the process is saturated), it defers at once:
the player sees the loading state immediately instead of nothing for up to a second.

Discord takes the first response only within 3 seconds of the interaction's creation, which its
id (a snowflake) carries. An interaction that reaches the bot too late to be answered (a gateway
outage, a stalled event loop) is not acted upon: acting would change the game while the player
is told "This interaction failed". One whose answer is refused all the same after acting (its
window passed meanwhile) has its game's message brought up to date through the channel. Both
are warnings in the log, not errors.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import replace
from io import BytesIO
from typing import Any, Literal

import discord

from bot import heavy
from bot.discord_app.components import build_view
from bot.discord_app.events import tournament_events
from bot.discord_app.polls import end_poll, post_poll
from bot.discord_app.progress import ProgressEdits
from bot.discord_app.together import (
    board_sent,
    can_open_threads,
    open_game_thread,
    open_match_thread,
    remember_board,
    retire_board,
    send_posts,
    send_to_channel,
)
from bot.i18n import language, t
from bot.ops import metrics
from bot.service import Actor, Reply, Where

__all__ = ["answer", "apologize", "deliver", "report_error", "user_actor", "who"]

log = logging.getLogger(__name__)

MAX_CONTENT = 2000
# Discord's window for the first response to an interaction, from its creation, and the part
# of it kept for the response's own trip to Discord (and for clocks a little apart).
RESPONSE_WINDOW = 3.0
RESPONSE_MARGIN = 0.75
# What Discord answers for a response past its window: Unknown Interaction (the initial
# response), Unknown Webhook / Invalid Webhook Token (a follow-up or an edit of the original).
_EXPIRED = (10062, 10015, 50027)


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
        ordinary interactions; ``key``: requests with the same key share one computation.
    A command's progress lines edit its "thinking" message (:class:`ProgressEdits`).
    """
    started = time.perf_counter()
    late = time_left(interaction) <= 0
    _SKEW.observe(_age(interaction))
    if late:
        _too_late(interaction)
        return
    edits = ProgressEdits(interaction, enabled=not component)
    work, patience = await _start(interaction, edits.wrap(call), analysis, key, component, private)
    if work is None:  # refused at once: the lane is full, or this person sent too many
        return
    try:
        deferred = await _defer_if_slow(interaction, work, patience, component, private)
        reply = await work
        await edits.close()  # no progress line may land after the answer
        await _show(interaction, reply, component=component, private=private)
    except discord.HTTPException as error:
        if error.code not in _EXPIRED:
            raise
        await _refused_late(interaction, work, error, component=component)
        return
    kind = "analysis" if analysis else "ordinary"
    _record(interaction, kind, reply, time.perf_counter() - started, deferred, private)


def time_left(interaction: discord.Interaction[Any]) -> float:
    """Seconds left, by the bot's clock, to start answering ``interaction`` safely: its
    creation (in its id) plus Discord's window, less the margin and less how far the bot's
    clock seems ahead of Discord's; zero or less: too late."""
    window: float = getattr(interaction.client, "response_window", RESPONSE_WINDOW)
    return window - RESPONSE_MARGIN - (_age(interaction) - _SKEW.ahead())


class ClockSkew:
    """How far the bot's clock runs ahead of Discord's, from the interactions seen lately.

    An interaction reaches the bot a few tens of milliseconds after Discord made it, so the
    youngest age among the last ones is the clock's lead (plus that trip). Without it, a clock
    set a few seconds fast would make every interaction look too late and the bot would answer
    nothing at all; with it, only an interaction held back longer than its fellows is. A clock
    behind Discord's needs nothing: Discord's refusal of a late answer is handled anyway.
    """

    def __init__(self, seen: int = 32) -> None:
        self._ages: deque[float] = deque(maxlen=seen)

    def observe(self, age: float) -> None:
        """One interaction's age by the bot's clock, as it arrived."""
        self._ages.append(age)

    def ahead(self) -> float:
        """Seconds the clock is ahead, never less than 0 (0 before any interaction)."""
        return max(0.0, min(self._ages, default=0.0))


_SKEW = ClockSkew()


def _age(interaction: discord.Interaction[Any]) -> float:
    created = discord.utils.snowflake_time(interaction.id)
    return (discord.utils.utcnow() - created).total_seconds()


def _too_late(interaction: discord.Interaction[Any]) -> None:
    """An interaction that came too late to be answered: nothing is done, and Discord tells
    the player that the interaction failed; a press can simply be made again."""
    log.warning(
        "%s by %s arrived %.2f s after it was made, too late to be answered: not acted upon",
        _what(interaction),
        interaction.user.id,
        _age(interaction),
    )


async def _defer_if_slow(
    interaction: discord.Interaction[Any],
    work: asyncio.Future[Reply],
    patience: float,
    component: bool,
    private: bool,
) -> bool:
    """Defer unless the work is done within ``patience`` (see :func:`_start`; and within the
    time left to answer at all): none at all when the work cannot start at once (every thread
    of its pool taken): the player sees Discord's "thinking" state now rather than nothing.
    Whether it deferred."""
    budget = min(patience, time_left(interaction))
    if budget > 0:
        await asyncio.wait({work}, timeout=budget)
    if work.done():
        return False
    if component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(thinking=True, ephemeral=private)
    return True


async def _refused_late(
    interaction: discord.Interaction[Any],
    work: asyncio.Future[Reply],
    error: discord.HTTPException,
    *,
    component: bool,
) -> None:
    """Discord refused the answer as too late, the action being done (or under way): the
    player saw "This interaction failed" but the game moved on. Its message is brought up to
    date through the channel, so that its buttons are those of the game as it is; no apology
    (it would say that nothing changed)."""
    reply = await work
    log.warning(
        "%s by %s was answered too late (Discord: %s %s): its message is updated instead",
        _what(interaction),
        interaction.user.id,
        error.status,
        error.code,
    )
    if reply.ephemeral:
        return  # a refusal, or a private answer: nothing changed that others see
    client, channel_id = interaction.client, interaction.channel_id
    if component and reply.edit:
        pressed = interaction.message
        if pressed is not None and not pressed.flags.ephemeral:  # a /watch board: only his
            await _edit_message(pressed, reply)
    elif channel_id is not None:
        await send_to_channel(client, channel_id, reply)  # a new board: posted after all
    for extra in reply.followups:  # a tournament's next boards: in their threads or channel
        target = extra.channel_id or channel_id
        if target is not None and not await open_match_thread(client, target, extra):
            await send_to_channel(client, target, extra)
    await send_posts(client, reply)


async def _edit_message(message: discord.Message, reply: Reply) -> None:
    """The pressed message edited through its channel (the interaction's token is of no use
    any more); only logged when Discord refuses it."""
    try:
        await message.edit(
            content=_content(reply),
            attachments=_files(reply),
            view=build_view(reply),
            allowed_mentions=_mentions(reply),
        )
    except discord.HTTPException:
        log.warning("could not update message %s after a late answer", message.id)


async def _show(
    interaction: discord.Interaction[Any], reply: Reply, *, component: bool, private: bool
) -> None:
    """Show the reply: in the game's new thread when it opens one, else where it was asked;
    then the turn ping, the messages for other channels and the follow-ups."""
    former = None
    if not await open_game_thread(interaction, reply, component=component):
        message_id = await deliver(
            interaction, reply, component=component, deferred_private=private
        )
        former = await remember_board(interaction, reply, message_id, component=component)
        await _ping(interaction, reply)
        await _consultation(interaction, reply)
    await send_posts(interaction.client, reply)  # a match's result, then what it led to
    await _followups(interaction, reply)
    await tournament_events(interaction, reply)
    await retire_board(interaction, former)  # last: cosmetic, and never in the way


async def _consultation(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """A consultation's vote: the poll after the board, and the poll of the vote the action
    closed ended (``/vote close:true``)."""
    client = interaction.client
    if reply.ends_poll is not None:
        await end_poll(client, reply.channel_id or interaction.channel_id, reply.ends_poll)
    if reply.poll is not None:
        await post_poll(client, interaction.channel_id, reply)


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
) -> tuple[asyncio.Future[Reply] | None, float]:
    """Start ``call`` in its pool: (its future, how long it may take before the interaction is
    acknowledged: ``bot.defer_after``, less or none when crowded, see
    :meth:`heavy.Pools.patience`), or (None, 0) when its pool refused it (the "busy" reply is
    then shown): an analysis lane that is full, or a person who already has as many
    interactions in flight as one may."""
    user = interaction.user.id
    patience: float = getattr(interaction.client, "defer_after", 1.0)
    try:
        if not analysis:
            patience = heavy.POOLS.patience(patience)
            return heavy.POOLS.ordinary_submit(call, user=user), patience
        pool: heavy.HeavyPool = getattr(heavy.POOLS, analysis)
        patience = 0.0 if pool.crowded() else patience
        return pool.submit(call, key=key, user=user), patience
    except heavy.Busy as busy:
        lang = language(str(interaction.locale) if interaction.locale else None)
        refusal = Reply(t(busy.key, lang), ephemeral=True)
        await deliver(interaction, refusal, component=component, deferred_private=private)
        metrics.observe("analysis" if analysis else "ordinary", 0.0, "busy")
        return None, 0.0


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
            sent = await interaction.followup.send(
                _content(extra),
                ephemeral=extra.ephemeral,
                allowed_mentions=_mentions(extra),
                wait=True,
                **_new_message_extras(extra, build_view(extra)),
            )
        except discord.HTTPException:
            log.warning("could not post a follow-up of interaction %s", interaction.id)
            continue
        # A game's board posted here (a match's last board, in its own thread): its board from
        # now on, the former one retired, as a board posted in another channel is.
        await board_sent(client, interaction.channel, extra, sent.id)


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

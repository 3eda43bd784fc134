"""Playing together, the Discord side: whether a thread can be opened here, carrying out the
service's :class:`~bot.service.replies.ThreadPlan` (open a thread from the challenge message,
add both players, post the board there, leave one line in the channel), the messages for other
channels (a result told in the parent channel) and the board message a game's links point to.

Every step that Discord may refuse (no permission, a channel that takes no threads) falls back
to playing where the challenge was made, as if there were no plan.
"""

from __future__ import annotations

import asyncio
import logging
from io import BytesIO
from typing import Any, Literal

import discord

from bot.discord_app.components import build_view
from bot.service import Reply
from bot.service.customid import ChallengeAction, kind_of

__all__ = [
    "board_sent",
    "can_open_threads",
    "open_game_thread",
    "open_match_thread",
    "remember_board",
    "retire_board",
    "send_posts",
    "send_to_channel",
]

log = logging.getLogger(__name__)

THREAD_CHANNELS = (discord.ChannelType.text, discord.ChannelType.news)
ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: correspondence games are slow


def can_open_threads(interaction: discord.Interaction[Any]) -> bool:
    """A server text channel where the bot itself is installed and may open public threads
    and write in them (never a thread, a DM or a user install)."""
    if interaction.guild_id is None:
        return False
    if interaction.is_user_integration() and not interaction.is_guild_integration():
        return False  # installed by the user only: the bot is no member of this server
    channel = interaction.channel
    if channel is None or getattr(channel, "type", None) not in THREAD_CHANNELS:
        return False
    perms = interaction.app_permissions
    return bool(perms.create_public_threads and perms.send_messages_in_threads)


def _mentions(reply: Reply) -> discord.AllowedMentions:
    users = [discord.Object(i) for i in reply.mentions]
    return discord.AllowedMentions(everyone=False, roles=False, users=users or False)


async def open_game_thread(
    interaction: discord.Interaction[Any], reply: Reply, *, component: bool
) -> bool:
    """Carry out ``reply.thread``: True when the game now lives in its thread (the reply was
    posted there), False to show the reply as usual (the press is then acknowledged already:
    :func:`~bot.discord_app.replies.deliver` edits the message)."""
    plan = reply.thread
    message = interaction.message
    if plan is None or not component or reply.ephemeral or message is None:
        return False
    if not interaction.response.is_done():
        await interaction.response.defer()  # opening the thread takes a few requests
    try:
        thread = await message.create_thread(name=plan.name, auto_archive_duration=ARCHIVE_MINUTES)
    except discord.HTTPException as error:  # Forbidden, or a channel without threads
        log.info("no thread for game %s (%s): played in the channel", plan.game_id, error)
        return False
    try:
        board = await _post_in_thread(thread, reply, plan.members)
    except discord.HTTPException as error:
        log.warning("thread of game %s unusable (%s): played in the channel", plan.game_id, error)
        await _delete(thread)
        return False
    parent = message.channel.id
    service = interaction.client.service
    moved = await asyncio.to_thread(service.game_moved, plan.game_id, thread.id, parent, board.id)
    if not moved:  # the game ended meanwhile (it cannot, but say so rather than lose it)
        log.warning("game %s was not moved to its thread %s", plan.game_id, thread.id)
    await interaction.edit_original_response(
        content=plan.intro,
        attachments=[],
        view=None,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    return True


async def _post_in_thread(
    thread: discord.Thread, reply: Reply, members: tuple[int, ...]
) -> discord.Message:
    """Add the players to the thread and post the board there (and the turn line)."""
    for user_id in members:
        await thread.add_user(discord.Object(user_id))
    files = [discord.File(BytesIO(reply.image), reply.image_name)] if reply.image else []
    view = build_view(reply) or discord.utils.MISSING
    board = await thread.send(
        reply.text[:2000], files=files, view=view, allowed_mentions=_mentions(reply)
    )
    if reply.ping:
        await thread.send(reply.ping, allowed_mentions=_mentions(reply))
    return board


async def _delete(thing: discord.Thread | discord.Message) -> None:
    try:
        await thing.delete()
    except discord.HTTPException:
        log.warning("could not remove the unusable %s %s", type(thing).__name__, thing.id)


async def _channel(client: discord.Client, channel_id: int) -> Any:
    """The channel (from the cache, else asked of Discord); None when it cannot be reached."""
    try:
        return client.get_channel(channel_id) or await client.fetch_channel(channel_id)
    except discord.HTTPException:
        log.warning("cannot reach channel %s", channel_id)
        return None


def _may_open_threads(channel: Any) -> bool:
    """A server text channel where the bot may write, open public threads and write in them
    (when its own member is unknown, Discord's answer decides)."""
    if getattr(channel, "type", None) not in THREAD_CHANNELS:
        return False
    me = channel.guild.me
    if me is None:
        return True
    perms = channel.permissions_for(me)
    return bool(
        perms.send_messages and perms.create_public_threads and perms.send_messages_in_threads
    )


async def open_match_thread(client: discord.Client, channel_id: int, reply: Reply) -> bool:
    """Carry out the ``reply.thread`` of a tournament match posted in ``channel_id``: a line in
    the channel, a thread opened from it with both players added, the board posted there, and
    the game moved into it. True when the match is in its thread (or already was: a restart,
    another process); False to post the board in the channel instead (no permission, Discord
    refusing, threads off: the plan is then None)."""
    plan = reply.thread
    channel = await _channel(client, channel_id) if plan is not None else None
    if plan is None or channel is None or not _may_open_threads(channel):
        return False
    service = client.service  # type: ignore[attr-defined]
    if not await asyncio.to_thread(service.thread_wanted, plan.game_id, channel.id):
        log.info("match game %s has its thread already, or is over", plan.game_id)
        return True
    try:
        intro = await channel.send(plan.intro, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:
        log.info("no thread for game %s (%s): played in the channel", plan.game_id, error)
        return False
    thread = await _thread_from(intro, plan.name, plan.game_id)
    board = await _board_in(thread, reply, plan.members) if thread else None
    if thread is None or board is None:
        await _delete(intro)
        return False
    moved = await asyncio.to_thread(
        service.game_moved, plan.game_id, thread.id, channel.id, board.id
    )
    if not moved:  # another process opened the match's thread first: keep only that one
        log.warning("game %s has a thread already: %s removed", plan.game_id, thread.id)
        await _delete(thread)
        await _delete(intro)
    return True


async def _thread_from(message: discord.Message, name: str, game_id: int) -> discord.Thread | None:
    try:
        return await message.create_thread(name=name, auto_archive_duration=ARCHIVE_MINUTES)
    except discord.HTTPException as error:  # Forbidden, or a channel without threads
        log.info("no thread for game %s (%s): played in the channel", game_id, error)
        return None


async def _board_in(
    thread: discord.Thread, reply: Reply, members: tuple[int, ...]
) -> discord.Message | None:
    """The players added and the board posted in the new thread; None (and the thread removed)
    when Discord refuses."""
    try:
        return await _post_in_thread(thread, reply, members)
    except discord.HTTPException as error:
        log.warning("thread %s unusable (%s): played in the channel", thread.id, error)
        await _delete(thread)
        return None


async def send_to_channel(client: discord.Client, channel_id: int, reply: Reply) -> bool:
    """``reply`` as a new message in ``channel_id`` (its picture, buttons and the mentions it
    names); False, logged, when it cannot be posted."""
    channel = await _channel(client, channel_id)
    if not isinstance(channel, discord.abc.Messageable):
        return False
    files = [discord.File(BytesIO(reply.image), reply.image_name)] if reply.image else []
    view = build_view(reply) or discord.utils.MISSING
    try:
        message = await channel.send(
            reply.text[:2000], files=files, view=view, allowed_mentions=_mentions(reply)
        )
    except discord.HTTPException:
        log.warning("could not post in channel %s", channel_id)
        return False
    await board_sent(client, channel, reply, message.id)
    return True


def _is_board(reply: Reply) -> bool:
    """Whether ``reply`` shows a game's board to everyone here (not a player's menu)."""
    return reply.game_id is not None and not reply.ephemeral and not reply.menu


async def board_sent(client: discord.Client, channel: Any, reply: Reply, message_id: int) -> None:
    """A board the bot posted on its own (a timer's claim, a team's vote, a late answer, a
    tournament's next match) is the game's board in this channel from now on, as a command's
    is (:func:`remember_board`), and the one before it loses its buttons. Cosmetic: a failure
    is only logged, the message being out already."""
    service = getattr(client, "service", None)
    if not _is_board(reply) or service is None or channel is None:
        return
    try:
        former = await asyncio.to_thread(
            service.board_posted, reply.game_id, channel.id, message_id
        )
    except Exception:  # the database unreachable: the links keep the older board
        log.warning("could not record the board of game %s", reply.game_id, exc_info=True)
        return
    await _take_buttons_off(channel, former)


async def remember_board(
    interaction: discord.Interaction[Any],
    reply: Reply,
    message_id: int | None,
    *,
    component: bool,
) -> int | None:
    """A game's board posted as a new message (a command, an accepted challenge, a rematch):
    its links point there from now on. A press that edits its board changes nothing. Returns
    the message that was the board before, whose buttons :func:`retire_board` takes off."""
    if not _is_board(reply) or message_id is None:
        return None  # a player's menu is no board: the board and its buttons stay
    custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
    if component and reply.edit and kind_of(custom_id) is not ChallengeAction:
        return None
    channel_id = interaction.channel_id
    if channel_id is None:
        return None
    service = interaction.client.service
    return await asyncio.to_thread(service.board_posted, reply.game_id, channel_id, message_id)


async def retire_board(interaction: discord.Interaction[Any], message_id: int | None) -> None:
    """The former board: its buttons off, its picture kept. Cosmetic, so it comes after
    everything the reply does (the ping, the posts), and no failure of it goes further."""
    await _take_buttons_off(interaction.channel, message_id)


async def _take_buttons_off(channel: Any, message_id: int | None) -> None:
    partial = getattr(channel, "get_partial_message", None)  # not a group DM
    if message_id is None or partial is None:
        return
    try:
        await partial(message_id).edit(view=None)
    except Exception:  # deleted meanwhile, not the bot's to edit, or Discord unreachable
        log.info("could not take the buttons off message %s", message_id, exc_info=True)


async def send_posts(client: discord.Client, reply: Reply) -> None:
    """The reply's messages for other channels; one that cannot be posted is only logged."""
    for post in reply.posts:
        try:
            channel = client.get_channel(post.channel_id) or await client.fetch_channel(
                post.channel_id
            )
            if isinstance(channel, discord.abc.Messageable):
                quiet = discord.AllowedMentions.none()
                await channel.send(post.text[:2000], allowed_mentions=quiet)
        except discord.HTTPException:
            log.warning("could not post in channel %s", post.channel_id)

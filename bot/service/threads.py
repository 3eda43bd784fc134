"""A thread per game: the server setting (``/server``), the plan the adapter carries out when a
challenge is accepted (open a thread from the challenge message, add both players, play there,
leave one line in the channel), where the game went, and its result told in the channel the
thread was opened from. Nothing here knows Discord: the adapter opens the thread, or shows the
board where it is when it cannot."""

from __future__ import annotations

from bot.i18n import t
from bot.service.deps import Deps, answers, shared_lang
from bot.service.model import WON, Table
from bot.service.people import Actor, Where
from bot.service.refusal import Refusal
from bot.service.replies import Post, Reply, ThreadPlan
from bot.service.tables import seat_names
from db import together as together_repo
from db.models import Game as GameRow
from db.models import GameStatus

__all__ = ["GameThreads", "game_link", "result_posts", "thread_plan"]

MAX_THREAD_NAME = 100  # Discord's limit


def game_link(guild_id: int | None, channel_id: int | None, message_id: int | None) -> str | None:
    """The link that opens a game's message (or its channel when the message is unknown)."""
    if channel_id is None:
        return None
    place = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{place}/{message_id}" if message_id else place


def thread_plan(deps: Deps, where: Where, table: Table, lang: str) -> ThreadPlan | None:
    """The thread a new game between two people gets, where one can be opened and the server
    wants it (the default); None to play where the challenge was made."""
    if not where.threads or where.guild_id is None or table.against_computer:
        return None
    with deps.unit() as s:
        if not together_repo.threads_on(s, where.guild_id):
            return None
    p0, p1 = seat_names(table, lang)
    name = t("thread.name", lang, id=table.game_id, p0=p0, p1=p1)[:MAX_THREAD_NAME]
    members = tuple(seat.user_id for seat in table.seats if seat.user_id is not None)
    intro = t("thread.intro", lang, id=table.game_id, p0=p0, p1=p1)
    return ThreadPlan(table.game_id, name, members, intro)


def result_posts(row: GameRow, table: Table, lang: str) -> list[Post]:
    """The one-line result for the channel a game's thread was opened from, once it is over."""
    if row.parent_channel_id is None or row.status is GameStatus.ACTIVE:
        return []
    p0, p1 = seat_names(table, lang)
    winner = row.winner if row.winner is not None else 0
    names = (p0, p1)
    if table.match.length:
        a, b = table.match.score
        text = t(
            "thread.result_match",
            lang,
            id=row.id,
            name=names[winner],
            other=names[1 - winner],
            a=max(a, b),
            b=min(a, b),
        )
    else:
        result = table.game.result
        key = WON[result.value] if result else "game.won_single"
        text = t(
            "thread.result",
            lang,
            id=row.id,
            p0=p0,
            p1=p1,
            result=t(key, lang, name=names[winner], points=row.points or 0),
        )
    return [Post(row.parent_channel_id, text)]


class GameThreads:
    """``/server`` and the adapter's report of a game moved into its thread."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    @answers
    def server_command(self, actor: Actor, where: Where, *, threads: bool | None = None) -> Reply:
        """``/server [threads]``: show or change this server's settings (managers only)."""
        with self.deps.unit() as s:
            lang = shared_lang(self.deps.who(s, actor), where)
            if where.guild_id is None:
                raise Refusal("server.not_here")
            saved = threads is not None
            if saved:
                if not where.manager:
                    raise Refusal("server.not_manager")
                together_repo.set_threads(s, where.guild_id, bool(threads), now=self.deps.clock())
            on = together_repo.threads_on(s, where.guild_id)
        text = t("server.text", lang, threads=t("settings.on" if on else "settings.off", lang))
        if saved:
            text = t("settings.saved", lang) + "\n" + text
        return Reply(text=text, ephemeral=True)

    def game_moved(self, game_id: int, thread_id: int, parent_id: int, message_id: int) -> bool:
        """The adapter opened the game's thread and posted its board there: from now on the
        game lives in the thread (its commands, its timers). False if it ended meanwhile."""
        with self.deps.unit() as s:
            return together_repo.move_to_thread(
                s, game_id, thread_id=thread_id, parent_id=parent_id, message_id=message_id
            )

    def thread_wanted(self, game_id: int, channel_id: int) -> bool:
        """Whether a tournament match (or any game) shown in ``channel_id`` still waits for its
        thread: active, still in that channel, never moved. False after it went to a thread,
        so that no restart and no second process opens a second one."""
        with self.deps.unit() as s:
            row = s.get(GameRow, game_id)
            return bool(
                row is not None
                and row.status is GameStatus.ACTIVE
                and row.channel_id == channel_id
                and row.parent_channel_id is None
            )

    def board_posted(self, game_id: int, channel_id: int, message_id: int) -> int | None:
        """The adapter posted a game's board as a new message: turn notices and ``/games``
        link to it. Returns the message that was the game's board in that channel before,
        if another: its buttons would only be refused as out of date now, so the adapter
        takes them off (the board picture stays, a record of the game)."""
        with self.deps.unit() as s:
            return together_repo.set_board_message(s, game_id, channel_id, message_id)

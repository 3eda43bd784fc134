"""What every use case shares: the session factory, the clock, the settings and the dice
(:class:`Deps`; pictures are drawn by :mod:`bot.service.present`); the acting person as stored
(:class:`Who`); and :func:`answers`, which turns a refusal into a private reply in the person's
language.

The language of a refusal is the one :meth:`Deps.who` found while the action ran: the use case
reads the player's row in its own unit of work anyway, so the refusal needs no second session.
A database outage (:class:`~db.errors.DatabaseUnavailable`) is answered the same way, with
"the database is unavailable, try again": its unit of work was rolled back as a whole.
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Concatenate, ParamSpec, Protocol, TypeVar

from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from bot.dice import GameDice
from bot.i18n import Text, error_text, language, t
from bot.service.model import Table
from bot.service.people import Actor, Prefs, Where
from bot.service.refusal import Refusal
from bot.service.replies import Reply
from db import notify
from db import players as player_repo
from db.errors import DatabaseUnavailable, GameMovedOn, GameNotFound
from db.games import GameResult as StoredResult
from db.models import Game as GameRow
from db.types import utcnow
from engine import BackgammonError, Match

__all__ = [
    "Deps",
    "GameChanged",
    "GameEndSubscriber",
    "GameEnded",
    "GameSaveHook",
    "Settings",
    "WebPages",
    "Who",
    "answers",
    "refusal_text",
    "shared_lang",
]

log = logging.getLogger(__name__)

P = ParamSpec("P")
S = TypeVar("S")


@dataclass(frozen=True)
class Settings:
    """Service settings (see :mod:`bot.config` for the environment variables)."""

    challenge_ttl: timedelta = timedelta(minutes=15)
    move_timeout: timedelta = timedelta(hours=24)
    max_match_length: int = 25
    organizer_role: str | None = None  # tournaments: a role (name or id) that may organize
    # Against floods of challenges (each one mentions its target): a pause between two
    # challenges of one person, and a cap on those waiting for an answer.
    challenge_cooldown: timedelta = timedelta(seconds=10)
    max_pending_challenges: int = 5
    puzzle_min_error: float = 0.050  # a reviewed decision losing this much becomes a puzzle
    review_finished_games: bool = False  # the sweep reviews finished games (the bot: True)
    # On PostgreSQL, tell the other bot processes each game an action changed (their web
    # pages are live too): set when the web board is on (WEB_PORT).
    announce_games: bool = False


@dataclass
class Who:
    """The acting person as stored: his preferences and the language to answer him in."""

    actor: Actor
    prefs: Prefs
    lang: str


# The language the running action found for its actor (set by Deps.who, read by answers).
_found_lang: ContextVar[list[str] | None] = ContextVar("_found_lang", default=None)


@dataclass(frozen=True)
class GameEnded:
    """A match ended: handed to each subscriber of :attr:`Deps.game_end`, in the unit of work
    that ended it, with the match as it was just saved (no second load) and its stored result
    (None when the row had already ended, e.g. a game expired before)."""

    row: GameRow
    match: Match
    result: StoredResult | None


GameEndSubscriber = Callable[[Session, GameEnded], list[Reply]]
"""Told in the unit of work that ends a match (a tournament records the result); returns the
messages to post in their own right once that unit commits (the caller adds them to its
reply's follow-ups, or to its notices)."""
GameChanged = Callable[[int], None]
"""Told a game's id once the unit of work that changed its row has committed (a move, a roll,
an answer, its end, its creation), from the thread that ran the action: the web board tells
its open pages. It must return at once (hand the news to its own loop) and never raise."""
GameSaveHook = Callable[[Session, GameRow, Table], None]
"""Called before a game's new state is written, the row still holding the old one (a
tournament's clock charges the time the player took)."""


class WebPages(Protocol):
    """The web board's addresses (:class:`bot.web.links.Links`), while it is on."""

    def game_url(self, game_id: int, *, at: int | None = None) -> str: ...

    def player_url(self, game_id: int, user_id: int) -> str: ...


@dataclass
class Deps:
    """The dependencies of every use case.

    :param factory: SQLAlchemy session factory (``db.connection.make_session_factory``).
    :param clock: the current time (tests pass a fake clock).
    :param new_dice: a fresh dice source for a new game (tests pass scripted ones).
    :param dice_for: the dice source of a stored game from its seed and counter.
    """

    factory: sessionmaker[Session]
    settings: Settings = field(default_factory=Settings)
    clock: Callable[[], datetime] = utcnow
    new_dice: Callable[[], GameDice] = GameDice.fresh
    dice_for: Callable[[bytes, int], GameDice] = GameDice
    # Subscribed in one place, the composition root (bot.service.facade).
    game_end: list[GameEndSubscriber] = field(default_factory=list)
    game_saving: list[GameSaveHook] = field(default_factory=list)
    game_changed: list[GameChanged] = field(default_factory=list)
    # This service's name in the news it sends other processes (it skips its own news).
    origin: str = field(default_factory=lambda: secrets.token_hex(6))
    # The web board's addresses while it is on (bot.web sets them): replies then carry a
    # game's link (Deps.web_line).
    web: WebPages | None = None

    def __post_init__(self) -> None:
        # Which games a unit of work wrote, noted at each flush (see _note_games), told to the
        # subscribers of game_changed once it has committed.
        if isinstance(self.factory, sessionmaker) and not event.contains(
            self.factory, "after_flush", _note_games
        ):
            event.listen(self.factory, "after_flush", _note_games)

    @contextmanager
    def unit(self) -> Iterator[Session]:
        """One unit of work: commits at the end, rolls back on any error. Once it has
        committed, the games it wrote are told to :attr:`game_changed`."""
        try:
            with self.factory.begin() as session:
                info = session.info
                yield session
                if self.settings.announce_games:
                    session.flush()  # what commit would flush: the games it writes, noted
                    notify.announce(session, self.origin, info.get(_CHANGED, ()))
        except StaleDataError:
            # A write outside the repositories (a column set on the row) lost the race at commit.
            raise GameMovedOn(0) from None
        self._tell_changed(info.pop(_CHANGED, set()))

    @staticmethod
    def mark_changed(session: Session, game_id: int) -> None:
        """Count game ``game_id`` as changed by this unit of work though no ORM flush wrote
        its row (a column written by a statement of its own: a kept review), so that the
        open pages hear of it as of any other change, in this process and in the others."""
        session.info.setdefault(_CHANGED, set()).add(game_id)

    def _tell_changed(self, game_ids: set[int]) -> None:
        """Tell :attr:`game_changed` these games changed (their unit of work has committed)."""
        for game_id in sorted(game_ids):
            for listener in self.game_changed:
                try:
                    listener(game_id)
                except Exception:  # a listener's failure never costs the committed action
                    log.exception("a game-changed listener failed")

    def web_url(self, game_id: int | None, user_id: int | None = None) -> str | None:
        """The web page of a game, when the web board is on: the page anyone may watch, or
        with ``user_id`` (a reply only he sees) his private link; None without one."""
        if self.web is None or game_id is None:
            return None
        if user_id is None:
            return self.web.game_url(game_id)
        return self.web.player_url(game_id, user_id)

    def web_line(self, game_id: int | None, lang: str, user_id: int | None = None) -> str:
        """``Web board: <url>`` on a line of its own (after a newline), or "" without the web
        board."""
        url = self.web_url(game_id, user_id)
        return "" if url is None else "\n" + t("web.link_line", lang, url=url)

    def who(self, s: Session, actor: Actor) -> Who:
        """The acting person's row (created on his first action), his settings and language;
        a refusal raised later in this action is told in that language."""
        row = player_repo.ensure_player(s, actor.id, actor.name[:100], now=self.clock())
        prefs = Prefs.from_json(row.preferences)
        found = Who(actor, prefs, actor.lang(prefs))
        box = _found_lang.get()
        if box is not None:
            box.append(found.lang)
        return found

    def dice(self, row: GameRow) -> GameDice:
        """The dice of a stored game, where it left them."""
        assert row.dice_seed is not None
        return self.dice_for(bytes.fromhex(row.dice_seed), row.dice_counter)

    def language_of(self, actor: Actor) -> str:
        """The person's language, read on its own for a reply that needs nothing else from the
        database (rules, help)."""
        with self.unit() as s:
            row = player_repo.get_player(s, actor.id)
            prefs = Prefs.from_json(row.preferences if row else None)
        return actor.lang(prefs)


_CHANGED = "bg_changed_games"


def _note_games(session: Session, _context: object) -> None:
    """After a flush: note the games whose rows it wrote (in the session's ``info``)."""
    for row in (*session.new, *session.dirty):
        if isinstance(row, GameRow) and row.id is not None:
            session.info.setdefault(_CHANGED, set()).add(row.id)


def shared_lang(who: Who, where: Where) -> str:
    """Messages many people see follow the server's language; DMs the player's."""
    if where.guild_id is not None and where.guild_locale:
        return language(where.guild_locale)
    return who.lang


def answers(
    method: Callable[Concatenate[S, Actor, P], Reply],
) -> Callable[Concatenate[S, Actor, P], Reply]:
    """Run one action of a use case (an object with ``deps``); turn every refusal into a
    private reply that changed nothing, in the language the action found for its actor (read
    from the database only when it stopped before reading him)."""

    @functools.wraps(method)
    def run(self: S, actor: Actor, /, *args: P.args, **kwargs: P.kwargs) -> Reply:
        box: list[str] = []
        token = _found_lang.set(box)
        try:
            reply = method(self, actor, *args, **kwargs)
            reply.draw_later()  # the action's units of work have ended
            return reply
        except (Refusal, BackgammonError, GameMovedOn, GameNotFound, DatabaseUnavailable) as error:
            return Reply(
                text=refusal_text(error, _refusal_lang(self, actor, box, error)), ephemeral=True
            )
        finally:
            _found_lang.reset(token)

    return run


def _refusal_lang(owner: object, actor: Actor, found: list[str], error: Exception) -> str:
    """The language to refuse in: the one the action found for its actor; else his row's, read
    now (a malformed button stops before reading him); else, when the database is what failed,
    his client's (asking the database again would fail too)."""
    if isinstance(error, DatabaseUnavailable):
        # Rolled back as a whole: nothing to undo, but worth a trace in the log.
        log.warning("database unavailable", exc_info=error)
    if found:
        return found[0]
    deps = getattr(owner, "deps", None)
    if deps is not None and not isinstance(error, DatabaseUnavailable):
        try:
            lang: str = deps.language_of(actor)
            return lang
        except DatabaseUnavailable:
            log.warning("database unavailable", exc_info=True)
    return language(actor.locale)


def refusal_text(error: Exception, lang: str) -> str:
    """What a refused action tells its actor."""
    if isinstance(error, Refusal):
        return error.text.render(lang)
    if isinstance(error, DatabaseUnavailable):
        return Text("error.database_unavailable").render(lang)
    if isinstance(error, GameMovedOn):
        return Text("error.moved_on").render(lang)
    if isinstance(error, GameNotFound):
        return Text("error.no_such_game", id=error.game_id).render(lang)
    return error_text(error, lang)

"""A stored game as the use cases see it: its row loaded into a :class:`Table`, the names of
its seats in a reader's language, and :func:`seated`, the preamble of every action on a game
(the acting person, the language, the row, the table, his seat)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from bot.i18n import LANGUAGES, t
from bot.service.deps import Deps, Who, shared_lang
from bot.service.model import Seat, Table
from bot.service.people import Actor, Prefs, Where
from bot.service.refusal import Refusal, aware, check_game_id
from db import games as game_repo
from db import players as player_repo
from db import together as together_repo
from db import tournaments as tournament_repo
from db.errors import GameNotFound
from db.gamestate import load_match
from db.models import Game as GameRow
from db.models import GameStatus
from engine import Phase
from engine.bots import LEVELS

__all__ = [
    "Seated",
    "current_game",
    "is_computer_name",
    "load_table",
    "localized",
    "no_game_here",
    "own_game",
    "prefs_of",
    "seat_names",
    "seated",
]


def load_table(deps: Deps, s: Session, row: GameRow) -> Table:
    """The game of ``row`` with its players' names, as one action needs it."""
    seats = []
    for seat in (0, 1):
        pid = row.player_id(seat)
        if pid is None:
            level = row.computer_level or "expert"
            seats.append(Seat(name=t("computer.name", "en", level=level), level=level))
        else:
            player = player_repo.get_player(s, pid)
            seats.append(Seat(name=player.display_name if player else str(pid), user_id=pid))
    revealed = row.dice_seed if row.status is not GameStatus.ACTIVE else None
    late = row.deadline is not None and aware(row.deadline) <= deps.clock()
    match = load_match(row)
    # No claim while a resignation offer waits (see bot.service.timers: it is accepted then).
    late = late and match.game.phase is not Phase.RESIGNED
    return Table(
        row.id,
        row.version,
        (seats[0], seats[1]),
        match,
        row.rated,
        row.dice_commitment,
        revealed,
        out_of_time=late and row.status is GameStatus.ACTIVE,
        tournament=_in_tournament(s, row),
    )


def _in_tournament(s: Session, row: GameRow) -> bool:
    """Whether ``row`` is a tournament's match (only people play them, in a server): read with
    the row by the loaders of an action (:func:`db.games.get_game`), asked on its own only when
    the row came from another query."""
    if row.computer_level is not None or row.guild_id is None:
        return False
    if row.in_tournament is not None:
        return row.in_tournament
    return tournament_repo.match_of_game(s, row.id) is not None


def seat_names(table: Table, lang: str) -> tuple[str, str]:
    """The two players' names in ``lang`` (the computer's name says its level)."""
    names = [
        t("computer.name", lang, level=t(f"level.{seat.level}", lang))
        if seat.is_computer
        else seat.name
        for seat in table.seats
    ]
    return names[0], names[1]


def is_computer_name(name: str) -> bool:
    """Whether ``name`` reads as the computer's, in either language: a person by that name
    would sit at a table as "Computer (intermediate) vs Computer (intermediate)".

    >>> [is_computer_name(n) for n in ("computer (EXPERT)", "Ordinateur", "Ann")]
    [True, True, False]
    """
    folded = " ".join(name.split()).casefold()
    for lang in LANGUAGES:
        word = t("computer.name", lang, level="").split("(")[0].strip().casefold()
        levels = {t(f"level.{level}", lang) for level in LEVELS} | set(LEVELS)
        names = {t("computer.name", lang, level=level).casefold() for level in levels}
        if folded == word or folded in names:
            return True
    return False


def localized(table: Table, lang: str) -> Table:
    """``table`` with its seats named in ``lang``."""
    names = seat_names(table, lang)
    s0, s1 = (Seat(n, s.user_id, s.level) for n, s in zip(names, table.seats, strict=True))
    return replace(table, seats=(s0, s1))


def prefs_of(s: Session, table: Table) -> tuple[Prefs, Prefs]:
    """The settings of both players (the computer's are the defaults)."""
    out = []
    for seat in table.seats:
        if seat.user_id is None:
            out.append(Prefs())
        else:
            row = player_repo.get_player(s, seat.user_id)
            out.append(Prefs.from_json(row.preferences if row else None))
    return out[0], out[1]


def current_game(s: Session, actor: Actor, where: Where) -> GameRow | None:
    """The actor's game in progress here: the one whose board he was shown last
    (:attr:`Where.focus`, the terminal's) while he plays it and it goes on, else his active
    game in this channel (one at most). A tournament's match played outside the channel (its
    player had a game there) is reached by its board, ``/board game:N``."""
    if where.focus is not None:
        try:
            row = game_repo.get_game(s, where.focus)
        except GameNotFound:
            row = None
        playing = row is not None and row.seat_of(actor.id) is not None
        if row is not None and playing and row.status is GameStatus.ACTIVE:
            return row
    return game_repo.active_game_in_channel(s, where.channel_id, player_id=actor.id)


def no_game_here(s: Session, actor: Actor, where: Where) -> Refusal:
    """No game of the actor's here: the refusal points to his game in progress elsewhere (a
    tournament's match played outside the channel), if any, else to starting one. A DM is
    no channel, and only /play starts a game there."""
    dm = "_dm" if where.is_dm else ""
    elsewhere = together_repo.player_active_games(s, actor.id)
    if elsewhere:
        return Refusal(f"error.no_game_here_elsewhere{dm}", id=elsewhere[0].id)
    return Refusal(f"error.no_game_here{dm}")


def own_game(deps: Deps, s: Session, actor: Actor, game_id: int) -> GameRow:
    """Game ``game_id`` for one of its players, in progress (``/board game:N``); refused with
    the way to it otherwise: ``/watch`` for someone else's, ``/review`` for a finished one."""
    try:
        row = game_repo.get_game(s, check_game_id(game_id))
        if row.seat_of(actor.id) is None:
            raise Refusal("error.board_not_yours", id=game_id)
        if row.status is not GameStatus.ACTIVE:
            raise Refusal("error.board_over", id=game_id)
    except (GameNotFound, Refusal):
        deps.who(s, actor)  # the refusal in his language
        raise
    return row


@dataclass
class Seated:
    """One action's view of a game: who acts, the language of the message everyone sees, the
    row, its table and the actor's seat (None for an onlooker)."""

    who: Who
    lang: str
    row: GameRow
    table: Table
    seat: int | None

    @property
    def player_seat(self) -> int:
        """The actor's seat; refused when he does not play this game."""
        if self.seat is None:
            raise Refusal("error.not_your_game")
        return self.seat


def seated(deps: Deps, s: Session, actor: Actor, where: Where, row: GameRow | int) -> Seated:
    """The preamble of an action on a game (``row`` or its id): the actor as stored, the
    shared language, the row, the table and his seat."""
    if isinstance(row, int):
        try:
            row = game_repo.get_game(s, row)
        except GameNotFound:
            deps.who(s, actor)  # the refusal in the person's language
            raise
    # The actor and both seats in one query (the actor is usually one of them).
    player_repo.read_players(s, (actor.id, row.player0_id, row.player1_id))
    who = deps.who(s, actor)
    table = load_table(deps, s, row)
    return Seated(who, shared_lang(who, where), row, table, table.seat_of(actor.id))

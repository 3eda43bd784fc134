"""Playing: starting a game against the computer, and the slash commands on the current game
(``/move``, ``/undo``, ``/board``, ``/resign``), with the move autocomplete and the text
board."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from sqlalchemy.orm import Session

from bot.i18n import LANGUAGES, Text, t
from bot.service.deps import Deps, answers, shared_lang
from bot.service.model import Notes, Seat, Table, UiState
from bot.service.newgame import NewGames, renumbered, xgid_rules_left_out
from bot.service.people import Actor, Prefs, Where
from bot.service.present import board_reply, text_picture
from bot.service.refusal import Refusal
from bot.service.replies import Reply
from bot.service.resigning import check_possible
from bot.service.tables import (
    Seated,
    current_game,
    localized,
    no_game_here,
    own_game,
    seated,
)
from bot.service.threads import result_posts
from bot.service.turns import RESIGN_VALUES, finish, resign_offer
from db import consult as consult_repo
from db.errors import GameNotFound
from db.games import NewGame
from db.gamestate import load_match
from db.models import Game as GameRow
from engine import Game, Match, Phase
from engine.bots import LEVELS

__all__ = ["Games", "VoteMoves", "level_named"]

log = logging.getLogger(__name__)

# Changes the game (or raises a refusal) and says whether it did.
GameCommand = Callable[[Game, int, Notes], bool]


class VoteMoves(Protocol):
    """What ``/move`` asks of a consultation (:class:`bot.service.consult.Consult`, set by
    the service): in its channel a typed play is a vote."""

    def move(self, actor: Actor, /, where: Where, notation: str) -> Reply: ...

    def board(self, actor: Actor, /, where: Where) -> Reply: ...


class TypedDrills(Protocol):
    """What ``/move`` asks of the drills (:class:`bot.service.drills.Drills`, set by the
    service) when the actor has no game here: the answer to his drill due now, if any."""

    def typed(self, actor: Actor, where: Where, notation: str) -> Reply | None: ...


def by_vote(s: Session, row: GameRow) -> Refusal | None:
    """The refusal of a change to a consultation's game (None for another game): the game is
    played by the channel's votes, and how to vote on the decision open now (a cube vote's
    answers by their numbers; a play's by number or typed with ``/move``)."""
    if not consult_repo.played_by_votes(s, row):
        return None
    cons = consult_repo.by_game(s, row.id)
    choices = (cons.choices or []) if cons is not None else []
    if cons is None or cons.kind == "play" or not choices:
        return Refusal("consult.by_vote")
    return cube_vote_refusal("consult.by_vote_cube", choices)


def cube_vote_refusal(key: str, choices: list[str]) -> Refusal:
    """Refused with a cube vote's two answers and their numbers (Take = 1, Pass = 2...)."""
    first, second = choices[:2]
    return Refusal(key, one=Text(f"consult.answer.{first}"), two=Text(f"consult.answer.{second}"))


class Games:
    """``/play`` and the commands on the actor's game in this channel."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.new = NewGames(deps)
        self.consult: VoteMoves | None = None  # a consultation's votes (set by the service)
        self.drills: TypedDrills | None = None  # /move without a game: a drill's answer

    @answers
    def play(
        self,
        actor: Actor,
        where: Where,
        *,
        level: str = "intermediate",
        points: int = 0,
        cube: bool = True,
        position_id: str | None = None,
        match_id: str | None = None,
        variant: str = "standard",
    ) -> Reply:
        """``/play``: a game against the computer (in a variant if asked), in a DM or a channel;
        from a GNU Backgammon
        Position ID (and Match ID) or an XGID to practise a position, the player taking the
        side whose decision it is (on roll, or to take or pass a double), whichever player of
        the IDs that is (see :meth:`NewGames.match`)."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            lang = shared_lang(who, where)
            level_name = level_named(level, who.lang)
            length = self.new.length(points)
            self.new.no_game_here(s, actor.id, where, "error.game_here")
            match = self.new.match(length, cube, position_id, match_id, variant=variant)
            seats = (Seat(actor.name, user_id=actor.id), Seat("", level=level_name))
            table = Table(0, 0, seats, match)
            notes = _new_game_notes(actor, level_name, match, (position_id, match_id))
            new = NewGame(
                player0_id=actor.id,
                player1_id=None,
                computer_level=level_name,
                guild_id=where.guild_id,
                channel_id=where.channel_id,
                practice=bool(position_id),
            )
            self.new.start(s, table, new, notes, (who.prefs, Prefs()), lang)
            prefs = who.prefs
        return board_reply(
            localized(table, lang), lang, notes, mirrored=prefs.mirrored, theme=prefs.theme
        )

    @answers
    def on_current_game(
        self,
        actor: Actor,
        where: Where,
        act: GameCommand,
        *,
        advance: bool = True,
        ui: UiState | Callable[[], UiState] | None = None,
        game_id: int | None = None,
        changes: bool = True,
    ) -> Reply:
        """A command on the actor's game here (:func:`~bot.service.tables.current_game`), or on
        his game ``game_id``: ``act`` changes the game (or raises a refusal) and says whether it
        did; the change is saved in the same unit of work and the board drawn again (with
        ``ui``: the resign menu open)."""
        deps = self.deps
        with deps.unit() as s:
            mine = own_game(deps, s, actor, game_id) if game_id is not None else None
            row = mine or current_game(s, actor, where)
            if row is None:
                deps.who(s, actor)  # the refusal in his language
                raise no_game_here(s, actor, where)
            if changes:
                self._not_by_vote(s, actor, row)
            here = seated(deps, s, actor, where, row)
            seat = here.player_seat
            notes, ended = Notes(), list[Reply]()
            changed = act(here.table.game, seat, notes)
            if changed:
                ended = finish(deps, s, row, here.table, notes, here.lang, advance_game=advance)
            posts = result_posts(row, here.table, here.lang)
        shown = ui() if callable(ui) else ui or UiState()
        reply = _redrawn(here, notes, shown, ping=changed)
        reply.posts = posts
        reply.followups += ended  # what the end of the match posts (a tournament's next boards)
        return reply

    def _not_by_vote(self, s: Session, actor: Actor, row: GameRow) -> None:
        """Refuse a change to a consultation's game: the team's game is played by its votes."""
        refusal = by_vote(s, row)
        if refusal is not None:
            self.deps.who(s, actor)
            raise refusal

    def move(self, actor: Actor, where: Where, notation: str) -> Reply:
        """``/move play:<notation>``: a whole play in standard notation; in a channel where a
        consultation game goes on, a vote for that play (see :mod:`bot.service.consult`);
        without a game here, the answer to the actor's drill due now, if any."""
        route = self._typed_play_route(actor, where)
        if route == "consult" and self.consult is not None:
            return self.consult.move(actor, where, notation)
        if route == "drill" and self.drills is not None:
            answered = self.drills.typed(actor, where, notation)
            if answered is not None:
                return answered

        def act(game: Game, seat: int, notes: Notes) -> bool:
            if game.turn != seat:
                raise Refusal("error.not_your_turn")
            if game.phase is Phase.ROLL:
                raise Refusal("error.roll_first")
            if game.phase is Phase.DOUBLED:  # the player's to answer: say what first
                raise Refusal("error.move_answer_double", value=game.cube_value * 2)
            if game.phase is Phase.RESIGNED:
                raise Refusal("error.move_answer_resignation")
            if game.phase is not Phase.MOVE:
                raise Refusal("error.cannot_move_now")
            play = game.play_text(notation)
            notes.add("note.played_you", name=actor.name, play=str(play))
            return True

        return self.on_current_game(actor, where, act)

    def undo(self, actor: Actor, where: Where, everything: bool = False) -> Reply:
        """``/undo [all]``: take back the last checker moved this turn (all of them)."""

        first_die: int | None = None  # of the earliest step taken back: picked again

        def act(game: Game, seat: int, notes: Notes) -> bool:
            nonlocal first_die
            if game.turn != seat:
                raise Refusal("error.not_your_turn")
            if game.phase is not Phase.MOVE or not game.partial.steps:
                raise Refusal("error.nothing_to_undo")
            first_die = game.undo().die
            while everything and game.partial.steps:
                first_die = game.undo().die
            return True

        def picked() -> UiState:
            return UiState(die=first_die)

        return self.on_current_game(actor, where, act, advance=False, ui=picked)

    def board(self, actor: Actor, where: Where, game_id: int | None = None) -> Reply:
        """``/board [game]``: post the current game again (with working buttons); with
        ``game``, that game of his in progress, wherever it is played (a tournament's match
        played outside this channel, in the terminal a second game); in a consultation's
        channel, the board with its open vote."""
        if game_id is None and self.consult is not None and self._consulting(where):
            return self.consult.board(actor, where)
        return self.on_current_game(
            actor, where, lambda game, seat, notes: False, game_id=game_id, changes=False
        )

    def _typed_play_route(self, actor: Actor, where: Where) -> str:
        """Where a typed play goes, read in one unit: a consultation's vote in its channel, a
        drill's answer for a player without a game here, else the game."""
        with self.deps.unit() as s:
            if self.consult is not None and consult_repo.open_here(s, where.channel_id):
                return "consult"
            if self.drills is not None and current_game(s, actor, where) is None:
                return "drill"
        return "game"

    def _consulting(self, where: Where) -> bool:
        with self.deps.unit() as s:
            return consult_repo.open_here(s, where.channel_id) is not None

    def resign(self, actor: Actor, where: Where, value: int | None = None) -> Reply:
        """``/resign [value]``: offer to resign a single game (1), gammon (2) or backgammon
        (3), in turn or not. Without a value it asks first, as the Resign button does: the
        menu of what the opponent could still win, for the seat of the player who asked."""
        menu: list[UiState] = []

        def act(game: Game, seat: int, notes: Notes) -> bool:
            if game.phase not in (Phase.ROLL, Phase.MOVE):
                raise _no_resignation_now(game, seat)
            if value is None:
                menu.append(UiState(resign_menu=True, resigner=seat))
                return False
            if value not in RESIGN_VALUES:
                raise Refusal("error.resign_value")
            check_possible(game, seat, value)
            game.resign(seat, value)
            notes.add("note.resigns", name=actor.name, offer=resign_offer(value))
            return True

        return self.on_current_game(actor, where, act, ui=lambda: menu[0] if menu else UiState())

    def autocomplete_moves(self, actor: Actor, where: Where, typed: str) -> list[str]:
        """Up to 25 legal plays of the current roll that match what is typed (prefix or
        substring, spaces ignored). Never raises: autocomplete must answer fast and quietly."""
        try:
            with self.deps.unit() as s:
                row = current_game(s, actor, where)
                if row is None:
                    return []
                match = load_match(row)
                seat = row.seat_of(actor.id)
            game = match.game
            if game.phase is not Phase.MOVE or game.turn != seat:
                return []
            plays = sorted({str(p) for p in game.legal_plays()})
            want = "".join(typed.split()).lower()
            starts = [p for p in plays if "".join(p.split()).startswith(want)]
            inside = [p for p in plays if want in "".join(p.split()) and p not in starts]
            return (starts + inside)[:25]
        except Exception:
            log.exception("autocomplete failed")
            return []

    def text_board(self, actor: Actor, where: Where, game_id: int | None = None) -> str | None:
        """A game as a monospace text board (terminal adapter, accessibility): ``game_id``, or
        the actor's current game in this channel."""
        deps = self.deps
        with deps.unit() as s:
            row = current_game(s, actor, where) if game_id is None else game_id
            if row is None:
                return None
            try:
                here = seated(deps, s, actor, where, row)
            except GameNotFound:
                return None
        return text_picture(localized(here.table, here.lang), here.lang, acting=here.seat)


def _no_resignation_now(game: Game, seat: int) -> Refusal:
    """Why ``seat`` cannot offer to resign now: an offer waits (whose, and what to do)."""
    answering = game.turn == seat  # the one whose decision an offer waits for
    if game.phase is Phase.DOUBLED:
        if answering:
            return Refusal("error.resign_answer_double", value=2 * game.cube_value,
                           cube=game.cube_value)  # fmt: skip
        return Refusal("error.resign_own_double", value=2 * game.cube_value)
    if game.phase is Phase.RESIGNED:
        key = "answer" if answering else "own"
        return Refusal(f"error.resign_{key}_resignation")
    return Refusal("error.cannot_resign_now")


def _redrawn(here: Seated, notes: Notes, ui: UiState, *, ping: bool = True) -> Reply:
    """The board again after a command, for the player who gave it, in his display (``ping``:
    False when the command changed nothing, see :func:`board_reply`)."""
    prefs = here.who.prefs
    return board_reply(
        localized(here.table, here.lang),
        here.lang,
        notes,
        acting=here.player_seat,
        ui=ui,
        mirrored=prefs.mirrored,
        theme=prefs.theme,
        ping=ping,
    )


def _new_game_notes(
    actor: Actor, level: str, match: Match, typed: tuple[str | None, str | None]
) -> Notes:
    """Who sits down, and for a practice game (``typed``: the Position ID and Match ID typed,
    if any) the IDs it starts from and which side the person plays: the one whose decision it
    is, whichever the IDs put on roll (and why the Match ID changed, when it did)."""
    notes = Notes()
    notes.add("note.new_computer_game", name=actor.name, level=Text(f"level.{level}"))
    if typed[0]:
        ids = {"position_id": match.game.position_id(), "match_id": match.game.match_id()}
        given = renumbered(*typed)
        if given is None:
            notes.add("note.from_position", **ids)
        else:
            notes.add("note.from_position_renumbered", **ids, given=given)
        for key, values in xgid_rules_left_out(typed[0]) if match.game.cube_enabled else ():
            notes.add(key, **values)  # (a game without the cube has no beaver nor cube limit)
    return notes


def level_named(name: str, lang: str) -> str:
    """A level from its name in any language of the catalog ("expert", "débutant",
    "world_class", "classe mondiale"...); refused with the names in the player's language."""

    def norm(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    wanted = norm(str(name))
    for level in LEVELS:
        names = {level} | {t(f"level.{level}", code) for code in LANGUAGES}
        if wanted in {norm(n) for n in names}:
            return level
    raise Refusal("error.level", levels=", ".join(t(f"level.{lv}", lang) for lv in LEVELS))

"""The use cases: everything a player can do, without Discord.

Each public method is one user action and one unit of work: load the game, let the engine apply
the action, save, and describe the answer as a :class:`~bot.service.replies.Reply`. A refusal
(bad input, not your turn, a stale button) changes nothing and comes back as an ephemeral reply
saying why, in the player's language. Methods are synchronous and may block (database, picture,
the computer thinking): adapters run them in a thread, off the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from bot.dice import GameDice
from bot.i18n import LANGUAGES, Text, error_text, language, t
from bot.service.analysis import AnalysisMixin
from bot.service.computer import computer_acts
from bot.service.customid import ChallengeAction, GameAction
from bot.service.info import InfoMixin
from bot.service.integrity import IntegrityMixin
from bot.service.people import Actor, Prefs, Where
from bot.service.present import Notes, Seat, Table, UiState, board_reply, text_picture
from bot.service.replies import Button, Reply
from bot.service.timers import TimersMixin
from db import challenges as challenge_repo
from db import games as game_repo
from db import players as player_repo
from db.errors import ChallengeClosed, DatabaseUnavailable, GameMovedOn, GameNotFound
from db.gamestate import create_match_game, load_match, save_match
from db.models import ChallengeStatus, GameStatus
from db.models import Game as GameRow
from db.types import utcnow
from engine import (
    BackgammonError,
    EventKind,
    Game,
    Match,
    MatchKey,
    Phase,
    Position,
    encode_match_id,
)
from engine.bots import LEVELS
from engine.movegen import nobody_can_move

__all__ = ["Refusal", "Service", "Settings"]

log = logging.getLogger(__name__)

RESIGN_VALUES = (1, 2, 3)


class Refusal(Exception):
    """An action refused before anything changed; ``text`` says why."""

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key)
        self.text = Text(key, **params)


@dataclass(frozen=True)
class Settings:
    """Service settings (see :mod:`bot.config` for the environment variables)."""

    challenge_ttl: timedelta = timedelta(minutes=15)
    move_timeout: timedelta = timedelta(hours=24)
    max_match_length: int = 25


@dataclass
class _Who:
    """The acting person as stored: his preferences and the language to answer him in."""

    actor: Actor
    prefs: Prefs
    lang: str


class Service(InfoMixin, IntegrityMixin, AnalysisMixin, TimersMixin):
    """Every use case of the bot.

    :param factory: SQLAlchemy session factory (``db.engine.make_session_factory``).
    :param clock: the current time (tests pass a fake clock).
    :param new_dice: a fresh dice source for a new game (tests pass scripted ones).
    :param dice_for: the dice source of a stored game from its seed and counter.
    """

    def __init__(
        self,
        factory: sessionmaker[Session],
        *,
        settings: Settings | None = None,
        clock: Callable[[], datetime] = utcnow,
        new_dice: Callable[[], GameDice] = GameDice.fresh,
        dice_for: Callable[[bytes, int], GameDice] = GameDice,
    ) -> None:
        self.factory = factory
        self.settings = settings or Settings()
        self.clock = clock
        self.new_dice = new_dice
        self.dice_for = dice_for

    def warm_up(self) -> None:
        """Draw one board and build the default computer player, so that the first player of
        the day does not wait for the caches (about half a second)."""
        from bot.service.computer import computer_for
        from render import render_board

        render_board(Position.initial())
        computer_for("intermediate")

    # -- plumbing ---------------------------------------------------------------------------

    @contextmanager
    def _unit(self) -> Iterator[Session]:
        try:
            with self.factory.begin() as session:
                yield session
        except StaleDataError:
            # A write outside the repositories (a column set on the row) lost the race at commit.
            raise GameMovedOn(0) from None

    def _who(self, s: Session, actor: Actor) -> _Who:
        row = player_repo.ensure_player(s, actor.id, actor.name[:100], now=self.clock())
        prefs = Prefs.from_json(row.preferences)
        return _Who(actor, prefs, prefs.language(actor.locale))

    def _refuse(self, lang: str, text: Text) -> Reply:
        return Reply(text=text.render(lang), ephemeral=True)

    def _guard(self, actor: Actor, fn: Callable[[], Reply]) -> Reply:
        """Run one action; turn every refusal into an ephemeral reply that changed nothing."""
        lang = language(actor.locale)
        try:
            return fn()
        except Refusal as r:
            return self._refuse(self._lang_of(actor) or lang, r.text)
        except BackgammonError as e:
            return Reply(text=error_text(e, self._lang_of(actor) or lang), ephemeral=True)
        except GameMovedOn:
            return self._refuse(lang, Text("error.moved_on"))
        except GameNotFound:
            return self._refuse(lang, Text("error.no_such_game"))
        except DatabaseUnavailable:
            # Rolled back as a whole: nothing to undo. No query for the player's language.
            log.warning("database unavailable", exc_info=True)
            return self._refuse(lang, Text("error.database_unavailable"))

    def _lang_of(self, actor: Actor) -> str | None:
        with self.factory() as s:
            row = player_repo.get_player(s, actor.id)
            return Prefs.from_json(row.preferences).language(actor.locale) if row else None

    @staticmethod
    def _shared_lang(who: _Who, where: Where) -> str:
        """Messages many people see follow the server's language; DMs the player's."""
        if where.guild_id is not None and where.guild_locale:
            return language(where.guild_locale)
        return who.lang

    def _table(self, s: Session, row: GameRow) -> Table:
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
        late = row.deadline is not None and _aware(row.deadline) <= self.clock()
        return Table(
            row.id,
            row.version,
            (seats[0], seats[1]),
            load_match(row),
            row.rated,
            row.dice_commitment,
            revealed,
            out_of_time=late and row.status is GameStatus.ACTIVE,
        )

    def _seat_names(self, table: Table, lang: str) -> tuple[str, str]:
        names = []
        for seat in table.seats:
            names.append(
                t("computer.name", lang, level=t(f"level.{seat.level}", lang))
                if seat.is_computer
                else seat.name
            )
        return names[0], names[1]

    def _localized(self, table: Table, lang: str) -> Table:
        names = self._seat_names(table, lang)
        s0, s1 = (Seat(n, s.user_id, s.level) for n, s in zip(names, table.seats, strict=True))
        return replace(table, seats=(s0, s1))

    def _prefs_of(self, s: Session, table: Table) -> tuple[Prefs, Prefs]:
        out = []
        for seat in table.seats:
            if seat.user_id is None:
                out.append(Prefs())
            else:
                row = player_repo.get_player(s, seat.user_id)
                out.append(Prefs.from_json(row.preferences if row else None))
        return out[0], out[1]

    # -- advancing the game ---------------------------------------------------------------------

    def _advance(
        self, table: Table, dice: GameDice, notes: Notes, prefs: tuple[Prefs, Prefs], lang: str
    ) -> None:
        """Play everything that needs no human decision: opening rolls, the computer's turns,
        automatic rolls and forced moves, the next game of a match."""
        names = self._seat_names(table, lang)
        for _ in range(500):  # a computer-vs-nothing loop cannot run away
            match = table.match
            game = match.game
            if game.is_over:
                if match.is_over or not match.length:
                    return
                result = game.result
                assert result is not None
                # The board moves on to the next game: say here who won this one, and how.
                notes.add(_WON[result.value], name=names[result.winner], points=result.points)
                a, b = match.score
                notes.add("note.next_game", number=len(match.games) + 1, a=a, b=b)
                match.next_game()
                continue
            if game.phase is Phase.OPENING:
                d0, d1 = dice.die(), dice.die()
                game.opening_roll(d0, d1)
                if d0 == d1:
                    notes.add("note.opening_tie", die=d0)
                    continue
                winner = 0 if d0 > d1 else 1
                notes.add(
                    "note.opening", p0=names[0], p1=names[1], d0=d0, d1=d1, name=names[winner]
                )
                self._after_roll(game, notes, names)
                continue
            seat = game.turn
            assert seat is not None
            if table.seats[seat].is_computer:
                level = table.seats[seat].level or "expert"
                computer_acts(game, seat, level, dice.roll, notes, names[seat])
                continue
            pref = prefs[seat]
            if game.phase is Phase.ROLL and pref.auto_roll and not game.can_double():
                d = dice.roll()
                game.roll(d)
                notes.add("note.rolled", name=names[seat], d1=d[0], d2=d[1])
                self._after_roll(game, notes, names)
                continue
            if game.phase is Phase.MOVE and pref.auto_forced and self._forced(game):
                play = game.legal_plays()[0]
                game.play(play)
                notes.add("note.forced", name=names[seat], play=str(play))
                continue
            return
        raise RuntimeError("the game did not reach a human decision")

    @staticmethod
    def _forced(game: Game) -> bool:
        return len(game.legal_plays()) == 1 and not game.partial.steps

    @staticmethod
    def _after_roll(game: Game, notes: Notes, names: tuple[str, str]) -> None:
        """Say when a roll could not be played (the engine passes by itself)."""
        last = game.events[-1]
        if last.kind is EventKind.MOVE and last.play == "" and last.dice:
            notes.add("note.cannot_move", name=names[last.player], d1=last.dice[0], d2=last.dice[1])

    def _save(self, s: Session, row: GameRow, table: Table, dice: GameDice) -> None:
        """Store the action. The move timer starts again only when the decision passes to the
        other player (or a new game begins): rolling, moving checkers and taking them back go
        on with the same player's move, and its deadline."""
        row.dice_counter = dice.counter
        game = table.game
        human_turn = (
            not table.match.is_over
            and game.turn is not None
            and not table.seats[game.turn].is_computer
            and not table.against_computer
        )
        games_before = len((row.state or {}).get("games", ()))
        handed_over = row.turn != game.turn or games_before != len(table.match.games)
        if handed_over or not human_turn or row.deadline is None:
            row.deadline = self.clock() + self.settings.move_timeout if human_turn else None
            row.timer_stage = 0  # a new deadline: its reminder and claim notices are to come
            table.out_of_time = False
        if table.match.is_over:
            # The seed is published with the result: from now on anyone can check every die.
            table.revealed_seed = row.dice_seed
            row.dice_revealed_at = self.clock()
        save_match(s, row, table.match, now=self.clock())
        s.flush()  # finishing a match writes the row once more: buttons need the last version
        table.version = row.version

    def _dice(self, row: GameRow) -> GameDice:
        assert row.dice_seed is not None
        return self.dice_for(bytes.fromhex(row.dice_seed), row.dice_counter)

    # -- starting games -------------------------------------------------------------------------

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
    ) -> Reply:
        """``/play``: a game against the computer, in a DM or a channel; from a GNU Backgammon
        Position ID (and Match ID) to practise a position, the player taking the side on roll
        in the Position ID (player 0 of the Match ID)."""

        def run() -> Reply:
            with self._unit() as s:
                who = self._who(s, actor)
                lang = self._shared_lang(who, where)
                level_name = _level(level, who.lang)
                length = self._length(points)
                self._no_game_here(s, actor, where)
                match = self._new_match(length, cube, position_id, match_id)
                seats = (Seat(actor.name, user_id=actor.id), Seat("", level=level_name))
                table = Table(0, 0, seats, match)
                notes = Notes()
                notes.add(
                    "note.new_computer_game", name=actor.name, level=Text(f"level.{level_name}")
                )
                if position_id:
                    notes.add(
                        "note.from_position",
                        position_id=match.game.position_id(),
                        match_id=match.game.match_id(),
                    )
                dice = self.new_dice()
                notes.add("dice.commitment", commitment=dice.commitment)
                self._advance(table, dice, notes, (who.prefs, Prefs()), lang)
                row = self._create(
                    s,
                    match,
                    player0_id=actor.id,
                    player1_id=None,
                    computer_level=level_name,
                    guild_id=where.guild_id,
                    channel_id=where.channel_id,
                    dice_commitment=dice.commitment,
                    dice_seed=dice.seed.hex(),
                    now=self.clock(),
                )
                row.dice_counter = dice.counter
                s.flush()
                table.game_id, table.version = row.id, row.version
                if match.is_over:  # a resignation loop cannot happen here, but be exact
                    self._save(s, row, table, dice)
                mirrored = who.prefs.mirrored
            return board_reply(self._localized(table, lang), lang, notes, mirrored=mirrored)

        return self._guard(actor, run)

    @staticmethod
    def _create(s: Session, match: Match, **columns: Any) -> GameRow:
        """A new game row; a race with another start in the same channel (two commands at
        once, two processes) loses on the database's one-active-game-per-seat index."""
        try:
            return create_match_game(s, match, **columns)
        except IntegrityError:
            raise Refusal("error.game_here") from None

    @staticmethod
    def _new_match(length: int, cube: bool, position_id: str | None, match_id: str | None) -> Match:
        if not position_id:
            if match_id:
                raise Refusal("error.match_id_alone")
            return Match(length=length, cube=cube)
        if not match_id and length:
            match_id = encode_match_id(MatchKey(match_length=length))
        match = Match.from_ids(position_id.strip(), (match_id or "").strip() or None, cube=cube)
        if match.game.position.winner() is not None:
            # A side with every checker borne off: no roll could ever be played.
            raise Refusal("error.position_over")
        if nobody_can_move(match.game.position):
            raise Refusal("error.position_stuck")
        return match

    def _length(self, points: int) -> int:
        if not isinstance(points, int) or not 0 <= points <= self.settings.max_match_length:
            raise Refusal("error.match_length", max=self.settings.max_match_length)
        return points

    def _no_game_here(self, s: Session, actor: Actor, where: Where) -> None:
        for row in game_repo.active_games(s, actor.id):
            if row.channel_id == where.channel_id:
                raise Refusal("error.game_here")

    def challenge(
        self,
        actor: Actor,
        where: Where,
        opponent: Actor,
        *,
        points: int = 0,
        cube: bool = True,
        rated: bool = True,
    ) -> Reply:
        """``/challenge``: invite someone in this channel, with Accept / Decline buttons."""

        def run() -> Reply:
            with self._unit() as s:
                who = self._who(s, actor)
                lang = self._shared_lang(who, where)
                if where.is_dm:
                    raise Refusal("error.challenge_in_dm")
                if opponent.id == actor.id:
                    raise Refusal("error.challenge_self")
                if opponent.is_bot:
                    raise Refusal("error.challenge_bot", name=opponent.name)
                length = self._length(points)
                self._no_game_here(s, actor, where)
                player_repo.ensure_player(s, opponent.id, opponent.name[:100], now=self.clock())
                for row in game_repo.active_games(s, opponent.id):
                    if row.channel_id == where.channel_id:
                        raise Refusal("error.opponent_busy", name=opponent.name)
                now = self.clock()
                challenge = challenge_repo.create_challenge(
                    s,
                    challenger_id=actor.id,
                    challenged_id=opponent.id,
                    expires_at=now + self.settings.challenge_ttl,
                    match_length=length,
                    cube=cube,
                    rated=rated,
                    guild_id=where.guild_id,
                    channel_id=where.channel_id,
                    now=now,
                )
                cid = challenge.id
            minutes = int(self.settings.challenge_ttl.total_seconds() // 60)
            kind = (
                t("game.kind_match", lang, points=length) if length else t("game.kind_money", lang)
            )
            text = t(
                "challenge.made",
                lang,
                challenger=actor.name,
                mention=f"<@{opponent.id}>",
                kind=kind,
                rated=t("challenge.rated" if rated else "challenge.unrated", lang),
                cube=t("challenge.cube" if cube else "challenge.no_cube", lang),
                minutes=minutes,
            )
            rows = [
                [
                    Button(
                        ChallengeAction(cid, "accept").custom_id,
                        t("button.accept", lang),
                        "success",
                    ),
                    Button(
                        ChallengeAction(cid, "decline").custom_id,
                        t("button.decline", lang),
                        "danger",
                    ),
                    Button(ChallengeAction(cid, "cancel").custom_id, t("button.cancel", lang)),
                ]
            ]
            return Reply(text=text, rows=rows, mentions=(opponent.id,))  # type: ignore[list-item]

        return self._guard(actor, run)

    def _answer_challenge(self, actor: Actor, where: Where, action: ChallengeAction) -> Reply:
        with self._unit() as s:
            who = self._who(s, actor)
            lang = self._shared_lang(who, where)
            challenge = challenge_repo.get_challenge(s, action.challenge_id)
            if challenge is None:
                raise Refusal("error.no_such_challenge")
            if action.action == "cancel":
                if actor.id != challenge.challenger_id:
                    raise Refusal("error.not_your_challenge")
                status = ChallengeStatus.CANCELLED
            else:
                if actor.id != challenge.challenged_id:
                    raise Refusal("error.not_challenged")
                accepted = action.action == "accept"
                status = ChallengeStatus.ACCEPTED if accepted else ChallengeStatus.DECLINED
            try:
                challenge_repo.answer_challenge(s, challenge.id, status, now=self.clock())
            except ChallengeClosed as closed:
                if closed.status == "expired":  # the stale challenge message says so in place
                    return Reply(text=t("challenge.expired", lang), edit=True)
                # Answered already: that message may be the game's board now, keep it.
                raise Refusal("challenge.closed") from None
            challenger = player_repo.get_player(s, challenge.challenger_id)
            challenger_name = challenger.display_name if challenger else "?"
            if status is not ChallengeStatus.ACCEPTED:
                key = (
                    "challenge.cancelled"
                    if status is ChallengeStatus.CANCELLED
                    else "challenge.declined"
                )
                return Reply(
                    text=t(key, lang, name=actor.name, challenger=challenger_name), edit=True
                )
            for pid in (challenge.challenger_id, challenge.challenged_id):
                for row in game_repo.active_games(s, pid):
                    if row.channel_id != challenge.channel_id:
                        continue
                    if pid == actor.id:
                        raise Refusal("error.game_here")
                    raise Refusal("error.opponent_busy", name=challenger_name)
            match = Match(length=challenge.match_length, cube=challenge.cube)
            seats = (
                Seat(challenger_name, user_id=challenge.challenger_id),
                Seat(actor.name, user_id=actor.id),
            )
            table = Table(0, 0, seats, match, rated=challenge.rated)
            notes = Notes()
            dice = self.new_dice()
            notes.add("note.challenge_accepted", name=actor.name)
            notes.add("dice.commitment", commitment=dice.commitment)
            prefs = self._prefs_of(s, table)
            self._advance(table, dice, notes, prefs, lang)
            row = self._create(
                s,
                match,
                player0_id=challenge.challenger_id,
                player1_id=actor.id,
                rated=challenge.rated,
                guild_id=challenge.guild_id,
                channel_id=challenge.channel_id,
                dice_commitment=dice.commitment,
                dice_seed=dice.seed.hex(),
                now=self.clock(),
            )
            row.dice_counter = dice.counter
            row.deadline = self.clock() + self.settings.move_timeout
            s.flush()
            challenge.game_id = row.id
            table.game_id, table.version = row.id, row.version
        return board_reply(table, lang, notes, acting=1, edit=True)

    # -- buttons --------------------------------------------------------------------------------

    def press(self, actor: Actor, where: Where, custom_id: str, value: str | None = None) -> Reply:
        """A button or select menu press (``value``: the option chosen in a select menu)."""
        game_action = GameAction.parse(custom_id)
        if game_action is not None:
            return self._guard(actor, lambda: self._game_press(actor, where, game_action, value))
        challenge_action = ChallengeAction.parse(custom_id)
        if challenge_action is not None:
            return self._guard(
                actor, lambda: self._answer_challenge(actor, where, challenge_action)
            )
        return self._guard(actor, lambda: _raise(Refusal("error.unknown_button")))

    def _game_press(
        self, actor: Actor, where: Where, action: GameAction, value: str | None
    ) -> Reply:
        if action.action == "rematch":
            return self._rematch(actor, where, action)
        with self._unit() as s:
            who = self._who(s, actor)
            lang = self._shared_lang(who, where)
            row = game_repo.get_game(s, action.game_id)
            table = self._table(s, row)
            seat = table.seat_of(actor.id)
            if seat is None:
                raise Refusal("error.not_your_game")
            if row.status is not GameStatus.ACTIVE:
                raise Refusal("error.game_over")  # before "out of date: use /board"
            if row.version != action.version:
                raise Refusal("error.stale")
            ui, notes = self._act(s, actor, who, lang, row, table, seat, action, value)
            mirrored = who.prefs.mirrored
        return board_reply(
            self._localized(table, lang),
            lang,
            notes,
            acting=seat,
            ui=ui,
            mirrored=mirrored,
            edit=True,
        )

    def _act(
        self,
        s: Session,
        actor: Actor,
        who: _Who,
        lang: str,
        row: GameRow,
        table: Table,
        seat: int,
        action: GameAction,
        value: str | None,
    ) -> tuple[UiState, Notes]:
        """Apply one press to the game inside its unit of work; the view state and what
        happened, for the reply."""
        game = table.game
        ui = UiState()
        notes = Notes()
        if action.action == "claim":
            self._claim(s, row, table, seat, notes, lang)
            return ui, notes
        if game.turn != seat:
            raise Refusal("error.not_your_turn")
        arg = action.arg
        name = action.action
        if name == "roll":
            dice = self._dice(row)
            d = dice.roll()
            game.roll(d)
            notes.add("note.rolled", name=actor.name, d1=d[0], d2=d[1])
            self._after_roll(game, notes, self._seat_names(table, lang))
            self._finish_action(s, row, table, notes, lang, dice)
        elif name == "double":
            game.double()
            notes.add("note.doubles", name=actor.name, value=game.cube_value * 2)
            self._finish_action(s, row, table, notes, lang)
        elif name == "take":
            game.take()
            notes.add("note.takes", name=actor.name, value=game.cube_value)
            self._finish_action(s, row, table, notes, lang)
        elif name == "drop":
            game.drop()
            notes.add("note.drops", name=actor.name)
            self._finish_action(s, row, table, notes, lang)
        elif name == "accept":
            game.accept_resignation()
            notes.add("note.accepts_resignation", name=actor.name)
            self._finish_action(s, row, table, notes, lang)
        elif name == "reject":
            game.reject_resignation()
            notes.add("note.rejects_resignation", name=actor.name)
            self._finish_action(s, row, table, notes, lang)
        elif name == "resign":
            resign_value = _int(arg, RESIGN_VALUES, "error.bad_button")
            game.resign(seat, resign_value)
            notes.add(
                "note.resigns",
                name=actor.name,
                offer=Text(f"resign.offer_{_RESIGN_NAMES[resign_value]}"),
            )
            self._finish_action(s, row, table, notes, lang)
        elif name == "resign_menu":
            if game.phase not in (Phase.ROLL, Phase.MOVE):
                raise Refusal("error.cannot_resign_now")
            ui = UiState(resign_menu=True)
        elif name == "cancel":
            pass  # closes the resign menu: the board is drawn again as it is
        elif name == "die":
            die = _int(arg, (1, 2, 3, 4, 5, 6), "error.bad_button")
            if die not in game.partial.playable_dice():
                raise Refusal("error.die_not_playable", die=die)
            ui = UiState(die=die)
        elif name == "pt":
            src, die = _point_arg(arg)
            game.step(src, die)
            ui = UiState(die=die)
            self._finish_action(s, row, table, notes, lang, advance=False)
        elif name == "undo":
            game.undo()
            self._finish_action(s, row, table, notes, lang, advance=False)
        elif name == "confirm":
            play = game.confirm()
            notes.add("note.played_you", name=actor.name, play=str(play))
            self._finish_action(s, row, table, notes, lang)
        elif name == "play":
            if value is None:
                raise Refusal("error.bad_button")
            play = game.play_text(value)
            notes.add("note.played_you", name=actor.name, play=str(play))
            self._finish_action(s, row, table, notes, lang)
        else:
            raise Refusal("error.unknown_button")
        return ui, notes

    def _claim(
        self, s: Session, row: GameRow, table: Table, seat: int, notes: Notes, lang: str
    ) -> None:
        """The waiting player claims a game whose move timer ran out: the player who let the
        time run out abandons it, the game in progress scored as a single game resigned (times
        the cube). In a match he abandons the match: a player who vanished is not waited for
        game after game."""
        game = table.game
        late = row.deadline is not None and _aware(row.deadline) <= self.clock()
        if not late or game.turn is None or game.turn == seat:
            raise Refusal("error.cannot_claim")
        loser = game.turn
        table.match.forfeit(loser)
        names = self._seat_names(table, lang)
        notes.add("note.claimed", name=names[seat], loser=names[loser])
        self._finish_action(s, row, table, notes, lang)

    def _finish_action(
        self,
        s: Session,
        row: GameRow,
        table: Table,
        notes: Notes,
        lang: str,
        dice: GameDice | None = None,
        *,
        advance: bool = True,
    ) -> None:
        dice = dice or self._dice(row)
        if advance:
            self._advance(table, dice, notes, self._prefs_of(s, table), lang)
        self._save(s, row, table, dice)

    def _rematch(self, actor: Actor, where: Where, action: GameAction) -> Reply:
        """Rematch: the same kind of game again, against the same opponent. The old game is
        only read here; the new one is its own unit of work (``play`` or ``challenge``)."""
        with self._unit() as s:
            self._who(s, actor)
            row = game_repo.get_game(s, action.game_id)
            table = self._table(s, row)
            seat = table.seat_of(actor.id)
            if seat is None:
                raise Refusal("error.not_your_game")
            if row.version != action.version:
                raise Refusal("error.stale")
            if row.status is GameStatus.ACTIVE:
                raise Refusal("error.game_not_over")
            level = row.computer_level or "intermediate"
            points, cube, rated = row.match_length, row.cube, row.rated
            other = table.seats[1 - seat]
        if table.against_computer:
            return self.play(actor, where, level=level, points=points, cube=cube)
        assert other.user_id is not None
        opponent = Actor(other.user_id, other.name)
        return self.challenge(actor, where, opponent, points=points, cube=cube, rated=rated)

    # -- slash commands on the current game ------------------------------------------------

    def _current(self, s: Session, actor: Actor, where: Where) -> GameRow:
        rows = [r for r in game_repo.active_games(s, actor.id) if r.channel_id == where.channel_id]
        if not rows:
            raise Refusal("error.no_game_here")
        return rows[0]

    def _on_current_game(
        self,
        actor: Actor,
        where: Where,
        act: Callable[[Game, int, Notes], bool],
        *,
        advance: bool = True,
    ) -> Reply:
        """A command on the actor's game in this channel: ``act`` changes the game (or raises a
        refusal) and says whether it did; the change is saved in the same unit of work and the
        board drawn again."""

        def run() -> Reply:
            with self._unit() as s:
                who = self._who(s, actor)
                lang = self._shared_lang(who, where)
                row = self._current(s, actor, where)
                table = self._table(s, row)
                seat = table.seat_of(actor.id)
                assert seat is not None  # _current only finds the actor's own games
                notes = Notes()
                if act(table.game, seat, notes):
                    self._finish_action(s, row, table, notes, lang, advance=advance)
                mirrored = who.prefs.mirrored
            return board_reply(
                self._localized(table, lang), lang, notes, acting=seat, mirrored=mirrored
            )

        return self._guard(actor, run)

    def move(self, actor: Actor, where: Where, notation: str) -> Reply:
        """``/move play:<notation>``: a whole play in standard notation."""

        def act(game: Game, seat: int, notes: Notes) -> bool:
            if game.turn != seat:
                raise Refusal("error.not_your_turn")
            if game.phase is Phase.ROLL:
                raise Refusal("error.roll_first")
            if game.phase is not Phase.MOVE:
                raise Refusal("error.cannot_move_now")
            play = game.play_text(notation)
            notes.add("note.played_you", name=actor.name, play=str(play))
            return True

        return self._on_current_game(actor, where, act)

    def undo(self, actor: Actor, where: Where) -> Reply:
        """``/undo``: take back the last checker moved this turn."""

        def act(game: Game, seat: int, notes: Notes) -> bool:
            if game.turn != seat or game.phase is not Phase.MOVE:
                raise Refusal("error.nothing_to_undo")
            game.undo()
            return True

        return self._on_current_game(actor, where, act, advance=False)

    def board(self, actor: Actor, where: Where) -> Reply:
        """``/board``: post the current game again (with working buttons)."""
        return self._on_current_game(actor, where, lambda game, seat, notes: False)

    def resign(self, actor: Actor, where: Where, value: int = 1) -> Reply:
        """``/resign [value]``: offer to resign a single game (1), gammon (2) or backgammon (3)."""

        def act(game: Game, seat: int, notes: Notes) -> bool:
            if value not in RESIGN_VALUES:
                raise Refusal("error.resign_value")
            if game.phase not in (Phase.ROLL, Phase.MOVE):
                raise Refusal("error.cannot_resign_now")
            game.resign(seat, value)
            offer = Text(f"resign.offer_{_RESIGN_NAMES[value]}")
            notes.add("note.resigns", name=actor.name, offer=offer)
            return True

        return self._on_current_game(actor, where, act)

    def autocomplete_moves(self, actor: Actor, where: Where, typed: str) -> list[str]:
        """Up to 25 legal plays of the current roll that match what is typed (prefix or
        substring, spaces ignored). Never raises: autocomplete must answer fast and quietly."""
        try:
            with self.factory() as s:
                rows = [
                    r
                    for r in game_repo.active_games(s, actor.id)
                    if r.channel_id == where.channel_id
                ]
                if not rows:
                    return []
                match = load_match(rows[0])
                seat = rows[0].seat_of(actor.id)
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
        with self._unit() as s:
            who = self._who(s, actor)
            if game_id is not None:
                try:
                    row = game_repo.get_game(s, game_id)
                except GameNotFound:
                    return None
            else:
                rows = [
                    r
                    for r in game_repo.active_games(s, actor.id)
                    if r.channel_id == where.channel_id
                ]
                if not rows:
                    return None
                row = rows[0]
            table = self._table(s, row)
            lang = self._shared_lang(who, where)
        return text_picture(self._localized(table, lang), lang, acting=table.seat_of(actor.id))


_RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}
_WON = {1: "game.won_single", 2: "game.won_gammon", 3: "game.won_backgammon"}


def _aware(moment: datetime) -> datetime:
    """SQLite returns naive datetimes for aware columns: they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _raise(exc: Exception) -> Reply:
    raise exc


def _level(name: str, lang: str) -> str:
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


def _int(arg: str | None, allowed: tuple[int, ...], key: str) -> int:
    try:
        value = int(arg or "")
    except ValueError:
        raise Refusal(key) from None
    if value not in allowed:
        raise Refusal(key)
    return value


def _point_arg(arg: str | None) -> tuple[int, int]:
    try:
        src, die = (int(x) for x in (arg or "").split("-"))
    except ValueError:
        raise Refusal("error.bad_button") from None
    if not (1 <= src <= 25 and 1 <= die <= 6):
        raise Refusal("error.bad_button")
    return src, die

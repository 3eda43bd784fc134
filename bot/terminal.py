"""The terminal adapter: the bot's commands typed as text, on one keyboard.

``backgammon-bot play`` reads commands such as ``/play level:expert``, ``/roll``,
``/move 8/5 6/5`` or a button label (``Roll``, ``Take``, ``Confirm``, ``13``...) and prints each
reply: its text, a text board, the path of the PNG it rendered and the buttons the Discord
message would carry. With ``--json`` every reply is one JSON object on one line, flushed at once::

    {"text": str, "image": str | null, "position_id": str | null, "match_id": str | null,
     "xgid": str | null, "buttons": [str]}

A menu of numbered choices (the Resign button's: single game, gammon, backgammon) is printed with
its numbers, and a number typed alone picks that choice (``"menu": ["1. Single game", ...]`` in
JSON, its choices still among the buttons).

``/as NAME`` switches the acting person, so two people can play on one keyboard.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from bot.i18n import CATALOGS, LANGUAGES, t
from bot.i18n.markdown import escape_name
from bot.service import Actor, Reply, Service, Where
from bot.service.command_spec import (
    PRESS_COMMANDS,
    Command,
    Kind,
    Surface,
    command_name,
    press_words,
)
from bot.service.commands import COMMANDS, by_name, typed
from bot.service.customid import (
    Answer,
    ChallengeAction,
    GameAction,
    Press,
    PuzzleAction,
    action_word,
)
from bot.service.options import parse_command
from bot.service.present import xgid_of
from bot.service.puzzles import ANSWER_PICTURE
from bot.service.puzzleview import CUBE_LABELS
from bot.service.refusal import Refusal, quoted
from bot.service.replies import PROGRESS, Button
from bot.service.tables import is_computer_name
from bot.web.links import Links

__all__ = ["Terminal", "user_id"]

TERMINAL_CHANNEL = 1
TERMINAL_GUILD = 1
NAME_LENGTH = 32  # a Discord display name has at most this many characters
LISTED_BUTTONS = 5  # a refusal names the buttons when there are no more (Roll, Double, Resign)
# The default person, in every language: the name is who he is (his games, his owner rights),
# not a word to translate, and "Player" is the one databases already hold.
DEFAULT_NAME = "Player"
ESCAPE = "\x1b"  # a line holding only Escape (without line editing, Esc then Enter sends it)


def _command_names() -> dict[str, Command]:
    """The commands of every language (``/jouer``, as the French help and refusals name
    them), from the command table."""
    commands: dict[str, Command] = {}
    for command in COMMANDS:
        if command.surface is Surface.DISCORD:
            continue
        for lang in LANGUAGES:
            commands[command_name(command, lang).lower()] = command
    return commands


def _folded(word: str) -> str:
    """Lower-cased, accents dropped: ``/déplacer`` as typed on a keyboard without them.

    >>> _folded("Déplacer")
    'deplacer'
    """
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _by_folded(words: dict[str, Any]) -> dict[str, Any]:
    """``words`` by their folded form, as they are looked up (no two commands differ by accents
    only: ``tests/bot/test_terminal_french.py``)."""
    return {_folded(w): v for w, v in words.items()}


def _nearest(typed: str, *groups: Iterable[str]) -> str | None:
    """The name one typo away from ``typed`` (two for a long name): a letter missing, added,
    changed, or two letters swapped; accents do not count. None when none is that near. Of
    names as near, one of the first group (the player's language), then of the closest length.

    >>> _nearest("mvoe", ["move", "vote", "roll"])
    'move'
    >>> _nearest("confirme", ["confirmer"], ["confirm"])
    'confirmer'
    """
    typed = _folded(typed)
    allowed = 1 if len(typed) < 6 else 2
    names = [(rank, name) for rank, group in enumerate(groups) for name in group]
    if len(typed) > max((len(name) for _, name in names), default=0) + allowed:
        return None  # no name is that near, and long text would take long to compare
    scored = [
        (_typos(typed, _folded(name)), rank, abs(len(name) - len(typed)), name)
        for rank, name in names
    ]
    best = min(scored, default=(allowed + 1, 0, 0, ""))
    return best[3] if best[0] <= allowed else None


def _typos(a: str, b: str) -> int:
    """Damerau's distance (letters inserted, deleted, changed, or two neighbours swapped)."""
    rows = [list(range(len(b) + 1))]
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1]


_COMMANDS = _command_names()
_TYPED_COMMANDS = _by_folded(_COMMANDS)


def _button_keys() -> dict[str, list[tuple[str, int | None]]]:
    """Every button label of every language, lower-cased: the catalog key it comes from (and
    the die of ``Dé 1``), so that a button reads and is typed in any language."""
    keys: dict[str, list[tuple[str, int | None]]] = {}
    for lang, catalog in CATALOGS.items():
        for key in (k for k in catalog if k.startswith("button.")):
            dice = range(1, 7) if "{die}" in catalog[key] else (None,)
            for die in dice:
                label = t(key, lang, die=die) if die else t(key, lang)
                keys.setdefault(label.lower(), []).append((key, die))
    return keys


_BUTTON_KEYS = _button_keys()


def translations(label: str, custom_id: str) -> dict[str, str]:
    """A button's label in every language (``Accept`` is ``Accepter``, ``Die 1`` ``Dé 1``);
    the custom id's action tells apart two buttons that one language labels alike (French
    Take and Accept are both ``Accepter``). Empty for a label of no catalog (``13``, a play).

    >>> translations("Accepter", "bg:3:7:take")["en"], translations("Die 2", "bg:3:7:die:2")["fr"]
    ('Take', 'Dé 2')
    """
    found = list(dict.fromkeys(_BUTTON_KEYS.get(label.lower(), [])))
    action = action_word(custom_id)
    fitting = [(k, d) for k, d in found if action and (action in k or k[7:] in action)]
    if len(fitting) != 1 and len(found) != 1:
        return {}
    key, die = (fitting or found)[0]
    return {lang: t(key, lang, die=die) if die else t(key, lang) for lang in LANGUAGES}


# The press commands in every language (/double, /doubler), and the actions each may mean.
_PRESS_WORDS = {w: a for lang in reversed(LANGUAGES) for w, a in press_words(lang).items()}
_TYPED_PRESS_WORDS = _by_folded(_PRESS_WORDS)
# A cube puzzle's answers, by the press command that gives them (/double, /take, /pass).
# The press commands that also act on the person's game without its message (not Rematch: the
# game is over; not Cancel, which only closes a menu; not Decline: a challenge's).
_ON_GAME = frozenset(PRESS_COMMANDS) & {p.value for p in Press} - {Press.REMATCH, Press.CANCEL}
_CUBE_ANSWERS = {Press.DOUBLE: "double", Press.TAKE: "take", Press.DROP: "pass"}
_QUIT = by_name("quit")


def user_id(name: str) -> int:
    """A stable id for a local player (records survive between runs, by name).

    >>> user_id("alice") == user_id("Alice") and user_id("alice") != user_id("bob")
    True
    """
    return 10**15 + zlib.crc32(name.strip().lower().encode())


@dataclass
class Terminal:
    """One local session: who acts, where images go, how replies are printed.

    ``lang`` is the language asked for: with ``lang_given`` (``--lang`` typed) the session
    speaks it, else the acting player's own setting when he chose one (``/settings
    language:fr``), as Discord does; a language chosen during the session wins from then on.
    """

    service: Service
    out: IO[str] = field(default_factory=lambda: sys.stdout)
    json_mode: bool = False
    lang: str = "en"
    images: Path = field(default_factory=lambda: Path("boards"))
    user: str | None = None  # None: DEFAULT_NAME
    lang_given: bool = False
    _buttons: dict[str, str] = field(default_factory=dict)
    _selects: dict[str, str] = field(default_factory=dict)
    _labels: list[str] = field(default_factory=list)
    _translated: dict[str, dict[str, str]] = field(default_factory=dict)  # label: {lang: label}
    _keys: Keys = field(default_factory=lambda: Keys())
    _die_pressed: bool = False  # this line picked a die: digits are points until the next message
    _images_written: int = 0
    _resumed: bool = False  # the game in progress is shown once, when the session starts
    _names: dict[int, str] = field(default_factory=dict)  # local ids, for <@id> mentions
    _puzzle_menu: str | None = None  # the latest message's menu of a checker puzzle's plays
    _puzzle_answered: bool = False  # its puzzle answered: only its own plays still read
    _progress_private: bool = False  # the command reporting progress answers privately
    _numbered: dict[str, str] = field(default_factory=dict)  # a menu's numbers: custom ids
    # The game of the latest board shown: /move, /undo, /resign, /hint... act on it (one
    # channel holds a casual game and a tournament's match; /board game:N switches).
    _focus: int | None = None
    # The web board's links (WEB_PORT set): every board names its page's address.
    web: Links | None = None
    _web_players: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._asked_lang = self.lang
        self._session_lang = self.lang if self.lang_given else None
        self.user = _cut_name(self.user or "") or DEFAULT_NAME
        if is_computer_name(self.user):  # --user "Computer (expert)": as /as refuses it
            self.user = DEFAULT_NAME
        self._owner = user_id(self.user)  # the first local player: the server's owner

    @property
    def name(self) -> str:
        return self.user or DEFAULT_NAME

    @property
    def actor(self) -> Actor:
        # The first local player owns the server (the keyboard is his): he organizes
        # tournaments; the people of /as NAME are ordinary members. His locale is the
        # session's own (as Discord's client locale stays), not the language shown now: set
        # back to automatic, his setting falls back to it.
        person = self._person(self.name, self._asked_lang)
        return replace(person, organizer=self.is_owner, session_lang=self._session_lang)

    @property
    def is_owner(self) -> bool:
        """Whether the person acting is the session's first player, the server's owner."""
        return user_id(self.name) == self._owner

    def _person(self, name: str, locale: str | None = None) -> Actor:
        """A local player by name (remembered, so that a mention of him reads as his name), cut
        as ``/as`` cuts it: the person ``/as`` then becomes is the same."""
        name = _cut_name(name)
        self._names[user_id(name)] = name
        return Actor(user_id(name), name, locale=locale)

    @property
    def where(self) -> Where:
        # The terminal's first user owns its one server: he may change its settings (/daily).
        return Where(
            channel_id=TERMINAL_CHANNEL,
            guild_id=TERMINAL_GUILD,
            guild_locale=self.lang,
            manager=self.is_owner,
            focus=self._focus,
        )

    # -- the loop -----------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        """Read commands until ``/quit`` or the end of input. In text mode an empty line is
        Enter (roll, or confirm a complete move), as in the original program."""
        self._follow_language()  # greeted and shown the game in his language from the start
        if not self.json_mode:
            self._print_text(self.welcome())
        if not self._resumed:
            self._resumed = True
            self.resume()
        for raw in lines:
            line = raw.strip(" \t\r\n")
            if line.startswith("#") or (not line and self.json_mode):
                continue
            if self._is_quit(line):
                break
            self.handle(line)

    def terminated(self) -> None:
        """Said when SIGTERM ends the session: the game is kept for the next one."""
        self.show(Reply(text=t("terminal.terminated", self.lang), ephemeral=True))

    def resume(self) -> None:
        """On start: the player's game in progress, if he has one, said and shown again (its
        buttons live), so that a restart never hides it."""
        try:
            reply = self.service.board(self.actor, self.where)
        except Exception:  # a start must never fail on this
            return
        if reply.ephemeral or reply.game_id is None:
            return  # no game in progress: nothing to say
        note = t("terminal.resume", self.lang, id=reply.game_id)
        self.show(replace(reply, text=f"{note}\n{reply.text}"))

    def welcome(self) -> str:
        """The first line, naming the commands as they are typed in the session's language."""
        return t(
            "terminal.welcome",
            self.lang,
            name=self.name,
            help=typed("help", self.lang),
            play=typed("play", self.lang),
            as_command=typed("as", self.lang),
            quit=typed("quit", self.lang),
        )

    def _is_quit(self, line: str) -> bool:
        word = line.split(" ")[0].lower()
        names = {f"/{command_name(_QUIT, code)}" for code in LANGUAGES} if _QUIT else set()
        return word in names | {"/exit"}

    def handle(self, line: str) -> None:
        """Run one typed command and print its reply (never raises on bad input)."""
        self._follow_language()
        self._die_pressed = False
        try:
            reply = self._dispatch(line)
        except Refusal as refusal:
            reply = Reply(text=refusal.text.render(self.lang), ephemeral=True)
        except Exception as exc:
            reply = Reply(text=t("terminal.error", self.lang, detail=str(exc)), ephemeral=True)
        self._follow_language()  # /settings language:fr is answered in French
        if reply is not None:
            self.show(reply)
        self._daily()

    def _daily(self) -> None:
        """What is due by the clock in the terminal's server (only its own, whatever else shares
        the database): the position of the day, when ``/daily`` set one (posted once a day, as
        on Discord); its ladders' late challenges and idle members."""
        daily = self.service.daily_puzzles
        for notice in daily.sweep(lang_of=lambda _: self.lang, only=TERMINAL_GUILD):
            self.show(notice.reply)
        for drill in self.service.drill_notices(only=user_id(self.name)):  # the daily drill
            for reply in drill.replies:
                self.show(reply)
        # The terminal's ladders: a challenge past its deadline, a member idle too long.
        for late in self.service.ladder_sweep(only=TERMINAL_GUILD):
            self.show(late.reply)
        # A consultation's vote past its time: closed, the team's choice played, the next vote.
        for closed in self.service.consult_sweep(only=TERMINAL_GUILD):
            self.show(closed.reply)

    def _follow_language(self) -> None:
        """Speak the language given for the session, else the acting player's setting (else
        the one asked for); once he changes his setting here, the setting."""
        me = Actor(user_id(self.name), self.name, locale=self._asked_lang)
        self.lang = self._session_lang or self.service.deps.language_of(me)

    def _unknown(self, word: str) -> Reply:
        """An unknown command, with the nearest one when a typo is likely (``/mvoe``)."""
        mine = [name for name, c in _COMMANDS.items() if name == command_name(c, self.lang).lower()]
        near = _nearest(word[1:], [*mine, *press_words(self.lang)], [*_COMMANDS, *_PRESS_WORDS])
        if near is None:
            return Reply(
                text=t("terminal.unknown", self.lang, command=quoted(word)), ephemeral=True
            )
        text = t("terminal.unknown_near", self.lang, command=quoted(word), near=f"/{near}")
        return Reply(text=text, ephemeral=True)

    def _dispatch(self, line: str) -> Reply | None:
        if not self.json_mode:
            key = self._key(line)
            if key is not None:
                return key()
        if not line.startswith("/"):
            if self._voting(line):  # a consultation's vote: its number, or a play
                if line.strip().isdigit():
                    return self.service.vote(self.actor, self.where, choice=int(line))
                return self.service.move(self.actor, self.where, line.strip())
            return self._press_label(line)
        word, _, rest = line.partition(" ")
        name = _folded(word[1:])
        if name in _TYPED_PRESS_WORDS:
            return self._press_action(_TYPED_PRESS_WORDS[name], rest.strip())
        command = _TYPED_COMMANDS.get(name)
        if command is None:
            return self._unknown(word)
        values = parse_command(command, rest, self.lang)
        for option in command.options:
            if option.kind is Kind.USER and values[option.keyword] is not None:
                values[option.keyword] = self._person(str(values[option.keyword]), self.lang)
        if command.method is None:
            return self._own(command, values)
        puzzle = self._asking_puzzle()
        if command.name == "move" and puzzle and not self._has_game():
            return self._press_id(puzzle, str(values["notation"]))
        if command.name in ("help", "rules"):  # whole, not in Discord's message lengths
            values["surface"] = Surface.TERMINAL
        reply = self._run(command, values)
        if command.name == "settings" and values.get("language") is not None:
            self._session_lang = None  # a language chosen here wins over --lang from now on
        return reply

    def _run(self, command: Command, values: dict[str, Any]) -> Reply:
        """The service's answer to ``command``, its progress (a rollout's) shown as it goes,
        marked private as its answer will be (on Discord it edits the private "thinking"
        message)."""
        self._progress_private = command.private
        token = PROGRESS.set(self._progress)
        try:
            return self.service.run(command, self.actor, self.where, **values)
        finally:
            PROGRESS.reset(token)
            self._progress_over()

    def _key(self, line: str) -> Callable[[], Reply] | None:
        """The original program's keys: Enter rolls (or confirms a complete move), a digit
        picks the die when both are playable, Escape takes the whole move back. None: not a
        key, read the line as usual."""
        keys = self._keys
        if not line:
            press = keys.enter
            if press is None:  # said, not silent: a new player pressing Enter mid-move waited
                return self._why_no_enter
            return lambda: self._press_id(press)
        if line.strip(ESCAPE) == "" or line.lower() in ("esc", "échap"):
            return lambda: self.service.undo(self.actor, self.where, everything=True)
        if line.isdigit() and not keys.die_chosen and int(line) in keys.dice:
            custom_id = keys.dice[int(line)]
            return lambda: self._press_id(custom_id)
        return None

    def _voting(self, line: str) -> bool:
        """Whether ``line`` (a number, or a play in notation) is a vote: a consultation's vote
        is open in this channel."""
        word = line.strip()
        if not (word.isdigit() or ("/" in word and word[:1].isdigit())):
            return False
        return any(p.channel_id == TERMINAL_CHANNEL for p in self.service.consult_polls())

    def _why_no_enter(self) -> Reply:
        """Enter with nothing to roll or confirm: why, pressing nothing. /confirm's refusal
        where it is sure to be one (the board mid-move: how many checkers are left; no game
        here: how to start one), else the keys' general word (a menu over a complete move:
        confirming it from there would surprise)."""
        if self._mid_move() or not self._has_game():
            return self._without_button((Press.CONFIRM.value,))
        return Reply(text=t("terminal.enter_nothing", self.lang), ephemeral=True)

    def _mid_move(self) -> bool:
        """Whether the latest message is a board with checkers still to move (steps to take,
        no Confirm)."""
        actions = {a.action for a in map(GameAction.parse, self._buttons.values()) if a}
        return bool(actions & {Press.POINT, Press.DIE}) and Press.CONFIRM not in actions

    def _has_game(self) -> bool:
        """Whether the acting person has a game in this channel (``/move`` plays in it)."""
        return self.service.text_board(self.actor, self.where) is not None

    def _press_id(self, custom_id: str, value: str | None = None) -> Reply:
        self._die_pressed = _is_die(custom_id)
        return self.service.press(self.actor, self.where, custom_id, value)

    def _own(self, command: Command, values: dict[str, Any]) -> Reply:
        """The terminal's own commands: ``/as NAME`` (``/quit`` ends :meth:`run`)."""
        if command.name == "as":
            typed = str(values["name"]).strip()
            if is_computer_name(_cut_name(typed)):  # two "Computer (expert)": whose move?
                return Reply(text=t("terminal.as_computer", self.lang, name=typed), ephemeral=True)
            self.user = _cut_name(typed)
            self._follow_language()
            # Escaped as Discord would: the printing (_plain) shows it as typed.
            text = t("terminal.as", self.lang, name=escape_name(self.user))
            if len(typed) > NAME_LENGTH:
                text += " " + t("terminal.as_cut", self.lang, most=NAME_LENGTH)
            return Reply(text=text, ephemeral=True)
        return Reply(text=t("terminal.quit", self.lang), ephemeral=True)

    def _asking_puzzle(self) -> str | None:
        """The menu of the puzzle that text typed answers: the latest message's, not answered
        yet (answered, its menu's plays still show their answers; other text and a /move
        without a game are what they would be without it)."""
        return None if self._puzzle_answered else self._puzzle_menu

    def _press_label(self, label: str) -> Reply:
        key = label.strip().lower()
        if key in self._numbered:  # a numbered menu's choice (the Resign button's)
            return self._press_id(self._numbered[key])
        if key in self._buttons:
            return self._press_id(self._buttons[key])
        if key in self._selects:
            return self._press_id(self._selects[key], label.strip())
        puzzle = self._asking_puzzle()
        if puzzle:  # a play in other notation: the puzzle reads it, or lists its own
            return self._press_id(puzzle, label.strip())
        if "/" in key:  # a play typed without /move: the game's, else the drill due (the service's)
            return self.service.move(self.actor, self.where, label.strip())
        point = self._unlit_point(key)
        if point is not None:  # the engine says why that checker cannot move with this die
            return self._press_id(point)
        return self._no_button(label)

    def _unlit_point(self, key: str) -> str | None:
        """A point typed that the board does not light up for the die in hand (``24`` when 21
        is held): the press of that point with that die, which the game refuses with its
        reason, where "neither a command nor a button" said nothing of it. None when ``key`` is
        no point, or the board lights up none."""
        if not key.isdigit() or not 1 <= int(key) <= 25:
            return None
        for custom_id in self._buttons.values():
            lit = GameAction.parse(custom_id)
            if lit is not None and lit.action is Press.POINT and lit.arg:
                die = lit.arg.rsplit("-", 1)[-1]
                return replace(lit, arg=f"{int(key)}-{die}").custom_id
        return None

    def _press_action(self, actions: tuple[str, ...], arg: str) -> Reply:
        """``/roll`` and friends: press the button of the latest message with that action (a
        cube puzzle's answer too: ``/double``, ``/take``, ``/pass``); ``/accept``,
        ``/decline``, ``/cancel`` answer the person's own challenge waiting here even when its
        message is no longer the latest (``/accept challenge:N`` picks one)."""
        shown = None
        for custom_id in self._buttons.values():
            game = GameAction.parse(custom_id)
            if game and game.action in actions and (not arg or game.arg == arg):
                return self._press_id(custom_id)
            challenge = ChallengeAction.parse(custom_id)
            if challenge and challenge.action in actions:
                shown = custom_id
        puzzle = self._puzzle_answer(actions)
        if puzzle is not None:
            return self._press_id(puzzle)
        for action in actions:
            if action in set(Answer):
                reply = self._answer_challenge(Answer(action), arg, shown)
                if reply is not None:
                    return reply
        return self._press_id(shown) if shown else self._without_button(actions)

    def _without_button(self, actions: tuple[str, ...]) -> Reply:
        """No such button on the latest message: the same press on the person's game here, so
        that the service does it or says why not (already rolled, no cube in the Crawford
        game); the first that is done, else the first refusal."""
        presses = [Press(a) for a in actions if a in _ON_GAME]
        replies = []
        for action in presses:
            reply = self.service.press_current(self.actor, self.where, action)
            if not reply.ephemeral:
                return reply
            replies.append(reply)
        if replies:
            return replies[0]
        nothing = f"terminal.no_press.{actions[0]}"  # /decline, /cancel, /rematch: say what
        if nothing in CATALOGS[self.lang]:
            return Reply(text=t(nothing, self.lang, undo=typed("undo", self.lang)), ephemeral=True)
        return self._no_button(actions[0])

    def _puzzle_answer(self, actions: tuple[str, ...]) -> str | None:
        """The latest message's cube puzzle button that the press command names."""
        for action in actions:
            answer = _CUBE_ANSWERS.get(Press(action)) if action in set(Press) else None
            if answer is None:
                continue
            custom_id = self._buttons.get(t(CUBE_LABELS[answer], self.lang).lower())
            if custom_id and PuzzleAction.parse(custom_id):
                return custom_id
        return None

    def _answer_challenge(self, answer: Answer, arg: str, shown: str | None) -> Reply | None:
        number = re.fullmatch(r"(?:[^\s:]+:)?#?(\d{1,12})", arg)
        on_screen = ChallengeAction.parse(shown) if shown else None
        return self.service.answer_challenge(
            self.actor,
            self.where,
            answer,
            int(number[1]) if number else None,
            shown=on_screen.challenge_id if on_screen else None,
        )

    def _no_button(self, label: str) -> Reply:
        """Neither a command nor a button: short, pointing to /help; the buttons named only
        when they are few (a long list, 21 points and plays, buried the pointer). A number
        with a numbered menu open is a choice it lacks: the numbers it has."""
        if self._numbered and label.strip().isdigit():
            last = max(int(n) for n in self._numbered)
            key = "terminal.no_choice" if last > 1 else "terminal.no_choice_one"
            return Reply(text=t(key, self.lang, label=quoted(label), last=last), ephemeral=True)
        labels = [self._translated.get(x, {}).get(self.lang, x) for x in self._labels]
        if not labels:
            key = "terminal.no_button_none"
        elif self._selects or len(labels) > LISTED_BUTTONS:
            key = "terminal.no_button_many"  # they are printed just above
        else:
            key = "terminal.no_button"
        buttons = " ".join(f"[{x}]" for x in labels)
        return Reply(text=t(key, self.lang, label=quoted(label), buttons=buttons), ephemeral=True)

    # -- printing -------------------------------------------------------------------------------

    def show(self, reply: Reply) -> None:
        """Print one reply and remember its buttons (the latest message's are the live ones)."""
        if reply.game_id is not None and reply.position_id and not reply.ephemeral:
            self._focus = reply.game_id
        if reply.rows:
            self._buttons = {}
            self._selects = {}
            self._labels = []
            self._puzzle_menu, self._puzzle_answered = None, False
            self._remember(reply.buttons)
            self._numbered = {number: b.custom_id for number, b in numbered_menu(reply)}
            for select in reply.selects:
                if PuzzleAction.parse(select.custom_id):
                    self._puzzle_menu = select.custom_id
                for choice in select.choices:
                    self._selects[choice.value.lower()] = select.custom_id
                    self._labels.append(choice.value)  # a menu's choices are typed as labels
            self._keys = Keys.of(reply, die_chosen=self._die_pressed)
        elif reply.edit and not reply.ephemeral:
            self._buttons, self._selects, self._labels = {}, {}, []
            self._keys, self._puzzle_menu, self._numbered = Keys(), None, {}
        elif reply.image_name == ANSWER_PICTURE:
            self._puzzle_answered = True
        image_path = self._save_image(reply)
        files = self._save_attachments(reply)
        if self.json_mode:
            self._print_json(reply, image_path, files)
        else:
            self._print_reply(reply, image_path, files)
        for extra in reply.followups:  # a tournament's new boards and standings
            self.show(extra)

    def _remember(self, buttons: Iterable[Button]) -> None:
        """The live buttons, typed by their labels in any language (a French player types
        ``Accepter`` on an English player's board), listed in the reader's language."""
        self._translated = {}
        for button in (b for b in buttons if not b.disabled):
            self._buttons.setdefault(button.label.lower(), button.custom_id)
            self._labels.append(button.label)
            self._translated[button.label] = translations(button.label, button.custom_id)
        for label, names in self._translated.items():  # after every label as shown
            for name in names.values():
                self._buttons.setdefault(name.lower(), self._buttons[label.lower()])

    def _save_image(self, reply: Reply) -> str | None:
        if reply.image is None:
            return None
        name = Path(reply.image_name)  # board.png, or an animation (.gif)
        stem, suffix = name.stem, name.suffix or ".png"
        game = f"game{reply.game_id}-" if reply.game_id else ""
        if not self._images_written:  # a restart numbers on from the pictures already there
            self._images_written = last_number(self.images)
        path, self._images_written = write_new(
            self.images, f"{game}{stem}", suffix, reply.image, self._images_written + 1
        )
        return str(path)

    def _save_attachments(self, reply: Reply) -> list[str]:
        """Write every attached file (a .mat export, more pictures) next to the boards."""
        paths = []
        for attachment in reply.attachments:
            name = Path(attachment.name)
            path, _ = write_new(self.images, name.stem, name.suffix, attachment.data)
            paths.append(str(path))
        return paths

    @staticmethod
    def _xgid(reply: Reply) -> str | None:
        """The XGID of the moment shown; null, not the text's "-", when there is none (a
        finished game, or no game)."""
        if not reply.position_id:
            return None
        xgid = xgid_of(reply.position_id, reply.match_id)
        return None if xgid == "-" else xgid

    def web_url(self, reply: Reply) -> str | None:
        """The web page of the board shown (the private link of the person at the keyboard
        when he plays the game), when the web board is on."""
        if self.web is None or reply.game_id is None or not reply.position_id:
            return None
        game_id = reply.game_id
        if game_id not in self._web_players:
            try:
                self._web_players[game_id] = self.service.web_key(game_id).players
            except Exception:  # the database away: the page anyone may watch
                return self.web.game_url(game_id)
        if self.actor.id in self._web_players[game_id]:
            return self.web.player_url(game_id, self.actor.id)
        return self.web.game_url(game_id)

    def _print_json(self, reply: Reply, image: str | None, files: list[str] = ()) -> None:  # type: ignore[assignment]
        obj: dict[str, Any] = {
            "text": self._plain(reply.text),
            "image": image,
            "position_id": reply.position_id,
            "match_id": reply.match_id,
            "xgid": self._xgid(reply),
            "buttons": [b.label for b in reply.buttons if not b.disabled],
            # The whole plays offered (the menu of the message), each as /move takes it.
            "plays": [c.value for select in reply.selects for c in select.choices],
        }
        if files:
            # The first non-picture file (the .mat of /export) is "file"; "files" lists them all.
            obj["file"] = next((f for f in files if not f.endswith(".png")), files[0])
            obj["files"] = list(files)
        menu = numbered_menu(reply)
        if menu:
            obj["menu"] = [f"{number}. {button.label}" for number, button in menu]
        if reply.ephemeral:
            obj["ephemeral"] = True
        if reply.poll is not None:  # a consultation's vote: typed by its number
            obj["poll"] = {
                "question": reply.poll.question,
                "answers": list(reply.poll.answers),
                "closes_at": reply.poll.closes_at.isoformat(),
            }
        url = self.web_url(reply)
        if url is not None:
            obj["web"] = url  # (also in the text when the reply gives the game's link)
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.out.flush()

    def _print_reply(self, reply: Reply, image: str | None, files: list[str] = ()) -> None:  # type: ignore[assignment]
        text = self._plain(reply.text)
        self._print_text(self._only_you(text) if reply.ephemeral else text)
        if reply.position_id and reply.game_id is not None:
            board = reply.board_text or self.service.text_board(
                self.actor, self.where, reply.game_id
            )
            if board:
                self._print_text(board)
        elif reply.board_text:  # a position of no game: a puzzle's, a drill's
            self._print_text(reply.board_text)
        if image:
            self._print_text(t("terminal.image", self.lang, path=image))
        url = self.web_url(reply)
        if url is not None and url not in reply.text:  # not twice (/watch gives it)
            self._print_text(t("web.link", self.lang, url=url))
        for path in files:
            self._print_text(t("terminal.file", self.lang, path=path))
        menu = numbered_menu(reply)
        if menu:  # the choices by number, one a line; the other buttons (Cancel) as usual
            self._print_text(t("terminal.menu", self.lang))
            for number, button in menu:
                self._print_text(f"  {number}. {button.label}")
        in_menu = {button.custom_id for _, button in menu}
        labels = [b.label for b in reply.buttons if not b.disabled and b.custom_id not in in_menu]
        if labels:
            self._print_text(
                t("terminal.buttons", self.lang, buttons="  ".join(f"[{x}]" for x in labels))
            )
        for select in reply.selects:
            self._print_text(
                t("terminal.select", self.lang, plays=" | ".join(c.label for c in select.choices))
            )
        self.out.write("\n")
        self.out.flush()

    def _only_you(self, text: str) -> str:
        """``text`` marked as shown to the person at the keyboard only (Discord's ephemeral)."""
        return t("terminal.private", self.lang) + " " + text

    def _progress(self, text: str) -> None:
        """A progress line: rewritten in place on a terminal, a line of its own otherwise
        (JSON: ``{"progress": text}``)."""
        if self._progress_private and not self.json_mode:
            text = self._only_you(text)
        if self.json_mode:
            self.out.write(json.dumps({"progress": self._plain(text)}, ensure_ascii=False) + "\n")
        elif self._tty():
            self.out.write("\r" + self._plain(text) + "\x1b[K")
            self._progress_shown = True
        else:
            self.out.write(self._plain(text) + "\n")
        self.out.flush()

    def _progress_over(self) -> None:
        """Clear the progress line before the answer is printed where it was."""
        if getattr(self, "_progress_shown", False):
            self.out.write("\r\x1b[K")
            self.out.flush()
            self._progress_shown = False

    def _tty(self) -> bool:
        isatty = getattr(self.out, "isatty", None)
        return bool(isatty and isatty())

    def _print_text(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def _plain(self, text: str) -> str:
        """The text as a terminal shows it: plain, with ``<@id>`` mentions as ``@name``."""

        unknown = {int(i) for i in re.findall(r"<@(\d+)>", text)} - self._names.keys()
        if unknown:  # people this session has not named (/as): the bot knows their names
            with contextlib.suppress(Exception):  # a database away: the ids stay, as before
                found = self.service.names(sorted(unknown))
                self._names.update({i: found.get(i, "") for i in unknown})  # "": asked, none

        def name(m: re.Match[str]) -> str:
            known = self._names.get(int(m[1]))
            return f"@{known}" if known else m[0]

        # A link to the terminal's own channel (/games) opens nothing here: it is this terminal.
        here = t("terminal.here", self.lang)
        text = re.sub(
            rf"https://discord\.com/channels/{TERMINAL_GUILD}/{TERMINAL_CHANNEL}\b(/\d+)?",
            here,
            text,
        )
        return _plain(re.sub(r"<@(\d+)>", name, text))


def write_new(
    folder: Path, stem: str, suffix: str, data: bytes, number: int | None = None
) -> tuple[Path, int]:
    """Write ``data`` to a file of ``folder`` that did not exist, never over another: the
    boards numbered ``stem-0001.png`` on from ``number`` (which goes on after a restart, past
    the files already there), other files ``stem.ext``, else ``stem-2.ext``... Exclusive
    creation, so two processes writing at once cannot take the same name either. Returns the
    path and its number.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> [write_new(folder, "board", ".png", b"x", 1)[0].name for _ in range(2)]
    ['board-0001.png', 'board-0002.png']
    >>> [write_new(folder, "game-1", ".mat", b"x")[0].name for _ in range(2)]
    ['game-1.mat', 'game-1-2.mat']
    """
    folder.mkdir(parents=True, exist_ok=True)
    n = number if number is not None else 1
    for _ in range(1_000_000):
        if number is not None:
            name = f"{stem}-{n:04d}{suffix}"
        else:
            name = f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}"
        path = folder / name
        try:
            with path.open("xb") as f:
                f.write(data)
        except FileExistsError:
            n += 1
            continue
        return path, n
    raise OSError(f"no free file name for {stem}{suffix} in {folder}")


def last_number(folder: Path) -> int:
    """The highest number of the numbered pictures in ``folder`` (``game12-board-0042.png``:
    42), 0 when there is none: the next one takes the number after it.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name in ("game12-board-0042.png", "game13-board-0007.png", "game-12-mistake-1.png"):
    ...     _ = (folder / name).write_bytes(b"x")
    >>> last_number(folder), last_number(folder / "missing")
    (42, 0)
    """
    if not folder.is_dir():
        return 0
    numbers = (re.fullmatch(r".*-(\d{4,})\.(?:png|gif)", p.name) for p in folder.iterdir())
    return max((int(m[1]) for m in numbers if m), default=0)


# One pass: an escaped mark (bot.i18n.markdown.escape_name) is the mark itself, as Discord
# shows it; bold and code marks go.
_MARKDOWN = re.compile(r"\\([\\*_~`|\[\]<>#\-+.:])|\*\*|`")


def _cut_name(name: str) -> str:
    """A local player's name as long as a Discord name may be: ``--user``, ``/as`` and a name
    given to a command (``/challenge``) cut alike, so that they are one person, one id, one
    settings row. A leading ``@`` is how one names a person on Discord: it is not part of the
    name (``/challenge @Rita`` challenges Rita).

    >>> _cut_name(" @Rita "), _cut_name("@")
    ('Rita', '@')
    """
    name = name.strip()
    return (name.removeprefix("@").strip() or name)[:NAME_LENGTH]


def _plain(text: str) -> str:
    """Discord markdown made readable on a terminal: a name written ``**Bold** @everyone`` is
    shown so, without the escapes that keep it plain on Discord.

    >>> from bot.i18n.markdown import escape_name
    >>> print(_plain("**Tournament**: `" + escape_name("Été **bold** @everyone") + "`"))
    Tournament: Été **bold** @everyone
    """
    text = re.sub(r"^-# ", "", text, flags=re.MULTILINE)
    text = re.sub(r"<(https?://[^\s<>]+)>", r"\1", text)  # a link Discord shows without preview
    text = _MARKDOWN.sub(lambda m: m[1] or "", text)
    return text.replace("@\u200b", "@")


@dataclass
class Keys:
    """What the original program's keys do on the latest message: Enter presses ``enter``
    (Roll, or Confirm once the move is complete); while both dice are playable and none has
    been picked by its digit yet, a digit presses that die's button (then digits are points)."""

    enter: str | None = None
    dice: dict[int, str] = field(default_factory=dict)
    die_chosen: bool = False

    @classmethod
    def of(cls, reply: Reply, *, die_chosen: bool) -> Keys:
        keys = cls(die_chosen=die_chosen)
        for button in reply.buttons:
            action = GameAction.parse(button.custom_id)
            if action is None:
                continue
            if action.action in (Press.ROLL, Press.CONFIRM) and not button.disabled:
                keys.enter = button.custom_id
            if action.action is Press.DIE and action.arg and action.arg.isdigit():
                keys.dice[int(action.arg)] = button.custom_id
        return keys


def numbered_menu(reply: Reply) -> list[tuple[str, Button]]:
    """The choices of ``reply`` that the terminal numbers: the Resign button's menu, each by the
    value ``/resign`` takes (1 single game, 2 gammon, 3 backgammon), as the service offers
    them (only what the opponent could still win)."""
    menu = []
    for button in reply.buttons:
        action = GameAction.parse(button.custom_id)
        if action and action.action is Press.RESIGN and action.arg and not button.disabled:
            menu.append((action.arg.partition("-")[0], button))  # "2", or "2-1": a seat's
    return menu


def _is_die(custom_id: str) -> bool:
    action = GameAction.parse(custom_id)
    return action is not None and action.action is Press.DIE

"""The commands, in one table: each command's name, options, the service method it calls and its
line in ``/help``. The Discord adapter registers its slash commands from it, the terminal parses
what is typed with it, and the help lists it, so a command is added here plus its messages
(``cmd.<name>.*`` for Discord's command picker, ``help.<name>`` for ``/help``).

Names are the English ones and the catalog keys; the option's ``arg`` is the keyword of the
service method (its name by default).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal

from bot.i18n import CATALOGS, t
from bot.service.customid import Answer, Press
from bot.service.deps import Settings
from bot.service.settings import LANGUAGE_CHOICES, THEME_CHOICES
from bot.tournaments.actions import ACTIONS as TOURNAMENT_ACTIONS
from bot.tournaments.formats import formats
from engine.bots import LEVELS

__all__ = [
    "COMMANDS",
    "PRESS_COMMANDS",
    "Command",
    "Kind",
    "Label",
    "Option",
    "Surface",
    "by_name",
    "command_name",
    "option_name",
    "press_words",
    "usage",
]

GAME_ID_MAX = 2**53 - 1


class Kind(Enum):
    """The type of an option's value."""

    TEXT = "text"
    INTEGER = "integer"
    FLAG = "flag"
    USER = "user"


class Surface(Enum):
    """Where a command exists: both adapters, or only one."""

    BOTH = "both"
    DISCORD = "discord"
    TERMINAL = "terminal"


@dataclass(frozen=True)
class Label:
    """A choice of an option: its label (a catalog key), its value and other words typed for
    it (the terminal accepts the value, the label in any language and these)."""

    key: str
    value: str | int
    words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Option:
    """One option of a command.

    :param low: the least value of an integer, or the least length of a text.
    :param high: the greatest value, or length.
    :param rest: the terminal gives it the whole rest of the line (a play in notation).
    """

    name: str
    kind: Kind = Kind.TEXT
    required: bool = False
    default: object = None
    arg: str | None = None
    low: int | None = None
    high: int | None = None
    choices: tuple[Label, ...] = ()
    autocomplete: bool = False
    rest: bool = False

    @property
    def keyword(self) -> str:
        return self.arg or self.name


@dataclass(frozen=True)
class Command:
    """One command.

    :param method: the :class:`~bot.service.Service` method it calls, as
        ``method(actor, where, **options)``; None for the terminal's own commands.
    :param private: its answer is only for the person who asked (Discord: ephemeral).
    :param guild_only: usable in server channels only.
    :param help_discord: a help key for Discord when it says more there (autocomplete).
    :param manager: shown by Discord to members who may manage the server only (the service
        checks it again).
    :param lane: heavy analysis: the adapter runs it in that bounded pool of
        :data:`bot.heavy.POOLS` (``analysis`` for reviews, ``hints``), which may answer "busy" at
        once, never in the threads of ordinary interactions.
    """

    name: str
    method: str | None
    options: tuple[Option, ...] = ()
    private: bool = False
    guild_only: bool = False
    surface: Surface = Surface.BOTH
    help_discord: str | None = None
    manager: bool = False
    lane: Literal["analysis", "hints"] | None = None

    @property
    def help(self) -> str:
        return f"help.{self.name}"


_POINTS = Option("points", Kind.INTEGER, default=0, low=0, high=Settings().max_match_length)
_CUBE = Option("cube", Kind.FLAG, default=True)
_GAME = Option("game", Kind.INTEGER, arg="game_id", low=1, high=GAME_ID_MAX)
_USER = Option("user", Kind.USER)
_LEVELS = tuple(Label(f"level.{level}", level) for level in LEVELS)
_RESIGN = (
    Label("resign.single", 1, ("single", "simple")),
    Label("resign.gammon", 2),
    Label("resign.backgammon", 3),
)
_SCOPES = (
    Label("cmd.leaderboard.choice.server", "server"),
    Label("cmd.leaderboard.choice.global", "global"),
)
_LANGUAGES = tuple(Label(f"settings.lang_{code}", code) for code in LANGUAGE_CHOICES)
_THEMES = tuple(Label(f"theme.{name}", name) for name in THEME_CHOICES)
_SETTING = Kind.FLAG
# /tournament: one command, what to do as its first option (the terminal takes it bare:
# "/tournament join").
# Older words still typed: "lancer" was French for start before it became "démarrer" (the
# game's Roll button is "Lancer").
_ACTION_WORDS = {"start": ("lancer",)}
_TOURNAMENT = (
    Option(
        "action",
        required=True,
        choices=tuple(
            Label(f"cmd.tournament.choice.{a}", a, _ACTION_WORDS.get(a, ()))
            for a in TOURNAMENT_ACTIONS
        ),
    ),
    Option("name", low=1, high=100),
    Option(
        "format",
        choices=tuple(Label(f"tournament.format.{f.name}", f.name, f.words) for f in formats()),
    ),
    Option("points", Kind.INTEGER, low=1, high=Settings().max_match_length),
    Option("cube", Kind.FLAG, default=True),
    Option("rated", Kind.FLAG, default=False),
    Option("start", Kind.INTEGER, low=0, high=10080),  # minutes from now
    Option("minutes", Kind.INTEGER, low=5, high=1440),
    Option("rounds", Kind.INTEGER, low=1, high=20),
    Option("limit", Kind.INTEGER, low=2, high=256),
    Option("clock", low=3, high=7),  # "12+2"
    Option("player", Kind.USER),
    Option("tournament", Kind.INTEGER, low=1, high=GAME_ID_MAX),
)

COMMANDS: tuple[Command, ...] = (
    # Playing
    Command(
        "play",
        "play",
        (
            Option("level", choices=_LEVELS, default="intermediate"),
            _POINTS,
            _CUBE,
            # A Position ID (14 characters) or an XGID (about 50)
            Option("position", arg="position_id", low=1, high=80),
            Option("match", arg="match_id", low=1, high=20),  # a Match ID: 12
        ),
    ),
    Command(
        "challenge",
        "challenge",
        (
            Option("opponent", Kind.USER, required=True),
            _POINTS,
            _CUBE,
            Option("rated", Kind.FLAG, default=True),
        ),
        guild_only=True,  # a challenge waits in a channel both players see
    ),
    Command(
        "move",
        "move",
        (
            Option(
                "play", required=True, arg="notation", low=1, high=100, autocomplete=True, rest=True
            ),
        ),
        help_discord="help.move_discord",
    ),
    Command("undo", "undo", (Option("all", Kind.FLAG, default=False, arg="everything"),)),
    Command("board", "board", (_GAME,)),
    # Without a value, /resign asks what to offer (the Resign button's menu).
    Command("resign", "resign", (Option("value", Kind.INTEGER, choices=_RESIGN),)),
    # Analysis
    Command("hint", "hint", private=True, lane="hints"),
    Command("review", "review", (_GAME,), lane="analysis"),
    Command("export", "export", (_GAME,), private=True),
    # Information
    Command("leaderboard", "leaderboard", (Option("scope", default="server", choices=_SCOPES),)),
    Command("stats", "stats", (_USER,)),
    Command("history", "history", private=True),
    Command("rules", "rules", private=True),
    Command("help", "help", private=True),
    # Fair dice
    Command(
        "verify",
        "verify",
        (Option("game", Kind.INTEGER, True, arg="game_id", low=1, high=GAME_ID_MAX),),
    ),
    Command("dice", "dice_stats", (_USER,)),
    # Tournaments
    Command("tournament", "tournament", _TOURNAMENT, guild_only=True),
    # Settings
    Command(
        "settings",
        "settings_command",
        (
            Option("language", choices=_LANGUAGES),
            Option("auto_roll", _SETTING),
            Option("auto_forced", _SETTING),
            Option("mirrored", _SETTING),
            Option("theme", choices=_THEMES),
            # Playing together: "your turn" messages
            Option("notify", _SETTING),
            Option("quiet", low=1, high=20),
            Option("timezone", low=1, high=64),
            Option("puzzles", _SETTING),
        ),
        private=True,
    ),
    # Playing together
    Command("watch", "watch", (_GAME, Option("player", Kind.USER, arg="user")), private=True),
    Command("games", "games", private=True),
    Command(
        "server",
        "server_command",
        (Option("threads", _SETTING),),
        private=True,
        guild_only=True,
        surface=Surface.DISCORD,  # the terminal has no server to set
        manager=True,
    ),
    # Puzzles and the position of the day
    Command("puzzle", "puzzle", (Option("mine", Kind.FLAG, default=False),), private=True),
    Command("puzzle_leaderboard", "puzzle_leaderboard", guild_only=True),
    Command(
        "daily",
        "daily",
        (
            Option("hour", Kind.INTEGER, default=18, low=0, high=23),
            Option("timezone", default="UTC", low=1, high=64),
        ),
        guild_only=True,
        manager=True,
    ),
    # The terminal's own
    Command("as", None, (Option("name", required=True, rest=True),), surface=Surface.TERMINAL),
    Command("quit", None, surface=Surface.TERMINAL),
)


# The terminal's commands that press a button of the latest message (game or challenge).
PRESS_COMMANDS: tuple[str, ...] = (
    Press.ROLL,
    Press.DOUBLE,
    Press.TAKE,
    Press.DROP,
    Press.ACCEPT,
    Press.REJECT,
    Press.CONFIRM,
    Press.REMATCH,
    Answer.DECLINE,
    Answer.CANCEL,
)

# Other names of the press commands: /pass for /drop (a cube puzzle says Pass), /prendre.
_PRESS_ALIASES = {
    "en": {"pass": Press.DROP.value},
    "fr": {"passer": Press.DROP.value, "prendre": Press.TAKE.value},
}


def press_words(lang: str) -> dict[str, tuple[str, ...]]:
    """The words typed for the press commands in ``lang`` (``/double``; ``/doubler``, the
    button's own label, in French) and the actions each may mean, in order: ``accepter`` is
    Take or Accept, whichever the latest message offers."""
    words: dict[str, tuple[str, ...]] = {}
    for action in PRESS_COMMANDS:
        word = str(action) if lang == "en" else t(f"button.{action}", lang).lower()
        if " " not in word:
            words[word] = (*words.get(word, ()), str(action))
    for word, action in _PRESS_ALIASES.get(lang, {}).items():
        words.setdefault(word, (action,))
    return words


def command_name(command: Command, lang: str) -> str:
    """The command's name in ``lang`` (Discord's command picker shows the same)."""
    return _named(f"cmd.{command.name}.name", lang, command.name)


def option_name(command: Command, option: Option, lang: str) -> str:
    """An option's name in ``lang``."""
    return _named(f"cmd.{command.name}.opt.{option.name}.name", lang, option.name)


def usage(command: Command, lang: str) -> str:
    """``/challenge OPPONENT [points]...``: the command as typed, required options in capitals, the
    others in brackets."""
    words = [f"/{command_name(command, lang)}"]
    for option in command.options:
        name = option_name(command, option, lang)
        words.append(name.upper() if option.required else f"[{name}]")
    return " ".join(words)


def _named(key: str, lang: str, fallback: str) -> str:
    # The terminal's own commands have no entry in Discord's command picker, nor in the catalog.
    return t(key, lang) if key in CATALOGS[lang] else fallback


def by_name(name: str) -> Command | None:
    """The command called ``name`` (its English name)."""
    return next((c for c in COMMANDS if c.name == name), None)

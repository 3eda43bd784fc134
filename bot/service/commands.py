"""The commands, in one table: each command's name, options, the use case it runs and its line
in ``/help``. The Discord adapter registers its slash commands from it, the terminal parses what
is typed with it, and the help lists it, so a command is added here plus its use case (a method
of a feature class) and its messages (``cmd.<name>.*`` for Discord's command picker,
``help.<name>`` for ``/help``).

Names are the English ones and the catalog keys; the option's ``arg`` is the keyword of the
use case (its name by default). A row names the method itself (``Info.stats``), so mypy checks
that it exists and ``tests/bot/test_command_table.py`` that its keywords are the options.
"""

from __future__ import annotations

from bot.ladders.rules import ACTIONS as LADDER_ACTIONS
from bot.ladders.running import Ladders
from bot.service.analysis import Analysis
from bot.service.challenges import Challenges
from bot.service.command_spec import Command, Kind, Label, Option, Surface, command_name
from bot.service.consult import Consult
from bot.service.daily import Daily
from bot.service.dashboard import Dashboard
from bot.service.deps import Settings
from bot.service.drills import Drills
from bot.service.games import Games
from bot.service.info import Info
from bot.service.integrity import Integrity
from bot.service.prefs import SETTINGS
from bot.service.puzzles import Puzzles
from bot.service.replays import Replays
from bot.service.rollouts import MAX_SECONDS as ROLLOUT_MAX_SECONDS
from bot.service.rollouts import MAX_SEED as ROLLOUT_MAX_SEED
from bot.service.rollouts import MAX_TRIALS as ROLLOUT_TRIALS
from bot.service.rollouts import MIN_TRIALS as ROLLOUT_LEAST
from bot.service.settings import PlayerSettings
from bot.service.threads import GameThreads
from bot.service.tournaments import Tournaments
from bot.service.watch import Watching
from bot.tournaments.actions import ACTIONS as TOURNAMENT_ACTIONS
from bot.tournaments.formats import formats
from engine import Variant
from engine.bots import LEVELS

__all__ = ["COMMANDS", "GAME_ID_MAX", "by_name", "typed"]

GAME_ID_MAX = 2**53 - 1


def _max_match_length(settings: Settings) -> int:
    # The configured bound, not the class default: see Command.configured.
    return settings.max_match_length


_POINTS = Option("points", Kind.INTEGER, default=0, low=0, high_of=_max_match_length)
_CUBE = Option("cube", Kind.FLAG, default=True)
_GAME = Option("game", Kind.INTEGER, arg="game_id", low=1, high=GAME_ID_MAX)
_USER = Option("user", Kind.USER)
_VARIANT_WORDS = {
    "standard": ("std", "backgammon"),
    "nackgammon": ("nack",),
    "hypergammon": ("hyper",),
}
_VARIANT = Option(
    "variant",
    choices=tuple(Label(f"variant.{v}", v.value, _VARIANT_WORDS[v]) for v in Variant),
    default="standard",
)
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
# /settings: one option per player setting, from the settings table (bot.service.prefs)
_SETTINGS = tuple(
    Option(
        name,
        Kind.FLAG if setting.flag else Kind.TEXT,
        choices=tuple(Label(key, value) for key, value in setting.choices),
        low=setting.low,
        high=setting.high,
    )
    for name, (_, setting) in SETTINGS.items()
)
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
    Option("points", Kind.INTEGER, low=1, high_of=_max_match_length),
    Option("cube", Kind.FLAG, default=True),
    Option("rated", Kind.FLAG, default=False),
    Option("start", Kind.INTEGER, low=0, high=10080),  # minutes from now
    Option("minutes", Kind.INTEGER, low=5, high=1440),
    Option("rounds", Kind.INTEGER, low=1, high=20),
    Option("limit", Kind.INTEGER, low=2, high=256),
    Option("clock", low=3, high=7),  # "12+2"
    Option("player", Kind.USER),
    Option("tournament", Kind.INTEGER, low=1, high=GAME_ID_MAX),
    Option("variant", choices=_VARIANT.choices),
)

# /ladder: the shape of /tournament (the terminal takes the action bare: "/ladder join").
_LADDER = (
    Option(
        "action",
        required=True,
        choices=tuple(Label(f"cmd.ladder.choice.{a}", a) for a in LADDER_ACTIONS),
    ),
    Option("name", low=1, high=100),
    Option("points", Kind.INTEGER, low=0, high_of=_max_match_length),
    Option("cube", Kind.FLAG, default=True),
    Option("rated", Kind.FLAG, default=False),
    Option("reach", Kind.INTEGER, low=1, high=10),
    Option("hours", Kind.INTEGER, low=1, high=720),
    Option("inactive", Kind.INTEGER, low=0, high=365),
    Option("player", Kind.USER),
    Option("ladder", Kind.INTEGER, low=1, high=GAME_ID_MAX),
    Option("variant", choices=_VARIANT.choices),
)

COMMANDS: tuple[Command, ...] = (
    # Playing
    Command(
        "play",
        Games.play,
        (
            Option("level", choices=_LEVELS, default="intermediate"),
            _POINTS,
            _CUBE,
            # A Position ID (14 characters) or an XGID (about 50)
            Option("position", arg="position_id", low=1, high=80),
            Option("match", arg="match_id", low=1, high=20),  # a Match ID: 12
            _VARIANT,
        ),
    ),
    Command(
        "challenge",
        Challenges.challenge,
        (
            Option("opponent", Kind.USER, required=True),
            _POINTS,
            _CUBE,
            Option("rated", Kind.FLAG, default=True),
            _VARIANT,
        ),
        guild_only=True,  # a challenge waits in a channel both players see
    ),
    Command(
        "move",
        Games.move,
        (
            Option(
                "play", required=True, arg="notation", low=1, high=100, autocomplete=True, rest=True
            ),
        ),
        help_discord="help.move_discord",
    ),
    Command("undo", Games.undo, (Option("all", Kind.FLAG, default=False, arg="everything"),)),
    Command("board", Games.board, (_GAME,)),
    # Without a value, /resign asks what to offer (the Resign button's menu).
    Command("resign", Games.resign, (Option("value", Kind.INTEGER, choices=_RESIGN),)),
    # Analysis
    # With rollout (trials), the decision rolled out: the reviews' lane and limits.
    Command(
        "hint",
        Analysis.hint,
        (
            Option("rollout", Kind.INTEGER, low=ROLLOUT_LEAST, high=ROLLOUT_TRIALS),
            Option("truncate", Kind.INTEGER, low=1, high=99),
            Option("seed", Kind.INTEGER, low=0, high=ROLLOUT_MAX_SEED),
            Option("vr", Kind.FLAG),
            Option("seconds", Kind.INTEGER, low=1, high=ROLLOUT_MAX_SECONDS),
            Option("cubeful", Kind.FLAG),
        ),
        private=True,
        lane="hints",
        heavier=("rollout", "truncate", "seed", "vr", "seconds", "cubeful"),
    ),
    # With rollout (trials), the worst checker-play mistakes rolled out too.
    Command(
        "review",
        Analysis.review,
        (_GAME, Option("rollout", Kind.INTEGER, low=ROLLOUT_LEAST, high=ROLLOUT_TRIALS)),
        lane="analysis",
    ),
    Command("export", Analysis.export, (_GAME,), private=True),
    # A whole game drawn frame by frame: the heavy lane (hundreds of pictures).
    Command("replay", Replays.replay, (_GAME,), lane="analysis"),
    # Information
    Command(
        "leaderboard",
        Info.leaderboard,
        (Option("scope", default="server", choices=_SCOPES), _VARIANT),
    ),
    Command("stats", Info.stats, (_USER,)),
    Command("history", Info.history, private=True),
    Command("rules", Info.rules, private=True),
    Command("help", Info.help, private=True),
    # Fair dice
    Command(
        "verify",
        Integrity.verify,
        (Option("game", Kind.INTEGER, True, arg="game_id", low=1, high=GAME_ID_MAX),),
    ),
    Command("dice", Integrity.dice_stats, (_USER,)),
    # Tournaments
    Command("tournament", Tournaments.tournament, _TOURNAMENT, guild_only=True),
    # Ladders
    Command("ladder", Ladders.ladder, _LADDER, guild_only=True),
    # Settings
    Command(
        "settings",
        PlayerSettings.settings_command,
        _SETTINGS,
        private=True,
    ),
    # Playing together
    Command(
        "watch", Watching.watch, (_GAME, Option("player", Kind.USER, arg="user")), private=True
    ),
    Command("games", Dashboard.games, private=True),
    Command(
        "server",
        GameThreads.server_command,
        (Option("threads", Kind.FLAG),),
        private=True,
        guild_only=True,
        surface=Surface.DISCORD,  # the terminal has no server to set
        manager=True,
    ),
    # Puzzles and the position of the day
    Command("puzzle", Puzzles.puzzle, (Option("mine", Kind.FLAG, default=False),), private=True),
    Command("puzzle_leaderboard", Puzzles.puzzle_leaderboard, guild_only=True),
    Command(
        "daily",
        Daily.daily,
        (
            Option("hour", Kind.INTEGER, default=18, low=0, high=23),
            Option("timezone", default="UTC", low=1, high=64),
        ),
        guild_only=True,
        manager=True,
    ),
    # Drills of one's own blunders (issue 32)
    Command("drill", Drills.drill, (Option("week", Kind.FLAG, default=False),), private=True),
    # The server against the computer (issue 32): a channel's team, every decision a vote
    Command(
        "consult",
        Consult.consult,
        (
            Option("level", choices=_LEVELS, default="intermediate"),
            _POINTS,
            Option("minutes", Kind.INTEGER, default=5, low=1, high=1440),
        ),
        guild_only=True,
    ),
    Command(
        "vote",
        Consult.vote,
        (
            Option("choice", Kind.INTEGER, low=1, high=10),
            Option("close", Kind.FLAG, default=False),
        ),
        guild_only=True,  # a vote is answered privately; closing it shows the board to all
    ),
    # The terminal's own
    Command("as", None, (Option("name", required=True, rest=True),), surface=Surface.TERMINAL),
    Command("quit", None, surface=Surface.TERMINAL),
)


def by_name(name: str) -> Command | None:
    """The command called ``name`` (its English name)."""
    return next((c for c in COMMANDS if c.name == name), None)


def typed(name: str, lang: str) -> str:
    """The command called ``name`` as a person types it in ``lang``, for a message that names
    it (``/undo``, ``/reprendre``).

    >>> typed("undo", "en"), typed("undo", "fr"), typed("nosuch", "fr")
    ('/undo', '/reprendre', '/nosuch')
    """
    command = by_name(name)
    return f"/{command_name(command, lang)}" if command else f"/{name}"

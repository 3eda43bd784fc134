"""The shape of a command of the table (:mod:`bot.service.commands`): its options, their kinds
and choices, its names in each language and its usage line. Light on purpose: the use cases
that show commands (``/help``) and the terminal's parsing read it without the table, which
names the use cases themselves."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Literal

from bot.i18n import CATALOGS, t
from bot.service.customid import Answer, Press

if TYPE_CHECKING:
    from bot.service.deps import Settings
    from bot.service.replies import Reply

__all__ = [
    "PRESS_COMMANDS",
    "Command",
    "Kind",
    "Label",
    "Option",
    "Surface",
    "command_name",
    "option_name",
    "press_words",
    "usage",
]


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
    :param high_of: the greatest value from the running bot's settings, over ``high`` (the
        match length the operator allows): see :meth:`Command.configured`.
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
    high_of: Callable[[Settings], int] | None = None

    @property
    def keyword(self) -> str:
        return self.arg or self.name

    def configured(self, settings: Settings) -> Option:
        """The option with its bounds under ``settings``."""
        if self.high_of is None:
            return self
        return replace(self, high=self.high_of(settings))


@dataclass(frozen=True)
class Command:
    """One command.

    :param method: the use case it runs, a method of one of the service's feature classes
        (``Info.stats``), called by :meth:`~bot.service.Service.run` as
        ``method(feature, actor, where, **options)``; None for the terminal's own commands.
    :param private: its answer is only for the person who asked (Discord: ephemeral).
    :param guild_only: usable in server channels only.
    :param help_discord: a help key for Discord when it says more there (autocomplete).
    :param manager: shown by Discord to members who may manage the server only (the service
        checks it again).
    :param lane: heavy analysis: the adapter runs it in that bounded pool of
        :data:`bot.heavy.POOLS` (``analysis`` for reviews, ``hints``), which may answer "busy" at
        once, never in the threads of ordinary interactions.
    :param heavier: keywords of options that, when given a value, send the command to the
        ``analysis`` lane instead (``/hint rollout:N``): see :meth:`lane_for`.
    """

    name: str
    method: Callable[..., Reply] | None
    options: tuple[Option, ...] = ()
    private: bool = False
    guild_only: bool = False
    surface: Surface = Surface.BOTH
    help_discord: str | None = None
    manager: bool = False
    lane: Literal["analysis", "hints"] | None = None
    heavier: tuple[str, ...] = ()

    def lane_for(self, values: Mapping[str, object]) -> Literal["analysis", "hints"] | None:
        """The lane of one use of the command, by its options' values (keywords).

        >>> c = Command("hint", None, (Option("rollout", Kind.INTEGER),), lane="hints",
        ...             heavier=("rollout",))
        >>> c.lane_for({"rollout": None}), c.lane_for({"rollout": 36})
        ('hints', 'analysis')
        """
        if any(values.get(k) is not None for k in self.heavier):
            return "analysis"
        return self.lane

    @property
    def help(self) -> str:
        return f"help.{self.name}"

    def configured(self, settings: Settings) -> Command:
        """The command as the running bot offers it: its options bounded by ``settings``
        (Discord registers it so, the terminal parses with it)."""
        return replace(self, options=tuple(o.configured(settings) for o in self.options))


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

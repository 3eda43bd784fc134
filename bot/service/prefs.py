"""The player settings, in one table: each is one field of :class:`Prefs` declaring its type,
its default and how it is offered (the ``/settings`` option of the same name, its choices), checked
(a refusal saying what is accepted), read back from storage and shown. ``/settings``, its command
options, its reply and the terminal derive from it, so a setting is added here plus its messages
(``cmd.settings.opt.<name>.*`` and its place in ``settings.text``). Settings are stored as JSON
on the player's row (``preferences``): a new one needs no column.

Every accepted value comes from where it is defined (the catalog's languages, the renderer's
themes), so a new language or theme is choosable at once."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import Field, dataclass, field, fields
from typing import Any, TypeVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.i18n import CATALOGS, LANGUAGES, language, t
from bot.service.refusal import Refusal
from render import THEMES

__all__ = [
    "AUTO",
    "DEFAULT_THEME",
    "LANGUAGE_CHOICES",
    "SETTINGS",
    "THEME_CHOICES",
    "Prefs",
    "Setting",
    "theme_label",
]

T = TypeVar("T")

DEFAULT_THEME = "classic"  # render.BoardView's default
AUTO = "auto"
LANGUAGE_CHOICES = (*LANGUAGES, AUTO)
THEME_CHOICES = tuple(THEMES)
OFF = ("off", "none", "no", "non", "aucune", "-")
_HOURS = re.compile(r"\s*(\d{1,2})(?::00)?\s*-\s*(\d{1,2})(?::00)?\s*")
_HOUR = re.compile(r"\s*(\d{1,2})\s*(?::00|h|h00)?\s*", re.IGNORECASE)
_SPEC = "setting"


@dataclass(frozen=True)
class Setting:
    """How one player setting is offered, checked, read back and shown.

    :param name: its ``/settings`` option (catalog ``cmd.settings.opt.<name>.*``) and its
        placeholder in ``settings.text`` or ``settings.notify_text``.
    :param shown: its value as ``/settings`` shows it, in a language.
    :param flag: a yes/no (else a text).
    :param choices: the values offered, with their label's catalog key: ``(key, value)``.
    :param given: the value typed -> the value stored (None removes it); a bad value raises a
        :class:`Refusal` saying what is accepted.
    :param stored: the stored value (the default when absent) -> its value; a bad one is
        forgotten, never an error.
    :param low: the least length of a typed text; ``high``: the greatest.
    """

    name: str
    shown: Callable[[Any, str], str]
    flag: bool = True
    choices: tuple[tuple[str, str], ...] = ()
    given: Callable[[Any], object] = bool
    stored: Callable[[Any], Any] = bool
    low: int | None = None
    high: int | None = None


def _setting(default: T, spec: Setting) -> T:
    # A dataclass field carrying its row: mypy sees the default's type, fields() the row.
    return field(default=default, metadata={_SPEC: spec})


def theme_label(theme: str, lang: str) -> str:
    """A theme's name in ``lang`` (its own name until the catalog has one)."""
    key = f"theme.{theme}"
    return t(key, lang) if key in CATALOGS[lang] else theme


def _on_off(value: object, lang: str) -> str:
    return t("settings.on" if value else "settings.off", lang)


def _flag(name: str) -> Setting:
    return Setting(name, _on_off)


def _language(value: object) -> str | None:
    if value not in LANGUAGE_CHOICES:
        raise Refusal("error.language", values=", ".join(LANGUAGE_CHOICES))
    return None if value == AUTO else str(value)


def _theme(value: object) -> str:
    if value not in THEME_CHOICES:
        raise Refusal("error.theme", values=", ".join(THEME_CHOICES))
    return str(value)


def _quiet(text: str) -> list[int] | None:
    """``22-08`` (from 22:00 to 08:00) or ``off``."""
    if text.strip().lower() in OFF:
        return None
    m = _HOURS.fullmatch(text)
    if m is None:
        raise Refusal("error.quiet_hours", value=text[:40])
    start, end = int(m[1]), int(m[2])
    if start > 23 or end > 23 or start == end:
        raise Refusal("error.quiet_hours", value=text[:40])
    return [start, end]


def _zone(text: str) -> str | None:
    """An IANA zone such as ``Europe/Paris`` (UTC or ``off``: None)."""
    name = text.strip()
    if name.lower() in OFF or name.upper() == "UTC":
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise Refusal("error.timezone", value=name[:60]) from None
    return name


def _drill_hour(text: str) -> int | None:
    """The hour of the daily drill, ``9`` (``9:00``, ``9h``) in the player's time zone, or
    ``off``."""
    if text.strip().lower() in OFF:
        return None
    m = _HOUR.fullmatch(text)
    if m is None or int(m[1]) > 23:
        raise Refusal("error.drill_hour", value=text[:40])
    return int(m[1])


def _hour(value: Any) -> int | None:
    """A stored hour (0 to 23), or None when absent or malformed."""
    return value if type(value) is int and 0 <= value <= 23 else None


def _hours(value: Any) -> tuple[int, int] | None:
    """Stored quiet hours ``[from, to]``, or None when absent or malformed."""
    if isinstance(value, list | tuple) and len(value) == 2:
        a, b = value
        if isinstance(a, int) and isinstance(b, int) and 0 <= a < 24 and 0 <= b < 24 and a != b:
            return a, b
    return None


_LANGUAGE = Setting(
    "language",
    lambda lang_, lang: t(f"settings.lang_{lang_ or AUTO}", lang),
    False,
    tuple((f"settings.lang_{code}", code) for code in LANGUAGE_CHOICES),
    _language,
    lambda value: value if value in LANGUAGES else None,
)
_THEME = Setting(
    "theme",
    theme_label,
    False,
    tuple((f"theme.{name}", name) for name in THEME_CHOICES),
    _theme,
    lambda value: value if value in THEMES else DEFAULT_THEME,
)
_QUIET = Setting(
    "quiet",
    lambda hours, lang: f"{hours[0]:02d}-{hours[1]:02d}" if hours else t("settings.off", lang),
    False,
    given=_quiet,
    stored=_hours,
    low=1,
    high=20,
)
_TIMEZONE = Setting(
    "timezone",
    lambda zone, lang: zone or "UTC",
    False,
    given=_zone,
    stored=lambda value: value if isinstance(value, str) else None,
    low=1,
    high=64,
)
_DRILLS = Setting(
    "drills",
    lambda hour, lang: f"{hour:02d}:00" if hour is not None else t("settings.off", lang),
    False,
    given=_drill_hour,
    stored=_hour,
    low=1,
    high=10,
)


@dataclass(frozen=True)
class Prefs:
    """A player's settings (stored as JSON on his player row), in the order ``/settings``
    offers them.

    :param lang: one of :data:`bot.i18n.LANGUAGES`, or None to follow Discord's locale.
    :param auto_roll: roll at once when there is no cube decision to make.
    :param auto_forced: play a forced move (the only legal play) automatically.
    :param mirrored: draw the home board on the left.
    :param theme: the board's colours, one of :data:`render.THEMES`.
    :param notify: a DM when a game between people waits for him ("your turn").
    :param quiet: quiet hours ``(from, to)`` in his time zone (no notice then), or None.
    :param timezone: his IANA time zone (``Europe/Paris``), or None for UTC.
    :param puzzles: his blunders may become (anonymous) puzzles for others.
    :param drills: the hour (0 to 23, his time zone) of his daily drill message of his own
        blunders (``/drill``), or None for none.
    """

    lang: str | None = _setting(None, _LANGUAGE)
    auto_roll: bool = _setting(True, _flag("auto_roll"))
    auto_forced: bool = _setting(True, _flag("auto_forced"))
    mirrored: bool = _setting(False, _flag("mirrored"))
    theme: str = _setting(DEFAULT_THEME, _THEME)
    notify: bool = _setting(False, _flag("notify"))
    quiet: tuple[int, int] | None = _setting(None, _QUIET)
    timezone: str | None = _setting(None, _TIMEZONE)
    puzzles: bool = _setting(True, _flag("puzzles"))
    drills: int | None = _setting(None, _DRILLS)

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Prefs:
        data = data or {}
        return cls(**{f.name: spec.stored(data.get(f.name, f.default)) for f, spec in _rows()})

    def language(self, locale: str | None) -> str:
        """The language to answer in: the setting, else the Discord locale."""
        return self.lang or language(locale)

    def shown(self, lang: str) -> dict[str, str]:
        """Every setting as ``/settings`` shows it, by option name."""
        return {spec.name: spec.shown(getattr(self, f.name), lang) for f, spec in _rows()}


def _rows() -> list[tuple[Field[Any], Setting]]:
    return [(f, f.metadata[_SPEC]) for f in fields(Prefs)]


SETTINGS: dict[str, tuple[str, Setting]] = {spec.name: (f.name, spec) for f, spec in _rows()}
"""The player settings by option name: the :class:`Prefs` field (the stored key) and the row."""

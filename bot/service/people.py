"""Who acts and where: the service's view of Discord users, channels and preferences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.i18n import LANGUAGES, language
from render import THEMES

__all__ = ["DEFAULT_THEME", "Actor", "Prefs", "Where"]

DEFAULT_THEME = "classic"  # render.BoardView's default


@dataclass(frozen=True)
class Actor:
    """The person behind an action. ``locale`` is Discord's ``interaction.locale`` (or the
    terminal's language); ``is_bot`` marks bot accounts, which cannot be challenged;
    ``organizer``: the adapter found he may organize tournaments here (Manage Server or the
    configured role; the terminal's local player always may); ``session_lang``: a language
    asked for this session only (the terminal's ``--lang``), over the person's setting."""

    id: int
    name: str
    locale: str | None = None
    is_bot: bool = False
    organizer: bool = False
    session_lang: str | None = None

    def lang(self, prefs: Prefs) -> str:
        """The language to answer him in: the session's, else his setting, else the locale."""
        return self.session_lang or prefs.language(self.locale)


@dataclass(frozen=True)
class Where:
    """Where an action happens: a guild channel, or a DM (``guild_id`` None).

    :param threads: the adapter can open a thread from a message here (a server's text
        channel where the bot may create public threads; never a thread, a DM or a user
        install).
    :param manager: the person may change the server's settings (Manage Server).
    :param focus: the game whose board the person was shown last here (the terminal's latest
        board, see ``/board game:N``): the commands on "your game" (``/move``, ``/undo``,
        ``/resign``, ``/hint``...) act on it while he plays it and it goes on; None (Discord):
        his game in this channel.
    """

    channel_id: int | None = None
    guild_id: int | None = None
    guild_locale: str | None = None
    threads: bool = False
    manager: bool = False
    focus: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None


@dataclass(frozen=True)
class Prefs:
    """A player's settings (stored as JSON on his player row).

    :param lang: one of :data:`bot.i18n.LANGUAGES`, or None to follow Discord's locale.
    :param auto_roll: roll at once when there is no cube decision to make.
    :param auto_forced: play a forced move (the only legal play) automatically.
    :param mirrored: draw the home board on the left.
    :param theme: the board's colours, one of :data:`render.THEMES`.
    :param notify: a DM when a game between people waits for him ("your turn").
    :param quiet: quiet hours ``(from, to)`` in his time zone (no notice then), or None.
    :param timezone: his IANA time zone (``Europe/Paris``), or None for UTC.
    :param puzzles: his blunders may become (anonymous) puzzles for others.
    """

    lang: str | None = None
    auto_roll: bool = True
    auto_forced: bool = True
    mirrored: bool = False
    theme: str = DEFAULT_THEME
    notify: bool = False
    quiet: tuple[int, int] | None = None
    timezone: str | None = None
    puzzles: bool = True

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Prefs:
        data = data or {}
        lang = data.get("lang")
        theme = data.get("theme")
        return cls(
            lang=lang if lang in LANGUAGES else None,
            auto_roll=bool(data.get("auto_roll", True)),
            auto_forced=bool(data.get("auto_forced", True)),
            mirrored=bool(data.get("mirrored", False)),
            theme=theme if theme in THEMES else DEFAULT_THEME,
            notify=bool(data.get("notify", False)),
            quiet=_hours(data.get("quiet")),
            timezone=data.get("timezone") if isinstance(data.get("timezone"), str) else None,
            puzzles=bool(data.get("puzzles", True)),
        )

    def language(self, locale: str | None) -> str:
        """The language to answer in: the setting, else the Discord locale."""
        return self.lang or language(locale)


def _hours(value: Any) -> tuple[int, int] | None:
    """Stored quiet hours ``[from, to]``, or None when absent or malformed."""
    if isinstance(value, list | tuple) and len(value) == 2:
        a, b = value
        if isinstance(a, int) and isinstance(b, int) and 0 <= a < 24 and 0 <= b < 24 and a != b:
            return a, b
    return None

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
    terminal's language); ``is_bot`` marks bot accounts, which cannot be challenged."""

    id: int
    name: str
    locale: str | None = None
    is_bot: bool = False


@dataclass(frozen=True)
class Where:
    """Where an action happens: a guild channel, or a DM (``guild_id`` None)."""

    channel_id: int | None = None
    guild_id: int | None = None
    guild_locale: str | None = None

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
    :param puzzles: his blunders may become (anonymous) puzzles for others.
    """

    lang: str | None = None
    auto_roll: bool = True
    auto_forced: bool = True
    mirrored: bool = False
    theme: str = DEFAULT_THEME
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
            puzzles=bool(data.get("puzzles", True)),
        )

    def language(self, locale: str | None) -> str:
        """The language to answer in: the setting, else the Discord locale."""
        return self.lang or language(locale)

"""A player's settings: ``/settings`` shows them, or changes those given. Every accepted value
comes from where it is defined (the catalog's languages, the renderer's themes), so a new
language or theme is choosable at once."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import CATALOGS, LANGUAGES, t
from bot.service.deps import Deps, answers
from bot.service.notices import notify_changes, notify_text
from bot.service.people import Actor, Prefs, Where
from bot.service.refusal import Refusal
from bot.service.replies import Reply
from db import players as player_repo
from render import THEMES

__all__ = ["LANGUAGE_CHOICES", "THEME_CHOICES", "PlayerSettings", "theme_label"]

AUTO = "auto"
LANGUAGE_CHOICES = (*LANGUAGES, AUTO)
THEME_CHOICES = tuple(THEMES)


def theme_label(theme: str, lang: str) -> str:
    """A theme's name in ``lang`` (its own name until the catalog has one)."""
    key = f"theme.{theme}"
    return t(key, lang) if key in CATALOGS[lang] else theme


class PlayerSettings:
    """``/settings``."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    @answers
    def settings_command(
        self,
        actor: Actor,
        where: Where,
        *,
        language: str | None = None,
        auto_roll: bool | None = None,
        auto_forced: bool | None = None,
        mirrored: bool | None = None,
        theme: str | None = None,
        notify: bool | None = None,
        quiet: str | None = None,
        timezone: str | None = None,
        puzzles: bool | None = None,
    ) -> Reply:
        """``/settings``: show or change the player's settings."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            changes = _changes(language, theme)
            changes.update(notify_changes(notify, quiet, timezone))
            for key, value in (
                ("auto_roll", auto_roll),
                ("auto_forced", auto_forced),
                ("mirrored", mirrored),
                ("puzzles", puzzles),
            ):
                if value is not None:
                    changes[key] = bool(value)
            prefs = who.prefs
            if changes:
                prefs = Prefs.from_json(player_repo.set_preferences(s, actor.id, **changes))
        # A language just chosen answers at once, over a language the session was given.
        chosen = replace(actor, session_lang=None) if "lang" in changes else actor
        return _shown(prefs, chosen.lang(prefs), saved=bool(changes))


def _changes(language: str | None, theme: str | None) -> dict[str, object]:
    """The language and theme asked for; an unknown value is refused with the accepted ones."""
    changes: dict[str, object] = {}
    if language is not None:
        if language not in LANGUAGE_CHOICES:
            raise Refusal("error.language", values=", ".join(LANGUAGE_CHOICES))
        changes["lang"] = None if language == AUTO else language
    if theme is not None:
        if theme not in THEME_CHOICES:
            raise Refusal("error.theme", values=", ".join(THEME_CHOICES))
        changes["theme"] = theme
    return changes


def _shown(prefs: Prefs, lang: str, *, saved: bool) -> Reply:
    yes, no = t("settings.on", lang), t("settings.off", lang)
    text = t(
        "settings.text",
        lang,
        language=t(f"settings.lang_{prefs.lang or AUTO}", lang),
        auto_roll=yes if prefs.auto_roll else no,
        auto_forced=yes if prefs.auto_forced else no,
        mirrored=yes if prefs.mirrored else no,
        theme=theme_label(prefs.theme, lang),
        puzzles=yes if prefs.puzzles else no,
    )
    text += "\n" + notify_text(prefs, lang)
    if saved:
        text = t("settings.saved", lang) + "\n" + text
    return Reply(text=text, ephemeral=True)

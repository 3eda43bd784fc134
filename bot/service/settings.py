"""A player's settings: ``/settings`` shows them, or changes those given. Which settings there
are, their values and how they are shown come from the settings table
(:mod:`bot.service.prefs`)."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import t
from bot.service.deps import Deps, answers
from bot.service.people import Actor, Prefs, Where
from bot.service.prefs import LANGUAGE_CHOICES, SETTINGS, THEME_CHOICES, theme_label
from bot.service.replies import Reply
from db import players as player_repo

__all__ = ["LANGUAGE_CHOICES", "THEME_CHOICES", "PlayerSettings", "theme_label"]


class PlayerSettings:
    """``/settings``."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    @answers
    def settings_command(self, actor: Actor, /, where: Where, **given: object) -> Reply:
        """``/settings``: show or change the player's settings (``given`` by option name, None
        for those left as they are)."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            changes = _changes(given)
            prefs = who.prefs
            if changes:
                prefs = Prefs.from_json(player_repo.set_preferences(s, actor.id, **changes))
        # A language just chosen answers at once, over a language the session was given.
        chosen = replace(actor, session_lang=None) if "lang" in changes else actor
        return _shown(prefs, chosen.lang(prefs), saved=bool(changes))


def _changes(given: dict[str, object]) -> dict[str, object]:
    """The stored values of the settings given, in the table's order; a bad value is refused
    with the accepted ones."""
    unknown = given.keys() - SETTINGS.keys()
    if unknown:  # a caller's mistake, as for any unknown keyword
        raise TypeError(f"settings_command() got unknown settings {sorted(unknown)}")
    changes: dict[str, object] = {}
    for name, (key, setting) in SETTINGS.items():
        value = given.get(name)
        if value is not None:
            changes[key] = setting.given(value)
    return changes


def _shown(prefs: Prefs, lang: str, *, saved: bool) -> Reply:
    values = prefs.shown(lang)
    text = t("settings.text", lang, **values) + "\n" + t("settings.notify_text", lang, **values)
    if saved:
        text = t("settings.saved", lang) + "\n" + text
    return Reply(text=text, ephemeral=True)

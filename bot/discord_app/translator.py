"""Command names and descriptions from the message catalog, through discord.py's translator.

Every name, description and choice of a slash command is a :func:`ls` string: its English text
(what Discord shows by default) with the catalog key in its extras. At sync time discord.py asks
:class:`CatalogTranslator` for each Discord locale, and the French catalog answers for ``fr``.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.i18n import DEFAULT, LANGUAGES, language, t

__all__ = ["LOCALES", "CatalogTranslator", "ls"]

# Discord locales that get their own strings (every catalog language but the default); every
# other locale sees the English defaults. Discord's locale codes start with the language code.
LOCALES: dict[discord.Locale, str] = {
    locale: language(locale.value)
    for locale in discord.Locale
    if language(locale.value) != DEFAULT and locale.value.split("-")[0] in LANGUAGES
}


def ls(key: str) -> app_commands.locale_str:
    """A command string: the English message ``key``, translated at sync time."""
    return app_commands.locale_str(t(key, DEFAULT), key=key)


class CatalogTranslator(app_commands.Translator):
    """Translates :func:`ls` strings from the bot's catalog (French for ``fr``)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = LOCALES.get(locale)
        if key is None or lang is None:
            return None
        return t(key, lang)

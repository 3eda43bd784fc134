"""The message catalog: every word the bot shows a person, in English and French.

Handlers never build user-facing text themselves; they name a message and its values:

>>> t("game.your_turn", "fr", name="Alice")
'Alice, à vous de jouer.'
>>> t("game.your_turn", "en", name="Alice")
'Alice, your turn.'

Engine refusals carry a code (``illegal.blocked`` ...) and parameters; :func:`error_text` shows
them in the player's language.
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from bot.i18n import en, fr
from bot.i18n.markdown import NAME_PARAMS, RAW_MESSAGES, escape_code, escape_name

__all__ = ["CATALOGS", "DEFAULT", "LANGUAGES", "Text", "error_text", "language", "t"]

# The one list of languages: a language is its catalog module here (and its messages).
CATALOGS: dict[str, Mapping[str, str]] = {"en": en.MESSAGES, "fr": fr.MESSAGES}
LANGUAGES = tuple(CATALOGS)
DEFAULT = "en"


def language(locale: str | None) -> str:
    """The catalog language for a Discord locale or a language setting: French for any
    ``fr`` locale (``fr``, ``fr-FR``, ``fr_CA``...), English otherwise.

    >>> language("fr-FR"), language("en-US"), language(None), language("de")
    ('fr', 'en', 'en', 'en')
    """
    if not locale:
        return DEFAULT
    code = str(locale).replace("_", "-").split("-")[0].lower()
    return code if code in CATALOGS else DEFAULT


class _Strict(dict[str, object]):
    def __missing__(self, key: str) -> object:
        raise KeyError(f"message parameter {key!r} is missing")


def t(key: str, lang: str = DEFAULT, /, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in.

    :raises KeyError: for an unknown key or a missing parameter (a bug, caught by the tests).
    """
    catalog = CATALOGS.get(lang, CATALOGS[DEFAULT])
    return string.Formatter().vformat(catalog[key], (), _Strict(_plain(key, params)))


def _plain(key: str, params: dict[str, object]) -> dict[str, object]:
    """The parameters with every person's name escaped for Discord markdown, and a person's
    input made safe in the code span of an engine refusal (see :mod:`bot.i18n.markdown`)."""
    if key in RAW_MESSAGES:
        return params
    out = dict(params)
    for name, value in params.items():
        if name in NAME_PARAMS and isinstance(value, str):
            out[name] = escape_name(value)
    if key.startswith("engine."):
        for name in _INPUT_PARAMS:  # what the player wrote, quoted in a code span
            if isinstance(params.get(name), str):
                out[name] = escape_code(str(params[name]))
    return out


_INPUT_PARAMS = ("text", "rest")


class Text:
    """A message not yet rendered: the key and its values, rendered later in a language."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params

    def render(self, lang: str) -> str:
        values = {k: v.render(lang) if isinstance(v, Text) else v for k, v in self.params.items()}
        return t(self.key, lang, **values)

    def __repr__(self) -> str:
        return f"Text({self.key!r}, **{self.params!r})"


def error_text(error: Exception, lang: str) -> str:
    """A refusal from the engine (or a ValueError of ours) in the player's language.

    >>> from engine import IllegalPlayError
    >>> error_text(IllegalPlayError("x", code="illegal.blocked", text="13/7", point=7), "fr")
    '`13/7` : votre point 7 est tenu par l’adversaire.'
    """
    code = getattr(error, "code", None)
    params = getattr(error, "params", {}) or {}
    key = f"engine.{code}"
    catalog = CATALOGS.get(lang, CATALOGS[DEFAULT])
    if code and key in catalog:
        try:
            return t(key, lang, **params)
        except KeyError:
            pass
    return t("error.generic", lang, detail=str(error))

"""The message catalog: every word the bot shows a person, in English and French.

Handlers never build user-facing text themselves; they name a message and its values:

>>> t("game.your_turn", "fr", name="Alice")
'Alice, à vous de jouer.'
>>> t("game.your_turn", "en", name="Alice")
'Alice, your turn.'

Engine refusals carry a code (``illegal.blocked`` ...) and parameters; :func:`error_text` shows
them in the player's language.

Two things are written the language's way inside a message: a plural, as
``{points} {points:point|points}`` (the singular, then the plural; French counts 0 and 1 as
singular, English only 1), and a decimal number (a float: ``{rate:.1f}`` is ``69.8`` in
English, ``69,8`` in French; :func:`number` for one computed outside a message):

>>> t("game.won_single", "en", name="Ann", points=1)
'🏁 **Ann** wins a single game: 1 point.'
>>> t("game.won_single", "fr", name="Ann", points=2)
'🏁 **Ann** gagne une partie simple : 2 points.'
>>> number(69.8, ".1f", "fr"), number(-0.25, "+.3f", "en")
('69,8', '-0.250')
"""

from __future__ import annotations

import string
from collections.abc import Mapping

from bot.i18n import en, fr
from bot.i18n.markdown import NAME_PARAMS, RAW_MESSAGES, escape_code, escape_name

__all__ = ["CATALOGS", "DEFAULT", "LANGUAGES", "Text", "error_text", "language", "number", "t"]

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


# The decimal separator of each language (English's is the point).
DECIMAL = {"fr": ","}


def number(value: float, spec: str, lang: str) -> str:
    """A decimal number as ``lang`` writes it (``spec`` as in :func:`format`)."""
    text = format(value, spec)
    return text.replace(".", DECIMAL[lang]) if lang in DECIMAL else text


def _singular(count: float, lang: str) -> bool:
    return abs(count) < 2 if lang == "fr" else abs(count) == 1


# French elides "de" before a vowel (or a mute h, too irregular to guess: left out).
_ELIDES = frozenset("aeiouyàâäéèêëîïôöùûüÿæœ")


def _de(name: str) -> str:
    """French "de" before ``name``: ``d’Inès``, ``de Bob`` (markdown escapes skipped)."""
    first = name.lstrip("\\*_~|`>#-[ ")[:1].lower()
    return f"d’{name}" if first in _ELIDES else f"de {name}"


class _Formatter(string.Formatter):
    """``{n:word|words}`` is a plural; ``{name:de}`` is French "de" before a name, elided
    before a vowel; a float is written with the language's decimal sign."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        if format_spec == "de":
            return _de(str(value))
        if "|" in format_spec:
            one, _, many = format_spec.partition("|")
            count = _count(value)  # a count given as text ("3") is still a count
            return one if count is not None and _singular(count, self.lang) else many
        if isinstance(value, float):
            return number(value, format_spec, self.lang)
        return str(super().format_field(value, format_spec))


def _count(value: object) -> float | None:
    if isinstance(value, int | float):
        return value
    try:
        return float(str(value))
    except ValueError:
        return None


def t(key: str, lang: str = DEFAULT, /, **params: object) -> str:
    """The message ``key`` in ``lang`` with ``params`` filled in.

    :raises KeyError: for an unknown key or a missing parameter (a bug, caught by the tests).
    """
    catalog = CATALOGS.get(lang, CATALOGS[DEFAULT])
    return _Formatter(lang).vformat(catalog[key], (), _Strict(_plain(key, params)))


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
    '`13/7` : votre case 7 est tenue par l’adversaire.'
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

"""Typed commands: the text after a command's name (``level:world class points:5``, in any
language of the catalog) turned into the keywords of the service method the command table
names. Anything that is not a known option or value is refused, with the accepted ones in the
message; nothing is guessed.

- ``name:value``: the value runs until the next ``name:`` (``level:world class``), quotes are
  optional (``level:"world class"``).
- Bare words before the first ``name:`` are the first option's value (``/challenge Ben``,
  ``/resign gammon``); a bare word naming a yes/no option turns it on (``/undo all``).
- A choice is its value or its label in any language (``classe mondiale``), a yes/no option
  takes yes/no, on/off, true/false, 1/0 (or oui/non, vrai/faux).
"""

from __future__ import annotations

import re
from typing import Any

from bot.i18n import LANGUAGES, t
from bot.service.command_spec import Command, Kind, Label, Option, option_name, usage
from bot.service.refusal import Refusal, quoted

__all__ = ["FLAG_WORDS", "parse_command"]

# Every word a yes/no option accepts, in either language (a yes/no never depends on it).
FLAG_WORDS: dict[str, bool] = {
    **dict.fromkeys(("yes", "on", "true", "1", "oui", "vrai"), True),
    **dict.fromkeys(("no", "off", "false", "0", "non", "faux"), False),
}
# A word, or a quoted run of words, possibly glued: level:"world class"
_TOKEN = re.compile(r"""(?:"[^"]*"|'[^']*'|\S)+""")
_NAMED = re.compile(r"^([^\W\d]\w*):(.*)$", re.DOTALL)
_BARE = "_"


def parse_command(command: Command, rest: str, lang: str) -> dict[str, Any]:
    """The service keywords of ``command`` from what was typed after its name; a missing
    option takes its default, a USER option stays the name typed (the adapter knows people).

    :raises Refusal: an unknown option, a value that is not one of the option's, a required
        option missing (the message names what is accepted, in ``lang``).
    """
    given = _given(command, rest, lang)
    values: dict[str, Any] = {}
    for option in command.options:
        raw = given.get(option.name)
        if raw is None or not raw.strip():
            if option.required:
                raise _missing(command, option, lang)
            values[option.keyword] = option.default
        else:
            values[option.keyword] = option_value(command, option, raw.strip(), lang)
    return values


def _missing(command: Command, option: Option, lang: str) -> Refusal:
    """A required option left out: its name (and its values, when it has a few), and the
    command as typed."""
    missing = option_name(command, option, lang).upper()
    if option.choices:
        missing += f" ({', '.join(t(label.key, lang) for label in option.choices)})"
    optional = any(not o.required for o in command.options)
    key = "terminal.usage" if optional else "terminal.usage_plain"
    return Refusal(key, missing=missing, usage=usage(command, lang))


def _is_value(command: Command, option: Option, text: str, lang: str) -> bool:
    """Whether ``text`` is a value ``option`` takes."""
    try:
        option_value(command, option, text, lang)
    except Refusal:
        return False
    return True


def _without_value(command: Command, option: Option, lang: str) -> Refusal:
    """An option named alone: how to give it a value (and its values, when it has a few)."""
    name = option_name(command, option, lang)
    values = ", ".join(t(label.key, lang) for label in option.choices)
    key = "error.option_without_value_choices" if values else "error.option_without_value"
    if option.kind is Kind.INTEGER and not values:
        key = "error.option_without_number"
    return Refusal(key, name=name, values=values)


def _without_colon(command: Command, text: str, lang: str) -> Refusal | None:
    """``theme ocean`` typed for ``theme:ocean``: an option's name, then one of its values,
    without the colon between them (None when the text is not that)."""
    head, _, tail = text.strip().partition(" ")
    option = _option_named(command, head)
    if option is None or not tail.strip() or not _is_value(command, option, tail.strip(), lang):
        return None
    name = option_name(command, option, lang)
    return Refusal("error.option_without_colon", written=f"{name}:{quoted(tail.strip())}")


def _given(command: Command, rest: str, lang: str) -> dict[str, str]:
    """``{option name: raw text}`` from the line (see the module's rules)."""
    first = command.options[0] if command.options else None
    if first is not None and first.rest:
        # A play in notation (or a name) takes the whole line, ``play:`` optional.
        head, sep, tail = rest.strip().partition(":")
        named = sep and _option_named(command, head) is first
        return {first.name: tail if named else rest}
    given: dict[str, str] = {}
    for key, text in _segments(rest):
        if key == _BARE:
            flag = _bare_flag(command, text)
            if flag is not None:
                given.setdefault(flag.name, "yes")
                continue
            if first is None:
                raise Refusal("error.no_options", command=_typed(command, lang))
            if not _is_value(command, first, text.strip(), lang):
                # "/settings theme": an option named without its value, not a language (but
                # "/tournament start" is its action, and "/stats player" may name a person);
                # "/settings theme ocean": the colon left out.
                alone = _option_named(command, text.strip())
                if alone is not None:
                    raise _without_value(command, alone, lang)
                colon = _without_colon(command, text, lang)
                if colon is not None:
                    raise colon
            given.setdefault(first.name, text)
            continue
        option = _option_named(command, key)
        if option is None:
            raise _unknown_option(command, key, lang)
        given.setdefault(option.name, text)
    return given


def _segments(rest: str) -> list[tuple[str, str]]:
    """``a b level:world class cube:no`` -> [("_", "a b"), ("level", "world class"),
    ("cube", "no")]: each ``name:`` starts a segment that runs to the next one."""
    segments: list[tuple[str, list[str]]] = []
    for token in _TOKEN.findall(rest):
        named = _NAMED.match(token)
        if named:
            segments.append((named[1].lower(), [named[2]] if named[2] else []))
        elif segments:
            segments[-1][1].append(token)
        else:
            segments.append((_BARE, [token]))
    return [(key, _unquoted(" ".join(words))) for key, words in segments]


def _unquoted(text: str) -> str:
    return re.sub(r"""(["'])(.*?)\1""", r"\2", text.strip())


def _option_named(command: Command, name: str) -> Option | None:
    """The option called ``name`` in any language (``niveau`` is ``level``)."""
    wanted = _norm(name)
    for option in command.options:
        names = {option.name} | {option_name(command, option, code) for code in LANGUAGES}
        if wanted in {_norm(n) for n in names}:
            return option
    return None


def _bare_flag(command: Command, text: str) -> Option | None:
    """A bare word that names a yes/no option turns it on (``/undo all``)."""
    option = _option_named(command, text)
    return option if option is not None and option.kind is Kind.FLAG else None


def _unknown_option(command: Command, name: str, lang: str) -> Refusal:
    if not command.options:
        return Refusal("error.no_options", command=_typed(command, lang))
    names = ", ".join(f"{option_name(command, o, lang)}:" for o in command.options)
    return Refusal(
        "error.unknown_option", command=_typed(command, lang), name=quoted(name), options=names
    )


def _typed(command: Command, lang: str) -> str:
    return usage(command, lang).split(" ")[0]


def option_value(command: Command, option: Option, raw: str, lang: str) -> object:
    """One option's value from its text, or a refusal naming the accepted values."""
    name = option_name(command, option, lang)
    if option.choices:
        return _choice(option, name, raw, lang)
    if option.kind is Kind.FLAG:
        flag = FLAG_WORDS.get(raw.lower())
        if flag is None:
            raise Refusal("error.flag_value", option=name, value=quoted(raw))
        return flag
    if option.kind is Kind.INTEGER:
        try:
            return int(raw)
        except ValueError:
            raise Refusal("error.integer_value", option=name, value=quoted(raw)) from None
    return raw


def _choice(option: Option, name: str, raw: str, lang: str) -> object:
    """A choice by its value, its label in any language or one of its words."""
    wanted = _norm(raw)
    for label in option.choices:
        if wanted in {_norm(w) for w in _spellings(label)}:
            return label.value
    values = ", ".join(t(label.key, lang) for label in option.choices)
    raise Refusal("error.choice_value", option=name, value=quoted(raw), values=values)


def _spellings(label: Label) -> set[str]:
    """The value, its words and its label in every language, also without the label's
    parenthesis or by it alone (``tout le monde`` or ``général`` for « tout le monde
    (général) »)."""
    labels = {t(label.key, code) for code in LANGUAGES}
    bare = {text.split(" (")[0] for text in labels}
    inside = {text.split(" (", 1)[1].rstrip(")") for text in labels if " (" in text}
    return {str(label.value), *label.words} | labels | bare | inside


def _norm(text: str) -> str:
    """Case, spaces, dashes and underscores do not matter: world_class is world class."""
    return "".join(ch for ch in text.lower() if ch.isalnum())

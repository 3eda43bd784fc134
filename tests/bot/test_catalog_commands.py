"""Every command a message tells the player to type works as written, in the message's
language: on Discord (the command's localized name, the localized name of each option, a
choice by its localized name: what Discord's command picker shows and filters on) and in the
terminal (the same line parsed by the terminal's own parser, refused nowhere).

``/tournoi liste`` in French is the command ``tournoi`` with the choice ``liste`` of its first
option (Discord: typed in the ``action`` field; terminal: the first option taken bare)."""

from __future__ import annotations

import re

import pytest

from bot.i18n import CATALOGS, t
from bot.service.command_spec import Command, Kind, Option, command_name, option_name
from bot.service.commands import COMMANDS
from bot.service.options import parse_command
from bot.service.refusal import Refusal

# `/command words...` in code spans, and a bare /command elsewhere in a sentence.
_SPAN = re.compile(r"`(/[^`\s][^`]*)`")
_BARE = re.compile(r"(?<![\w/<:.`])/([^\W\d][\w]*)")
_NAMED = re.compile(r"^([^\W\d]\w*):(.*)$")
_DISCORD_FLAGS = {"true", "false"}  # a boolean option's choices in Discord's picker
_PARAMETER = re.compile(r"\{\w+\}")  # `/board game:{id}`: the message fills in a number


def mentions(lang: str) -> list[tuple[str, str]]:
    """``(message key, command as written)`` for every command mentioned in the catalog."""
    found = []
    for key, text in CATALOGS[lang].items():
        for span in _SPAN.findall(text):
            found.append((key, _PARAMETER.sub("12", span)))
        for name in _BARE.findall(_SPAN.sub("", text)):
            found.append((key, f"/{name}"))
    return found


def by_typed_name(name: str, lang: str) -> Command:
    matches = [c for c in COMMANDS if command_name(c, lang) == name]
    assert len(matches) == 1, f"/{name} is no {lang} command name"
    return matches[0]


def choice_names(command: Command, option: Option, lang: str) -> set[str]:
    return {t(label.key, lang).casefold() for label in option.choices}


def check_discord(command: Command, words: list[str], lang: str, written: str) -> None:
    """What Discord's picker offers: option names and choice names in ``lang``."""
    options = {option_name(command, o, lang): o for o in command.options}
    bare = [w for w in words if not _NAMED.match(w)]
    if bare:
        first = command.options[0]
        assert first.choices, f"{written}: {first.name} takes no bare word on Discord"
        value = " ".join(bare).casefold()
        assert value in choice_names(command, first, lang), f"{written}: no choice {value!r}"
    for word in words:
        found = _NAMED.match(word)
        if found is None:
            continue
        name, value = found[1], found[2]
        assert name in options, f"{written}: no option {name}: in {lang}"
        option = options[name]
        if value and option.choices:
            assert value.casefold() in choice_names(command, option, lang), written
        if value and option.kind is Kind.FLAG:
            assert value.casefold() in _DISCORD_FLAGS, written


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_every_command_a_message_names_works_on_discord_and_in_the_terminal(lang: str) -> None:
    found = mentions(lang)
    assert found  # the catalog does name commands
    for key, written in found:
        name, *words = written[1:].split()
        if not name:
            continue  # "type `/`": Discord's command list
        command = by_typed_name(name, lang)
        check_discord(command, words, lang, f"{key}: {written}")
        rest = " ".join(words)
        if not rest and any(o.required for o in command.options):
            continue  # the command named alone, its options to be chosen
        try:
            parse_command(command, rest, lang)
        except Refusal as refusal:
            raise AssertionError(f"{key}: the terminal refuses {written}: {refusal}") from None


def test_the_french_tournament_actions_are_french_and_match_the_help() -> None:
    command = by_typed_name("tournoi", "fr")
    names = choice_names(command, command.options[0], "fr")
    assert {"créer", "participer", "quitter", "liste", "classement", "annuler"} <= names
    help_line = t("help.tournament", "fr")
    assert all(f"`{n}`" in help_line for n in names)
    assert "create" not in help_line and "join" not in help_line
    # Typed in the terminal in either language, the same action.
    assert parse_command(command, "liste", "fr")["action"] == "list"
    assert parse_command(command, "créer nom:Vendredi", "fr")["action"] == "create"
    assert parse_command(command, "quitter", "fr") == parse_command(command, "leave", "en")


def test_a_command_name_that_does_not_exist_is_caught() -> None:
    with pytest.raises(AssertionError):
        by_typed_name("tournament", "fr")
    with pytest.raises(AssertionError):
        command = by_typed_name("tournoi", "fr")
        check_discord(command, ["list"], "fr", "/tournoi list")


def test_the_french_start_of_a_tournament_is_not_the_roll_button() -> None:
    """``Lancer`` is the game's Roll button: a tournament starts with ``Démarrer``
    (``/tournoi démarrer``); ``lancer``, its older word, is still understood."""
    assert t("button.tournament_start", "fr") == "Démarrer" != t("button.roll", "fr")
    command = by_typed_name("tournoi", "fr")
    assert "démarrer" in choice_names(command, command.options[0], "fr")
    assert "lancer" not in choice_names(command, command.options[0], "fr")  # Discord's picker
    for typed in ("démarrer", "lancer", "Démarrer"):
        assert parse_command(command, typed, "fr")["action"] == "start"
    assert parse_command(command, "start", "en")["action"] == "start"


@pytest.mark.parametrize(
    ("name", "typed", "lang", "said"),
    [
        ("settings", "theme", "en", "theme needs a value after a colon, like theme:VALUE; its"),
        ("settings", "thème", "fr", "thème attend une valeur après un deux-points, comme thème:"),
        ("settings", "language", "en", "language needs a value after a colon"),
        ("play", "level", "en", "level needs a value after a colon"),
        ("hint", "rollout", "en", "rollout needs a whole number after a colon, like rollout:N."),
        # A number that has words for its values says them: value:gammon is taken.
        ("resign", "value", "en", "value:VALUE; its values: single game, gammon, backgammon."),
        # The colon left out: what to write.
        ("settings", "theme ocean", "en", "its value are joined by a colon: write theme:ocean."),
        ("play", "niveau expert", "fr", "reliées par un deux-points : tapez niveau:expert."),
    ],
)  # fmt: skip
def test_an_option_named_alone_asks_for_its_value(
    name: str, typed: str, lang: str, said: str
) -> None:
    """ "/settings theme" answered that "theme" is not a language: the first option took it."""
    command = next(c for c in COMMANDS if c.name == name)
    with pytest.raises(Refusal) as refused:
        parse_command(command, typed, lang)
    assert said in refused.value.text.render(lang)


def test_a_first_option_that_may_be_anything_takes_its_own_name() -> None:
    # A person may be called "player": /stats player is about him.
    command = next(c for c in COMMANDS if c.name == "stats")
    assert parse_command(command, "player", "en")[command.options[0].keyword] == "player"

"""The player settings table (:mod:`bot.service.prefs`): each setting is declared once, as a field
of ``Prefs``, and ``/settings``, its options, its reply and what is stored derive from it."""

from __future__ import annotations

import string
from dataclasses import fields

import pytest

from bot.i18n import CATALOGS, LANGUAGES
from bot.service import Prefs, Service
from bot.service.commands import by_name
from bot.service.prefs import SETTINGS
from tests.bot.conftest import ALICE, CHANNEL

ENGLISH = """Saved.
**Your settings**
Language: English
Roll automatically when there is no cube decision: off
Play forced moves automatically: on
Home board on the left: on
Board theme: {theme}
Your blunders may become anonymous puzzles: off
Daily drill message of your blunders: off
“Your turn” messages: on · quiet hours: 22-07 · time zone: Europe/Paris"""


def test_the_settings_command_offers_every_setting_of_the_table_in_its_order() -> None:
    command = by_name("settings")
    assert command is not None
    assert [o.name for o in command.options] == list(SETTINGS)
    assert [key for key, _ in SETTINGS.values()] == [f.name for f in fields(Prefs)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_setting_has_its_messages(lang: str) -> None:
    catalog = CATALOGS[lang]
    shown = {
        field
        for key in ("settings.text", "settings.notify_text")
        for _, field, _, _ in string.Formatter().parse(catalog[key])
        if field
    }
    for name in SETTINGS:
        assert f"cmd.settings.opt.{name}.name" in catalog
        assert f"cmd.settings.opt.{name}.description" in catalog
        assert name in shown, f"{name} is not shown by /settings in {lang}"


def test_stored_settings_read_back_and_bad_ones_are_forgotten() -> None:
    stored = {"lang": "fr", "auto_roll": False, "quiet": [22, 7], "timezone": "Europe/Paris"}
    prefs = Prefs.from_json(stored)
    assert (prefs.lang, prefs.auto_roll, prefs.quiet, prefs.timezone) == (
        "fr",
        False,
        (22, 7),
        "Europe/Paris",
    )
    bad = {"lang": "xx", "theme": "plaid", "quiet": [3, 3], "timezone": 5, "notify": 1}
    assert Prefs.from_json(bad) == Prefs(notify=True)
    assert Prefs.from_json(None) == Prefs()


def test_the_reply_is_unchanged_in_both_languages(service: Service) -> None:
    reply = service.settings_command(
        ALICE,
        CHANNEL,
        language="fr",
        auto_roll=False,
        mirrored=True,
        puzzles=False,
        notify=True,
        quiet="22-7",
        timezone="Europe/Paris",
    )
    assert reply.ephemeral and reply.text.startswith("Enregistré.\n**Vos réglages**\nLangue : ")
    english = service.settings_command(ALICE, CHANNEL, language="en")
    theme = english.text.split("Board theme: ")[1].split("\n")[0]
    assert english.text == ENGLISH.format(theme=theme)


@pytest.mark.parametrize(
    ("given", "refusal"),
    [
        ({"language": "xx"}, "Unknown language. Choose one of: en, fr, auto."),
        ({"theme": "plaid"}, "Unknown board theme."),
        ({"quiet": "late"}, "“late” is not quiet hours"),
        ({"timezone": "Mars/Base"}, "“Mars/Base” is not a time zone"),
        ({"language": "fr", "quiet": "late"}, "“late” is not quiet hours"),
    ],
)
def test_a_bad_value_is_refused_and_changes_nothing(
    service: Service, given: dict[str, object], refusal: str
) -> None:
    before = service.settings_command(ALICE, CHANNEL).text
    reply = service.settings_command(ALICE, CHANNEL, **given)
    assert reply.ephemeral and refusal in reply.text
    assert service.settings_command(ALICE, CHANNEL).text == before


def test_an_unknown_setting_is_a_callers_mistake(service: Service) -> None:
    with pytest.raises(TypeError, match="colour"):
        service.settings_command(ALICE, CHANNEL, colour="red")

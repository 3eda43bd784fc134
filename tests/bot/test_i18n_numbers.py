"""Numbers as each language writes them (issue 15, item 10): plurals done right in both
catalogs, decimal commas in French, and the luck of a review with its unit."""

from __future__ import annotations

import re
import string
from collections import deque

import pytest

from bot.i18n import CATALOGS, number, t
from bot.service import Actor, Service, Where
from tests.bot.conftest import DM, play_out

ZOE = Actor(505, "Zoé", locale="en-US")  # plays in English (play_out's buttons), reads French


def test_no_catalog_hedges_a_plural() -> None:
    # "point(s)", "dé(s)", "événement(s)": every plural is chosen from the count instead.
    for lang, catalog in CATALOGS.items():
        hedged = [key for key, message in catalog.items() if "(s)" in message]
        assert hedged == [], lang


def _plural_messages() -> list[tuple[str, str, str]]:
    found = []
    for lang, catalog in CATALOGS.items():
        for key, message in catalog.items():
            for _, field, spec, _ in string.Formatter().parse(message):
                if field and spec and "|" in spec:
                    found.append((lang, key, field))
    return found


@pytest.mark.parametrize(("lang", "key", "field"), sorted(set(_plural_messages())))
def test_every_plural_agrees_with_its_count(lang: str, key: str, field: str) -> None:
    message = CATALOGS[lang][key]
    fields = {f for _, f, _, _ in string.Formatter().parse(message) if f}
    texts = {}
    for count in (1, 2):
        params: dict[str, object] = {f: 7 for f in fields}
        params[field] = count
        texts[count] = t(key, lang, **params)
    spec = next(s for _, f, s, _ in string.Formatter().parse(message) if f == field and s)
    one, many = spec.split("|")
    # A form may hold the count itself: "your last counted game|your last {games} counted games"
    one, many = one.replace(f"{{{field}}}", "1"), many.replace(f"{{{field}}}", "2")
    assert one in texts[1] and many in texts[2]
    assert texts[1] != texts[2]


def test_singular_and_plural_in_each_language() -> None:
    assert t("game.won_single", "en", name="A", points=1).endswith("1 point.")
    assert t("game.won_single", "en", name="A", points=0).endswith("0 points.")
    assert t("game.won_single", "fr", name="A", points=0).endswith("0 point.")
    assert t("game.won_gammon", "fr", name="A", points=4).endswith("4 points.")
    assert t("game.kind_match", "fr", points=1) == "match en 1 point"
    assert "Le 1 dé de la partie n° 3 correspond" in t(
        "verify.ok", "fr", count=1, id=3, seed="s", commitment="c"
    )
    assert "The 1 die of game #3 matches" in t(
        "verify.ok", "en", count=1, id=3, seed="s", commitment="c"
    )
    assert "1 roll;" in t("dice.rolls", "en", rolls=1, expected=number(0.2, ".1f", "en"))
    assert "expires in 1 minute." in t(
        "challenge.made",
        "en",
        mention="@B",
        challenger="A",
        kind="x",
        rated="rated",
        cube="cube",
        minutes=1,
    )


def test_french_writes_a_decimal_comma() -> None:
    assert number(69.8, ".1f", "fr") == "69,8" and number(69.8, ".1f", "en") == "69.8"
    assert number(1.653, "+.3f", "fr") == "+1,653"
    assert "16,7 %" in t(
        "dice.doubles", "fr", doubles=3, rate=number(12.5, ".1f", "fr"), fair=100 / 6
    )


DECIMAL_POINT = re.compile(r"\d\.\d")


def test_french_reviews_and_statistics_have_no_decimal_point(service: Service) -> None:
    start = service.play(ZOE, DM, level="beginner")
    play_out(service, ZOE, DM, start)
    service.settings_command(ZOE, DM, language="fr")
    review = service.review(ZOE, DM)
    assert "millipoints perdus par décision" in review.text
    assert not DECIMAL_POINT.search(review.text), review.text
    assert re.search(r"\d,\d", review.text)
    assert "points (l’équité apportée par les dés, en points par partie)" in review.text
    dice = service.dice_stats(ZOE, DM)
    assert "16,7 %" in dice.text and not DECIMAL_POINT.search(dice.text), dice.text
    stats = service.stats(ZOE, Where(channel_id=1, guild_id=2, guild_locale="fr"))
    assert not DECIMAL_POINT.search(stats.text), stats.text


def test_the_luck_has_a_unit_in_english(service: Service, script: deque[int]) -> None:
    alice = Actor(101, "Alice", locale="en-US")
    start = service.play(alice, DM, level="beginner")
    play_out(service, alice, DM, start)
    text = service.review(alice, DM).text
    luck = re.search(r"luck ([+-]\d\.\d{3}) points \(the equity the dice gave", text)
    assert luck, text


@pytest.mark.parametrize(
    ("lang", "one", "two"),
    [
        ("en", "standings after 1 match.", "standings after 2 matches."),
        ("fr", "classement après 1 match.", "classement après 2 matchs."),
    ],
)
def test_a_tournament_counts_its_matches_and_rounds_in_words_that_agree(
    lang: str, one: str, two: str
) -> None:
    assert t("tournament.standings", lang, name="F", played=1).endswith(one)
    assert t("tournament.standings", lang, name="F", played=2).endswith(two)
    rounds = {n: t("tournament.rules.rounds", lang, rounds=n) for n in (1, 5)}
    assert rounds == (
        {1: "1 round", 5: "5 rounds"} if lang == "en" else {1: "1 ronde", 5: "5 rondes"}
    )

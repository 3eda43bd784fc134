"""Numbers as each language writes them (issue 15, item 10): plurals done right in both
catalogs, decimal commas in French, and the luck of a review with its unit."""

from __future__ import annotations

import re
import string
from collections import deque

import pytest

from bot.i18n import CATALOGS, number, t
from bot.i18n.markdown import NAME_PARAMS
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
    # A form may hold the count itself: "your last reviewed game|your last {games} reviewed games"
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


@pytest.mark.usefixtures("quick_reviews")  # how the numbers read, at any depth
def test_french_reviews_and_statistics_have_no_decimal_point(service: Service) -> None:
    start = service.play(ZOE, DM, level="beginner")
    play_out(service, ZOE, DM, start)
    service.settings_command(ZOE, DM, language="fr")
    review = service.review(ZOE, DM)
    assert "millipoints perdus par décision" in review.text
    assert not DECIMAL_POINT.search(review.text), review.text
    assert re.search(r"\d,\d", review.text)
    assert (
        "points (l’équité apportée par les dés, en points, somme de tous les lancers ; "
        "en millipoints par lancer, " in review.text
    )
    dice = service.dice_stats(ZOE, DM)
    assert "16,7 %" in dice.text and not DECIMAL_POINT.search(dice.text), dice.text
    stats = service.stats(ZOE, Where(channel_id=1, guild_id=2, guild_locale="fr"))
    assert not DECIMAL_POINT.search(stats.text), stats.text


@pytest.mark.usefixtures("quick_reviews")  # how the numbers read, at any depth
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


# Parameters that are never a count below 2 (bounds of options, the most characters of a name),
# a number written with decimals (decimal quantities keep the plural unit in both languages:
# "+0.125 points", "12,5 millipoints", as the review writes them), or a roll ("6-5").
NOT_A_SMALL_COUNT = frozenset({"high", "limit", "max", "most", "luck", "rate", "expected", "dice"})
# Nor is text: a command's name, a list of names, a mention.
NOT_A_SMALL_COUNT |= {"command", "names", "mention0", "mention1"}
# Where a count below 2 cannot happen in that message: a tournament of one-point matches says
# so in other words (tournament.rules.length_one), an arena lasts 5 minutes at least.
NOT_A_SMALL_COUNT_IN = frozenset(
    {("tournament.rules.length", "points"), ("tournament.rules.minutes", "minutes")}
)
# Words after a number that end like a plural and are not one: verbs, adjectives, "des" of
# "1 des quatre dés" (one of the four dice), invariable words.
NOT_PLURALS = frozenset(
    {
        "is",
        "has",
        "does",
        "begins",
        "takes",
        "bears",
        "moves",
        "non-obvious",
        "des",
        "fois",
        "voix",
        "s",
    }
)
# A number on its own (not a game's "#3" or "n° 3"), then on the same line the word after it.
WORD_AFTER = r"(?<![\w.,#°/+−-])(?<!° ){n} +\**([^\W\d_][\w’'-]*)"


def _singular(n: int, lang: str) -> bool:
    return n < 2 if lang == "fr" else n == 1


def _forms() -> tuple[set[str], set[str]]:
    """The singular and plural words of every ``{n:one|many}`` of the catalogs."""
    ones: set[str] = set()
    manies: set[str] = set()
    for lang, key, field in _plural_messages():
        for _, f, spec, _ in string.Formatter().parse(CATALOGS[lang][key]):
            if f == field and spec and "|" in spec:
                one, many = spec.split("|")
                ones.update(one.split()[:1])
                manies.update(many.split()[:1])
    return ones - manies, manies - ones


def _words_after(lang: str, key: str, field: str, n: int) -> list[str]:
    """The words right after the number ``n`` given as ``field`` (not a literal digit of the
    message: those are there with any value)."""
    fields = {f for _, f, _, _ in string.Formatter().parse(CATALOGS[lang][key]) if f}
    params: dict[str, object] = dict.fromkeys(fields, 7)
    pattern = re.compile(WORD_AFTER.format(n=n))
    baseline = pattern.findall(t(key, lang, **params))
    params[field] = n
    found = pattern.findall(t(key, lang, **params))
    for word in baseline:
        found.remove(word)
    return found


def _counted_fields() -> list[tuple[str, str, str]]:
    out = []
    for lang, catalog in CATALOGS.items():
        for key, message in catalog.items():
            fields = {f for _, f, _, _ in string.Formatter().parse(message) if f}
            for field in sorted(fields - NAME_PARAMS - NOT_A_SMALL_COUNT):
                if (key, field) not in NOT_A_SMALL_COUNT_IN:
                    out.append((lang, key, field))
    return out


def test_every_count_agrees_with_its_noun_for_0_1_and_2() -> None:
    """Each parameter of each message given 0, 1 and 2: the word after the number is singular
    for 1 (and for 0 in French) and plural otherwise. 'Plural' is a word ending in s (or x in
    French) or a plural form of the catalogs; 'singular' a singular form of the catalogs."""
    ones, manies = _forms()
    wrong = []
    for lang, key, field in _counted_fields():
        for n in (0, 1, 2):
            for word in _words_after(lang, key, field, n):
                ending = word[-1] in ("sx" if lang == "fr" else "s")
                plural = word not in NOT_PLURALS and (ending or word in manies)
                if plural if _singular(n, lang) else word in ones:
                    wrong.append(f"{lang} {key} {field}={n}: “{n} {word}”")
    assert not wrong, "\n".join(wrong)


def test_a_puzzle_board_and_a_challenge_limit_count_in_words_that_agree() -> None:
    line = {"rank": 1, "name": "Zoé", "rating": 1500, "attempts": 2, "streak": 1}
    assert "(1 résolu sur 2," in t("puzzle.board_line", "fr", solved=1, **line)
    assert "(2 résolus sur 2," in t("puzzle.board_line", "fr", solved=2, **line)
    assert t("error.challenge_too_many", "en", count=1).startswith(
        "You already have 1 challenge waiting for an answer: wait for it, or cancel it,"
    )
    assert t("error.challenge_too_many", "fr", count=1).startswith(
        "Vous avez déjà 1 défi en attente de réponse : attendez-le, ou annulez-le,"
    )
    assert "attendez-les, ou annulez-en un," in t("error.challenge_too_many", "fr", count=5)
    offer = t("timer.reminder_offer", "fr", player="A", offerer="B", id=3, minutes=1)
    assert "répondez sous 1 minute, sinon" in offer


@pytest.mark.parametrize(
    ("key", "params", "said"),
    [
        ("challenge.declined", {"name": "Ophélie", "challenger": "Inès"}, "le défi d’Inès."),
        ("challenge.declined", {"name": "Ophélie", "challenger": "Bob"}, "le défi de Bob."),
        ("games.their_turn", {"name": "Élodie"}, "au tour d’Élodie"),
        ("timer.offer_accepted", {"name": "Bob", "offerer": "Yann"}, "l’abandon d’Yann est"),
        ("stats.none", {"name": "Hugo"}, "du nom de Hugo"),  # a mute h is not guessed
    ],
)
def test_french_elides_de_before_a_vowel(key: str, params: dict[str, str], said: str) -> None:
    assert said in t(key, "fr", **params)

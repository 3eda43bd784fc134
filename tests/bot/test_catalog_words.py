"""What the catalog tells a person to type, and how it writes, in each language: the option
values it names are ones the parser takes in that language, in that language's words."""

from __future__ import annotations

import re

import pytest

from bot.i18n import CATALOGS, t
from bot.service.command_spec import Command, Kind, Option, option_name
from bot.service.commands import COMMANDS
from bot.service.options import option_value


def _options(lang: str) -> dict[str, list[tuple[Command, Option]]]:
    named: dict[str, list[tuple[Command, Option]]] = {}
    for command in COMMANDS:
        for option in command.options:
            named.setdefault(option_name(command, option, lang), []).append((command, option))
    return named


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_option_values_in_messages_are_typed_in_the_language(lang: str) -> None:
    # Every option:value a message names is taken by the terminal; a yes/no one only as
    # Discord's picker writes it (true/false, English whatever the language, see
    # test_catalog_commands), so a French message names the option, never an English value.
    options = _options(lang)
    found = 0
    for key, message in CATALOGS[lang].items():
        for span in re.findall(r"`([^`]*)`", message):
            span = re.sub(r"\{\w+\}", "12", span)  # `/board game:{id}`: a number filled in
            for name, value in re.findall(r"([^\W\d][\w]*):([^\s`]+)", span):
                for command, option in options.get(name, []):
                    found += 1
                    option_value(command, option, value, lang)
                    if option.kind is Kind.FLAG:
                        assert lang == "en", (key, f"{name}:{value}")
    assert found >= (2 if lang == "en" else 0)  # /puzzle mine:true, /settings puzzles:false
    assert lang == "en" or "problèmes:false" not in CATALOGS[lang]["puzzle.none_mine"]


def test_a_puzzles_equities_are_written_the_languages_way() -> None:
    from bot.service.puzzleview import answer_lines
    from db.models import Puzzle

    choices = [
        {"answer": "13/7 8/7", "equity": 0.125},
        {"answer": "24/18 13/12", "equity": 0.106},
    ]
    puzzle = Puzzle(kind="checker", choices={"choices": choices}, played="24/18 13/12")
    fr_lines = answer_lines(puzzle, 1, "fr")
    assert "perd 0,019 d’équité" in fr_lines[0]
    assert fr_lines[1:] == ["1. 13/7 8/7 : +0,125", "2. 24/18 13/12 : +0,106 (-0,019)"]
    assert "loses 0.019 in equity" in answer_lines(puzzle, 1, "en")[0]


@pytest.mark.parametrize("lang", sorted(CATALOGS))
def test_the_text_board_names_the_ids_as_the_messages_do(lang: str) -> None:
    # The terminal prints a board's IDs line (the catalog) and then its text board (render).
    from bot.i18n import t
    from engine import Position
    from render import BoardView
    from render.text import text_board

    board = text_board(Position.initial(), view=BoardView(names=("Ann", "Bob"), lang=lang))
    name = board.splitlines()[0].split(":")[0].strip()
    ids = t("game.ids", lang, position_id="4HPwATDgc/ABMA", match_id="cAkAAAAAAAAA", xgid="x")
    assert name == "Position ID" and ids.startswith(f"-# {name} `4HPwATDgc/ABMA`"), lang


def test_french_grammar_the_new_player_reported() -> None:
    from bot.i18n import error_text, t
    from engine import IllegalPlayError

    refused = t("error.choice_value", "fr", value="triple", option="valeur", values="gammon")
    assert refused == "« triple » n’est pas accepté pour valeur. Choisissez parmi : gammon."
    assert "n’est pas une valeur possible" not in refused
    one = t("pr.stats", "fr", games=1, pr=4.0, band="b")
    assert one.startswith(
        "PR sur votre dernière partie analysée assez longue pour compter : **4,0**"
    )
    assert t("pr.stats", "fr", games=3, pr=4.0, band="b").startswith("PR sur vos 3 dernières ")
    assert t("pr.stats", "en", games=1, pr=4.0, band="b").startswith(
        "PR over your last reviewed game long enough to count:"
    )
    blocked = IllegalPlayError("x", code="illegal.blocked", text="13/7", point=7)
    assert error_text(blocked, "fr") == "`13/7` : votre case 7 est tenue par l’adversaire."


def test_french_writes_n_degree_one_way_and_a_place_is_a_case() -> None:
    from bot.i18n import fr

    for key, message in fr.MESSAGES.items():
        assert not re.search(r"n°(?! \{)", message), key  # « n° 3 », a space, everywhere
        # A place on the board is a « case » ({point}, {other}...), never a « point ».
        assert not re.search(r"\bpoints? \{(point|other|higher)\}", message), key


def test_a_money_game_has_one_french_name() -> None:
    from bot.i18n import fr, t

    assert t("games.score_money", "fr", cube=2).startswith(t("game.kind_money", "fr"))
    assert not [k for k, m in fr.MESSAGES.items() if "partie d’argent" in m]


@pytest.mark.parametrize(
    ("lang", "typed", "value"),
    [
        ("fr", "tout le monde", "global"),
        ("fr", "général", "global"),  # the parenthesis alone, as a new player typed it
        ("fr", "ce serveur", "server"),
        ("en", "everyone", "global"),
    ],
)
def test_a_choice_is_typed_without_its_labels_parenthesis(
    lang: str, typed: str, value: str
) -> None:
    # The refusal lists « tout le monde (général) »: what a player types from it is taken.
    from bot.service.commands import by_name
    from bot.service.options import parse_command

    leaderboard = by_name("leaderboard")
    assert leaderboard is not None
    assert parse_command(leaderboard, f"scope:{typed}", lang)["scope"] == value


def test_no_two_choices_of_an_option_share_a_spelling() -> None:
    from bot.service.options import _norm, _spellings

    for command in COMMANDS:
        for option in command.options:
            seen: dict[str, object] = {}
            for label in option.choices:
                for word in {_norm(w) for w in _spellings(label)}:
                    assert seen.setdefault(word, label.value) == label.value, (command.name, word)


def test_a_one_point_match_is_singular_everywhere() -> None:
    from bot.i18n import t

    assert t("games.score_match", "fr", length=1, a=0, b=0) == "match en 1 point, 0–0"
    assert t("games.score_match", "fr", length=3, a=1, b=2) == "match en 3 points, 1–2"
    assert t("tournament.rules.length", "en", points=3) == "3-point matches"


def test_first_is_premier_and_one_pip_is_singular() -> None:
    from bot.i18n import t
    from render.labels import counted

    assert (t("stats.rank", "fr", rank=1), t("stats.rank", "fr", rank=3)) == ("1er", "3e")
    assert t("stats.server_rank", "fr", rank=1).endswith(" 1er")
    assert (counted("en", "pips", 1), counted("fr", "pips", 1)) == ("pip", "pip")
    assert counted("en", "pips", 167) == "pips"


@pytest.mark.parametrize("key", ["puzzle.question", "puzzle.question_cube", "puzzle.rated"])
def test_a_puzzle_rating_is_a_rating_in_both_languages(key: str) -> None:
    """French says *cote* for a rating (as /statistiques does), *classement* for a ranking."""
    assert "puzzle rating" in CATALOGS["en"][key].lower()
    assert "cote aux problèmes" in CATALOGS["fr"][key].lower()
    assert "classement" not in CATALOGS["fr"][key].lower()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_leaderboards_header_stands_over_its_columns(lang: str) -> None:
    # The rating and the wins-losses column stood one or two characters off their header.
    header = t("board.header", lang)
    row = t("board.row", lang, rank=1, name="Zoë", rating=1510.0, experience=12, wins=3, losses=1)
    words = header.split()
    rating, experience, record = words[2], words[3], words[4]
    shown = "1510,0" if lang == "fr" else "1510.0"  # French writes a decimal comma
    assert header.index(rating) + len(rating) == row.index(shown) + len(shown), (header, row)
    assert header.index(experience) + len(experience) == row.index(" 12 ") + 3, (header, row)
    assert header.index(record) + 1 == row.index("3-1") + 1, (header, row)

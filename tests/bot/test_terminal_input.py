"""What a player types in the terminal (issue 15): option values and names that are not
known are refused with the accepted ones, multi-word values, /resign, the original program's
keys (Enter, a digit for the die, Escape), and the terminal in French."""

from __future__ import annotations

import io
from collections import deque
from pathlib import Path

import pytest

from bot.service import Service
from bot.terminal import Terminal
from tests.bot.terminal_json import replies

OFF_ONE = "d3cHAADbtg0AAA"  # the player on roll has borne off one checker, no contact
RACE = "d3cHAAB3dwcAAA"  # a race, nothing off, nothing in the opponent's home board


def session(service: Service, lang: str = "en", *, json_mode: bool = True) -> Terminal:
    return Terminal(
        service, out=io.StringIO(), json_mode=json_mode, lang=lang, images=Path("/tmp/unused")
    )


def playing(
    service: Service, script: deque[int], dice: tuple[int, int], lang: str = "en"
) -> tuple[Terminal, list[str]]:
    """Ann in text mode, a game against the beginner started, the opening roll ``dice`` hers
    (the higher first); the terminal and what the start printed."""
    term = session(service, lang, json_mode=False)
    term.user = "Ann"
    script.extend(dice)
    return term, blocks(term, "/play level:beginner")


def blocks(term: Terminal, *lines: str) -> list[str]:
    """Type ``lines`` in text mode; what each printed (blank-line separated)."""
    out = term.out
    assert isinstance(out, io.StringIO)
    out.seek(0)
    out.truncate()
    for line in lines:
        term.handle(line)
    return [b for b in out.getvalue().split("\n\n") if b.strip()]


# -- item 6: nonsense values and unknown options are refused ---------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("/settings mirrored:maybe", "mirrored takes yes or no"),
        ("/settings auto_roll:2", "auto_roll takes yes or no"),
        ("/settings colour:red", "/settings has no option “colour”"),
        ("/settings theme:plaid", "“plaid” is not a valid theme"),
        ("/play cube:maybe", "cube takes yes or no"),
        ("/play level:godlike", "“godlike” is not a valid level"),
        ("/play points:five", "The option points takes a whole number"),
        ("/play speed:fast", "/play has no option “speed”"),
        ("/challenge Ben rated:perhaps", "rated takes yes or no"),
        ("/games now", "/games takes no options"),
        ("/board now", "game takes a whole number, not “now”"),
        ("/resign value:all", "“all” is not a valid value"),
        ("/leaderboard scope:moon", "“moon” is not a valid scope"),
    ],
)
def test_unknown_values_and_options_are_refused_with_the_accepted_ones(
    service: Service, line: str, expected: str
) -> None:
    term = session(service)
    reply, settings, board = replies(term, line, "/settings", "/board")
    assert reply["ephemeral"] and expected in str(reply["text"]), reply["text"]
    # Nothing changed: the settings are the defaults, no game started.
    assert "Home board on the left: off" in str(settings["text"])
    assert "You have no game in this channel" in str(board["text"])


def test_the_refusal_lists_what_is_accepted_in_french(service: Service) -> None:
    term = session(service, "fr")
    flag, option, level = replies(
        term, "/réglages miroir:peut-être", "/réglages couleur:rouge", "/jouer niveau:divin"
    )
    assert "miroir prend oui ou non" in str(flag["text"])
    assert "n’a pas d’option « couleur »" in str(option["text"])
    assert "miroir:" in str(option["text"]) and "thème:" in str(option["text"])
    assert "débutant" in str(level["text"]) and "classe mondiale" in str(level["text"])


@pytest.mark.parametrize(
    ("lang", "line", "expected"),
    [
        ("en", "/as", "NAME is missing. Write /as NAME."),
        ("fr", "/as", "Il manque NOM. Tapez /as NOM."),
        ("en", "/tournament", "ACTION (create, join, leave, start,"),
        ("fr", "/tournoi", "Il manque ACTION (créer, participer,"),
        ("en", "hello", "no buttons, and “hello” is not a command"),
        ("fr", "bonjour", "tapez /aide pour la liste"),
        ("en", "/decline", "No challenge is waiting for your answer here."),
        ("en", "/cancel", "Nothing to cancel here"),
        ("fr", "/revanche", "Pas de revanche à proposer ici"),
    ],
)
def test_a_newcomer_is_told_what_is_missing(
    service: Service, lang: str, line: str, expected: str
) -> None:
    """The missing word by name (not "options as name:value" for a command without options),
    and free text pointed to the commands rather than to an empty list of buttons."""
    (reply,) = replies(session(service, lang), line)
    assert reply["ephemeral"] and expected in str(reply["text"]), reply["text"]


@pytest.mark.parametrize(
    ("lang", "line", "undo"),
    [("en", "/cancel", "/undo"), ("fr", "/annuler", "/reprendre")],
)
def test_cancel_with_nothing_to_cancel_points_to_undo(
    service: Service, script: deque[int], lang: str, line: str, undo: str
) -> None:
    """A newcomer types /cancel to take back a checker: the refusal names the command that
    does (its name in the session's language), before a game and in the middle of a move."""
    script.extend([6, 5])  # the player wins the opening with 6-5
    term = session(service, lang)
    before, _game, moved, during = replies(term, line, "/play", "13", line)
    assert ("'Undo'" if lang == "en" else "'Reprendre'") in str(moved["buttons"]), moved
    for reply in (before, during):
        assert reply["ephemeral"] and f"{undo}." in str(reply["text"]), reply["text"]


def test_yes_and_no_in_either_language(service: Service) -> None:
    term = session(service)
    on, off = replies(term, "/settings mirrored:oui", "/settings mirrored:off")
    assert "Home board on the left: on" in str(on["text"])
    assert "Home board on the left: off" in str(off["text"])


# -- item 7: multi-word values ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "/play level:world class"),
        ("en", "/play level:world class points:3 cube:no"),
        ("en", '/play level:"world class"'),
        ("en", "/play world class"),
        ("fr", "/jouer niveau:classe mondiale points:3"),
        ("fr", "/play level:classe mondiale"),
    ],
)
def test_a_level_of_two_words_as_the_help_prints_it(
    service: Service, script: deque[int], lang: str, line: str
) -> None:
    script.extend([6, 1])
    (reply,) = replies(session(service, lang), line)
    assert not reply.get("ephemeral"), reply["text"]
    assert ("world class" if lang == "en" else "classe mondiale") in str(reply["text"])
    if "points:3" in line:
        assert "3-point match" in str(reply["text"]) or "match en 3 points" in str(reply["text"])


# -- item 8: /resign ----------------------------------------------------------------------------


def test_resign_without_a_value_asks_first(service: Service, script: deque[int]) -> None:
    script.extend([6, 1])
    term = session(service)
    _, menu = replies(term, "/play", "/resign")
    assert "what do you offer to resign?" in str(menu["text"])
    assert menu["buttons"] == ["Single game", "Gammon", "Backgammon", "Cancel"]
    (board,) = replies(term, "Cancel")
    assert "Die 1" in board["buttons"]  # nothing was offered: the move goes on


def test_the_resign_menu_is_numbered_and_a_number_picks(
    service: Service, script: deque[int]
) -> None:
    # As on Discord (the Resign button's menu): single game, gammon or backgammon, here a
    # numbered menu; the number typed alone is the choice, pressed through the service.
    script.extend([6, 1])
    term = session(service, json_mode=False)
    menu = blocks(term, "/play", "/resign")[-1]
    assert "what do you offer to resign?" in menu
    lines = menu.splitlines()
    start = lines.index("Type the number of your choice:")
    assert lines[start + 1 : start + 4] == ["  1. Single game", "  2. Gammon", "  3. Backgammon"]
    assert "Buttons: [Cancel]" in lines  # the menu's choices are not listed twice
    (offered,) = blocks(term, "2")
    assert "offers to resign a gammon" in offered and "(only you)" not in offered


def test_the_numbered_menu_offers_only_what_can_still_be_won(
    service: Service, script: deque[int]
) -> None:
    term = session(service)
    script.extend([3, 1])
    replies(term, f"/play position:{OFF_ONE}")
    (menu,) = replies(term, "/resign")
    assert menu["menu"] == ["1. Single game"] and menu["buttons"] == ["Single game", "Cancel"]
    refused, board = replies(term, "2", "/board")  # no such choice: nothing offered
    assert refused["ephemeral"] and "no choice 2: its only choice is 1." in str(refused["text"])
    assert "offers to resign" not in str(board["text"]) and "menu" not in board
    (offered,) = replies(term, "/resign", "1")[1:]
    assert "offers to resign a single game" in str(offered["text"]), offered["text"]


def test_the_numbered_menu_in_french(service: Service, script: deque[int]) -> None:
    script.extend([6, 1])
    term = session(service, "fr", json_mode=False)
    menu = blocks(term, "/jouer", "/abandonner")[-1]
    assert "Tapez le numéro de votre choix :" in menu
    assert "  1. Partie simple" in menu.splitlines(), menu
    (refused,) = blocks(term, "4")  # the numbers it has, not the buttons' labels
    assert "n’a pas de choix 4 : tapez un numéro de 1 à 3." in refused, refused
    (offered,) = blocks(term, "3")
    assert "propose d’abandonner (un backgammon)" in offered, offered


@pytest.mark.parametrize(
    ("lang", "line", "offer"),
    [
        ("en", "/resign gammon", "offers to resign a gammon"),
        ("en", "/resign single", "offers to resign a single game"),
        ("en", "/resign value:backgammon", "offers to resign a backgammon"),
        ("en", "/resign 2", "offers to resign a gammon"),
        ("fr", "/abandonner simple", "propose d’abandonner (une partie simple)"),
        ("fr", "/abandonner valeur:gammon", "propose d’abandonner (un gammon)"),
        ("fr", "/abandonner partie simple", "propose d’abandonner (une partie simple)"),
    ],
)
def test_resign_takes_the_value_names(
    service: Service, script: deque[int], lang: str, line: str, offer: str
) -> None:
    script.extend([6, 1])
    term = session(service, lang)
    _, reply = replies(term, "/play", line)
    assert not reply.get("ephemeral") and offer in str(reply["text"]), reply["text"]


def test_only_what_can_still_be_won_is_offered(service: Service, script: deque[int]) -> None:
    term = session(service)
    script.extend([3, 1])
    replies(term, f"/play position:{OFF_ONE}")
    (menu,) = replies(term, "/resign")
    assert menu["buttons"] == ["Single game", "Cancel"]
    gammon, backgammon = replies(term, "/resign gammon", "/resign backgammon")
    for refused in (gammon, backgammon):
        assert refused["ephemeral"]
        assert "already borne off a checker" in str(refused["text"])
        assert "can no longer win a gammon" in str(refused["text"])


def test_no_backgammon_in_a_race_with_nothing_back(service: Service, script: deque[int]) -> None:
    term = session(service)
    script.extend([3, 1])
    replies(term, f"/play position:{RACE}")
    (menu,) = replies(term, "/resign")
    assert menu["buttons"] == ["Single game", "Gammon", "Cancel"]
    (refused,) = replies(term, "/resign backgammon")
    assert "can no longer win a backgammon" in str(refused["text"])
    fr = session(service, "fr")
    fr.user = term.user
    _, refus = replies(fr, "/abandonner backgammon")  # a new session shows the game first
    assert "ne peut plus gagner de backgammon" in str(refus["text"])


def test_the_menu_button_of_an_impossible_value_is_refused(
    service: Service, script: deque[int]
) -> None:
    # A stale or forged button id says gammon where the menu no longer offers it.
    from bot.service.customid import GameAction, Press

    term = session(service)
    script.extend([3, 1])
    (started,) = replies(term, f"/play position:{OFF_ONE}")
    game_id = int(str(started["image"]).split("game")[1].split("-")[0])
    menu = service.resign(term.actor, term.where)
    version = GameAction.parse(menu.buttons[0].custom_id)
    assert version is not None
    forged = GameAction(game_id, version.version, Press.RESIGN, "2").custom_id
    refused = service.press(term.actor, term.where, forged)
    assert refused.ephemeral and "can no longer win a gammon" in refused.text


# -- item 18: the original program's keys -------------------------------------------------------


def test_enter_a_digit_for_the_die_and_escape(service: Service, script: deque[int]) -> None:
    term, (opening,) = playing(service, script, (6, 5))  # Ann wins the opening with 6-5
    assert "[Die 5]" in opening
    # "5" is the die (Ann has no checker on her 5-point), then 13 the point.
    picked, moved = blocks(term, "5", "13")
    assert "pick a highlighted point to move with the 5" in picked
    assert "rolled 6-5: pick a highlighted point to move with the 6" in moved
    (complete,) = blocks(term, "24")
    assert "confirm your move" in complete
    script.extend([4, 4, 4, 2])  # the computer's roll (4-4 cannot hit 18), then Ann's
    (confirmed,) = blocks(term, "")  # Enter confirms the complete move
    assert "Ann played 24/18 13/8" in confirmed and "Roll" in confirmed
    (rolled,) = blocks(term, "")  # Enter rolls
    assert "Ann rolls 4-2" in rolled
    picked_four, two = blocks(term, "4", "13")  # the 4, then a checker from 13 with it
    assert "move with the 4" in picked_four and "[Undo]" in two
    (undone,) = blocks(term, "\x1b")  # Escape: the whole move back
    assert "[Undo]" not in undone and "[Die 2]" in undone
    assert "rolled 4-2: pick a highlighted point to move with the 4" in undone


@pytest.mark.parametrize(
    ("lang", "said", "over"),
    [
        ("en", "2 more dice to play", "Start one with /play"),
        ("fr", "encore 2 dés à jouer", "Lancez-en une avec /jouer"),
    ],
)
def test_enter_with_nothing_to_roll_or_confirm_says_why(
    service: Service, script: deque[int], lang: str, said: str, over: str
) -> None:
    # Enter before the move is complete printed nothing at all: a new player waited. Then it
    # said only that there was nothing to roll or confirm; now why, as /confirm does.
    term, _ = playing(service, script, (6, 5), lang)
    (answer,) = blocks(term, "")
    assert said in answer, answer
    assert service.text_board(term.actor, term.where) is not None  # the game goes on
    blocks(term, "/resign 1")
    (ended,) = blocks(term, "")  # after the game: how to start another
    assert over in ended, ended


def test_enter_under_a_menu_does_not_confirm_the_move(service: Service, script: deque[int]) -> None:
    # The move complete, then the Resign menu: Enter confirmed the move from under the menu.
    term, _ = playing(service, script, (6, 5))
    blocks(term, "13", "13")  # 13/8 with the 5, 13/7 with the 6
    before = service.text_board(term.actor, term.where)
    assert before is not None and "every die played" in before
    blocks(term, "/resign")  # the numbered menu: Cancel is its only button
    (said,) = blocks(term, "")
    assert "nothing to roll or confirm now" in said, said
    assert service.text_board(term.actor, term.where) == before  # not confirmed


def test_the_text_board_shows_the_die_picked(service: Service, script: deque[int]) -> None:
    """The text board's footer names the die the message is about, not the default one."""
    for lang, prompt, footer in (
        ("en", "move with the 5", "die chosen: 5"),
        ("fr", "jouer le 5", "dé choisi : 5"),
    ):
        term = session(service, lang, json_mode=False)
        term.user = f"Ann-{lang}"
        script.extend([6, 5])  # Ann wins the opening with 6-5: the 6 is chosen at first
        (opening,) = blocks(term, "/play level:beginner" if lang == "en" else "/jouer")
        assert footer.replace("5", "6") in opening, opening
        (picked,) = blocks(term, "5")
        assert prompt in picked, picked
        assert footer in picked and footer.replace("5", "6") not in picked, picked


def test_undo_all_takes_every_checker_back(service: Service, script: deque[int]) -> None:
    term = session(service)
    script.extend([6, 5])
    replies(term, "/play")
    stepped = replies(term, "13", "8")  # 13/7 then 7/2: both dice
    assert "Confirm" in stepped[-1]["buttons"]
    (undone,) = replies(term, "/undo all")
    assert "Undo" not in undone["buttons"] and "Die 5" in undone["buttons"]
    replies(term, "13")
    fr = session(service, "fr")
    fr.user = term.user
    resumed, annule = replies(fr, "/reprendre tout")  # a new session shows the game first
    assert "partie en cours" in str(resumed["text"])
    assert "Reprendre" not in annule["buttons"]


def test_the_computer_passing_is_told(service: Service, script: deque[int]) -> None:
    # Ann's home board is closed and the computer is on the bar: it cannot enter.
    from engine import Position

    mine = [2, 2, 2, 2, 2, 2] + [0] * 6 + [3] + [0] * 12
    theirs = [0] * 24 + [1]
    theirs[5], theirs[9], theirs[17] = 5, 5, 4
    position = Position.from_sides(mine, theirs).position_id()
    term = session(service)
    script.extend([3, 1, 6, 6])
    replies(term, f"/play position:{position} cube:no")
    (played,) = replies(term, "/move 13/10 13/12")
    assert "rolled 6-6 and cannot move" in str(played["text"]), played["text"]


def test_the_terminal_help_names_the_keys(service: Service) -> None:
    for lang, word, keys in (("en", "/help", "Enter rolls"), ("fr", "/aide", "Entrée lance")):
        (reply,) = replies(session(service, lang), word)
        assert keys in str(reply["text"])
    discord = service.help(session(service).actor, session(service).where)
    assert "Enter rolls" not in discord.text  # Discord has no keys


# -- item 10: French -----------------------------------------------------------------------------


def test_the_french_terminal_speaks_french(service: Service, script: deque[int]) -> None:
    term = session(service, "fr", json_mode=False)
    assert term.user == "Player"  # one default person, whatever the language
    welcome = term.welcome()
    assert "/aide" in welcome and "/jouer" in welcome and "/quitter" in welcome
    assert "/help" not in welcome and "/play " not in welcome
    (refused,) = blocks(term, "/déplacer 8/5")
    assert refused.startswith("(vous seul) ") and "only you" not in refused
    assert session(service, "en").user == "Player"


def test_quitter_leaves(service: Service) -> None:
    term = session(service, "fr")
    assert replies(term, "/quitter", "/aide") == []


def test_a_language_setting_switches_the_game_in_progress(
    service: Service, script: deque[int]
) -> None:
    term = session(service, "en", json_mode=False)
    term.user = "Ann"
    script.extend([6, 5])
    (started,) = blocks(term, "/play")
    assert "Buttons: " in started and "[Die 5]" in started
    settings, board = blocks(term, "/settings language:fr", "/board")
    assert "Enregistré" in settings and settings.startswith("(vous seul)")
    assert "Boutons : " in board and "[Dé 5]" in board and "a fait 6-5" in board
    (picked,) = blocks(term, "5")  # the keys follow the new language's buttons too
    assert "pour jouer le 5" in picked


def test_a_name_reads_as_typed_in_the_terminal(service: Service) -> None:
    """Discord's escapes (backslashes, a zero-width space after @) keep a name plain there;
    the terminal shows the name as its author typed it."""
    term = session(service, json_mode=False)
    name = "Été 🎲 **bold** @everyone"
    created, listed = blocks(term, f"/tournament create name:{name}", "/tournament list")
    assert name in created and name in listed, (created, listed)
    assert "\\" not in created + listed and "\u200b" not in created + listed


def test_a_name_too_long_is_cut_and_said_so(service: Service) -> None:
    (reply,) = replies(session(service), "/as " + "A" * 40)
    cut = "(A name has 32 characters at most, as on Discord.)"
    assert reply["text"] == f"You are now {'A' * 32}. {cut}"
    (short,) = replies(session(service), "/as Bob")
    assert short["text"] == "You are now Bob."


def test_a_new_name_is_echoed_as_typed(service: Service) -> None:
    (reply,) = replies(session(service), r"/as a**b** C:\x\*")
    assert reply["text"] == r"You are now a**b** C:\x\*."


def test_a_long_name_challenged_is_the_person_as_becomes(service: Service) -> None:
    long = "Bob" * 20
    term = session(service)
    replies(term, f"/challenge {long}", f"/as {long}")
    (accepted,) = replies(term, "/accept")
    assert not accepted.get("ephemeral"), accepted["text"]
    assert "Bob" * 10 + "Bo" in str(accepted["text"]) and long not in str(accepted["text"])


def test_a_long_user_name_keeps_its_settings(service: Service, tmp_path: Path) -> None:
    long = "Z" * 40
    term = Terminal(service, out=io.StringIO(), json_mode=True, images=tmp_path, user=long)
    replies(term, "/settings language:fr")
    (unknown,) = replies(term, "/xyz")
    assert "Commande inconnue" in str(unknown["text"]), unknown["text"]


@pytest.mark.parametrize(
    ("lang", "why"),
    [("en", "You have no checker on point 5."), ("fr", "Vous n’avez pas de dame sur la case 5.")],
)
def test_a_point_not_lit_up_gets_the_games_reason(
    service: Service, script: deque[int], lang: str, why: str
) -> None:
    # "5" mid-move was "neither a command nor a button", which said nothing of the point.
    term, _ = playing(service, script, (6, 3), lang)
    (said,) = blocks(term, "5")
    assert why in said, said
    moved = "".join(blocks(term, "24"))  # a lit point still moves: one die is left
    assert ("to play: 3" if lang == "en" else "à jouer : 3") in moved, moved

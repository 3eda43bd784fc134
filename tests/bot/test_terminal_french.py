"""A French player in the terminal: whatever the French help says to type works, in French
words, and the messages are written in French (the new player's report)."""

from __future__ import annotations

import io
import re
from collections import deque
from pathlib import Path

from bot.service import Service
from bot.terminal import Terminal
from tests.bot.terminal_json import replies


def session(service: Service, lang: str = "fr", user: str = "Ann") -> Terminal:
    return Terminal(
        service, out=io.StringIO(), json_mode=True, lang=lang, images=Path("/tmp/unused"), user=user
    )


def test_every_command_the_french_help_names_is_taken(service: Service) -> None:
    term = session(service)
    (help_reply,) = replies(term, "/aide")
    text = str(help_reply["text"])
    assert "/roll" not in text and "/lancer, /doubler, /accepter, /refuser" in text
    typed = set(re.findall(r"(?<![\w/])/[^\W\d][\w]*", text))
    assert "/lancer" in typed and "/confirmer" in typed
    for word in sorted(typed - {"/quitter"}):  # /quitter ends the session (tested elsewhere)
        got = replies(term, word)
        assert got and "Commande inconnue" not in str(got[0]["text"]), word


def test_french_press_commands_press_the_buttons(service: Service, script: deque[int]) -> None:
    term = session(service)
    script.extend([5, 2])
    got = replies(term, "/défi Ben points:1", "/as Ben", "/lancer", "/accepter")
    # A challenge has no Roll: the press goes to Ben's game here, and he has none.
    assert "Vous n’avez pas de partie dans ce salon" in str(got[2]["text"])
    assert "Ben accepte le défi" in str(got[3]["text"])


def test_unknown_command_points_to_the_help_in_french(service: Service) -> None:
    (reply,) = replies(session(service), "/truc")
    assert reply["text"] == "Commande inconnue : /truc. Tapez /aide."


def test_commands_typed_without_their_accents_are_taken(service: Service) -> None:
    # On a keyboard without accents: /deplacer, /regles, /des, /decliner.
    term = session(service)
    for word in ("/regles", "/des", "/Reglages", "/decliner", "/défi"):
        (reply,) = replies(term, word)[:1]
        assert "Commande inconnue" not in str(reply["text"]), word
    assert replies(term, "/regles") == replies(term, "/règles")


def test_no_two_commands_differ_by_their_accents_only() -> None:
    from bot.terminal import _COMMANDS, _PRESS_WORDS, _folded

    for words in (_COMMANDS, _PRESS_WORDS):
        by_folded: dict[str, object] = {}
        for word, meaning in words.items():
            assert by_folded.setdefault(_folded(word), meaning) == meaning, word


def test_a_typo_gets_the_nearest_command(service: Service) -> None:
    (fr,) = replies(session(service), "/deplacr 13/9")
    assert fr["text"] == "Commande inconnue : /deplacr. Vouliez-vous dire /déplacer ? Tapez /aide."
    (en,) = replies(session(service, "en"), "/mvoe 13/9")
    assert en["text"] == "Unknown command /mvoe. Did you mean /move? Type /help."
    # As near in both languages: the player's own first (not /confirm, /pass for French).
    for typed, fr_near, en_near in (
        ("/confirme", "/confirmer", "/confirm"),
        ("/passe", "/passer", "/pass"),
    ):
        (said_fr,) = replies(session(service), typed)
        assert f"Vouliez-vous dire {fr_near} ?" in str(said_fr["text"])
        (said_en,) = replies(session(service, "en"), typed)
        assert f"Did you mean {en_near}?" in str(said_en["text"])
    (long,) = replies(session(service), "/" + "x" * 2000)  # no suggestion, and at once
    assert long["text"].startswith("Commande inconnue")


def test_a_french_player_types_an_english_boards_buttons_in_either_language(
    service: Service, script: deque[int]
) -> None:
    # Ann (English) challenges Bob (French): the latest message is Ann's, in English.
    term = session(service, "en")
    script.extend([5, 2])
    replies(term, "/as Bob", "/settings language:fr", "/as Ann", "/challenge Bob points:1")
    (refused,) = replies(term, "/as Bob", "Oui")[1:]
    assert "([Accepter] [Décliner] [Annuler])" in str(refused["text"])  # in his language
    (accepted,) = replies(term, "Accepter")
    assert "Bob accepte le défi" in str(accepted["text"])


def test_an_english_label_still_works_for_a_french_player(
    service: Service, script: deque[int]
) -> None:
    term = session(service, "fr")
    script.extend([5, 2])
    got = replies(term, "/challenge Ben points:1", "/as Ben", "Accept")
    assert "Ben accepte le défi" in str(got[-1]["text"])


def test_a_finished_games_ids_line_has_no_empty_xgid(service: Service) -> None:
    from tests.bot.conftest import ALICE, DM, play_out

    end = play_out(service, ALICE, DM, service.play(ALICE, DM, level="beginner"))
    ids = [line for line in end.text.splitlines() if "Position ID" in line]
    assert ids and ids[-1].endswith(f"Match ID `{end.match_id}`"), ids
    assert "· `-`" not in end.text


def test_stats_of_an_unknown_name_says_no_such_player(service: Service) -> None:
    got = replies(session(service), "/statistiques joueur:Personne")
    assert got[0]["text"] == (
        "Aucun joueur du nom de Personne n’est connu ici : personne de ce nom n’a encore joué."
    )


def test_stats_of_a_bot_account_say_it_is_one(service: Service) -> None:
    # Picked from Discord's list, a bot was "no player called otherbot": a name search's words.
    from bot.service import Actor
    from tests.bot.conftest import ALICE, CHANNEL

    got = service.stats(ALICE, CHANNEL, Actor(303, "otherbot", is_bot=True))
    assert got.ephemeral and got.text.startswith("otherbot is a bot account"), got.text


def test_games_in_the_terminal_show_no_discord_link(service: Service) -> None:
    term = session(service, "en")
    replies(term, "/play level:beginner")
    (listed,) = replies(term, "/games")
    text = str(listed["text"])
    assert "discord.com" not in text and "(in this terminal)" in text and "#1" in text


# -- issue 27, item 8: the display language does not change who you are ----------------------


def started(service: Service, lang: str, *, given: bool = False, json: bool = True) -> Terminal:
    """A terminal started without --user (the default person), --lang typed or not."""
    out = io.StringIO()
    return Terminal(
        service, out=out, json_mode=json, lang=lang, images=Path("/tmp/unused"), lang_given=given
    )


def printed(term: Terminal) -> str:
    assert isinstance(term.out, io.StringIO)
    return term.out.getvalue()


def test_the_default_person_is_one_whatever_the_language(service: Service) -> None:
    english = started(service, "en")
    replies(english, "/play")  # Player's game; he owns the terminal's server
    french = started(service, "fr", given=True)
    assert french.name == "Player" and french.actor.id == english.actor.id
    assert french.is_owner and "partie n° 1" in str(replies(french, "/parties")[0]["text"])


def test_a_restart_greets_and_shows_the_game_in_the_stored_language(service: Service) -> None:
    replies(started(service, "en"), "/play", "/settings language:fr")
    restarted = started(service, "en", json=False)  # the system's locale: no --lang typed
    restarted.run([])
    shown = printed(restarted)
    assert shown.startswith("Le backgammon dans le terminal. Vous êtes Player."), shown
    assert "Vous avez une partie en cours" in shown and "Buttons:" not in shown


def test_a_typed_lang_wins_for_the_session_until_the_setting_changes(service: Service) -> None:
    replies(started(service, "en"), "/settings language:fr")
    typed = started(service, "en", given=True, json=False)
    typed.run([])
    assert printed(typed).startswith("Backgammon in the terminal."), printed(typed)
    typed.json_mode = True
    assert "Backgammon rules" in str(replies(typed, "/rules")[0]["text"])
    (changed,) = replies(typed, "/settings language:fr")
    assert "Enregistré." in str(changed["text"]), changed["text"]  # in the one just chosen
    assert "Les règles du backgammon" in str(replies(typed, "/rules")[0]["text"])


def test_the_language_set_back_to_automatic_answers_in_the_sessions_own(
    service: Service,
) -> None:
    """``/settings language:auto`` after another language: the whole answer in the language
    the session started in (it was written in the language just left, under the terminal's
    "(only you)" in the session's own)."""
    for lang, other, private, saved in (
        ("en", "fr", "(only you)", "Saved."),
        ("fr", "en", "(vous seul)", "Enregistré."),
    ):
        term = started(service, lang, json=False)
        term.user = f"Auto-{lang}"
        term.run([f"/settings language:{other}"])
        assert isinstance(term.out, io.StringIO)
        term.out.seek(0)
        term.out.truncate()
        term.handle("/settings language:auto")
        term.handle("/settings")
        back, shown = [b for b in printed(term).split("\n\n") if b.strip()][-2:]
        assert back.startswith(f"{private} {saved}\n"), back
        assert back.split("\n", 1)[1] == shown.removeprefix(f"{private} "), (back, shown)

"""What a new player tripped on in the terminal: the die named by the text board, answering a
challenge whose message is no longer the latest, picture names, a puzzle's answers typed as
commands or in any notation, games that never existed, refusals that give the reason."""

from __future__ import annotations

import io
import re
from collections import deque
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.service import Service
from bot.terminal import Terminal
from db import puzzles as puzzle_repo
from db.models import Puzzle
from tests.bot.conftest import Clock
from tests.bot.terminal_json import replies


def session(service: Service, user: str = "Ann", lang: str = "en") -> Terminal:
    return Terminal(
        service,
        out=io.StringIO(),
        json_mode=True,
        lang=lang,
        images=Path("/tmp/unused"),
        user=user,
    )


# -- a challenge answered once other messages follow it ------------------------------------------


def test_accept_finds_the_challenge_addressed_to_him(service: Service, script: deque[int]) -> None:
    term = session(service)
    script.extend([5, 2])
    # Carol's challenge to Dave is the latest message when Bob answers his own.
    made, *_, accepted = replies(
        term, "/challenge Bob cube:no", "/as Carol", "/challenge Dave", "/as Bob", "/accept"
    )
    assert "Ann challenges you" in str(made["text"])
    assert "Bob accepts the challenge" in str(accepted["text"]), accepted["text"]


def test_decline_and_cancel_find_their_challenge(service: Service, clock: Clock) -> None:
    term = session(service)
    replies(term, "/challenge Bob", "/settings")
    (refused,) = replies(term, "/decline")  # Ann made it: the challenged player answers it
    assert refused["ephemeral"] and "Only the challenged player" in str(refused["text"])
    # Another challenge is the latest message: Ann's /cancel still finds her own.
    replies(term, "/as Carol", "/challenge Dave", "/as Ann")
    (cancelled,) = replies(term, "/cancel")
    assert "Ann withdraws the challenge" in str(cancelled["text"]), cancelled["text"]
    clock.advance(minutes=2)  # past the pause between two challenges
    replies(term, "/challenge Bob", "/settings", "/as Bob")
    (declined,) = replies(term, "/decline")
    assert "Bob declines Ann's challenge" in str(declined["text"]), declined["text"]
    (nothing,) = replies(term, "/accept")  # answered: nothing waits any more
    assert nothing["ephemeral"] and "You have no game in this channel" in str(nothing["text"])


def test_several_challenges_ask_which(service: Service, script: deque[int]) -> None:
    term = session(service)
    script.extend([5, 2])
    replies(term, "/challenge Bob", "/as Carol", "/challenge Bob", "/as Dave", "/play", "/as Bob")
    (which,) = replies(term, "/accept")
    text = str(which["text"])
    assert which["ephemeral"] and "#2 (Carol), #1 (Ann)" in text, text
    assert "/accept challenge:N" in text
    (wrong,) = replies(term, "/accept challenge:7")
    assert wrong["ephemeral"] and "#7" in str(wrong["text"])
    script.extend([5, 2])
    (accepted,) = replies(term, "/accept challenge:1")
    assert "Bob accepts the challenge" in str(accepted["text"])
    assert "Ann" in str(accepted["text"]) and "Carol" not in str(accepted["text"])


# -- a puzzle's answers typed as commands, or in any notation ------------------------------------


def _a_puzzle(
    term: Terminal, monkeypatch: pytest.MonkeyPatch, kind: str, lang: str = "en"
) -> dict[str, object]:
    """The first puzzle of ``kind`` (cube: buttons, checker: a menu of plays), asked for."""

    def first(s: Session, *_: object, **__: object) -> Puzzle | None:
        return s.scalars(select(Puzzle).where(Puzzle.kind == kind).order_by(Puzzle.id)).first()

    monkeypatch.setattr(puzzle_repo, "pick_puzzle", first)
    (reply,) = replies(term, "/puzzle" if lang == "en" else "/problème")
    assert bool(reply["buttons"]) == (kind == "cube"), reply
    return reply


def test_cube_puzzles_answer_the_press_commands(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    for lang, words in (
        ("en", {"Double": "/double", "Take": "/take", "Pass": "/pass"}),
        ("fr", {"Doubler": "/doubler", "Prendre": "/prendre", "Refuser": "/passer"}),
    ):
        term = session(service, f"Solver-{lang}", lang)
        question = _a_puzzle(term, monkeypatch, "cube", lang)
        label = next(str(b) for b in question["buttons"] if str(b) in words)
        (answer,) = replies(term, words[label])
        assert f"{label} " in str(answer["text"]).split("\n")[0], answer["text"]
        assert "1. " in str(answer["text"])  # the candidates with their equities


def _retyped(play: str) -> str:
    """The same play written otherwise: the moves in reverse order, 25 for bar, no ``*``."""
    moves = play.replace("bar", "25").replace("off", "0").replace("*", "").split()
    return " ".join(reversed(moves))


def test_a_checker_puzzle_reads_any_notation(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    term = session(service, "Solver")
    question = _a_puzzle(term, monkeypatch, "checker")
    plays = [str(p) for p in question["plays"]]  # type: ignore[union-attr]
    play = max(plays, key=lambda p: len(p.split()))  # one of several moves, to reverse
    assert _retyped(play) != play
    (answer,) = replies(term, _retyped(play))
    first = str(answer["text"]).split("\n")[0]
    assert first[0] in "✅❌" and first[2:].startswith(f"{play} "), answer["text"]
    # /move answers it too, when there is no game to move in.
    again = _a_puzzle(term, monkeypatch, "checker")
    (moved,) = replies(term, f"/move {_retyped(str(again['plays'][0]))}")  # type: ignore[index]
    assert "You had answered this puzzle already" in str(moved["text"]), moved["text"]
    # Anything else is refused with the menu's plays.
    _a_puzzle(term, monkeypatch, "checker")
    (wrong,) = replies(term, "24/1")
    assert wrong["ephemeral"] and "not one of this puzzle's answers" in str(wrong["text"])
    assert all(p in str(wrong["text"]) for p in plays), wrong["text"]


# -- a game number that never existed ------------------------------------------------------------


def test_a_game_that_never_existed_is_named(service: Service) -> None:
    term = session(service)
    lines = ("/review game:0", "/export game:999", "/verify game:999", "/watch game:999")
    for line, reply in zip(lines, replies(term, *lines), strict=True):
        number = line.split(":")[1]
        assert reply["ephemeral"] and reply["text"] == f"No game #{number}.", (line, reply)
    fr = session(service, "Anne", "fr")
    (reply,) = replies(fr, "/exporter partie:999")
    assert reply["text"] == "Pas de partie n° 999.", reply


# -- refusals that give the reason ---------------------------------------------------------------


def test_accepting_your_own_resignation_says_so(service: Service, script: deque[int]) -> None:
    term = session(service)
    script.extend([5, 2])
    replies(term, "/challenge Ben points:1", "/as Ben", "Accept", "/as Ann", "/move 13/8 13/11")
    (offer,) = replies(term, "/as Ben", "/resign 1")[1:]
    assert "Accept" in offer["buttons"]  # type: ignore[operator]
    (own,) = replies(term, "Accept")
    assert own["ephemeral"] and "You made this offer" in str(own["text"]), own["text"]
    (done,) = replies(term, "/as Ann", "Accept")[1:]
    assert "Ann wins a single game" in str(done["text"])


def test_a_press_command_without_its_button_gives_the_reason(
    service: Service, script: deque[int]
) -> None:
    term = session(service)
    script.extend([6, 5])  # Ann wins the opening: she has rolled already
    replies(term, "/play")
    (double,) = replies(term, "/double")
    assert double["ephemeral"] and "only at the start of your turn" in str(double["text"])
    fr = session(service, "Anne", "fr")
    script.extend([6, 5])
    replies(fr, "/jouer")
    (doubler,) = replies(fr, "/doubler")
    assert doubler["ephemeral"] and "No button" not in str(doubler["text"])
    assert "Pas de bouton" not in str(doubler["text"]), doubler["text"]


# -- the resign menu offers only what changes the result -----------------------------------------


def test_the_resign_menu_leaves_out_levels_that_change_nothing(service: Service) -> None:
    crawford, two_away = "sAFgAAAAEAAE", "MAFgAAAACAAE"  # 3 points: 0-2 Crawford; 0-1
    for match, offered in ((crawford, ["Single game"]), (two_away, ["Single game", "Gammon"])):
        term = session(service, f"Trailer-{match}")
        replies(term, f"/play position:4HPwATDgc/ABMA match:{match}")
        (menu,) = replies(term, "/resign")
        assert [b for b in menu["buttons"] if b != "Cancel"] == offered, menu  # type: ignore[union-attr]
        (refused,) = replies(term, "/resign value:3")
        assert refused["ephemeral"] and "would not change the result" in str(refused["text"])
        # The reason is the match's score: a match has no Jacoby rule to name.
        assert "already wins your opponent the match" in str(refused["text"])
        assert "Jacoby" not in str(refused["text"])
        replies(term, "/resign value:1", "/quit")


# -- who may start a tournament in the terminal --------------------------------------------------


def test_only_the_organizer_starts_a_tournament_in_the_terminal(service: Service) -> None:
    term = session(service)  # Ann, the first local player: the server's owner
    (created,) = replies(term, "/tournament create name:Friday points:1")
    assert not created.get("ephemeral"), created["text"]
    replies(term, "/tournament join", "/as Bob", "/tournament join", "/as Carol")
    replies(term, "/tournament join")
    for person in ("Carol", "Bob"):  # /as people are ordinary members
        (refused,) = replies(term, f"/as {person}", "/tournament start")[1:]
        assert refused.get("ephemeral") and "Only the organizer" in str(refused["text"]), refused
        (made,) = replies(term, "/tournament create name:Mine")
        assert made.get("ephemeral") and "can create a tournament" in str(made["text"]), made
    started = replies(term, "/as Ann", "/tournament start")[1]  # then the first boards
    assert not started.get("ephemeral") and "Friday" in str(started["text"]), started["text"]


# -- a tournament's match beside a casual game in the terminal's one channel ----------------------


def test_a_tournament_match_is_reached_beside_a_casual_game(
    service: Service, script: deque[int]
) -> None:
    """The match is played outside the channel (one game per player and channel): ``/games``
    says how to open each game, ``/board game:N`` shows it with live buttons, and ``/move``
    plays in the game of the latest board, not always in the channel's."""
    term = session(service, "Alice")
    script.extend([5, 2])  # the casual match: Alice 5, Bob 2, Alice plays first
    replies(term, "/challenge Bob points:3", "/as Bob", "Accept", "/as Alice")
    replies(term, "/tournament create name:T", "/tournament join", "/as Bob", "/tournament join")
    script.extend([6, 1])  # the tournament's match: whoever sits first plays 6-1
    started = replies(term, "/as Alice", "/tournament start")
    match = str(started[-1]["text"])
    assert "1-point match" in match, match
    first = re.findall(r"\*?\*?(\w+)\*?\*? plays first", match)[0]

    (games,) = replies(term, "/games")
    lines = str(games["text"]).splitlines()
    assert "-" not in lines, lines  # every game says how to open it
    assert "/board game:1 to show it here" in games["text"]
    assert "/board game:2 shows it here" in lines, lines

    (casual,) = replies(term, "/board game:1")
    assert "3-point match" in str(casual["text"]) and not casual.get("ephemeral")
    (again,) = replies(term, "/board")  # the game of the latest board
    assert again["position_id"] == casual["position_id"] and "3-point" in str(again["text"])

    board = replies(term, f"/as {first}", "/board game:2")[-1]
    assert "1-point match" in str(board["text"]) and board["buttons"], board
    play = str(board["plays"][0])  # type: ignore[index]
    (moved,) = replies(term, f"/move {play}")
    assert not moved.get("ephemeral"), moved["text"]
    assert f"{first} played" in str(moved["text"]) and "1-point match" in str(moved["text"])
    # The casual match waits as it was.
    (casual_now,) = replies(term, "/board game:1")
    assert casual_now["position_id"] == casual["position_id"]
    assert "Alice rolled 5-2" in str(casual_now["text"]), casual_now["text"]


def test_board_of_a_game_someone_else_plays_or_that_ended(
    service: Service, script: deque[int]
) -> None:
    term = session(service, "Alice")
    script.extend([5, 2])
    replies(term, "/challenge Bob points:1", "/as Bob", "Accept")
    (refused,) = replies(term, "/as Carol", "/board game:1")[1:]
    assert refused.get("ephemeral") and refused["text"] == (
        "You do not play game #1: /watch game:1 shows its board."
    )
    (missing,) = replies(term, "/board game:99")
    assert missing.get("ephemeral") and "#99" in str(missing["text"])
    replies(term, "/as Alice", "/resign value:1", "/as Bob", "Accept")
    (over,) = replies(term, "/as Alice", "/board game:1")[1:]
    assert over.get("ephemeral") and over["text"] == (
        "Game #1 is over: /review game:1 goes through it."
    )
    fr = session(service, "Alice", "fr")
    (over_fr,) = replies(fr, "/plateau partie:1")
    assert over_fr["text"] == "La partie n° 1 est terminée : /analyse partie:1 la passe en revue."


def test_a_player_with_no_game_here_is_pointed_to_his_game_elsewhere(
    service: Service, script: deque[int]
) -> None:
    """Bob's tournament match is played outside the channel (Alice has a game there): his
    /board here names that game and how to show it, not "start one with /play"."""
    term = session(service, "Alice")
    replies(term, "/tournament create name:T", "/tournament join", "/as Bob", "/tournament join")
    script.extend([5, 2, 6, 1])  # Alice's game against the computer, then the match
    replies(term, "/as Alice", "/play", "/tournament start", "/board game:1")
    (refused,) = replies(term, "/as Bob", "/board")[-1:]
    assert refused["ephemeral"], refused
    assert "your game #2 is played elsewhere: /board game:2 shows it here" in str(
        refused["text"]
    ), refused["text"]


# -- issue 27, item 14: text that is neither a command nor a button ------------------------------


@pytest.mark.parametrize(
    ("lang", "play", "help_word"), [("en", "/play", "/help"), ("fr", "/jouer", "/aide")]
)
def test_a_stray_word_points_to_help_without_a_long_list(
    service: Service, script: deque[int], lang: str, play: str, help_word: str
) -> None:
    term = session(service, lang=lang)
    script.extend([5, 2])  # Ann opens with 5-2: points, dice, Resign and a menu of plays
    started = replies(term, f"{play} cube:no")[-1]
    assert len(started["buttons"]) + len(started["plays"]) > 10  # type: ignore[arg-type]
    (refused,) = replies(term, "hello")
    text = str(refused["text"])
    assert refused["ephemeral"] and help_word in text and "hello" in text
    assert "[13]" not in text and "13/" not in text and len(text) < 200, text


def test_a_stray_word_names_the_few_buttons_and_help(service: Service, script: deque[int]) -> None:
    term = session(service)
    script.extend([2, 5, 1, 1])  # the computer opens; Ann then rolls or doubles
    replies(term, "/play level:beginner")
    (refused,) = replies(term, "hello")
    text = str(refused["text"])
    assert "[Roll] [Double] [Resign]" in text and "/help" in text, text
    (refused,) = replies(term, "/settings language:fr", "bonjour")[1:]
    assert "[Lancer] [Doubler] [Abandonner]" in str(refused["text"]), refused["text"]
    assert "/aide" in str(refused["text"])


def test_a_later_session_names_the_players_it_has_not_met(service: Service) -> None:
    """Players who joined in an earlier session are named in the tournament's posts, not shown
    as ``<@id>``: the terminal asks the bot for the names it does not know."""
    first = session(service)  # Ann, the organizer
    replies(first, "/tournament create name:Friday points:1", "/as Bob", "/tournament join")
    replies(first, "/as Carol", "/tournament join", "/quit")
    later = session(service)  # a new session: it has met only Ann
    texts = " ".join(str(r["text"]) for r in replies(later, "/tournament start"))
    assert "Friday" in texts and "<@" not in texts, texts
    assert "Bob" in texts and "Carol" in texts, texts

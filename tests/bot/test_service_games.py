"""Service flows: games against the computer and between two people, with every refusal."""

from __future__ import annotations

from collections import deque

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Reply, Service, Where
from bot.service.customid import GameAction, Press
from bot.service.newgame import NewGames
from db.models import ComputerRecord, GameStatus, Rating
from db.models import Game as GameRow
from engine import Position, decode_match_id
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, DM, ROBOT, labels, press

PNG = b"\x89PNG"


def row(factory: sessionmaker[Session], game_id: int) -> GameRow:
    with factory() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        s.expunge(game)
        return game


def test_play_against_the_computer_starts_with_the_opening_roll(
    service: Service, script: deque[int]
) -> None:
    script.extend([6, 1])  # Alice 6, computer 1: Alice plays 6-1
    reply = service.play(ALICE, DM, level="expert")
    assert not reply.ephemeral and reply.image is not None and reply.image.startswith(PNG)
    assert "Opening roll: Alice 6" in reply.text and "Alice** plays first" in reply.text
    assert "Dice commitment" in reply.text
    assert Position.from_position_id(reply.position_id or "") == Position.initial()
    key = decode_match_id(reply.match_id or "")
    assert key.dice == (6, 1) and key.player_on_roll == 0
    # 6-1: both dice playable: point buttons for the 6, a die button to switch to the 1.
    assert "24" in labels(reply) and "13" in labels(reply) and "8" in labels(reply)
    assert "Die 1" in labels(reply) and "Confirm" not in labels(reply)
    assert any(c.label == "13/7 8/7" for s in reply.selects for c in s.choices)


def test_click_by_click_turn_with_undo_and_confirm(service: Service, script: deque[int]) -> None:
    script.extend([6, 1, 3, 1])  # opening 6-1 for Alice; then the computer rolls 3-1
    reply = service.play(ALICE, DM, level="beginner")
    reply = press(service, ALICE, reply, "13", DM)  # 13/7 with the 6
    assert reply.edit and "Undo" in labels(reply)
    assert "Die 1" not in labels(reply)  # only the 1 is left: no die to choose
    reply = press(service, ALICE, reply, "Undo", DM)
    assert "Undo" not in labels(reply)
    reply = press(service, ALICE, reply, "13", DM)
    reply = press(service, ALICE, reply, "8", DM)  # 8/7 with the 1
    assert "Confirm" in labels(reply)
    reply = press(service, ALICE, reply, "Confirm", DM)
    assert "Alice played **13/7 8/7**" in reply.text
    assert "Computer (beginner) rolled 3-1 and played" in reply.text
    # Back to Alice: she may double (centred cube), so she is asked to roll or double.
    assert labels(reply)[:2] == ["Roll", "Double"]


def test_undo_keeps_the_die_the_player_had_picked(service: Service, script: deque[int]) -> None:
    script.extend([6, 1])  # opening 6-1 for Alice: the 6 is picked at first
    reply = service.play(ALICE, DM, level="beginner")
    reply = press(service, ALICE, reply, "Die 1", DM)
    assert "Die 6" in labels(reply)  # the 1 picked: a button switches back to the 6
    reply = press(service, ALICE, reply, "8", DM)  # 8/7 with the 1
    reply = press(service, ALICE, reply, "Undo", DM)
    assert "Die 6" in labels(reply) and "Die 1" not in labels(reply), labels(reply)
    # The same with /undo and /undo all (Esc in the terminal): the first step's die.
    for everything in (False, True):
        moved = press(service, ALICE, reply, "8", DM)
        assert not moved.ephemeral, moved.text
        reply = service.undo(ALICE, DM, everything=everything)
        assert "Die 6" in labels(reply) and "Die 1" not in labels(reply), labels(reply)


def test_whole_play_from_the_select_menu(service: Service, script: deque[int]) -> None:
    script.extend([3, 1, 5, 2])
    reply = service.play(ALICE, DM, level="beginner")
    reply = press(service, ALICE, reply, "", DM, value="8/5 6/5")
    assert "Alice played **8/5 6/5**" in reply.text


def test_move_command_and_its_refusals(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    script.extend([3, 1, 5, 2])
    reply = service.play(ALICE, DM, level="beginner")
    game_id = reply.game_id
    assert game_id is not None
    version = row(factory, game_id).version
    bad = service.move(ALICE, DM, "24/18")
    assert bad.ephemeral and "is a move of 6" in bad.text
    nonsense = service.move(ALICE, DM, "hello")
    assert nonsense.ephemeral and "cannot read" in nonsense.text.lower()
    blocked = service.move(ALICE, DM, "13/12 6/3")
    assert blocked.ephemeral and "12 is held" in blocked.text
    assert row(factory, game_id).version == version  # refusals change nothing
    ok = service.move(ALICE, DM, "8/5 6/5")
    assert not ok.ephemeral and "8/5 6/5" in ok.text
    assert row(factory, game_id).version > version
    none_here = service.move(BOB, DM, "8/5 6/5")
    assert none_here.ephemeral and "no game in this conversation" in none_here.text  # a DM


@pytest.mark.parametrize(
    ("offer", "answer", "said"),
    [
        ("Double", "Take", "Your opponent doubles to 2: take or drop before you move."),
        (
            "Single game",
            "Reject",
            "Your opponent offers to resign: accept or reject before you move.",
        ),
    ],
)
def test_a_move_typed_before_answering_an_offer_says_to_answer_it(
    service: Service,
    script: deque[int],
    factory: sessionmaker[Session],
    offer: str,
    answer: str,
    said: str,
) -> None:
    """ "There is nothing to move now" left the player to guess that an offer waited."""
    made = service.challenge(ALICE, CHANNEL, BOB)
    script.extend([5, 2])
    board = press(service, BOB, made, "Accept")
    board = service.move(ALICE, CHANNEL, "13/8 13/11")  # Alice's opening; Bob to roll
    if offer == "Double":
        offered = press(service, BOB, board, "Double")
    else:
        offered = press(service, BOB, press(service, BOB, board, "Resign"), offer)
    assert answer in labels(offered), labels(offered)
    game_id = offered.game_id
    assert game_id is not None
    version = row(factory, game_id).version
    refused = service.move(ALICE, CHANNEL, "24/18")
    assert refused.ephemeral and refused.text == said
    assert row(factory, game_id).version == version


def test_autocomplete_lists_matching_legal_plays(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="beginner")
    everything = service.autocomplete_moves(ALICE, DM, "")
    assert "8/5 6/5" in everything and len(everything) == 16
    found = service.autocomplete_moves(ALICE, DM, "8/5")
    # Plays that start with what was typed come first, then those that contain it.
    assert found[0] == "8/5 6/5" and all("8/5" in p for p in found)
    assert set(found) == {p for p in everything if "8/5" in p}
    assert service.autocomplete_moves(ALICE, DM, "8/5 6") == ["8/5 6/5"]
    assert service.autocomplete_moves(BOB, DM, "") == []


def test_only_one_game_per_channel(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="beginner")
    again = service.play(ALICE, DM, level="expert")
    assert again.ephemeral and "already have a game" in again.text


def test_board_of_a_game_by_its_number_from_another_channel(
    service: Service, script: deque[int]
) -> None:
    """``/board game:N`` (Discord): a game of his played elsewhere (a tournament's match outside
    the channel), posted here with working buttons; the commands without a number still act
    on the game of this channel."""
    script.extend([3, 1])  # Alice plays 3-1 first
    started = service.play(ALICE, DM, level="beginner")
    game_id = started.game_id
    assert game_id is not None
    assert service.board(ALICE, CHANNEL).ephemeral  # no game in this channel
    board = service.board(ALICE, CHANNEL, game_id=game_id)
    assert not board.ephemeral and board.game_id == game_id and board.rows, board.text
    assert board.position_id == started.position_id
    moved = press(service, ALICE, board, "8")  # its buttons act on it, from here
    assert not moved.ephemeral and moved.game_id == game_id
    assert service.move(ALICE, CHANNEL, "8/5 6/5").ephemeral  # /move: this channel's game
    refused = service.board(CAROL, CHANNEL, game_id=game_id)
    assert refused.ephemeral and "`/watch game:" in refused.text, refused.text


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": "grandmaster"}, "Unknown level"),
        ({"points": 99}, "1 to 25 points"),
        ({"points": -1}, "1 to 25 points"),
    ],
)
def test_play_refusals(service: Service, kwargs: dict[str, object], message: str) -> None:
    reply = service.play(ALICE, DM, **kwargs)  # type: ignore[arg-type]
    assert reply.ephemeral and message in reply.text


def challenge_and_accept(service: Service, script: deque[int], **options: object) -> Reply:
    made = service.challenge(ALICE, CHANNEL, BOB, **options)  # type: ignore[arg-type]
    assert not made.ephemeral and "<@202>" in made.text and made.mentions == (BOB.id,)
    assert labels(made) == ["Accept", "Decline", "Cancel"]
    script.extend([5, 2])  # Alice 5, Bob 2: Alice opens with 5-2
    return press(service, BOB, made, "Accept")


def test_challenge_accept_and_turns_between_two_people(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    board = challenge_and_accept(service, script, points=3)
    assert board.edit and board.image is not None
    assert "Bob accepts the challenge" in board.text and "3-point match" in board.text
    # Only Alice (on roll) can act; Bob and a spectator are refused, privately.
    refused = press(service, BOB, board, "13")
    assert refused.ephemeral and "not your turn" in refused.text
    spectator = press(service, CAROL, board, "13")
    assert spectator.ephemeral and "only its players can press" in spectator.text
    after = service.move(ALICE, CHANNEL, "13/8 13/11")
    assert "Alice played **13/11 13/8**" in after.text
    assert after.mentions == (BOB.id,)
    # Bob's turn: he may double or roll.
    assert labels(after)[:2] == ["Roll", "Double"]
    # The old message's buttons are stale now.
    stale = (
        press(service, ALICE, board, "Confirm")
        if "Confirm" in labels(board)
        else service.press(ALICE, CHANNEL, board.buttons[0].custom_id)
    )
    assert stale.ephemeral and "out of date" in stale.text


def test_cube_take_redouble_and_drop(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    board = challenge_and_accept(service, script, points=0, rated=False)
    board = service.move(ALICE, CHANNEL, "13/8 13/11")
    doubled = press(service, BOB, board, "Double")
    assert "Bob doubles to 2" in doubled.text and labels(doubled) == ["Take", "Drop"]
    assert press(service, BOB, doubled, "Take").ephemeral  # the doubler cannot answer
    script.extend([6, 5])
    taken = press(service, ALICE, doubled, "Take")
    assert "Alice takes: the cube is at 2" in taken.text
    # Bob is still on roll after the take; Alice owns the cube now, Bob cannot redouble.
    assert "Double" not in labels(taken)
    assert decode_match_id(taken.match_id or "").cube_owner == 0
    played = service.move(BOB, CHANNEL, "24/13")
    redouble = press(service, ALICE, played, "Double")
    assert "Alice doubles to 4" in redouble.text
    dropped = press(service, BOB, redouble, "Drop")
    assert "Bob drops" in dropped.text and "Alice** wins a single game: 2 points" in dropped.text
    assert labels(dropped) == ["Rematch"]
    assert "Dice seed" in dropped.text  # the seed is revealed at the end
    game_id = dropped.game_id
    assert game_id is not None
    assert row(factory, game_id).status is GameStatus.FINISHED


def test_a_resignation_refused_under_the_jacoby_rule_says_so(service: Service) -> None:
    # A money game with the Jacoby rule (the XGID's rules field: 1), the cube centred.
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:1:0:10"
    assert not service.play(ALICE, DM, position_id=xgid).ephemeral
    refused = service.resign(ALICE, DM, 2)
    assert refused.ephemeral and refused.text == (
        "More than a single game would not change the result (with the Jacoby rule, gammons "
        "count only once the cube has been turned): offer a single game."
    )


def test_resignation_offer_and_answers(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    challenge_and_accept(service, script, points=1, rated=True)
    # A 1-point match: a gammon would change nothing, so it is not offered.
    refused = service.resign(BOB, CHANNEL, 2)
    assert refused.ephemeral and "would not change the result" in refused.text
    menu = service.resign(BOB, CHANNEL, 1)  # Bob offers a single game during Alice's turn
    assert "Bob offers to resign a single game" in menu.text
    assert labels(menu) == ["Accept", "Reject"]
    assert press(service, BOB, menu, "Accept").ephemeral  # not his to answer
    rejected = press(service, ALICE, menu, "Reject")
    assert "play on" in rejected.text
    resigned = service.resign(BOB, CHANNEL, 1)
    accepted = press(service, ALICE, resigned, "Accept")
    assert "Alice** wins a single game: 1 point." in accepted.text
    assert "wins the 1-point match 1–0" in accepted.text
    with factory() as s:
        ratings = {r.player_id: r.rating for r in s.query(Rating).all()}
    assert ratings[ALICE.id] > 1500 > ratings[BOB.id]


def test_resign_menu_and_cancel(service: Service, script: deque[int]) -> None:
    challenge_and_accept(service, script)
    after = service.move(ALICE, CHANNEL, "13/8 13/11")
    menu = press(service, BOB, after, "Resign")
    assert labels(menu) == ["Single game", "Gammon", "Backgammon", "Cancel"]
    back = press(service, BOB, menu, "Cancel")
    assert labels(back)[0] == "Roll"
    offer = press(service, BOB, menu, "Backgammon")
    assert "offers to resign a backgammon" in offer.text


def test_challenge_refusals(service: Service) -> None:
    assert "cannot challenge yourself" in service.challenge(ALICE, CHANNEL, ALICE).text
    assert "bot account" in service.challenge(ALICE, CHANNEL, ROBOT).text
    assert "server channel" in service.challenge(ALICE, DM, BOB).text
    assert "1 to 25 points" in service.challenge(ALICE, CHANNEL, BOB, points=30).text


def test_only_the_challenged_answers_and_only_the_challenger_cancels(service: Service) -> None:
    made = service.challenge(ALICE, CHANNEL, BOB)
    assert "Only the challenged" in press(service, ALICE, made, "Accept").text
    assert "Only the challenged" in press(service, CAROL, made, "Decline").text
    assert "Only the challenger" in press(service, BOB, made, "Cancel").text
    declined = press(service, BOB, made, "Decline")
    assert declined.edit and "declines" in declined.text
    again = press(service, BOB, made, "Accept")
    assert "already been answered" in again.text


def test_challenge_expires(service: Service, clock) -> None:  # type: ignore[no-untyped-def]
    made = service.challenge(ALICE, CHANNEL, BOB)
    clock.advance(minutes=16)
    late = press(service, BOB, made, "Accept")
    assert "expired" in late.text


def test_same_button_twice_applies_once(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    script.extend([3, 1])
    reply = service.play(ALICE, DM, level="beginner")
    button = next(b for b in reply.buttons if b.label == "8")
    first = service.press(ALICE, DM, button.custom_id)
    second = service.press(ALICE, DM, button.custom_id)
    assert not first.ephemeral and second.ephemeral and "out of date" in second.text
    game_id = reply.game_id
    assert game_id is not None
    state = row(factory, game_id).state
    assert len(state["games"][0]["partial"]) == 1


def test_forged_and_unknown_buttons_are_refused(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    reply = service.play(ALICE, DM, level="beginner")
    gid = reply.game_id
    assert gid is not None
    version = GameAction.parse(reply.buttons[0].custom_id).version  # type: ignore[union-attr]
    for custom_id in (
        GameAction(gid, version, "pt", "7-3").custom_id,  # no checker there
        GameAction(gid, version, "pt", "99-3").custom_id,
        GameAction(gid, version, "fly").custom_id,
        GameAction(gid + 1000, version, "roll").custom_id,
        "something else",
    ):
        answer = service.press(ALICE, DM, custom_id)
        assert answer.ephemeral, custom_id


def test_games_against_the_computer_count_per_level(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="casual")
    resigned = service.resign(ALICE, DM, 3)
    assert "accepts the resignation" in resigned.text
    with factory() as s:
        record = s.get(ComputerRecord, (ALICE.id, "casual"))
        assert record is not None and record.losses == 1 and record.points_lost == 3
        assert s.query(Rating).count() == 0  # never rated


def test_rematch_after_the_end(service: Service, script: deque[int]) -> None:
    # The game-over message's Rematch button carries the game's final version: revealing the
    # dice seed at the end must not change the version once more (it made Rematch stale).
    service.play(ALICE, DM, level="beginner")
    over = service.resign(ALICE, DM, 3)  # the computer accepts a backgammon
    assert labels(over) == ["Rematch"] and "Dice seed" in over.text
    again = press(service, ALICE, over, "Rematch", DM)
    assert not again.ephemeral and again.game_id not in (None, over.game_id)
    assert "sits down against the computer (beginner)" in again.text
    assert press(service, ALICE, over, "Rematch", DM).ephemeral  # a game is on here now

    board = challenge_and_accept(service, script, points=0, rated=False)
    board = service.move(ALICE, CHANNEL, "13/8 13/11")
    dropped = press(service, ALICE, press(service, BOB, board, "Double"), "Drop")
    assert labels(dropped) == ["Rematch"]
    assert press(service, CAROL, dropped, "Rematch").ephemeral  # not her game
    service.clock.advance(seconds=10)  # type: ignore[attr-defined]  # (the challenge cooldown)
    challenge = press(service, ALICE, dropped, "Rematch")
    assert "challenges you" in challenge.text and challenge.mentions == (BOB.id,)


def test_a_match_game_that_ends_says_who_won_it(service: Service, script: deque[int]) -> None:
    # When a game of a match ends and the next one starts at once, the message must still say
    # who won that game and how (the board already shows the next game).
    board = challenge_and_accept(service, script, points=5, rated=False)
    board = service.move(ALICE, CHANNEL, "13/8 13/11")
    doubled = press(service, BOB, board, "Double")
    script.extend([6, 1])  # the opening roll of game 2
    dropped = press(service, ALICE, doubled, "Drop")
    assert "Alice drops" in dropped.text
    assert "Bob** wins a single game: 1 point." in dropped.text
    assert "Game 2 begins (score 0–1)" in dropped.text
    assert dropped.text.index("wins a single game") < dropped.text.index("Game 2 begins")


def test_accepting_when_the_challenger_is_already_playing_here(
    service: Service, script: deque[int]
) -> None:
    # Alice challenges Bob and Carol; Bob accepts first. Carol's accept is refused because
    # Alice is busy, and the refusal must say so (not "You already have a game here").
    to_bob = service.challenge(ALICE, CHANNEL, BOB)
    service.clock.advance(seconds=10)  # type: ignore[attr-defined]  # (the challenge cooldown)
    to_carol = service.challenge(ALICE, CHANNEL, CAROL)
    script.extend([5, 2])
    assert not press(service, BOB, to_bob, "Accept").ephemeral
    refused = press(service, CAROL, to_carol, "Accept")
    assert refused.ephemeral and "Alice is already playing a game in this channel" in refused.text


def test_a_second_click_on_accept_does_not_wipe_the_board(
    service: Service, script: deque[int]
) -> None:
    # Accept edits the challenge message into the board. A second click on Accept (a double
    # click, a slow answer) arrives on that same message: its refusal must be private, not an
    # edit that replaces the board with "already answered" and takes its buttons away.
    made = service.challenge(ALICE, CHANNEL, BOB)
    script.extend([5, 2])
    board = press(service, BOB, made, "Accept")
    assert board.edit and board.rows
    again = press(service, BOB, made, "Accept")
    assert "already been answered" in again.text
    assert again.ephemeral and not again.edit
    # An expired challenge still turns into "expired" in place (its buttons go away).
    service.clock.advance(seconds=10)  # type: ignore[attr-defined]  # (the challenge cooldown)
    late = service.challenge(ALICE, Where(channel_id=5001, guild_id=9000), CAROL)
    service.clock.advance(minutes=16)  # type: ignore[attr-defined]
    expired = press(service, CAROL, late, "Accept", Where(channel_id=5001, guild_id=9000))
    assert "expired" in expired.text and expired.edit and not expired.ephemeral
    # Replaced whole, it still says who challenged whom.
    assert expired.text.startswith("Alice's challenge to Carol has expired"), expired.text


def test_the_database_refuses_a_second_game_in_a_channel(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two /play at the same moment both pass the service's check; the database's
    # one-active-game-per-seat index makes the second one fail cleanly.
    monkeypatch.setattr(NewGames, "no_game_here", lambda *args, **kwargs: None)
    script.extend([3, 1, 3, 1])
    assert not service.play(ALICE, DM, level="beginner").ephemeral
    second = service.play(ALICE, DM, level="expert")
    assert second.ephemeral and "already have a game" in second.text


def test_a_refusal_speaks_the_players_chosen_language(service: Service) -> None:
    # Alice's Discord is in English but she chose French: the refusal, found in the same unit
    # of work as her settings, is in French.
    service.settings_command(ALICE, DM, language="fr")
    refused = service.move(ALICE, DM, "13/7")
    assert refused.ephemeral and "pas de partie" in refused.text
    unknown = service.press(ALICE, DM, "bg:1:1:fly")  # not an action
    assert unknown.ephemeral and "Ce bouton" in unknown.text


@pytest.mark.parametrize(
    ("locale", "asks", "refused", "offered", "single"),
    [
        ("en-US", "Bob**, what do you offer", "This menu is for Bob", "offers to resign a gammon",
         "Single game"),
        ("fr", "Bob**, que proposez-vous", "Ce menu est pour Bob", "d’abandonner (un gammon)",
         "Partie simple"),
    ],
)  # fmt: skip
def test_resign_without_a_value_out_of_turn_opens_the_menu_for_the_resigner(
    service: Service,
    script: deque[int],
    locale: str,
    asks: str,
    refused: str,
    offered: str,
    single: str,
) -> None:
    # Offering to resign out of turn is allowed with a value (/resign 2 during the other's
    # turn): without one, the menu opens as well, for the seat of the one who asked.
    alice, bob = (Actor(p.id, p.name, locale=locale) for p in (ALICE, BOB))
    here = Where(CHANNEL.channel_id, CHANNEL.guild_id, guild_locale=locale)
    challenge_and_accept(service, script)  # Alice on roll: she opens with 5-2
    menu = service.resign(bob, here)
    assert not menu.ephemeral and asks in menu.text, menu.text
    assert labels(menu)[0].startswith(single) and len(labels(menu)) == 4, labels(menu)
    not_hers = press(service, alice, menu, labels(menu)[1], here)
    assert not_hers.ephemeral and refused in not_hers.text, not_hers.text
    not_her_cancel = press(service, alice, menu, labels(menu)[-1], here)  # nor his Cancel
    assert not_her_cancel.ephemeral and refused in not_her_cancel.text, not_her_cancel.text
    assert "13" in labels(service.board(alice, here))  # nothing changed: she moves on
    offer = press(service, bob, menu, labels(menu)[1], here)
    assert not offer.ephemeral and offered in offer.text, offer.text


@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "It is not your turn."), ("fr", "Ce n’est pas à vous de jouer.")],
)
def test_undo_out_of_turn_says_it_is_not_your_turn(
    service: Service, script: deque[int], language: str, message: str
) -> None:
    """/undo by the player waiting for his turn: the reason is the turn, not an empty move."""
    challenge_and_accept(service, script, points=3)
    service.settings_command(BOB, CHANNEL, language=language)
    for everything in (False, True):
        refused = service.undo(BOB, CHANNEL, everything=everything)
        assert refused.ephemeral and message in refused.text, refused.text


ANSWERS_WITHOUT_OFFER = [
    (Press.TAKE, "en", "There is no double to answer."),
    (Press.DROP, "fr", "Il n’y a pas de double auquel répondre."),
    (Press.ACCEPT, "en", "There is no resignation to answer."),
    (Press.REJECT, "fr", "Il n’y a pas d’abandon auquel répondre."),
]


@pytest.mark.parametrize(("action", "language", "message"), ANSWERS_WITHOUT_OFFER)
def test_an_answer_with_nothing_offered_says_so_to_both_players(
    service: Service, script: deque[int], action: Press, language: str, message: str
) -> None:
    """/take, /pass, /accept or /reject with no double or resignation on offer: the player
    on roll and the one waiting hear the same reason (the waiting one heard "not your
    turn", as if his turn would make the answer possible)."""
    challenge_and_accept(service, script, points=3)
    for actor in (ALICE, BOB):  # Alice is on roll
        service.settings_command(actor, CHANNEL, language=language)
        refused = service.press_current(actor, CHANNEL, action)
        assert refused.ephemeral and refused.text == message, (actor.name, refused.text)

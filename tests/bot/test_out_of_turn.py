"""What happens while the decision is the other player's.

The line telling a player it is his turn (``Reply.ping``, a message of its own in Discord,
which notifies him) comes when the decision has just passed to him, not when the other player
only opened or closed a menu: Bob opening the resign menu in Alice's turn pinged her, and
again when he closed it. A resignation refused while an offer waits says which offer, and
what to do."""

from __future__ import annotations

from collections import deque

from bot.service import Service
from tests.bot.conftest import ALICE, BOB, CHANNEL, accepted_challenge, labels, press


def test_a_menu_opened_or_closed_out_of_turn_pings_nobody(
    service: Service, script: deque[int]
) -> None:
    accepted_challenge(service, script)  # Alice to play her opening 5-2
    menu = service.resign(BOB, CHANNEL)
    assert not menu.ephemeral and "Cancel" in labels(menu), menu.text
    assert menu.ping is None, menu.ping
    closed = press(service, BOB, menu, "Cancel")
    assert closed.ping is None, closed.ping
    # An offer is a decision for Alice: she is told.
    offered = service.resign(BOB, CHANNEL, value=1)
    assert offered.ping is not None and "<@101>" in offered.ping, offered.ping


def test_a_play_pings_the_player_whose_turn_it_now_is(service: Service, script: deque[int]) -> None:
    accepted_challenge(service, script)
    done = service.move(ALICE, CHANNEL, "13/8 13/11")
    assert "Roll" in labels(done), labels(done)
    assert done.ping is not None and "<@202>" in done.ping, done.ping


def test_a_resignation_while_an_offer_waits_says_which_offer(
    service: Service, script: deque[int]
) -> None:
    # It said "You can offer to resign only during play, not now" whatever waited.
    accepted_challenge(service, script)
    board = service.move(ALICE, CHANNEL, "13/8 13/11")
    doubled = press(service, BOB, board, "Double")
    assert "Take" in labels(doubled), labels(doubled)
    refused = service.resign(ALICE, CHANNEL, value=1)
    assert refused.ephemeral and refused.text.startswith("Your opponent doubles to 2: take or drop")
    assert "for 1 point" in refused.text, refused.text
    refused = service.resign(BOB, CHANNEL)
    assert refused.ephemeral and refused.text.startswith(
        "Your opponent has yet to answer your double to 2"
    ), refused.text


def test_a_resignation_while_a_resignation_waits(service: Service, script: deque[int]) -> None:
    accepted_challenge(service, script)
    service.move(ALICE, CHANNEL, "13/8 13/11")
    offered = service.resign(BOB, CHANNEL, value=1)
    assert not offered.ephemeral, offered.text
    refused = service.resign(ALICE, CHANNEL, value=2)
    assert refused.ephemeral and "accept or reject that first" in refused.text, refused.text
    refused = service.resign(BOB, CHANNEL, value=1)
    assert refused.ephemeral and refused.text.startswith("Your offer to resign waits")


def test_a_roll_that_cannot_be_played_is_said_once(service: Service, script: deque[int]) -> None:
    # "Alice rolls 6-5." then "Alice rolled 6-5 and cannot move.": one line says it all.
    from engine import Position
    from tests.bot.conftest import DM
    from tests.test_position import board

    closed = board(bar=1, p6=14, o19=-2, o20=-2, o21=-2, o22=-2, o23=-2, o24=-2, o1=-3)
    pid = Position.from_board(closed).position_id()
    script.extend([6, 5, 2, 1])  # Alice's roll (rolled for her: no cube), the computer's
    started = service.play(ALICE, DM, level="beginner", position_id=pid, cube=False)
    lines = started.text.splitlines()
    first = next(i for i, line in enumerate(lines) if "Dice commitment" in line) + 1
    assert lines[first] == "Alice rolled 6-5 and cannot move.", lines
    assert lines[first + 1].startswith("Computer (beginner) rolled 2-1"), lines

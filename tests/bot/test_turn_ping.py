"""The line telling a player it is his turn (``Reply.ping``, a message of its own in Discord,
which notifies him) comes when the decision has just passed to him, not when the other player
only opened or closed a menu: Bob opening the resign menu in Alice's turn pinged her, and
again when he closed it."""

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

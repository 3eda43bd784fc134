"""Who may do what: for each action and each role, only the right person succeeds, and a
refused action changes nothing."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Reply, Service, Where
from bot.service.customid import GameAction
from db.models import Game as GameRow
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, press

STRANGER = Actor(505, "Dave", locale="en-US")
STRANGER_DM = Where(channel_id=7000)  # Dave's own DM with the bot
ROLES = {"mover": ALICE, "opponent": BOB, "spectator": CAROL, "stranger": STRANGER}


def version(factory: sessionmaker[Session], game_id: int) -> int:
    with factory() as s:
        row = s.get(GameRow, game_id)
        assert row is not None
        return row.version


def table(service: Service, script: deque[int]) -> Reply:
    """Alice and Bob in a channel; Alice on roll with 5-2 after the opening."""
    made = service.challenge(ALICE, CHANNEL, BOB, points=0, rated=False)
    script.extend([5, 2])
    return press(service, BOB, made, "Accept")


def where_of(role: str) -> Where:
    return STRANGER_DM if role == "stranger" else CHANNEL


# (state builder, action on the board, who may do it)
def move_phase(service: Service, script: deque[int]) -> tuple[Reply, str]:
    return table(service, script), "mover"


def roll_phase(service: Service, script: deque[int]) -> tuple[Reply, str]:
    table(service, script)
    return service.move(ALICE, CHANNEL, "13/8 13/11"), "opponent"  # Bob to roll


def doubled_phase(service: Service, script: deque[int]) -> tuple[Reply, str]:
    board, _ = roll_phase(service, script)
    return press(service, BOB, board, "Double"), "mover"  # Alice answers


def resigned_phase(service: Service, script: deque[int]) -> tuple[Reply, str]:
    table(service, script)
    return service.resign(BOB, CHANNEL, 1), "mover"  # Alice answers


PHASES: dict[str, Callable[[Service, deque[int]], tuple[Reply, str]]] = {
    "move": move_phase,
    "roll": roll_phase,
    "doubled": doubled_phase,
    "resigned": resigned_phase,
}
BUTTONS = {
    "move": ["13", "Undo", "Confirm"],
    "roll": ["Roll", "Double", "Resign"],
    "doubled": ["Take", "Drop"],
    "resigned": ["Accept", "Reject"],
}


def actual_actor(role: str, rightful: str) -> Actor:
    """Map a role name to the person: 'mover' means whoever must act in that phase."""
    if role == "mover":
        return ALICE if rightful == "mover" else BOB
    if role == "opponent":
        return BOB if rightful == "mover" else ALICE
    return ROLES[role]


@pytest.mark.parametrize("phase", list(PHASES))
@pytest.mark.parametrize("role", list(ROLES))
def test_buttons_only_for_the_player_to_act(
    service: Service, script: deque[int], factory: sessionmaker[Session], phase: str, role: str
) -> None:
    board, rightful = PHASES[phase](service, script)
    assert board.game_id is not None
    before = version(factory, board.game_id)
    actor = actual_actor(role, rightful)
    for label in BUTTONS[phase]:
        button = next((b for b in board.buttons if b.label == label), None)
        if button is None or button.disabled:
            continue
        answer = service.press(actor, where_of(role), button.custom_id)
        if role == "mover":
            assert not answer.ephemeral, (phase, label, answer.text)
            return  # the rightful player could act (the state moved on)
        assert answer.ephemeral, (phase, role, label)
        expected = "not your turn" if role == "opponent" else "You are watching game"
        if role == "opponent" and phase in ("doubled", "resigned"):
            expected = "You made this offer"  # his own offer: the other player answers it
        assert expected in answer.text
        assert version(factory, board.game_id) == before
    assert role != "mover"


@pytest.mark.parametrize("role", ["spectator", "stranger"])
def test_slash_commands_need_a_game_of_ones_own(
    service: Service, script: deque[int], role: str
) -> None:
    table(service, script)
    actor, where = ROLES[role], where_of(role)
    for reply in (
        service.move(actor, where, "13/8 13/11"),
        service.undo(actor, where),
        service.resign(actor, where, 1),
        service.board(actor, where),
    ):
        here = "this conversation" if where.is_dm else "this channel"  # a DM is no channel
        assert reply.ephemeral and f"no game in {here}" in reply.text


def test_slash_commands_of_the_opponent_out_of_turn(
    service: Service, script: deque[int], factory
) -> None:  # type: ignore[no-untyped-def]
    board = table(service, script)
    before = version(factory, board.game_id)
    assert "not your turn" in service.move(BOB, CHANNEL, "13/8 13/11").text
    assert "not your turn" in service.undo(BOB, CHANNEL).text
    assert version(factory, board.game_id) == before
    # Either player may offer to resign, in turn or not; /board is open to both.
    assert not service.board(BOB, CHANNEL).ephemeral
    assert not service.resign(BOB, CHANNEL, 1).ephemeral


def test_stranger_cannot_use_a_button_id_from_elsewhere(
    service: Service, script: deque[int], factory
) -> None:  # type: ignore[no-untyped-def]
    board = table(service, script)
    assert board.game_id is not None
    before = version(factory, board.game_id)
    forged = GameAction(board.game_id, before, "pt", "13-5").custom_id
    answer = service.press(STRANGER, STRANGER_DM, forged)
    assert answer.ephemeral and "You are watching game" in answer.text
    assert version(factory, board.game_id) == before


def test_rematch_only_for_the_players(service: Service, script: deque[int]) -> None:
    table(service, script)
    over = service.resign(BOB, CHANNEL, 1)
    over = press(service, ALICE, over, "Accept")
    assert "Rematch" in [b.label for b in over.buttons]
    assert "not your game" in press(service, CAROL, over, "Rematch").text
    rematch = press(service, BOB, over, "Rematch")
    assert "challenges you" in rematch.text and rematch.mentions == (ALICE.id,)

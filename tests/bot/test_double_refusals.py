"""Why a double is refused, once the dice are rolled (issue: in the Crawford game ``/double``
after the automatic roll answered "You can double only at the start of your turn, before
rolling", as if the person had missed his chance). When no double was possible this turn
anyway, the refusal gives that reason, in the person's language; "before rolling" is kept for
a turn where he could have doubled."""

from __future__ import annotations

import pytest

from bot.service import Actor, Service
from bot.service.customid import Press
from bot.service.replies import Reply
from engine import decode_match_id
from tests.bot.conftest import ALICE, CHANNEL

BOARD = "-b----E-C---eE---c-e----B-"  # the opening; X to play (Alice takes the side on roll)
FR = Actor(ALICE.id, ALICE.name, locale="fr")

CASES = [
    # 5 points, 4-2, the Crawford game.
    (
        f"{BOARD}:0:0:1:00:4:2:1:5:10",
        True,
        "No doubling in the Crawford game.",
        "Pas de double pendant la partie Crawford.",
    ),
    # Money, the cube at 64, centred: the engine's cube stops there.
    (
        f"{BOARD}:6:0:1:00:0:0:0:0:10",
        True,
        "The cube is at its maximum (64).",
        "Le videau est à son maximum (64).",
    ),
    # Money, O owns the cube at 2, X on roll.
    (
        f"{BOARD}:1:-1:1:00:0:0:0:0:10",
        True,
        "Only the owner of the cube can redouble.",
        "Seul le propriétaire du videau peut redoubler.",
    ),
    # 5 points, X 3 - O 0, X owns the cube at 2: a win at 2 gives him the match.
    (
        f"{BOARD}:1:1:1:00:3:0:0:5:10",
        True,
        "The cube is dead",
        "Le videau est mort",
    ),
    # A money game played without the cube (Jacoby or not, there is nothing to double).
    (
        f"{BOARD}:0:0:1:00:0:0:1:0:10",
        False,
        "This game is played without the doubling cube.",
        "Cette partie se joue sans videau.",
    ),
]


def _rolled(reply: Reply) -> bool:
    key = decode_match_id(reply.match_id or "")
    return key.turn == 0 and key.dice != (0, 0)


@pytest.mark.parametrize(
    ("xgid", "cube", "en", "fr"), CASES, ids=["crawford", "max", "owner", "dead", "no-cube"]
)
def test_double_after_the_automatic_roll_says_why_there_is_no_double(
    service: Service, xgid: str, cube: bool, en: str, fr: str
) -> None:
    board = service.play(ALICE, CHANNEL, position_id=f"XGID={xgid}", cube=cube)
    assert not board.ephemeral, board.text
    # No cube decision: the dice were rolled for Alice, as her settings ask by default.
    assert _rolled(board) and "Double" not in [b.label for b in board.buttons]
    for actor, words in ((ALICE, en), (FR, fr)):
        refusal = service.press_current(actor, CHANNEL, Press.DOUBLE)
        assert refusal.ephemeral and refusal.text.startswith(words), refusal.text
        assert "before rolling" not in refusal.text and "avant de lancer" not in refusal.text


def test_a_double_missed_by_rolling_still_says_before_rolling(service: Service) -> None:
    # Money, centred cube: Alice could have doubled, but rolled.
    board = service.play(ALICE, CHANNEL, position_id=f"XGID={BOARD}:0:0:1:00:0:0:0:0:10")
    assert "Double" in [b.label for b in board.buttons]
    rolled = service.press_current(ALICE, CHANNEL, Press.ROLL)
    assert _rolled(rolled), rolled.text
    for actor, words in (
        (ALICE, "You can double only at the start of your turn, before rolling."),
        (FR, "On ne peut doubler qu’au début de son tour, avant de lancer les dés."),
    ):
        refusal = service.press_current(actor, CHANNEL, Press.DOUBLE)
        assert refusal.ephemeral and refusal.text == words, refusal.text

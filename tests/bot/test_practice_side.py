"""Practising a position: the person takes the side whose decision it is.

``/play position:`` with an XGID where X (upper case) was on roll gave the roll to the computer:
X is GNU Backgammon's player 1, the bot's computer seat. The person now plays the side on roll
(the taker while a double is on offer), whatever the XGID's letter case or the Match ID's
player number, and the bot's own XGIDs come back to the same person on the same side."""

from __future__ import annotations

import pytest

from bot.service import Service
from bot.service.present import xgid_of
from bot.service.replies import Reply
from engine import decode_match_id
from engine.xgid import Xgid
from tests.bot.conftest import ALICE, CHANNEL, DM, labels, press

README_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"  # X to play 5-2


def _decision_is_alices(reply: Reply) -> None:
    assert not reply.ephemeral, reply.text
    assert reply.match_id is not None
    key = decode_match_id(reply.match_id)
    assert key.turn == 0, reply.text  # Alice is player 0 of the bot's games


@pytest.mark.parametrize(
    "xgid",
    [
        README_XGID,
        # The same position with O to play the 5-2 (lower case on roll).
        "XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:3:0:10",
    ],
)
def test_the_person_plays_the_roll_of_the_xgid(service: Service, xgid: str) -> None:
    reply = service.play(ALICE, CHANNEL, level="expert", position_id=xgid)
    _decision_is_alices(reply)
    assert "Computer" not in reply.text.split("Dice commitment")[1], reply.text
    assert "**Alice** rolled 5-2" in reply.text
    assert decode_match_id(reply.match_id or "").dice == (5, 2)
    assert reply.position_id == "4HPwATDgc/ABMA"


def test_without_dice_the_person_is_to_roll_or_double(service: Service) -> None:
    # X on roll, X owns a 2-cube, 7 points, X 3 - O 1 (XG's docstring example).
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10"
    reply = service.play(ALICE, CHANNEL, position_id=xgid)
    _decision_is_alices(reply)
    assert {"Roll", "Double"} <= set(labels(reply)), labels(reply)
    key = decode_match_id(reply.match_id or "")
    # X's cube and X's score went with the side to Alice.
    assert key.cube_owner == 0 and key.cube_value == 2 and key.score == (3, 1)
    shown = Xgid.parse(xgid_of(reply.position_id or "", reply.match_id))
    assert shown.context() == Xgid.parse(xgid).context()  # the same moment, seen by Alice


@pytest.mark.parametrize("turn", [1, -1])
def test_with_a_double_on_offer_the_person_takes_or_passes(service: Service, turn: int) -> None:
    xgid = f"XGID=-b----E-C---eE---c-e----B-:0:0:{turn}:D:0:0:0:5:10"
    reply = service.play(ALICE, CHANNEL, position_id=xgid)
    _decision_is_alices(reply)
    assert {"Take", "Drop"} <= set(labels(reply)), labels(reply)


def test_a_match_id_with_player_1_on_roll(service: Service) -> None:
    # GNU Backgammon's own IDs for the user (its player 1) on roll with 5-2.
    key = decode_match_id("cIkKAAAAAAAA")
    assert key.player_on_roll == 1 and key.dice == (5, 2)
    reply = service.play(ALICE, CHANNEL, position_id="4HPwATDgc/ABMA", match_id="cIkKAAAAAAAA")
    _decision_is_alices(reply)
    assert "**Alice** rolled 5-2" in reply.text


@pytest.mark.parametrize(
    ("typed", "renumbered"),
    [
        ({"match_id": "cIkKAAAAAAAA"}, True),  # player 1 on roll: numbered the other way
        ({"match_id": "MIEKAAAAAAAA"}, False),  # player 0 on roll: kept as typed
        ({"position_id": "4HPwATDgc/ABMA:cIkKAAAAAAAA"}, True),  # pasted after a colon
        ({"position_id": README_XGID}, False),  # no Match ID typed
    ],
)
def test_the_practice_note_says_which_side_the_person_plays(
    service: Service, typed: dict[str, str], renumbered: bool
) -> None:
    """Without a word the person got the roll of a Match ID whose player 0 (GNU Backgammon's
    computer) was on roll, and a Match ID other than the one typed: the note says he plays the
    side whose decision it is, and why the Match ID changed when it did."""
    ids = {"position_id": "4HPwATDgc/ABMA", **typed}
    reply = service.play(ALICE, CHANNEL, **ids)
    _decision_is_alices(reply)
    note = next(line for line in reply.text.splitlines() if "Practice from" in line)
    assert "you play the side whose decision it is" in note
    started = decode_match_id(reply.match_id or "")
    if renumbered:
        given = typed.get("match_id") or typed["position_id"].split(":")[1]
        assert decode_match_id(given) == started.swap_players()
        assert f"(the `{given}` you gave, seen from your side of the table)" in note
    else:
        assert "you gave" not in note


def test_the_bots_own_xgids_come_back_to_the_same_side(service: Service) -> None:
    """An XGID shown under the board at the person's decision, pasted into /play position:,
    gives him the same side: the board shows the very same XGID."""
    reply = service.play(ALICE, CHANNEL, level="expert")
    shown = []
    for _ in range(6):  # a few decisions of a game in progress
        _decision_is_alices(reply)
        shown.append(xgid_of(reply.position_id or "", reply.match_id))
        names = labels(reply)
        for wanted in ("Confirm", "Take", "Roll"):
            if wanted in names:
                reply = press(service, ALICE, reply, wanted)
                break
        else:
            point = next(n for n in names if n.isdigit() or n == "Bar")
            reply = press(service, ALICE, reply, point)
        if "Rematch" in labels(reply):
            break
    for xgid in shown:
        again = service.play(ALICE, DM, position_id=xgid)
        _decision_is_alices(again)
        assert xgid_of(again.position_id or "", again.match_id) == xgid
        assert "accepts the resignation" in service.resign(ALICE, DM, 3).text


def test_a_position_id_and_match_id_pasted_together_are_taken(service: Service) -> None:
    """GNU Backgammon's "PositionID:MatchID" form (its Copy ID, our IDs file) is one paste."""
    joined = service.play(ALICE, DM, position_id="4HPhASLgc/ABMA:MBlgAAAAAAAE")
    assert not joined.ephemeral, joined.text
    key = decode_match_id(joined.match_id or "")
    assert key.match_length == 3 and joined.position_id is not None
    both = service.play(ALICE, CHANNEL, position_id="4HPhASLgc/ABMA:MBlgAAAAAAAE", match_id="x")
    assert both.ephemeral and "after the colon" in both.text


def test_only_the_larger_die_is_offered_when_only_one_die_can_be_played(
    service: Service,
) -> None:
    """2-1 with one checker on the 1-point: "only one die can be played, the 2", and no Die 1
    button contradicting it (the 1 bears it off too, but the rule wants the larger die)."""
    service.settings_command(ALICE, DM, auto_forced=False)
    reply = service.play(
        ALICE, DM, position_id="XGID=-A----------------------a-:0:0:1:21:0:0:0:0:10"
    )
    assert "only one die can be played, the 2" in reply.text, reply.text
    assert "Die 1" not in labels(reply) and "1" in labels(reply), labels(reply)


@pytest.mark.parametrize(
    ("xgid", "told"),
    [
        # Money, the Jacoby rule and beavers (rules 3), XG's usual maximum cube (2**10).
        (README_XGID, ["allows beavers"]),
        # Money, the Jacoby rule only, the cube stopped at 2**4.
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:1:0:4", ["stops the cube at 16"]),
        # A 7-point match: its rules field is the Crawford flag, not beavers.
        ("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10", []),
    ],
)
def test_what_the_xgid_asks_and_is_not_played_is_said(
    service: Service, xgid: str, told: list[str]
) -> None:
    text = service.play(ALICE, CHANNEL, position_id=xgid).text
    for words in ("allows beavers", "stops the cube at"):
        assert (words in text) == any(words in x for x in told), text
    if told:
        assert "here it goes up to 64" in text or "a double is taken or passed" in text


@pytest.mark.parametrize(
    ("ids", "points", "refused"),
    [
        ({"position_id": "4HPhASLgc/ABMA", "match_id": "MBlgAAAAAAAE"}, 5, True),  # a 3-point ID
        ({"position_id": "4HPhASLgc/ABMA", "match_id": "MBlgAAAAAAAE"}, 3, False),  # the same
        ({"position_id": "4HPhASLgc/ABMA:MBlgAAAAAAAE"}, 7, True),  # the pair joined
        ({"position_id": README_XGID}, 5, True),  # a money game's XGID
        ({"position_id": "4HPhASLgc/ABMA"}, 5, False),  # no Match ID: points sets the length
    ],
)
def test_points_against_the_length_of_the_ids_is_refused(
    service: Service, ids: dict[str, str], points: int, refused: bool
) -> None:
    # points:5 with a 3-point Match ID started a 3-point match without a word.
    reply = service.play(ALICE, CHANNEL, level="expert", points=points, **ids)
    assert reply.ephemeral == refused, reply.text
    if refused:
        assert "sets the length already" in reply.text and f"points:{points}" in reply.text
    else:
        assert f"{points}-point match" in reply.text, reply.text

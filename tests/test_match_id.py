"""The GNU Backgammon Match ID codec."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import GameState, InvalidMatchIdError, MatchKey, decode_match_id, encode_match_id


def test_manual_example() -> None:
    # GNU Backgammon manual: score 2-4 in a 9-point match, player 0 holds a 2-cube, player 1
    # has rolled 5-2. The manual's ID predates bit 66, which gnubg 1.07 reads as "the Jacoby
    # rule is off" when set: left clear, it decodes as Jacoby on, as gnubg 1.07 decodes it.
    key = decode_match_id("QYkqASAAIAAA")
    assert key == MatchKey(
        cube_value=2,
        cube_owner=0,
        player_on_roll=1,
        crawford=False,
        game_state=GameState.PLAYING,
        turn=1,
        double_offered=False,
        resignation=0,
        dice=(5, 2),
        match_length=9,
        score=(2, 4),
        jacoby=True,
    )
    assert encode_match_id(key) == "QYkqASAAIAAA"


@pytest.mark.parametrize(
    ("match_id", "length", "jacoby"),
    [
        # What gnubg 1.07 shows just after `new session` / `new match 3` (its opening roll
        # made) with `set jacoby on` or `off`: bit 66 is set when the rule is not in use, and
        # matches never use it.
        ("MAEFAAAAAAAA", 0, True),
        ("MAELAAAAAAAE", 0, False),
        ("MAFzAAAAAAAE", 3, False),
        ("MAFmAAAAAAAE", 3, False),
    ],
)
def test_jacoby_bit_as_gnubg_writes_it(match_id: str, length: int, jacoby: bool) -> None:
    key = decode_match_id(match_id)
    assert (key.match_length, key.jacoby) == (length, jacoby)
    assert encode_match_id(key) == match_id


def test_dice_are_written_larger_first() -> None:
    # gnubg's MatchID() writes the larger die first whatever order they were rolled in.
    low_first = encode_match_id(MatchKey(dice=(2, 5)))
    assert low_first == encode_match_id(MatchKey(dice=(5, 2)))
    assert decode_match_id(low_first).dice == (5, 2)


def test_new_money_session() -> None:
    key = decode_match_id("MAAAAAAAAAAA")
    assert key.cube_value == 1 and key.cube_owner is None
    assert key.game_state is GameState.NONE and key.match_length == 0


@given(
    cube=st.sampled_from([1 << i for i in range(16)]),
    owner=st.sampled_from([None, 0, 1]),
    on_roll=st.integers(0, 1),
    crawford=st.booleans(),
    state=st.sampled_from(list(GameState)),
    turn=st.integers(0, 1),
    doubled=st.booleans(),
    resign=st.integers(0, 3),
    dice=st.sampled_from([(0, 0)] + [(a, b) for a in range(1, 7) for b in range(1, 7)]),
    length=st.integers(0, (1 << 15) - 1),
    score=st.tuples(st.integers(0, (1 << 15) - 1), st.integers(0, (1 << 15) - 1)),
    jacoby=st.booleans(),
)
def test_round_trip(
    cube: int,
    owner: int | None,
    on_roll: int,
    crawford: bool,
    state: GameState,
    turn: int,
    doubled: bool,
    resign: int,
    dice: tuple[int, int],
    length: int,
    score: tuple[int, int],
    jacoby: bool,
) -> None:
    key = MatchKey(
        cube, owner, on_roll, crawford, state, turn, doubled, resign, dice, length, score, jacoby
    )
    text = encode_match_id(key)
    assert len(text) == 12
    # Everything comes back, the dice larger first (the order the ID holds them in).
    assert decode_match_id(text) == dataclasses.replace(key, dice=(max(dice), min(dice)))


@pytest.mark.parametrize(
    "text",
    ["", "QYkqASAAIAA", "QYkqASAAIAAAA", "QYkqASAAIA!A", "QYkqASAAIAA=", 12],
)
def test_malformed_ids(text: object) -> None:
    with pytest.raises(InvalidMatchIdError):
        decode_match_id(text)  # type: ignore[arg-type]


def test_impossible_values_are_refused() -> None:
    good = decode_match_id("QYkqASAAIAAA")
    bits = int.from_bytes(__import__("base64").b64decode("QYkqASAAIAAA"), "little")
    import base64

    def with_bits(value: int) -> str:
        return base64.b64encode(value.to_bytes(9, "little")).decode()

    owner_two = (bits & ~(0b11 << 4)) | (0b10 << 4)
    with pytest.raises(InvalidMatchIdError, match="cube owner"):
        decode_match_id(with_bits(owner_two))
    state_seven = bits | (0b111 << 8)
    with pytest.raises(InvalidMatchIdError, match="game state"):
        decode_match_id(with_bits(state_seven))
    die_seven = bits | (0b111 << 15)
    with pytest.raises(InvalidMatchIdError, match="dice"):
        decode_match_id(with_bits(die_seven))
    assert good.dice == (5, 2)


def test_match_key_validates_on_construction() -> None:
    with pytest.raises(InvalidMatchIdError, match="power of two"):
        MatchKey(cube_value=3)
    with pytest.raises(InvalidMatchIdError, match="dice"):
        MatchKey(dice=(0, 3))

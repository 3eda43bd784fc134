"""Positions, the Position ID codec and checker bookkeeping."""

from __future__ import annotations

import pytest

from engine import BAR, OFF, InvalidPositionError, InvalidPositionIdError, Position
from engine.ids import decode_position_id, encode_position_id


def board(**points: int) -> list[int]:
    """A 26-int board from keyword points: p6=5 puts five of the mover's checkers on his 6,
    o1=-2 two opponent checkers on the mover's 1, bar=1 one on the mover's bar, obar=1 one
    opponent checker on the bar."""
    cells = [0] * 26
    for name, n in points.items():
        if name == "bar":
            cells[25] = n
        elif name == "obar":
            cells[0] = -n
        else:
            cells[int(name[1:])] = n
    return cells


def test_initial_position() -> None:
    pos = Position.initial()
    assert pos.position_id() == "4HPwATDgc/ABMA"
    assert pos.board[24] == 2 and pos.board[13] == 5 and pos.board[8] == 3 and pos.board[6] == 5
    assert pos.board[1] == -2 and pos.board[12] == -5 and pos.board[17] == -3
    assert pos.board[19] == -5
    assert pos.pip_counts() == (167, 167)
    assert pos.borne_off() == (0, 0)
    assert pos.bar() == (0, 0)
    assert pos.swap_players() == pos
    assert not pos.is_race()
    assert pos.winner() is None and pos.result_value() == 0


def test_gnubg_position_id_of_a_known_position() -> None:
    # After 3-1 played 8/5 6/5 GNU Backgammon shows this ID for the opponent on roll.
    after = Position.from_position_id("sGfwATDgc/ABMA")
    assert after.board[20] == -2 and after.board[17] == -2 and after.board[19] == -4


def test_swap_players_is_an_involution_and_mirrors_points() -> None:
    pos = Position.from_board(board(p24=2, p13=4, bar=1, o1=-3, obar=2))
    swapped = pos.swap_players()
    assert swapped.board[1] == -2 and swapped.board[12] == -4 and swapped.board[0] == -1
    assert swapped.board[24] == 3 and swapped.board[25] == 2
    assert swapped.swap_players() == pos
    assert swapped.pip_counts() == tuple(reversed(pos.pip_counts()))


def test_pip_count_counts_bar_as_25() -> None:
    pos = Position.from_board(board(p6=1, bar=1, o1=-1, obar=1))
    assert pos.pip_counts() == (31, 24 + 25)


def test_borne_off_and_winner() -> None:
    pos = Position.from_board(board(p1=1, o24=-15))
    assert pos.borne_off() == (14, 0)
    assert pos.winner() is None
    done = Position.from_board(board(o1=-1))
    assert done.winner() == 0
    assert done.swap_players().winner() == 1


@pytest.mark.parametrize(
    ("cells", "value"),
    [
        (board(o20=-15), 2),  # the loser bore off none, none in the winner's home: gammon
        (board(o20=-14, o1=-1), 3),  # a loser checker in the winner's home board: backgammon
        (board(o20=-14, obar=1), 3),  # on the bar: backgammon
        (board(o20=-14), 1),  # the loser bore one off: single game
    ],
)
def test_result_values(cells: list[int], value: int) -> None:
    # The mover has no checker left: he has won.
    assert Position.from_board(cells).result_value() == value


def test_single_game_when_loser_bore_off() -> None:
    pos = Position.from_board(board(o1=-3))  # opponent has 12 off, we have 15 off
    assert pos.result_value() == 1


def test_race_detection() -> None:
    assert Position.from_board(board(p6=5, o7=-3)).is_race()
    assert not Position.from_board(board(p8=5, o7=-3)).is_race()
    assert not Position.from_board(board(p6=5, o7=-3, bar=1)).is_race()


def test_checkers_at_uses_movers_numbering() -> None:
    pos = Position.initial()
    assert pos.checkers_at(24) == 2
    assert pos.checkers_at(1) == -2
    assert pos.checkers_at(BAR) == 0
    assert pos.checkers_at(OFF) == 0
    with pytest.raises(ValueError):
        pos.checkers_at(26)


def test_positions_are_immutable_and_hashable() -> None:
    pos = Position.initial()
    with pytest.raises(AttributeError):
        pos.board = ()  # type: ignore[misc]
    assert {pos, Position.initial()} == {pos}
    assert hash(pos) == hash(Position.from_position_id(pos.position_id()))


def test_from_sides_matches_gnubg_arrays() -> None:
    pos = Position.initial()
    mine, theirs = pos.sides()
    assert mine[23] == 2 and theirs[23] == 2 and mine[5] == 5
    assert Position.from_sides(mine, theirs) == pos
    bad = list(theirs)
    bad[0] = 1  # opponent on his 1-point = our 24-point, where we stand
    with pytest.raises(InvalidPositionError, match="both players"):
        Position.from_sides(mine, bad)


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        ([0] * 25, "26 entries"),
        (board(p6=16), "at most 15"),
        (board(o6=-16), "at most 15"),
        ([0] * 25 + [-1], "cannot be negative"),
        ([1] + [0] * 25, "cannot be positive"),
    ],
)
def test_invalid_boards_are_refused(cells: list[int], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_board(cells)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "4HPwATDgc/ABM",  # 13 characters
        "4HPwATDgc/ABMAA",  # 15
        "4HPwATDgc/AB!A",  # not base64
        "//////////////",  # far too many checkers
        "//////////////8",  # 15 characters
        "4HPwATDgc/ABM=",  # padding is not part of an ID
    ],
)
def test_invalid_position_ids_raise_the_specific_error(text: str) -> None:
    with pytest.raises(InvalidPositionIdError):
        Position.from_position_id(text)


def test_position_id_refuses_non_strings() -> None:
    with pytest.raises(InvalidPositionIdError):
        Position.from_position_id(None)  # type: ignore[arg-type]


def test_position_id_with_both_sides_on_a_point_is_refused() -> None:
    mine = [0] * 25
    theirs = [0] * 25
    mine[5] = 2  # our 6-point
    theirs[18] = 1  # his 19-point = our 6-point
    # Encode by hand (bypassing Position validation) to check the decoder's own check.
    key = 0
    nbit = 0
    for side in (theirs, mine):
        for n in side:
            key |= ((1 << n) - 1) << nbit
            nbit += n + 1
    import base64

    text = base64.b64encode(key.to_bytes(10, "little")).decode()[:14]
    with pytest.raises(InvalidPositionIdError, match="both players"):
        decode_position_id(text)


def test_encode_decode_round_trip_of_edge_positions() -> None:
    for cells in (
        board(bar=15, o24=-15),
        board(p1=1),
        board(obar=15, p24=15),
        [0] * 26,
    ):
        pos = Position.from_board(cells)
        assert decode_position_id(encode_position_id(pos.board)) == pos.board

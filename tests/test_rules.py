"""Scenario tests of the rules, each with the board it is about.

Boards are written with the helper from test_position: ``p6=2`` is two of the mover's checkers on
his 6-point, ``o5=-2`` two opponent checkers there, ``bar``/``obar`` checkers on the bars.
"""

from __future__ import annotations

import pytest

from engine import Position, legal_plays
from tests.test_position import board


def plays(cells: list[int], dice: tuple[int, int]) -> set[str]:
    return {str(p) for p in legal_plays(Position.from_board(cells), dice)}


def test_opening_31_makes_the_5_point_among_16_plays() -> None:
    result = plays(Position.initial().board, (3, 1))  # type: ignore[arg-type]
    assert "8/5 6/5" in result
    assert len(result) == 16


def test_both_dice_must_be_played_when_possible() -> None:
    # 6 | . . . . . X   only a checker on 8; 6-1 can be played 8/2 2/1 or 8/7 7/1 (= 8/1).
    assert plays(board(p8=1, o20=-2), (6, 1)) == {"8/1"}


def test_larger_die_when_only_one_can_be_played() -> None:
    # A lone checker on 13 and the opponent's point on 6: 13/7 or 13/12 can each be played, but
    # neither continues (7/6 and 12/6 are blocked). Either die alone: the larger must be played.
    assert plays(board(p13=1, o6=-2), (6, 1)) == {"13/7"}


def test_smaller_die_when_larger_cannot_be_played() -> None:
    # Checker on 10: the 6 is blocked on 4, the 2 is open, and after 10/8 the 6 is blocked on 2.
    cells = board(p10=1, o4=-2, o2=-2)
    assert plays(cells, (6, 2)) == {"10/8"}


def test_no_legal_move_returns_empty_list() -> None:
    # Mover on the bar, opponent holds his whole home board (points 19..24 from the mover's view).
    cells = board(bar=1, o19=-2, o20=-2, o21=-2, o22=-2, o23=-2, o24=-2, p6=14)
    assert legal_plays(Position.from_board(cells), (6, 5)) == []


def test_bar_checkers_must_enter_first() -> None:
    cells = board(bar=1, p13=5, o20=-2)
    # The 5 cannot enter (20 is held): enter with the 3 on 22, then play the 5 from 22 or 13.
    assert plays(cells, (5, 3)) == {"bar/17", "bar/22 13/8"}


def test_two_on_the_bar_with_one_entering_die_plays_only_that() -> None:
    cells = board(bar=2, p6=5, o20=-2)
    assert plays(cells, (5, 3)) == {"bar/22"}


def test_hit_is_marked_and_sends_blot_to_bar() -> None:
    pos = Position.from_board(board(p13=2, o7=-1, o1=-2))
    (play,) = [p for p in legal_plays(pos, (6, 5)) if str(p) == "13/8 13/7*"]
    after = pos.apply(play)
    assert after.board[25] == 1  # the opponent (now on roll) has a checker on the bar
    assert after.board[18] == -1  # our checker on our 7 is on his 18


def test_hit_and_continue_notation() -> None:
    assert "13/7*/5" in plays(board(p13=1, o7=-1, o1=-2), (6, 2))


def test_doubles_move_four_times() -> None:
    result = plays(board(p8=2, p6=2, o1=-2), (3, 3))
    assert "8/5(2) 6/3(2)" in result
    assert "8/2(2)" in result


def test_bear_off_exact_and_larger_die_from_highest_point() -> None:
    assert plays(board(p5=1, p3=1), (6, 5)) == {"5/off 3/off"}
    # 6-1 with checkers on 5, 3 and 2: the 6 bears off the highest (5); the 1 moves inside, or
    # first 5/4 and then the 6 bears off from 4, now the highest (written 5/off).
    assert plays(board(p5=1, p3=1, p2=1), (6, 1)) == {"5/off 3/2", "5/off 2/1", "5/off"}


def test_cannot_bear_off_with_a_checker_outside() -> None:
    # 6-5 with checkers on 7 and 2: nothing comes off before the 7 is home; then the other die
    # bears off from the highest point (2). 7/2/off and 7/1/off leave the same position.
    assert plays(board(p7=1, p2=1), (6, 5)) == {"7/1 2/off", "7/off"}


def test_bear_off_larger_die_not_from_lower_point() -> None:
    # 6-5 with checkers on 6 and 2: the 5 cannot bear off from 2 while 6 is occupied.
    result = plays(board(p6=2, p2=1), (6, 5))
    assert result == {"6/1 6/off"}


def test_checker_hit_during_bear_off_must_come_around() -> None:
    # A checker on the bar must enter and come home before anything is borne off.
    assert plays(board(bar=1, p3=5, o10=-2), (4, 2)) == {"bar/19", "bar/21 3/1"}


def test_one_play_per_resulting_position() -> None:
    # 24/18/16 and 24/22/16 reach the same position: listed once.
    result = plays(board(p24=1, o1=-2), (6, 2))
    assert result == {"24/16"}


def test_intermediate_point_must_be_open_for_a_combined_move() -> None:
    # Both 18 and 22 blocked: 24/16 impossible; nothing else to play either.
    assert plays(board(p24=1, o18=-2, o22=-2, o1=-2), (6, 2)) == set()
    # Only 22 blocked: the combined move goes through 18.
    assert plays(board(p24=1, o22=-2, o1=-2), (6, 2)) == {"24/16"}


@pytest.mark.parametrize("dice", [(0, 1), (7, 1), (1,), (1, 2, 3), "31", (1.0, 2), None])
def test_bad_dice_are_refused(dice: object) -> None:
    with pytest.raises(ValueError, match="dice"):
        legal_plays(Position.initial(), dice)  # type: ignore[arg-type]

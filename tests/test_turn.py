"""Click-by-click turn building."""

from __future__ import annotations

import pytest

from engine import IllegalPlayError, Position, Turn, legal_plays
from tests.test_position import board


def test_steps_offered_are_exactly_those_that_complete_a_legal_play() -> None:
    pos = Position.initial()
    turn = Turn(pos, (6, 5))
    offered = {(m.src, m.die) for m in turn.available()}
    # From the start: 24, 13 and 8 with the 6 (8/2 is open); 13 and 8 with the 5 (24/19 and
    # 6/1 land on the opponent's points).
    assert offered == {(24, 6), (13, 6), (8, 6), (13, 5), (8, 5)}


def test_larger_die_rule_holds_at_the_first_click() -> None:
    pos = Position.from_board(board(p13=1, o6=-2))
    turn = Turn(pos, (6, 1))
    assert [(m.src, m.die) for m in turn.available()] == [(13, 6)]
    assert turn.forced_die() == 6
    with pytest.raises(IllegalPlayError, match="must be the 6"):
        turn.step(13, 1)


def test_max_dice_rule_holds_mid_turn() -> None:
    # Checkers on 8 and 4, the opponent holds our 1-point; 6-1. Both dice can be played only as
    # 8/2 and 4/3. Playing 8/7 first would leave the 6 unplayable (7/1 is blocked and the 4
    # cannot bear off while 8... now 7 is outside), so that click is not offered.
    pos = Position.from_board(board(p8=1, p4=1, o1=-2))
    turn = Turn(pos, (6, 1))
    assert {(m.src, m.die) for m in turn.available()} == {(8, 6), (4, 1)}
    with pytest.raises(IllegalPlayError, match="leave a die unplayed"):
        turn.step(8, 1)
    assert str(turn.step(4, 1).step(8, 6).play()) == "8/2 4/3"


def test_complete_turn_gives_the_legal_play_and_undo_restores() -> None:
    pos = Position.initial()
    turn = Turn(pos, (3, 1))
    t1 = turn.step(8, 3)
    assert t1.current_position().board[5] == 1 and not t1.is_complete()
    assert t1.remaining_dice() == [1]
    t2 = t1.step(6, 1)
    assert t2.is_complete() and t2.available() == []
    play = t2.play()
    assert play in legal_plays(pos, (3, 1)) and str(play) == "8/5 6/5"
    assert t2.undo() == t1
    assert t2.undo().undo() == turn
    assert t2.reset().steps == ()


def test_doubles_give_four_steps() -> None:
    turn = Turn(Position.initial(), (2, 2))
    assert turn.remaining_dice() == [2, 2, 2, 2]
    for src in (13, 13, 6, 6):
        turn = turn.step(src, 2)
    assert turn.is_complete()
    assert str(turn.play()) == "13/11(2) 6/4(2)"


def test_a_different_step_order_reaches_the_same_play() -> None:
    pos = Position.initial()
    a = Turn(pos, (6, 2)).step(24, 6).step(18, 2).play()
    b = Turn(pos, (6, 2)).step(24, 2).step(22, 6).play()
    assert a == b


def test_refusals_are_specific_and_change_nothing() -> None:
    turn = Turn(Position.initial(), (6, 5))
    with pytest.raises(IllegalPlayError, match="no checker"):
        turn.step(7, 6)
    with pytest.raises(IllegalPlayError, match="no 4 left"):
        turn.step(8, 4)
    with pytest.raises(IllegalPlayError, match="no checker move to undo"):
        turn.undo()
    with pytest.raises(IllegalPlayError, match="not complete"):
        turn.play()
    assert turn.steps == ()


def test_bar_entry_is_required_first() -> None:
    pos = Position.from_board(board(bar=1, p13=14, o1=-2))
    turn = Turn(pos, (6, 2))
    assert {m.src for m in turn.available()} == {25}
    with pytest.raises(IllegalPlayError, match="bar first"):
        turn.step(13, 6)


def test_no_move_possible_is_complete_at_once() -> None:
    cells = board(bar=1, o19=-2, o20=-2, o21=-2, o22=-2, o23=-2, o24=-2, p6=14)
    turn = Turn(Position.from_board(cells), (6, 6))
    assert turn.length == 0 and turn.available() == []
    assert turn.is_complete()

"""Cube decisions and answers to resignations: the rules' limits and clear cases both ways.

The positions come from expert games (Position IDs); each "clear" case was checked to be clear
by a margin (at least 0.06 in equity for the double, 0.1 for the take) for bgsage at 1 and 2 ply
and for the pure-Python fallback, so noiseless levels must agree with it.
"""

from __future__ import annotations

import pytest

from engine import Position
from engine.bots import LEVELS, ComputerPlayer, backend, get_bot
from engine.context import MatchContext

ENGINES = ["bgsage", "fallback"] if backend() == "bgsage" else ["fallback"]
STRONG = ["expert", "world class"]  # noiseless levels: their answers are deterministic

DOUBLE_TAKE = ["eHsAAEjPAwAAAA", "cLvBAGHMzuAEDA"]  # a race, then a contact position
DOUBLE_PASS = ["y72HAADr3Q4AAA", "uAIAwEYAAAAAAA"]
NO_DOUBLE = ["4HPwATDgc/ABMA", "jGfwATDgc+JBIA"]  # the opening position and one after 4-1
MONEY = MatchContext()


def _bot(level: str, engine: str) -> ComputerPlayer:
    return get_bot(level, rng=0, engine=engine)


def _pos(position_id: str) -> Position:
    return Position.from_position_id(position_id)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("level", STRONG)
def test_clear_money_decisions(level: str, engine: str) -> None:
    bot = _bot(level, engine)
    for pid in DOUBLE_TAKE:
        assert bot.should_double(_pos(pid), MONEY), pid
        assert bot.should_take(_pos(pid), MONEY), pid
    for pid in DOUBLE_PASS:
        assert bot.should_double(_pos(pid), MONEY), pid
        assert not bot.should_take(_pos(pid), MONEY), pid
    for pid in NO_DOUBLE:
        assert not bot.should_double(_pos(pid), MONEY), pid
        assert bot.should_take(_pos(pid), MONEY), pid


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("level", LEVELS)
def test_no_double_where_the_rules_or_the_score_forbid_it(level: str, engine: str) -> None:
    bot = _bot(level, engine)
    forbidden = [
        MatchContext(match_length=7, score=(3, 6), crawford=True),  # the Crawford game
        MatchContext(cube_value=2, cube_owner=1),  # the opponent owns the cube
        MatchContext(cube_value=64, cube_owner=0),  # the cube cannot go higher
        MatchContext(match_length=7, score=(5, 2), cube_value=2, cube_owner=0),  # dead: 2-away
        MatchContext(match_length=5, score=(4, 1)),  # 1-away, post-Crawford: the cube is dead
    ]
    for ctx in forbidden:
        for pid in DOUBLE_PASS + DOUBLE_TAKE:  # positions where doubling would otherwise pay
            assert not bot.should_double(_pos(pid), ctx), (pid, ctx)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_take_cannot_be_asked_when_no_double_is_possible(engine: str) -> None:
    ctx = MatchContext(match_length=7, score=(6, 3), crawford=True)
    with pytest.raises(ValueError, match="cannot double"):
        _bot("expert", engine).should_take(_pos(DOUBLE_TAKE[0]), ctx)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("level", STRONG)
def test_post_crawford_trailer_doubles_at_once(level: str, engine: str) -> None:
    # Post-Crawford, 3-away against 1-away: losing any game loses the match, so the trailer
    # doubles at once, and the leader takes (a pass would leave him 1-away against 2-away).
    ctx = MatchContext(match_length=7, score=(4, 6))
    bot = _bot(level, engine)
    assert bot.should_double(Position.initial(), ctx)
    assert bot.should_take(Position.initial(), ctx)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_redouble_needs_cube_ownership(engine: str) -> None:
    bot = _bot("expert", engine)
    pos = _pos(DOUBLE_PASS[0])
    assert bot.should_double(pos, MatchContext(cube_value=2, cube_owner=0))
    assert not bot.should_double(pos, MatchContext(cube_value=2, cube_owner=1))


# -- resignations --------------------------------------------------------------------------
#
# Boards are seen by the resigner. GAMMONED: he has 15 checkers on his 13-point and the bot two
# on its 1-point (the resigner's 24): the bot bears off at its next roll, the resigner cannot
# bring a checker home and off before, and no checker of his is in the bot's home board, so the
# bot wins exactly a gammon. BEATEN: the resigner has 10 checkers home and 5 off; the bot two on
# its 1-point: the bot wins exactly a single game.


def _board(**points: int) -> Position:
    board = [0] * 26
    for name, count in points.items():
        board[int(name[1:])] = count
    return Position.from_board(board)


GAMMONED = _board(p13=15, p24=-2)
BEATEN = _board(p6=10, p24=-2)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("level", LEVELS)
def test_resignations_in_money_games(level: str, engine: str) -> None:
    bot = _bot(level, engine)
    for on_roll in (True, False):
        answers = [
            bot.accept_resignation(GAMMONED, v, MONEY, resigner_on_roll=on_roll) for v in (1, 2, 3)
        ]
        assert answers == [False, True, True], on_roll
        answers = [
            bot.accept_resignation(BEATEN, v, MONEY, resigner_on_roll=on_roll) for v in (1, 2, 3)
        ]
        assert answers == [True, True, True], on_roll


@pytest.mark.parametrize("engine", ENGINES)
def test_a_backgammon_resignation_is_always_accepted(engine: str) -> None:
    bot = _bot("expert", engine)
    for pid in NO_DOUBLE + DOUBLE_TAKE + DOUBLE_PASS:
        assert bot.accept_resignation(_pos(pid), 3, MONEY)
    # Even from a player who is winning (the resigner's view): the offer is a gift.
    assert bot.accept_resignation(_pos(DOUBLE_PASS[0]), 1, MONEY)


@pytest.mark.parametrize("engine", ENGINES)
def test_resignations_refused_when_the_game_is_open(engine: str) -> None:
    bot = _bot("expert", engine)
    # In the opening position the bot expects nothing, so a single game is plenty...
    assert bot.accept_resignation(Position.initial(), 1, MONEY)
    # ...but when the bot is far ahead with gammon chances, a single game is not enough.
    assert not bot.accept_resignation(GAMMONED, 1, MatchContext(cube_value=2, cube_owner=1))


@pytest.mark.parametrize("engine", ENGINES)
def test_jacoby_makes_a_single_resignation_enough(engine: str) -> None:
    # Under the Jacoby rule a gammon counts only once the cube is turned, and doubling here
    # would make the resigner pass: a single game is all the bot can get.
    bot = _bot("expert", engine)
    assert bot.accept_resignation(GAMMONED, 1, MatchContext(jacoby=True))
    turned = MatchContext(jacoby=True, cube_value=2, cube_owner=1)
    assert not bot.accept_resignation(GAMMONED, 1, turned)


@pytest.mark.parametrize("engine", ENGINES)
def test_resignations_at_match_scores(engine: str) -> None:
    bot = _bot("expert", engine)
    # The bot (player 1 of the resigner's context) is 1-away in the Crawford game: any
    # resignation wins it the match.
    crawford = MatchContext(match_length=7, score=(2, 6), crawford=True)
    assert bot.accept_resignation(GAMMONED, 1, crawford)
    # 2-away: a single game leaves it 1-away, the gammon it is sure of wins the match.
    two_away = MatchContext(match_length=7, score=(2, 5))
    assert not bot.accept_resignation(GAMMONED, 1, two_away)
    assert bot.accept_resignation(GAMMONED, 2, two_away)


def test_resignation_values_are_checked() -> None:
    bot = get_bot("expert", engine="fallback")
    with pytest.raises(ValueError, match="1, 2 or 3"):
        bot.accept_resignation(GAMMONED, 4, MONEY)

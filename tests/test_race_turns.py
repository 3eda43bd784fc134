"""The no-contact race solver that checks a race's rollout (bench/race_turns.py)."""

from __future__ import annotations

import pytest

from bench.race_turns import race, turns
from engine import Position


def _side(**points: int) -> list[int]:
    side = [0] * 25
    for name, count in points.items():
        side[int(name[1:]) - 1] = count
    return side


def test_one_checker_on_the_six_point_is_off_in_one_turn_on_27_rolls() -> None:
    chances, mean = turns(tuple(_side(p6=1)))
    assert chances[1] == pytest.approx(27 / 36) and chances[2] == pytest.approx(9 / 36)
    assert mean == pytest.approx(1.25)


def test_the_side_on_roll_wins_when_it_needs_no_more_turns() -> None:
    both = Position.from_sides(_side(p6=1), _side(p6=1))
    assert race(both) == pytest.approx(27 / 36 + 9 / 36 * 9 / 36)
    assert race(Position.from_sides(_side(p1=1), _side(p1=2))) == pytest.approx(1.0)
    assert race(Position.from_sides(_side(p6=2), _side(p1=1))) == pytest.approx(4 / 36)


def test_it_needs_as_many_turns_as_the_one_sided_bear_off_database() -> None:
    """bgsage's one-sided database (made as GNU Backgammon's: the fewest turns on average;
    stored in single precision)."""
    import random

    from engine.bots import sage

    if not sage.available():
        pytest.skip("bgsage is not installed")
    database = sage._bearoff()
    rng = random.Random(1)
    for _ in range(20):
        mine, theirs = [0] * 25, [0] * 25
        for side in (mine, theirs):
            for _ in range(rng.randint(3, 9)):
                side[rng.randrange(6)] += 1
        board = sage.to_sage(Position.from_sides(mine, theirs))
        assert turns(tuple(mine))[1] == pytest.approx(database.get_mean_rolls(board), abs=1e-4)

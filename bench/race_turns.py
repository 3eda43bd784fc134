"""A race without contact, solved one side at a time: the reference for a rollout of one.

Once neither side can hit the other, each side's number of turns to bear off depends on its own
checkers and dice only. :func:`turns` computes, for one side, the distribution of the turns it
needs when it always plays so as to need the fewest turns on average (GNU Backgammon's
one-sided bear-off database is made the same way, for checkers already home); :func:`race` puts
the two sides together: the side on roll wins when it needs no more turns than the other.
Gammons are left out (a side that has borne a checker off cannot lose one).

``python -m bench.race_turns POSITION_ID`` prints both sides' average turns and the cubeless
chances of the side on roll (a position of about 60 pips a side: a minute or two, tens of
thousands of one-sided positions).
"""

from __future__ import annotations

import functools
import sys

from engine import Position
from engine.movegen import Dice, legal_plays

__all__ = ["race", "turns"]

MOST_TURNS = 60
_ROLLS: tuple[tuple[Dice, float], ...] = tuple(
    ((a, b), (1 if a == b else 2) / 36) for a in range(1, 7) for b in range(a, 7)
)
_AWAY = [15] + [0] * 24  # the other side, parked on its ace point, out of this one's way


@functools.cache
def turns(side: tuple[int, ...]) -> tuple[tuple[float, ...], float]:
    """The probability that ``side`` (checkers per point, its 1-point first, 25 counts: the
    bar last) bears its last checker off on exactly its n-th turn from now, n = 0 to
    ``MOST_TURNS - 1``, and the mean, playing each roll so as to need the fewest turns on
    average. The side must not be in contact with the other (nothing checks it).

    >>> chances, mean = turns(tuple([0, 0, 0, 0, 0, 1] + [0] * 19))  # one checker on the 6
    >>> round(chances[1] * 36), round(mean, 4)  # 27 rolls of 36 bear it off at once
    (27, 1.25)
    """
    if not any(side):
        return (1.0,) + (0.0,) * (MOST_TURNS - 1), 0.0
    position = Position.from_sides(list(side), _AWAY)
    chances = [0.0] * MOST_TURNS
    mean = 0.0
    for dice, weight in _ROLLS:
        afters = {tuple(position.apply(play).sides()[1]) for play in legal_plays(position, dice)}
        best, best_mean = min((turns(a) for a in afters or {side}), key=lambda t: t[1])
        for n in range(MOST_TURNS - 1):
            chances[n + 1] += weight * best[n]
        mean += weight * (1 + best_mean)
    return tuple(chances), mean


def race(position: Position) -> float:
    """The chance that the player on roll wins the race (no contact), both sides playing as
    :func:`turns` does: he wins when he needs at most as many turns as the other."""
    mine, theirs = (turns(tuple(side))[0] for side in position.sides())
    later = [sum(theirs[k:]) for k in range(MOST_TURNS)]  # the other needs k turns or more
    return sum(mine[n] * later[n] for n in range(1, MOST_TURNS))


def main(argv: list[str]) -> None:
    sys.setrecursionlimit(10_000)
    for pid in argv:
        position = Position.from_position_id(pid)
        win = race(position)
        means = [round(turns(tuple(side))[1], 4) for side in position.sides()]
        print(f"{pid}: turns on average {means}, win {win:.4f}, equity {2 * win - 1:+.4f}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""A match equity table computed from a simple model, for the pure-Python fallback.

Published tables (Kazaross-XG2, bgsage's) come from rollouts; the fallback cannot ship one, so it
computes its own from a model that reproduces them within a few percent:

* a game is won or lost with equal chances, and a quarter of the decided games are gammons
  (:data:`GAMMON_RATE`);
* a game before the Crawford game is played for 2 points (4 for a gammon): in match play the
  cube is usually turned once;
* the Crawford game is played for 1 point (no cube), and after it the trailer doubles at once,
  so post-Crawford games are played for 2.

>>> match_equity(2, 2, post_crawford=False)
0.5
>>> round(match_equity(1, 2, post_crawford=False), 3)  # Crawford game (tables: about 0.68)
0.688
>>> round(match_equity(1, 2, post_crawford=True), 3)  # post-Crawford (tables: about 0.51)
0.5
"""

from __future__ import annotations

from functools import cache

__all__ = ["GAMMON_RATE", "match_equity"]

GAMMON_RATE = 0.25


def match_equity(away0: int, away1: int, *, post_crawford: bool) -> float:
    """The winning chance of the side ``away0`` points away at the start of a game, against
    ``away1`` (1.0 when ``away0 <= 0``, 0.0 when ``away1 <= 0``). ``post_crawford`` matters only
    when one side is 1-away: False for the Crawford game, True for the games after it."""
    if away0 <= 0:
        return 1.0
    if away1 <= 0:
        return 0.0
    crawford_score = 1 in (away0, away1) and (away0, away1) != (1, 1)
    return _met(away0, away1, crawford_score and not post_crawford)


@cache
def _met(a: int, b: int, crawford_game: bool) -> float:
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    if a == b:
        return 0.5
    stake = 1 if crawford_game else 2
    # After the Crawford game, every game at a 1-away score is post-Crawford; before it,
    # reaching 1-away makes the next game the Crawford game.
    after_crawford = crawford_game or 1 in (a, b)

    def nxt(x: int, y: int) -> float:
        if x <= 0 or y <= 0:
            return 1.0 if x <= 0 else 0.0
        if after_crawford:
            return _met(x, y, False)
        return _met(x, y, 1 in (x, y) and (x, y) != (1, 1))

    g = GAMMON_RATE
    win = (1 - g) * nxt(a - stake, b) + g * nxt(a - 2 * stake, b)
    lose = (1 - g) * nxt(a, b - stake) + g * nxt(a, b - 2 * stake)
    return 0.5 * win + 0.5 * lose

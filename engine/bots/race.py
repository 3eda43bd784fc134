"""Winning and gammon chances in a race, from pip counts (the fallback's race model).

Each side's count is its pip count plus Tom Keith's wastage adjustments (checkers stacked on the
low points and gaps on the high ones waste pips when bearing off). A roll moves 8.17 pips on
average with a variance of 18.47 pips², so the pips still to travel after ``n`` rolls are roughly
normal. The roller wins when he needs no more rolls than his opponent, and being on roll is worth
half a roll. Gammon chances compare one side's whole race with the pips the other needs to bring
every checker home and bear one off.

>>> from engine import Position
>>> keith_count([0, 3, 2] + [0] * 23)  # 7 pips, +4 and +1 for the stacks, +3 for the gaps
15
>>> p = race_probs(Position.from_board([0] + [2] * 6 + [0] * 12 + [-2] * 6 + [0]))
>>> 0.55 < p[0] < 0.75, p[1:]  # equal race: the roller is the favourite; no gammons
(True, (0.0, 0.0, 0.0, 0.0))
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.bots.decisions import Probs
from engine.position import Position

__all__ = ["keith_count", "race_probs"]


MEAN_ROLL = 8.17  # pips per roll, doubles counted four times: 49 / 6
ROLL_VARIANCE = 18.47  # variance of the pips of one roll
HALF_ROLL = MEAN_ROLL / 2  # what being on roll is worth


def keith_count(board: Sequence[int]) -> int:
    """Pip count of the player on roll plus Keith's adjustments: 2 for each checker beyond one
    on the 1-point, 1 for each beyond one on the 2-point, 1 for each beyond three on the
    3-point, and 1 for each empty 4-, 5- or 6-point."""
    mine = [max(v, 0) for v in board]
    pips = sum(p * mine[p] for p in range(1, 26))
    adjust = 2 * max(mine[1] - 1, 0) + max(mine[2] - 1, 0) + max(mine[3] - 3, 0)
    adjust += sum(1 for p in (4, 5, 6) if mine[p] == 0)
    return pips + adjust


def _save_pips(board: Sequence[int]) -> int:
    """Pips the player on roll needs to bring all his checkers home and bear one off."""
    mine = [max(v, 0) for v in board]
    outside = sum((p - 6) * mine[p] for p in range(7, 26))
    lowest_home = min((p for p in range(1, 7) if mine[p]), default=6)
    return outside + lowest_home


def _normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _p_first(mine: float, theirs: float, lead: float) -> float:
    """Chance that a side needing ``mine`` pips gets there no later than one needing
    ``theirs``, given ``lead`` pips of tempo (half a roll for the side on roll)."""
    spread = math.sqrt(ROLL_VARIANCE / MEAN_ROLL * max(mine + theirs, 1.0))
    return _normal_cdf((theirs - mine + lead) / spread)


def race_probs(position: Position) -> Probs:
    """Chances of the player on roll, before his roll, in a race (``position.is_race()``).

    Backgammons are left out: they are rare in races and the resignation answers stay
    conservative (accepting a backgammon is always right).
    """
    me = position.board
    them = position.swap_players().board
    mine, theirs = keith_count(me), keith_count(them)
    win = _p_first(mine, theirs, HALF_ROLL)
    off_mine, off_theirs = position.borne_off()
    win_gammon = 0.0 if off_theirs else min(win, _p_first(mine, _save_pips(them), HALF_ROLL))
    lose_gammon = 0.0 if off_mine else min(1 - win, _p_first(theirs, _save_pips(me), -HALF_ROLL))
    return (win, win_gammon, 0.0, lose_gammon, 0.0)

"""Chances of outcomes that can no longer happen set to nil (what GNU Backgammon's evaluation
does to every network output, its "sanity check").

A network's five chances (win, win gammon, win backgammon, lose gammon, lose backgammon) are
estimates, and bgsage's are not cleaned: it can give the side that will win a small gammon chance
when the loser has already borne a checker off. In a rollout that error is not harmless: the
chances of the side on roll feed the luck of each roll (variance reduction), the choice of plays
and the value of a trial stopped on them, so an impossible gammon adds noise to every trial and
bias to the stopped ones. :func:`possible_probs` applies the rules that are certain:

* a side that has borne a checker off cannot lose a gammon or a backgammon, so the other cannot
  win one;
* in a race (no contact), a side with no checker in its opponent's home board or on the bar
  cannot lose a backgammon (its checkers only move away from there);
* a gammon is also a win, a backgammon also a gammon, and every chance is between 0 and 1.

>>> from engine.position import Position
>>> mine = [0] + [3] * 4 + [0] * 20             # 12 checkers home: 3 borne off
>>> theirs = [0] * 12 + [14] + [0] * 10 + [1, 0]  # one left on my ace point
>>> pos = Position.from_sides(mine, theirs)
>>> possible_probs(pos.board, (0.9, 0.3, 0.1, 0.02, 0.01))  # I cannot lose a gammon
(0.9, 0.3, 0.1, 0.0, 0.0)
>>> possible_probs(pos.swap_players().board, (0.1, 0.02, 0.01, 0.3, 0.1))
(0.1, 0.0, 0.0, 0.3, 0.1)
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.bots.decisions import Probs
from engine.position import CHECKERS, Position

__all__ = ["final_probs", "possible_probs"]


def final_probs(after: Position) -> Probs | None:
    """Exact chances when the mover has just borne off his last checker (``after`` seen by
    him), so that a finished game is never left to a network's estimate; None otherwise.

    >>> mine, theirs = [0] * 25, [0] * 25
    >>> theirs[18] = 15                       # all fifteen on my 6-point: a backgammon
    >>> final_probs(Position.from_sides(mine, theirs))
    (1.0, 1.0, 1.0, 0.0, 0.0)
    >>> final_probs(Position.initial()) is None
    True
    """
    if after.winner() != 0:
        return None
    value = after.result_value()
    return (1.0, float(value >= 2), float(value >= 3), 0.0, 0.0)


def possible_probs(board: Sequence[int], probs: Sequence[float], checkers: int = CHECKERS) -> Probs:
    """``probs`` (the chances of the side whose checkers are positive on ``board``, a
    :attr:`engine.Position.board` layout) without the outcomes the position rules out.

    >>> race = [0, 0, 0, 0, 0, 0, 15] + [0] * 11 + [-15] + [0] * 7  # no contact, all home
    >>> possible_probs(race, (0.5, 0.1, 0.05, 0.1, 0.05))  # no backgammon either way
    (0.5, 0.1, 0.0, 0.1, 0.0)
    >>> possible_probs(race, (1.2, 1.3, 0.0, 0.0, -0.1))  # kept in order and in [0, 1]
    (1.0, 1.0, 0.0, 0.0, 0.0)
    """
    w, wg, wb, lg, lb = (min(1.0, max(0.0, float(p))) for p in probs)
    if (wg or wb) and -sum(v for v in board[:25] if v < 0) < checkers:
        wg = wb = 0.0  # they have borne off
    if (lg or lb) and sum(v for v in board[1:] if v > 0) < checkers:
        lg = lb = 0.0  # I have borne off
    if (wb or lb) and _no_contact(board):
        if not any(v < 0 for v in board[:7]):  # none of theirs in my home or on the bar
            wb = 0.0
        if not any(v > 0 for v in board[19:]):  # none of mine in theirs or on the bar
            lb = 0.0
    wg = min(wg, w)
    lg = min(lg, 1.0 - w)
    return (w, wg, min(wb, wg), lg, min(lb, lg))


def _no_contact(board: Sequence[int]) -> bool:
    """No checker on either bar, and every checker of mine past every one of theirs."""
    if board[0] or board[25]:
        return False
    back = max((p for p in range(1, 25) if board[p] > 0), default=0)
    front = min((p for p in range(1, 25) if board[p] < 0), default=25)
    return back < front

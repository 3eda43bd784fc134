"""Cube equities from cubeless chances, in pure Python (the fallback's cube theory).

Money games use Rick Janowski's interpolation ("Take-Points in Money Games", 1993): the cubeful
equity is a mix, by the cube efficiency ``x``, of the dead-cube (cubeless) equity and the
equity with a perfectly efficient cube, which is piecewise linear in the winning chance between
the take point and the cash point. Match play uses the dead-cube equities at the score, from a
match equity table, normalised to the cube like bgsage's; it ignores the value of owning the cube,
so it doubles a little early and passes a little often, which a fallback can afford.

Chances are the roller's, before his roll: win, win gammon, win backgammon, lose gammon, lose
backgammon (gammons include backgammons).

>>> cube = money_cube_equities((0.6, 0.0, 0.0, 0.0, 0.0), MatchContext(), x=0.68)
>>> round(cube.no_double, 3), round(cube.double_take, 3)  # too early to double
(0.291, 0.128)
>>> cube = money_cube_equities((0.8, 0.0, 0.0, 0.0, 0.0), MatchContext(), x=0.68)
>>> cube.double_take > cube.double_pass > cube.no_double  # double, and the opponent passes
True
"""

from __future__ import annotations

from engine.bots.decisions import CubeEquities, MatchEquityTable, Probs, match_equity_after
from engine.context import MatchContext

__all__ = [
    "cube_efficiency",
    "gnubg_cube_efficiency",
    "match_cube_equities",
    "money_cube_equities",
]

_EPS = 1e-7


def cube_efficiency(race: bool, pips: tuple[int, int]) -> float:
    """Janowski's ``x``: 0.68 in contact; in a race it grows with the race's length (a long
    race leaves more time to use the cube), from 0.6 to 0.7."""
    if not race:
        return 0.68
    return min(0.7, max(0.6, 0.55 + 0.00125 * (pips[0] + pips[1]) / 2))


def gnubg_cube_efficiency(race: bool, home: bool, pips_on_roll: int) -> float:
    """Janowski's ``x`` as GNU Backgammon's 0-ply cubeful evaluation takes it (its
    ``EvalEfficiency``): 0.68 in contact, 0.6 when both sides have every checker home (its
    bear-off classes), and in a race ``0.55 + 0.00125`` times the pips of the player on roll
    (not the average of both), kept between 0.6 and 0.7.

    >>> gnubg_cube_efficiency(False, False, 150), gnubg_cube_efficiency(True, True, 30)
    (0.68, 0.6)
    >>> round(gnubg_cube_efficiency(True, False, 100), 3)
    0.675
    """
    if not race:
        return 0.68
    if home:
        return 0.6
    return min(0.7, max(0.6, 0.55 + 0.00125 * pips_on_roll))


def _win_loss_values(probs: Probs) -> tuple[float, float]:
    """Average points of a won and of a lost game."""
    w, wg, wb, lg, lb = probs
    win = 1.0 + (wg + wb) / w if w > _EPS else 1.0
    loss = 1.0 + (lg + lb) / (1.0 - w) if w < 1.0 - _EPS else 1.0
    return win, loss


def _live(p: float, win: float, loss: float, owner: int | None, jacoby: bool) -> float:
    """Equity with a fully efficient cube, owned by None (centred), 0 (roller) or 1.

    Under the Jacoby rule a centred cube earns no more than one point either way without a
    double, so the equity stays at -1 below the take point and +1 above the cash point.
    """
    take = (loss - 0.5) / (win + loss + 0.5)  # the opponent's take point, in our chances
    cash = (loss + 1.0) / (win + loss + 0.5)
    if owner is None:
        if p < take:
            return -1.0 if jacoby else -loss + (loss - 1.0) * p / take
        if p < cash:
            return -1.0 + 2.0 * (p - take) / (cash - take)
        return 1.0 if jacoby else 1.0 + (win - 1.0) * (p - cash) / (1.0 - cash)
    if owner == 0:
        if p < cash:
            return -loss + (1.0 + loss) * p / cash
        return 1.0 + (win - 1.0) * (p - cash) / (1.0 - cash)
    if p < take:
        return -loss + (loss - 1.0) * p / take
    return -1.0 + (win + 1.0) * (p - take) / (1.0 - take)


def _cubeful(probs: Probs, owner: int | None, x: float, jacoby: bool) -> float:
    w, wg, wb, lg, lb = probs
    # The dead cube never gets turned, so under the Jacoby rule its gammons count for nothing;
    # the live part keeps them in its take and cash points, because they count once doubled.
    dead = 2.0 * w - 1.0 if jacoby else 2.0 * w - 1.0 + wg - lg + wb - lb
    win, loss = _win_loss_values(probs)
    return (1.0 - x) * dead + x * _live(w, win, loss, owner, jacoby)


def money_cube_equities(probs: Probs, ctx: MatchContext, *, x: float) -> CubeEquities:
    """No double, double/take and double/pass for the roller in a money game (Janowski)."""
    jacoby = ctx.jacoby and ctx.cube_owner is None
    no_double = _cubeful(probs, ctx.cube_owner, x, jacoby)
    # After a take the opponent owns the doubled cube, and gammons count (Jacoby or not).
    double_take = 2.0 * _cubeful(probs, 1, x, False)
    return CubeEquities(no_double, double_take, 1.0)


def match_cube_equities(probs: Probs, ctx: MatchContext, met: MatchEquityTable) -> CubeEquities:
    """No double, double/take and double/pass at the match score, with a dead cube."""
    w, wg, wb, lg, lb = probs
    outcomes = ((1, w - wg), (2, wg - wb), (3, wb), (-1, 1.0 - w - lg), (-2, lg - lb), (-3, lb))

    def chances(cube: int) -> float:
        return sum(p * match_equity_after(ctx, k * cube, met) for k, p in outcomes)

    win = match_equity_after(ctx, ctx.cube_value, met)
    lose = match_equity_after(ctx, -ctx.cube_value, met)

    def normalise(m: float) -> float:
        return 2.0 * (m - lose) / (win - lose) - 1.0 if win > lose else 0.0

    return CubeEquities(
        normalise(chances(ctx.cube_value)), normalise(chances(2 * ctx.cube_value)), 1.0
    )

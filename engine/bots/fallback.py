"""Pure-Python computer players, for platforms where bgsage cannot be installed.

:class:`PubevalPlayer` is Tesauro's pubeval as published: the benchmark's reference opponent.

:class:`FallbackPlayer` plays the levels without bgsage. Its checker play is pubeval plus a
penalty for blot exposure (the pips the opponent's hitting rolls would cost, see
:func:`exposure`): on 1,220 contact decisions from expert games, graded by bgsage's 2-ply search,
this cut pubeval's error from 46 to 37 millipoints per move, and it beats pubeval by about 0.1
point per game. (A one-ply lookahead over the opponent's 21 rolls with pubeval was also tried,
and made it worse: 86 millipoints per move.) Races are left to pubeval's race weights, which
err little there (2 millipoints per move; a Keith-count choice erred 11). The levels add noise
as the bgsage levels do, converted into pubeval's units; expert and world class play alike,
without noise, because pure Python has no affordable deeper search that helps.

Cube decisions and resignation answers need chances, which pubeval does not give: races use the
pip-count model of :mod:`engine.bots.race`; contact positions average, over the roller's 21
rolls, logistic functions of pubeval's score of his best play, fitted on pubeval self-play games
by ``bench/fit_fallback.py``. Cube equities then come from :mod:`engine.bots.cubeful` with the
match equity table of :mod:`engine.bots.met`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.bots import met, pubeval
from engine.bots.cubeful import cube_efficiency, match_cube_equities, money_cube_equities
from engine.bots.decisions import (
    CubeDecisions,
    CubeEquities,
    LevelPlayer,
    Probs,
    choose_among,
    noisy_argmax,
)
from engine.bots.possible import final_probs
from engine.bots.race import race_probs
from engine.context import MatchContext
from engine.movegen import Dice, Play, legal_plays
from engine.position import Position

__all__ = [
    "FallbackPlayer",
    "PubevalPlayer",
    "after_probs",
    "cube_analysis",
    "cube_equities",
    "estimate",
    "exposure",
    "move_score",
]

# Logistic fits P = 1 / (1 + exp(-(a * score + b))) of the mover's chances after a contact play
# on pubeval's score of that play: `python -m bench.fit_fallback 3000` (pubeval self-play).
WIN = (0.05799, -0.57246)
WIN_GAMMON = (0.04397, -2.10919)
LOSE_GAMMON = (-0.04983, -1.27952)

EQUITY_PER_SCORE = {False: 0.079, True: 0.009}
"""Equity per pubeval unit between the plays of one position, in contact (False) and in races
(True): least-squares slopes of bgsage's 2-ply equities on pubeval's scores over the 1,500
decisions described above. They convert the levels' noise (in equity) into pubeval's units."""

EXPOSURE_WEIGHT = -4.0
"""pubeval units per unit of :func:`exposure`. Tuned in the arena against pubeval (2,000
duplicate games each, same dice): -2 scored +0.069 points per game, -4 +0.096, -6 +0.068,
-8 +0.038, -12 +0.051, -20 -0.026."""

_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))
_ROLLS21 = tuple(((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))


def exposure(board: Sequence[int]) -> float:
    """How much the opponent's next roll threatens the blots of the player who has just moved
    (``board`` seen by him): over the 36 rolls, the average pips lost by the worst blot hit,
    divided by 25.

    A roll hits a blot at distance ``d`` in front of an opponent checker when a die is ``d``, or
    when both dice (or a double's steps) add up to ``d`` through points the mover does not hold.
    It ignores what the opponent must do first (enter from the bar): a fast approximation.

    >>> exposure([0] * 26)
    0.0
    >>> exposure([0, -1] + [0] * 5 + [1] + [0] * 18)  # 17 rolls hit the blot, each costs 18 pips
    0.34
    """
    blots = [p for p in range(1, 25) if board[p] == 1]
    if not blots:
        return 0.0
    hitters = [q for q in range(0, 25) if board[q] < 0]  # the opponent moves up, from 0 (bar)
    lost = 0
    for d1, d2 in _ROLLS:
        for p in sorted(blots):  # lowest blot first: the furthest from home, the worst hit
            if any(_reaches(board, q, p - q, d1, d2) for q in hitters if q < p):
                lost += 25 - p
                break
    return lost / 36 / 25


def _reaches(board: Sequence[int], start: int, distance: int, d1: int, d2: int) -> bool:
    if d1 != d2:
        if distance in (d1, d2):
            return True
        return distance == d1 + d2 and (board[start + d1] < 2 or board[start + d2] < 2)
    steps, rest = divmod(distance, d1)
    return rest == 0 and steps <= 4 and all(board[start + k * d1] < 2 for k in range(1, steps))


def move_score(before: Position, after: Position) -> float:
    """The fallback's score of a play: pubeval (weights chosen on ``before``) minus the exposure
    penalty in contact. ``after`` is the position after the play, seen by the mover."""
    race = before.is_race()
    value = pubeval.score(after, race=race)
    if not race and value != pubeval.WIN_SCORE:
        value += EXPOSURE_WEIGHT * exposure(after.board)
    return value


def _logistic(fit: tuple[float, float], x: float) -> float:
    z = fit[0] * x + fit[1]
    return 1.0 / (1.0 + math.exp(-z)) if z > -60 else 0.0


def _score_probs(score: float) -> tuple[float, float, float]:
    """Win, win gammon and lose gammon chances of the mover after a contact play, from pubeval's
    score of it (the logistic fits above)."""
    return _logistic(WIN, score), _logistic(WIN_GAMMON, score), _logistic(LOSE_GAMMON, score)


def _contact_probs(position: Position) -> Probs:
    """The roller's chances before his roll: the fitted chances after his best pubeval play,
    averaged over the 21 rolls."""
    totals = [0.0, 0.0, 0.0]
    for dice, weight in _ROLLS21:
        plays = legal_plays(position, dice)
        if plays:
            best = max(pubeval.score(p.result_position().swap_players(), race=False) for p in plays)
        else:
            best = pubeval.score(position, race=False)  # he cannot move: nothing changes
        for i, p in enumerate(_score_probs(best)):
            totals[i] += weight * p
    win, win_gammon, lose_gammon = (t / 36 for t in totals)
    return (win, min(win_gammon, win), 0.0, min(lose_gammon, 1.0 - win), 0.0)


def estimate(position: Position) -> Probs:
    """The fallback's chances for the player on roll, before his roll."""
    return race_probs(position) if position.is_race() else _contact_probs(position)


def after_probs(after: Position) -> Probs:
    """The fallback's chances for the player who has just played, ``after`` seen by him: exact
    once he has borne off his last checker, the race model (from his opponent's side, who is on
    roll) in a race, else the logistic fits on pubeval's score of ``after``, as in
    :func:`estimate` but without averaging over a roll."""
    final = final_probs(after)
    if final is not None:
        return final
    if after.is_race():
        w, wg, wb, lg, lb = race_probs(after.swap_players())
        return (1.0 - w, lg, lb, wg, wb)
    win, win_gammon, lose_gammon = _score_probs(pubeval.score(after, race=False))
    return (win, min(win_gammon, win), 0.0, min(lose_gammon, 1.0 - win), 0.0)


def cube_equities(position: Position, ctx: MatchContext) -> CubeEquities:
    """No double, double/take and double/pass for the player on roll, from :func:`estimate`."""
    return cube_analysis(position, ctx)[0]


def cube_analysis(position: Position, ctx: MatchContext) -> tuple[CubeEquities, Probs]:
    """:func:`cube_equities` and the chances it comes from (:func:`estimate`)."""
    probs = estimate(position)
    if ctx.match_length:
        return match_cube_equities(probs, ctx, met.match_equity), probs
    x = cube_efficiency(position.is_race(), position.pip_counts())
    return money_cube_equities(probs, ctx, x=x), probs


class _FallbackCube(CubeDecisions):
    """Cube decisions and resignation answers from the fallback's estimates."""

    def cube_equities(self, position: Position, ctx: MatchContext) -> CubeEquities:
        return cube_equities(position, ctx)

    def match_equity(self, away0: int, away1: int, *, post_crawford: bool) -> float:
        return met.match_equity(away0, away1, post_crawford=post_crawford)


class PubevalPlayer(_FallbackCube):
    """Tesauro's pubeval: the play with the highest score, no noise (the benchmark reference).

    >>> from engine import Position
    >>> str(PubevalPlayer().choose_play(Position.initial(), (6, 5)))
    '24/13'
    """

    level = "pubeval"

    def __init__(self) -> None:
        self._rng = random.Random(0)  # unused: pubeval has no noise

    def choose_play(
        self, position: Position, dice: Dice, ctx: MatchContext | None = None
    ) -> Play | None:
        def best(plays: list[Play]) -> Play:
            scores = [pubeval.score_play(position, p) for p in plays]
            return noisy_argmax(plays, scores, 0.0, self._rng)

        return choose_among(position, dice, best)


class FallbackPlayer(LevelPlayer, _FallbackCube):
    """A level of play without bgsage (implements :class:`~engine.bots.protocol.ComputerPlayer`)."""

    def choose_play(
        self, position: Position, dice: Dice, ctx: MatchContext | None = None
    ) -> Play | None:
        def best(plays: list[Play]) -> Play:
            scores = [move_score(position, p.result_position().swap_players()) for p in plays]
            noise = self.spec.noise / EQUITY_PER_SCORE[position.is_race()]
            return noisy_argmax(plays, scores, noise, self._rng)

        return choose_among(position, dice, best)

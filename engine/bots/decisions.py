"""Decision rules shared by every computer player, whatever evaluates the position.

An evaluator supplies equities normalised to the cube (+1 = winning the cube's current value) and
a match equity table; these functions turn them into plays, doubles, takes and answers to
resignations, with the level's noise.

>>> can_double_usefully(MatchContext(match_length=5, score=(4, 2), crawford=True))
False
>>> can_double_usefully(MatchContext(cube_value=4, match_length=5, score=(2, 0)))  # 3-away, cube 4
False
>>> can_double_usefully(MatchContext(cube_value=2, cube_owner=1))
False
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from engine.bots.levels import LevelSpec
from engine.bots.protocol import RESIGNATION_VALUES
from engine.context import MatchContext
from engine.movegen import Dice, Play, legal_plays
from engine.position import Position

__all__ = [
    "CLOSE_CUBE",
    "SCREEN_MARGIN",
    "CubeDecisions",
    "CubeEquities",
    "MatchEquityTable",
    "Probs",
    "accept_offer",
    "can_double_usefully",
    "choose_among",
    "far_from_doubling",
    "make_rng",
    "match_equity_after",
    "noisy",
    "noisy_argmax",
    "offer_value",
    "roller_equity",
    "to_match_equity",
]

T = TypeVar("T")

Probs = tuple[float, float, float, float, float]
"""Cubeless chances of one side: win, win gammon, win backgammon, lose gammon, lose backgammon
(gammon chances include backgammons)."""

MatchEquityTable = Callable[..., float]
"""``met(away0, away1, *, post_crawford) -> float``: the winning chance of the side ``away0``
points away at the start of a game (1.0 when ``away0 <= 0``, 0.0 when ``away1 <= 0``)."""

EPSILON = 1e-9  # equal equities: accepting costs nothing, so accept


@dataclass(frozen=True, slots=True)
class CubeEquities:
    """Cubeful equities of the player on roll, before his roll, normalised to the cube (+1 is
    winning the cube's current value): no double, double/take, double/pass (+1)."""

    no_double: float
    double_take: float
    double_pass: float

    def roller(self, *, can_double: bool) -> float:
        """The roller's equity with best cube action on both sides: he doubles when that
        gains, and the opponent then takes or passes, whichever costs him less."""
        return roller_equity(
            self.no_double, self.double_take, self.double_pass, can_double=can_double
        )


def make_rng(rng: random.Random | int | None) -> random.Random:
    """The random source of a player's noise: an instance is used as is, an int seeds a new one,
    and None gives a fresh instance seeded by the system (never the global ``random`` state)."""
    if isinstance(rng, random.Random):
        return rng
    return random.Random(rng)


def noisy(value: float, noise: float, rng: random.Random) -> float:
    """``value`` plus Gaussian noise of standard deviation ``noise`` (nothing when it is 0)."""
    return value + rng.normalvariate(0.0, noise) if noise > 0 else value


def noisy_argmax(
    items: Sequence[T], values: Sequence[float], noise: float, rng: random.Random
) -> T:
    """The item with the highest value after adding independent noise to each value, as GNU
    Backgammon's levels do. Ties go to the first item, so noiseless choices are deterministic.

    >>> noisy_argmax("abc", [0.1, 0.3, 0.2], 0.0, random.Random(1))
    'b'
    """
    best, best_value = items[0], noisy(values[0], noise, rng)
    for item, value in zip(items[1:], values[1:], strict=True):
        v = noisy(value, noise, rng)
        if v > best_value:
            best, best_value = item, v
    return best


def can_double_usefully(ctx: MatchContext) -> bool:
    """Whether player 0 may double now and it can matter.

    The rules forbid doubling in the Crawford game, on a cube the opponent owns and past the
    cube's maximum (:meth:`MatchContext.may_double`). A double is also pointless when the cube is
    dead for the doubler: in a match, once the cube already gives him every point he needs.
    """
    if not ctx.may_double(0):
        return False
    return not (ctx.match_length and ctx.away()[0] <= ctx.cube_value)


TIE = 1e-6  # equities this close are the same decision (float noise of the evaluator)

CLOSE_CUBE = 0.16
"""A no-double counts as a cube decision when the best cube action is worth less than this much
more than doubling (DT, capped at the cash): GNU Backgammon's ``isCloseCubedecision``."""

SCREEN_MARGIN = 0.15
"""How far from a cube decision a no-double must be, by a cheap screen, to skip the full cube
analysis (the screen: :func:`engine.bots.sage.screen_cube` at 2 plies at most, Janowski's
interpolation on cubeless chances): the screen's no-double must beat doubling by this much, and
miss :data:`CLOSE_CUBE` by this much too (:func:`far_from_doubling`). A review keeps the screen's
equities for a skipped no-double (it counts as no decision and loses nothing); the world-class
player does not double there. On 411 positions from self-play (money and match play) where a
double was possible, the screen skipped 313 and misjudged none, against the full analysis at 2
plies and at 3; its equities were within 0.003 of the full ones at the median, and off by up to
0.40 far from the doubling window."""


def far_from_doubling(cube: CubeEquities) -> bool:
    """Whether a cheap screen's cube equities put the player on roll far from any cube
    decision (see :data:`SCREEN_MARGIN`): no double beats doubling by the margin, and the best
    action beats doubling/take by the margin more than a close decision would.

    >>> far_from_doubling(CubeEquities(0.10, -0.40, 1.0))
    True
    >>> far_from_doubling(CubeEquities(0.50, 0.45, 1.0))
    False
    """
    optimal = max(cube.no_double, min(cube.double_take, cube.double_pass))
    return (
        optimal - min(cube.double_take, 1.0) >= CLOSE_CUBE + SCREEN_MARGIN
        and cube.no_double - min(cube.double_take, cube.double_pass) >= SCREEN_MARGIN
    )


def _free_double(ctx: MatchContext) -> bool:
    """Post-Crawford, player 0 trails and his opponent is 1-away: a double costs him nothing
    (the opponent can never redouble: it would give him more points than he needs).

    >>> _free_double(MatchContext(match_length=7, score=(4, 6)))
    True
    >>> _free_double(MatchContext(match_length=7, score=(4, 6), crawford=True))
    False
    """
    away = ctx.away()
    return bool(ctx.match_length) and not ctx.crawford and away[1] == 1 and away[0] > 1


def roller_equity(nd: float, dt: float, dp: float, *, can_double: bool) -> float:
    """The roller's equity with best cube action on both sides: he doubles when that gains, and
    the opponent then takes or passes, whichever costs him less."""
    if can_double:
        return max(nd, min(dt, dp))
    return nd


def to_match_equity(eq: float, ctx: MatchContext, met: MatchEquityTable) -> float:
    """Player 0's match winning chance from his equity normalised to the cube: linear between
    losing (-1) and winning (+1) the cube's value, as bgsage and GNU Backgammon normalise."""
    win = match_equity_after(ctx, ctx.cube_value, met)
    lose = match_equity_after(ctx, -ctx.cube_value, met)
    # Gammons extrapolate past the anchors; the result is still a probability.
    return min(1.0, max(0.0, lose + (eq + 1.0) / 2.0 * (win - lose)))


def match_equity_after(ctx: MatchContext, points: int, met: MatchEquityTable) -> float:
    """Player 0's match winning chance once this game ends with ``points`` for him (< 0: for
    the opponent). The next game is the Crawford game when someone first reaches 1-away; it is
    post-Crawford when this game already was the Crawford game or came after it."""
    a0, a1 = ctx.away()
    if points > 0:
        a0 -= points
    else:
        a1 += points
    post_crawford = ctx.crawford or 1 in ctx.away()
    return met(a0, a1, post_crawford=post_crawford)


def offer_value(value: int, ctx: MatchContext) -> int:
    """The points a resignation of ``value`` (1, 2, 3) gives: times the cube, and only a single
    game under the Jacoby rule while the cube is centred in a money game.

    >>> offer_value(2, MatchContext(cube_value=2, cube_owner=0))
    4
    >>> offer_value(3, MatchContext(jacoby=True))
    1
    """
    if value not in RESIGNATION_VALUES:
        raise ValueError(f"a resignation is worth 1, 2 or 3 points, not {value!r}")
    if not ctx.match_length and ctx.jacoby and ctx.cube_owner is None:
        value = 1
    return value * ctx.cube_value


def accept_offer(value: int, expected: float, ctx: MatchContext, met: MatchEquityTable) -> bool:
    """Whether to accept a resignation of ``value`` when playing on is worth ``expected`` to
    player 0 of ``ctx`` (the receiver; equity normalised to the cube). Accept when the offer
    gives at least as much: points in a money game, match winning chances in a match. There is
    no noise here at any level: refusing a fair offer or accepting a bad one is not a style.

    >>> accept_offer(1, 0.9, MatchContext(), None), accept_offer(1, 1.2, MatchContext(), None)
    (True, False)
    """
    points = offer_value(value, ctx)
    if ctx.match_length:
        return match_equity_after(ctx, points, met) >= to_match_equity(expected, ctx, met) - EPSILON
    return points / ctx.cube_value >= expected - EPSILON


class CubeDecisions(ABC):
    """Cube decisions and answers to resignations, for a player that can give the cube
    equities of the player on roll and a match equity table (the perspectives are those of
    :class:`~engine.bots.protocol.ComputerPlayer`). Doubles and takes get the level's noise;
    resignations are answered exactly."""

    noise = 0.0
    _rng: random.Random

    @abstractmethod
    def cube_equities(self, position: Position, ctx: MatchContext) -> CubeEquities:
        """No double, double/take and double/pass of the player on roll (player 0 of ``ctx``)."""

    @abstractmethod
    def match_equity(self, away0: int, away1: int, *, post_crawford: bool) -> float:
        """The match equity table (see :data:`MatchEquityTable`)."""

    def double_equities(self, position: Position, ctx: MatchContext) -> CubeEquities | None:
        """The cube equities to decide a double with, or None where the player would surely
        not double and need not search (a level may screen: see :func:`far_from_doubling`)."""
        return self.cube_equities(position, ctx)

    def should_double(self, position: Position, ctx: MatchContext) -> bool:
        if not can_double_usefully(ctx):
            return False
        free = _free_double(ctx)  # searched whatever a screen says: see below
        cube = self.cube_equities(position, ctx) if free else self.double_equities(position, ctx)
        if cube is None:
            return False
        gain = min(cube.double_take, cube.double_pass) - cube.no_double
        if free and gain >= -TIE:
            # Post-Crawford against a leader 1-away, the cube can never come back: a deeper
            # search values waiting (to double next turn) exactly as doubling now, and the
            # tie goes to doubling at once, as the theory of the free double says.
            return True
        return noisy(gain, self.noise, self._rng) > 0

    def should_take(self, position: Position, ctx: MatchContext) -> bool:
        if not ctx.may_double(0):
            raise ValueError(f"the doubler cannot double here ({ctx})")
        cube = self.cube_equities(position, ctx)
        # The doubler's equities: taking is right when it leaves him less than a pass.
        return noisy(cube.double_pass - cube.double_take, self.noise, self._rng) >= 0

    def accept_resignation(
        self,
        position: Position,
        value: int,
        ctx: MatchContext,
        *,
        resigner_on_roll: bool = True,
    ) -> bool:
        my_ctx = ctx.swapped()
        if resigner_on_roll:
            cube = self.cube_equities(position, ctx)
            mine = -cube.roller(can_double=can_double_usefully(ctx))
        else:
            cube = self.cube_equities(position.swap_players(), my_ctx)
            mine = cube.roller(can_double=can_double_usefully(my_ctx))
        return accept_offer(value, mine, my_ctx, self.match_equity)


def choose_among(position: Position, dice: Dice, pick: Callable[[list[Play]], Play]) -> Play | None:
    """The play every computer player makes: None when no play is legal, the only one when it
    is forced (nothing to evaluate), else ``pick``'s choice among the legal plays.

    >>> from engine import Position
    >>> str(choose_among(Position.initial(), (6, 5), lambda plays: plays[-1]))
    '8/3 8/2'
    """
    plays = legal_plays(position, dice)
    if len(plays) <= 1:
        return plays[0] if plays else None
    return pick(plays)


class LevelPlayer(CubeDecisions):
    """What every computer player of a level shares: its spec, its noise and its random source
    (subclasses add how they evaluate)."""

    def __init__(self, spec: LevelSpec, rng: random.Random | int | None = None) -> None:
        self.spec = spec
        self.noise = spec.noise
        self._rng = make_rng(rng)

    @property
    def level(self) -> str:
        return self.spec.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec.name}>"

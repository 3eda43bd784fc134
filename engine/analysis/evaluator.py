"""The evaluators of the analysis, and :func:`get_evaluator`, which hands them out.

What an evaluator answers (:class:`Evaluator`, :class:`PlayValue`) is in
:mod:`engine.analysis.values`. Two evaluators are here, bgsage and the fallback: both wrap the
computer players' own evaluation code (:mod:`engine.bots.sage` and :mod:`engine.bots.fallback`),
so a hint agrees with what the players would play. The third, GNU Backgammon's analysis on its
networks, is :mod:`engine.analysis.gnubg_evaluator` (what reviews use where it is installed).

Equities are always the mover's (or the roller's), normalised to the cube: +1 is winning the
cube's current value. With a :class:`~engine.context.MatchContext` they are cubeful (money:
Janowski's interpolation; match play: normalised match equity, linear in match winning chances
between losing and winning the cube's value); without one, cubeless money equities.

>>> ev = get_evaluator(2, engine="fallback")
>>> ev.engine, ev.ply
('fallback', 1)
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from engine.analysis.values import (
    NO_PLAY,
    ROLLS,
    Cache,
    Evaluator,
    PlayValue,
    Probs,
    plays_or_pass,
)
from engine.bots import backend
from engine.bots.cubeful import cube_efficiency, match_cube_equities, money_cube_equities
from engine.bots.decisions import CubeEquities, MatchEquityTable, can_double_usefully
from engine.context import MatchContext
from engine.movegen import Dice, Play
from engine.position import Position

__all__ = [
    "NO_PLAY",
    "ROLLS",
    "Evaluator",
    "FallbackEvaluator",
    "PlayValue",
    "Probs",
    "SageEvaluator",
    "get_evaluator",
]


class SageEvaluator:
    """bgsage at depth ``ply`` for plays and cube decisions, 1-ply for luck."""

    engine = "bgsage"

    def __init__(self, ply: int) -> None:
        if not 1 <= ply <= 4:
            raise ValueError(f"bgsage searches 1 to 4 plies, not {ply!r}")
        self.ply = ply
        self._rolls: Cache[dict[Dice, float]] = Cache()

    @property
    def met(self) -> MatchEquityTable:
        from engine.bots import sage

        return sage.match_equity

    def plays(
        self,
        position: Position,
        dice: Dice,
        plays: Sequence[Play],
        ctx: MatchContext | None,
        *,
        force: Sequence[Play] = (),
        cubeful: bool = False,
    ) -> list[PlayValue]:
        from engine.bots import sage

        search = ctx if cubeful else None
        evaluated = sage.analyse_plays(position, dice, plays, self.ply, force=force, cubeful=search)
        return [
            PlayValue(
                play,
                e.after,
                e.probs,
                sage.equity(e.after, e.probs, ctx) if e.equity is None else e.equity,
                e.ply == self.ply,
            )
            for play, e in zip(plays, evaluated, strict=True)
        ]

    def cube(self, position: Position, ctx: MatchContext) -> tuple[CubeEquities, Probs]:
        from engine.bots import sage

        return sage.cube_analysis(position, ctx, self.ply)

    def clear(self) -> None:
        self._rolls.clear()

    def roll_equities(self, position: Position, ctx: MatchContext) -> dict[Dice, float]:
        from engine.bots import sage

        return self._rolls.get_or_compute(
            (position, ctx), lambda: sage.best_play_equities(position, ctx)
        )

    def screen_cube(self, items: Sequence[tuple[Position, MatchContext]]) -> list[CubeEquities]:
        from engine.bots import sage

        # 2 plies are enough to tell what is far from a cube decision, at a fraction of 3's cost.
        return sage.screen_cube(items, min(self.ply, 2))


class FallbackEvaluator:
    """The pure-Python fallback (:mod:`engine.bots.fallback`): lower accuracy, one depth.

    Plays are ranked by the fallback player's own score (pubeval plus the blot-exposure penalty),
    so the best play is the one the fallback players choose without noise. Equities: the best
    unfinished play gets the cubeful equity of its chances
    (:func:`engine.bots.fallback.after_probs`: the logistic fits on pubeval in contact, the
    pip-count model in races), and every other
    unfinished play that equity plus its score difference converted by the fallback's own slope
    (:data:`engine.bots.fallback.EQUITY_PER_SCORE`); a play that ends the game gets its exact
    value. The cubeful equity after a play is minus the opponent's equity before his roll with
    best cube action on both sides, from the bots' cube theory (:mod:`engine.bots.cubeful`).
    """

    engine = "fallback"
    ply = 1

    def __init__(self) -> None:
        self._rolls: Cache[dict[Dice, float]] = Cache()
        self._cubes: Cache[tuple[CubeEquities, Probs]] = Cache()

    @property
    def met(self) -> MatchEquityTable:
        from engine.bots import met

        return met.match_equity

    def _equity(self, after: Position, probs: Probs, ctx: MatchContext | None) -> float:
        w, wg, wb, lg, lb = probs
        if ctx is None:
            return 2.0 * w - 1.0 + wg - lg + wb - lb
        if after.winner() == 0:  # the game is over: its value is exact
            value = 3 if wb else 2 if wg else 1
            if ctx.match_length:
                return _normalised_result(ctx, value * ctx.cube_value, self.met)
            if ctx.jacoby and ctx.cube_owner is None:
                return 1.0
            return float(value)
        theirs = after.swap_players()
        opp_ctx = ctx.swapped()
        opp_probs: Probs = (1.0 - w, lg, lb, wg, wb)
        if ctx.match_length:
            cube = match_cube_equities(opp_probs, opp_ctx, self.met)
        else:
            x = cube_efficiency(theirs.is_race(), theirs.pip_counts())
            cube = money_cube_equities(opp_probs, opp_ctx, x=x)
        return -cube.roller(can_double=can_double_usefully(opp_ctx))

    def plays(
        self,
        position: Position,
        dice: Dice,
        plays: Sequence[Play],
        ctx: MatchContext | None,
        *,
        force: Sequence[Play] = (),
        cubeful: bool = False,
    ) -> list[PlayValue]:
        from engine.bots import fallback

        afters = [position.apply(p).swap_players() for p in plays]
        probs = [fallback.after_probs(a) for a in afters]
        scores = [fallback.move_score(position, a) for a in afters]
        slope = fallback.EQUITY_PER_SCORE[position.is_race()]
        finished = [a.winner() == 0 for a in afters]
        open_ = [i for i in range(len(plays)) if not finished[i]]
        equities = [0.0] * len(plays)
        if open_:
            anchor = max(open_, key=lambda i: scores[i])
            base = self._equity(afters[anchor], probs[anchor], ctx)
            for i in open_:
                equities[i] = base + slope * (scores[i] - scores[anchor])
        for i in range(len(plays)):
            if finished[i]:
                equities[i] = self._equity(afters[i], probs[i], ctx)
        return [
            PlayValue(p, a, pr, eq, True)
            for p, a, pr, eq in zip(plays, afters, probs, equities, strict=True)
        ]

    def cube(self, position: Position, ctx: MatchContext) -> tuple[CubeEquities, Probs]:
        from engine.bots import fallback

        return self._cubes.get_or_compute(
            (position, ctx), lambda: fallback.cube_analysis(position, ctx)
        )

    def screen_cube(self, items: Sequence[tuple[Position, MatchContext]]) -> list[CubeEquities]:
        return [self.cube(position, ctx)[0] for position, ctx in items]

    def clear(self) -> None:
        self._rolls.clear()
        self._cubes.clear()

    def roll_equities(self, position: Position, ctx: MatchContext) -> dict[Dice, float]:
        return self._rolls.get_or_compute(
            (position, ctx), lambda: self._roll_equities(position, ctx)
        )

    def _roll_equities(self, position: Position, ctx: MatchContext) -> dict[Dice, float]:
        out: dict[Dice, float] = {}
        for dice, _ in ROLLS:
            values = self.plays(position, dice, plays_or_pass(position, dice), ctx)
            out[dice] = max(v.equity for v in values)
        return out


def _normalised_result(ctx: MatchContext, points: int, met: MatchEquityTable) -> float:
    """Player 0's normalised match equity once he wins ``points`` (the inverse of
    :func:`engine.bots.decisions.to_match_equity`)."""
    from engine.bots.decisions import match_equity_after

    exact = match_equity_after(ctx, points, met)
    win = match_equity_after(ctx, ctx.cube_value, met)
    lose = match_equity_after(ctx, -ctx.cube_value, met)
    return 2.0 * (exact - lose) / (win - lose) - 1.0 if win > lose else 1.0


_evaluators: dict[tuple[str, int], Evaluator] = {}
_evaluators_lock = threading.Lock()


def get_evaluator(plies: int = 2, *, engine: str = "auto") -> Evaluator:
    """The shared evaluator for a depth: bgsage when it is installed (or ``engine="bgsage"``),
    else the fallback, which ignores ``plies``; ``engine="gnubg"``: GNU Backgammon's analysis
    on its networks (:mod:`engine.analysis.gnubg_evaluator`, what reviews use where it is
    installed). Evaluators keep a cache of evaluations, so reusing one across reviews saves
    work.

    :raises ValueError: for an unknown engine or a depth bgsage does not offer.
    :raises RuntimeError: when the engine asked for is not installed.
    """
    if engine not in ("auto", "bgsage", "fallback", "gnubg"):
        raise ValueError(f"unknown engine {engine!r}; choose one of auto, bgsage, fallback, gnubg")
    chosen = backend() if engine == "auto" else engine
    if chosen in ("bgsage", "gnubg"):
        from engine.bots import gnubgsearch, sage

        if not sage.available():
            raise RuntimeError("bgsage is not installed")
        if chosen == "gnubg" and not gnubgsearch.available():
            raise RuntimeError("gnubg-nn is not installed")
        if not 1 <= plies <= 4:
            raise ValueError(f"bgsage searches 1 to 4 plies, not {plies!r}")
    key = (chosen, plies if chosen != "fallback" else 1)
    with _evaluators_lock:
        if key not in _evaluators:
            _evaluators[key] = _new_evaluator(chosen, plies)
        return _evaluators[key]


def _new_evaluator(engine: str, plies: int) -> Evaluator:
    if engine == "gnubg":
        from engine.analysis.gnubg_evaluator import GnubgEvaluator

        return GnubgEvaluator(plies, SageEvaluator(plies))
    return SageEvaluator(plies) if engine == "bgsage" else FallbackEvaluator()

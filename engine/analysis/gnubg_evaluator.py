"""The review's evaluator where GNU Backgammon's networks are installed: its analysis, replayed.

:mod:`engine.bots.gnubgsearch` searches plays and cube decisions as GNU Backgammon's ``analyse
match`` does, on its networks (``gnubg-nn``); this evaluator ranks plays the way that analysis
does too. Every legal play is evaluated at 0-ply, cubefully; the best eight within 0.16 of the
best (GNU Backgammon's default move filter for its 2-ply analysis), and the plays in ``force``,
are searched at full depth, cubefully: the cube's states at every node. So a play's error is
the one GNU Backgammon reports, up to the difference between its 1.01 and 1.07 networks, where
bgsage's networks judge some plays and doubles otherwise (issue 31: the review's PR was in
another XG band than gnubg's for a few players, decided by such decisions).

The depth is numbered as bgsage's (:attr:`ply` 3 is GNU Backgammon's 2-ply); luck is measured
at GNU Backgammon's 0-ply, its default. Positions of other variants than 15 checkers a side
(hypergammon) go to bgsage, whose networks know them.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.analysis.values import ROLLS, Cache, Evaluator, PlayValue, plays_or_pass
from engine.bots import gnubgsearch, sage
from engine.bots.decisions import CubeEquities, MatchEquityTable, Probs
from engine.context import MatchContext
from engine.movegen import Dice, Play
from engine.position import CHECKERS, Position

__all__ = ["FILTER_KEEP", "FILTER_WITHIN", "GnubgEvaluator"]

FILTER_KEEP = 8
FILTER_WITHIN = 0.16
"""GNU Backgammon's default move filter for a 2-ply analysis: of the plays ranked at 0-ply, at
most :data:`FILTER_KEEP` within :data:`FILTER_WITHIN` of the best go on to full depth."""


class GnubgEvaluator:
    """GNU Backgammon's analysis on its networks at depth ``ply`` (bgsage's numbering); ``other``
    evaluates the positions of variants it does not know (bgsage at the same depth)."""

    engine = "gnubg"

    def __init__(self, ply: int, other: Evaluator) -> None:
        if not 1 <= ply <= 4:
            raise ValueError(f"the analysis searches 1 to 4 plies, not {ply!r}")
        self.ply = ply
        self._depth = ply - 1  # GNU Backgammon's numbering
        self._other = other  # for the variants gnubg-nn does not know
        self._values: Cache[tuple[float, Probs]] = Cache()
        self._cubes: Cache[tuple[CubeEquities, Probs]] = Cache()
        self._rolls: Cache[dict[Dice, float]] = Cache()

    @property
    def met(self) -> MatchEquityTable:
        return sage.match_equity

    def _values_of(
        self, afters: Sequence[Position], ctx: MatchContext | None, depth: int
    ) -> list[tuple[float, Probs]]:
        """:func:`gnubgsearch.play_equities` of ``afters``, the ones not cached in one call
        (one search's cube states worked out once, not once a play)."""
        found = [self._values.get((after, ctx, depth)) for after in afters]
        missing = [after for after, value in zip(afters, found, strict=True) if value is None]
        computed = iter(gnubgsearch.play_equities(missing, ctx, depth) if missing else [])
        out = []
        for after, value in zip(afters, found, strict=True):
            if value is None:
                value = next(computed)
                self._values.put((after, ctx, depth), value)
            out.append(value)
        return out

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
        """See :meth:`engine.analysis.evaluator.Evaluator.plays`; the search is always cubeful
        (with a context), as GNU Backgammon's analysis is, so ``cubeful`` changes nothing."""
        if position.checkers != CHECKERS:
            return self._other.plays(position, dice, plays, ctx, force=force, cubeful=cubeful)
        afters = [position.apply(p).swap_players() for p in plays]
        shallow = self._values_of(afters, ctx, 0)
        order = sorted(range(len(plays)), key=lambda i: -shallow[i][0])
        top = shallow[order[0]][0] if order else 0.0
        deep = {i for i in order[:FILTER_KEEP] if shallow[i][0] >= top - FILTER_WITHIN}
        deep.update(i for i, p in enumerate(plays) if p in force)
        if self._depth == 0:
            deep = set(range(len(plays)))
        index = sorted(deep)
        deeper = self._values_of([afters[i] for i in index], ctx, self._depth)
        searched = dict(zip(index, deeper, strict=True))
        out = []
        for i, (play, after) in enumerate(zip(plays, afters, strict=True)):
            equity, probs = searched.get(i, shallow[i])
            out.append(PlayValue(play, after, probs, equity, i in deep))
        return out

    def cube(self, position: Position, ctx: MatchContext) -> tuple[CubeEquities, Probs]:
        if position.checkers != CHECKERS:
            return self._other.cube(position, ctx)
        return self._cubes.get_or_compute(
            (position, ctx), lambda: gnubgsearch.cube_equities(position, ctx, self._depth)
        )

    def roll_equities(self, position: Position, ctx: MatchContext) -> dict[Dice, float]:
        if position.checkers != CHECKERS:
            return self._other.roll_equities(position, ctx)
        return self._rolls.get_or_compute((position, ctx), lambda: self._best(position, ctx))

    def _best(self, position: Position, ctx: MatchContext) -> dict[Dice, float]:
        out: dict[Dice, float] = {}
        for dice, _ in ROLLS:
            afters = [position.apply(p).swap_players() for p in plays_or_pass(position, dice)]
            out[dice] = max(e for e, _ in gnubgsearch.play_equities(afters, ctx, 0))
        return out

    def screen_cube(self, items: Sequence[tuple[Position, MatchContext]]) -> list[CubeEquities]:
        # 1-ply is enough to tell what is far from a cube decision, at a twentieth of 2's cost.
        depth = min(self._depth, 1)
        return [
            self._other.screen_cube([(p, c)])[0]
            if p.checkers != CHECKERS
            else gnubgsearch.cube_equities(p, c, depth)[0]
            for p, c in items
        ]

    def clear(self) -> None:
        for cache in (self._values, self._cubes, self._rolls):
            cache.clear()
        self._other.clear()

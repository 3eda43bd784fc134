"""Computer players backed by bgsage's neural networks (see :mod:`engine.bots.sage`).

A :class:`SagePlayer` plays one level (:class:`~engine.bots.levels.LevelSpec`): bgsage evaluates
every legal play at the level's depth, the level's noise is added to each equity, and the best
noisy play is chosen; cube decisions compare bgsage's cubeful equities, with the same noise.

Players keep no bgsage object (analyzers are shared per depth in :mod:`engine.bots.sage`), so
they can be pickled to a process pool; they are safe to call from several threads.
"""

from __future__ import annotations

from engine.bots import sage
from engine.bots.decisions import CubeEquities, LevelPlayer, choose_among, noisy_argmax
from engine.context import MatchContext
from engine.movegen import Dice, Play
from engine.position import Position

__all__ = ["SagePlayer"]


class SagePlayer(LevelPlayer):
    """A level of play on bgsage's evaluation (implements
    :class:`~engine.bots.protocol.ComputerPlayer`)."""

    def choose_play(
        self, position: Position, dice: Dice, ctx: MatchContext | None = None
    ) -> Play | None:
        def best(plays: list[Play]) -> Play:
            evaluated = sage.evaluate_plays(position, dice, plays, self.spec.ply)
            equities = [sage.equity(after, probs, ctx) for after, probs in evaluated]
            return noisy_argmax(plays, equities, self.spec.noise, self._rng)

        return choose_among(position, dice, best)

    def cube_equities(self, position: Position, ctx: MatchContext) -> CubeEquities:
        return sage.cube_equities(position, ctx, self.spec.cube_ply)

    def double_equities(self, position: Position, ctx: MatchContext) -> CubeEquities | None:
        # Screened only without noise: a noisy level may double where the screen says it is far.
        if self.spec.noise > 0:
            return self.cube_equities(position, ctx)
        return sage.double_analysis(position, ctx, self.spec.cube_ply)

    def match_equity(self, away0: int, away1: int, *, post_crawford: bool) -> float:
        return sage.match_equity(away0, away1, post_crawford=post_crawford)

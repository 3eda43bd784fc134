"""Computer players backed by bgsage's neural networks (see :mod:`engine.bots.sage`).

A :class:`SagePlayer` plays one level (:class:`~engine.bots.levels.LevelSpec`): bgsage evaluates
every legal play at the level's depth, the level's noise is added to each equity, and the best
noisy play is chosen; cube decisions compare bgsage's cubeful equities, with the same noise.

Players keep no bgsage object (analyzers are shared per depth in :mod:`engine.bots.sage`), so
they can be pickled to a process pool; they are safe to call from several threads.
"""

from __future__ import annotations

import random

from engine.bots import sage
from engine.bots.decisions import (
    accept_offer,
    can_double_usefully,
    make_rng,
    noisy,
    noisy_argmax,
)
from engine.bots.levels import LevelSpec
from engine.context import MatchContext
from engine.movegen import Dice, Play, legal_plays
from engine.position import Position

__all__ = ["SagePlayer"]


class SagePlayer:
    """A level of play on bgsage's evaluation (implements
    :class:`~engine.bots.protocol.ComputerPlayer`)."""

    def __init__(self, spec: LevelSpec, rng: random.Random | int | None = None) -> None:
        self.spec = spec
        self._rng = make_rng(rng)

    @property
    def level(self) -> str:
        return self.spec.name

    def __repr__(self) -> str:
        return f"<SagePlayer {self.spec.name}>"

    def choose_play(
        self, position: Position, dice: Dice, ctx: MatchContext | None = None
    ) -> Play | None:
        plays = legal_plays(position, dice)
        if len(plays) <= 1:
            return plays[0] if plays else None
        evaluated = sage.evaluate_plays(position, dice, plays, self.spec.ply)
        equities = [sage.equity(after, probs, ctx) for after, probs in evaluated]
        return noisy_argmax(plays, equities, self.spec.noise, self._rng)

    def should_double(self, position: Position, ctx: MatchContext) -> bool:
        if not can_double_usefully(ctx):
            return False
        cube = sage.cube_equities(position, ctx, self.spec.cube_ply)
        gain = min(cube.double_take, cube.double_pass) - cube.no_double
        return noisy(gain, self.spec.noise, self._rng) > 0

    def should_take(self, position: Position, ctx: MatchContext) -> bool:
        if not ctx.may_double(0):
            raise ValueError(f"the doubler cannot double here ({ctx})")
        cube = sage.cube_equities(position, ctx, self.spec.cube_ply)
        # The doubler's equities: taking is right when it leaves him less than a pass.
        return noisy(cube.double_pass - cube.double_take, self.spec.noise, self._rng) >= 0

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
            cube = sage.cube_equities(position, ctx, self.spec.cube_ply)
            mine = -cube.roller(can_double=can_double_usefully(ctx))
        else:
            cube = sage.cube_equities(position.swap_players(), my_ctx, self.spec.cube_ply)
            mine = cube.roller(can_double=can_double_usefully(my_ctx))
        return accept_offer(value, mine, my_ctx, sage.match_equity)

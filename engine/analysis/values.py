"""What the analysis asks of an evaluator, and what an evaluator answers with.

The evaluators themselves are :class:`engine.analysis.evaluator.SageEvaluator`, the fallback's
and :class:`engine.analysis.gnubg_evaluator.GnubgEvaluator`; this module is what they share, so
that none of them imports another's module to get it.

>>> len(ROLLS), sum(w for _, w in ROLLS)
(21, 36)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from engine.bots.decisions import CubeEquities, MatchEquityTable
from engine.context import MatchContext
from engine.movegen import Dice, Play, legal_plays
from engine.position import Position

__all__ = [
    "CACHE_SIZE",
    "NO_PLAY",
    "ROLLS",
    "Cache",
    "Evaluator",
    "PlayValue",
    "Probs",
    "plays_or_pass",
]

CACHE_SIZE = 4096
"""How many evaluations an evaluator's cache keeps (least recently used go first)."""
V = TypeVar("V")

Probs = tuple[float, float, float, float, float]
"""Cubeless chances of one side: win, win gammon, win backgammon, lose gammon, lose backgammon
(gammons include backgammons)."""

NO_PLAY = Play(())
"""The empty play: what a player "plays" when his dice cannot be played."""

ROLLS: tuple[tuple[Dice, int], ...] = tuple(
    ((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)
)
"""The 21 distinct rolls (larger die last) and how many of the 36 outcomes each stands for."""


@dataclass(frozen=True, slots=True)
class PlayValue:
    """One play evaluated: the position after it seen by the mover, his cubeless chances, his
    equity (see the module docstring) and whether it comes from the evaluator's full depth."""

    play: Play
    after: Position
    probs: Probs
    equity: float
    full: bool


class Evaluator(Protocol):
    """What the analysis needs; every implementation is safe to call from several threads."""

    @property
    def engine(self) -> str:
        """``"bgsage"``, ``"fallback"`` or ``"gnubg"`` (GNU Backgammon's analysis)."""
        ...

    @property
    def ply(self) -> int:
        """The search depth of :meth:`plays` and :meth:`cube` (bgsage's numbering: 1 is the
        network on each resulting position; the fallback has a single depth, 1)."""
        ...

    @property
    def met(self) -> MatchEquityTable:
        """The match equity table the equities assume."""
        ...

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
        """Each play of ``plays`` evaluated, in the same order; the plays in ``force`` at full
        depth whatever the candidate filter thinks of them. With ``cubeful`` (and a context)
        bgsage searches cubefully, every node with its cube decisions, as GNU Backgammon's
        n-ply cubeful evaluation does, instead of converting the cubeless chances at the root
        (slower; the review uses it, the players and hints do not; the fallback ignores it)."""
        ...

    def cube(self, position: Position, ctx: MatchContext) -> tuple[CubeEquities, Probs]:
        """Cube equities of the player on roll before his roll, and his cubeless chances."""
        ...

    def roll_equities(self, position: Position, ctx: MatchContext) -> dict[Dice, float]:
        """For each of the 21 rolls (keys as in :data:`ROLLS`), the equity of the best play of
        the player on roll, at the luck depth (bgsage 1-ply, GNU Backgammon's 0-ply)."""
        ...

    def screen_cube(self, items: Sequence[tuple[Position, MatchContext]]) -> list[CubeEquities]:
        """Cheap estimates of :meth:`cube` for many positions at once, good enough to tell the
        positions far from any cube decision (the fallback's are its real equities)."""
        ...

    def clear(self) -> None:
        """Forget the cached evaluations (for benchmarks)."""
        ...


def plays_or_pass(position: Position, dice: Dice) -> list[Play]:
    return legal_plays(position, dice) or [NO_PLAY]


class Cache(Generic[V]):
    """A small thread-safe LRU map."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self._data: OrderedDict[object, V] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, key: object) -> V | None:
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def put(self, key: object, value: V) -> None:
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self._size:
                self._data.popitem(last=False)

    def get_or_compute(self, key: object, compute: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``compute()``'s, kept (computed outside the lock:
        two threads may both compute a missing value, the same one)."""
        cached = self.get(key)
        if cached is None:
            cached = compute()
            self.put(key, cached)
        return cached

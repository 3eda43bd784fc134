"""GNU Backgammon's neural networks at 0-ply, as a rollout's player (the ``gnubg-nn`` package).

GNU Backgammon rolls a position out by playing both sides by its 0-ply evaluation; the
community's rollouts are those. bgsage's 1-ply play (:mod:`engine.bots.sage`) is as strong but
not the same play: in a race it brings checkers in otherwise on most rolls and loses 0.015 of
equity to gnubg's choice, and in some contact positions it plays better than gnubg's 0-ply.
Either way a rollout by bgsage estimates another player's game, and over many trials it
differs from GNU Backgammon's by more than the noise (issue 31: 34 of 40 reference positions
within two combined standard errors). Played by gnubg-nn's networks, the same rollout code
lands within two combined standard errors of gnubg's figures on 38 of the 40 (``python -m bench
rollout``; see the README's *Rollouts*).

``gnubg-nn`` is GNU Backgammon's evaluation code packaged as a Python extension, with its
networks (weights "GNU Backgammon 1.01") and its one- and two-sided bear-off databases. Those
weights are not GNU Backgammon 1.07's file: the two agree exactly in races and bear-offs, and
in contact positions within 0.0035 of equity on average (0.046 at most, over 228 positions of
random games); the 0-ply play differs, other than by a tie, on 67 of 6,468 rolls of 308
positions. Its boards are two lists of 25 counts, the opponent's first, each from its owner's
view with the bar last, which is :meth:`Position.sides` swapped. It keeps global state (an
evaluation cache) and holds the GIL throughout, so calls take a lock; the bot runs rollouts in
worker processes, one at a time each (in threads with ``ANALYSIS_PROCESSES=0``, where the lock
serves).

``tests/test_gnubgnet.py`` checks it against the engine's rules (every play it makes is legal)
and against GNU Backgammon's rollouts.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from engine.bots.decisions import Probs
from engine.bots.possible import final_probs, possible_probs
from engine.movegen import Dice
from engine.position import Position

try:  # optional: where it has no wheel, rollouts play by bgsage
    import gnubg_nn as _net
except ImportError:  # pragma: no cover - depends on the platform
    _net = None

__all__ = [
    "available",
    "data_file",
    "lock",
    "network",
    "rollout_move",
    "rollout_moves",
    "rollout_probs",
]

_ROLLS21 = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
lock = threading.Lock()
"""Held by every call into gnubg-nn, which keeps global state (see the module docstring)."""


def available() -> bool:
    """Whether GNU Backgammon's network is installed (the ``gnubg-nn`` package)."""
    return _net is not None


def network() -> Any:
    """The ``gnubg_nn`` module; call it with :data:`lock` held.

    :raises RuntimeError: when it is not installed.
    """
    if _net is None:
        raise RuntimeError("gnubg-nn is not installed; roll out with bgsage")
    return _net


def rollout_moves(position: Position) -> dict[Dice, tuple[Position, Probs]]:
    """For each of the 21 rolls (keys ``(a, b)``, ``a <= b``), GNU Backgammon's 0-ply best play
    by cubeless equity: the position after it, seen by the opponent (now on roll), and the
    mover's cubeless chances there (exact when he has just borne off his last checker)."""
    return {dice: rollout_move(position, dice) for dice in _ROLLS21}


def rollout_move(position: Position, dice: Dice) -> tuple[Position, Probs]:
    """:func:`rollout_moves` for one roll only (a rollout without variance reduction)."""
    net = network()
    mine, theirs = position.sides()
    with lock:
        steps = net.best_move([theirs, mine], dice[0], dice[1])
    for start, end in steps:  # points 1-24 of the mover, 25 his bar, 0 off
        mine[start - 1] -= 1
        if end > 0:
            mine[end - 1] += 1
            if theirs[24 - end] == 1:  # a blot hit: to the opponent's bar
                theirs[24 - end] = 0
                theirs[24] += 1
    after = Position.from_sides(mine, theirs, checkers=position.checkers)
    final = final_probs(after)  # his last checker borne off: the result, not an estimate
    if final is not None:
        return after.swap_players(), final
    with lock:
        w, wg, wb, lg, lb = net.probabilities([mine, theirs], 0)  # the opponent on roll
    probs = possible_probs(after.board, (1.0 - w, lg, lb, wg, wb), position.checkers)
    return after.swap_players(), probs


def data_file(name: str) -> Path:
    """A file of gnubg-nn's data (its weights and bear-off databases), by name.

    :raises RuntimeError: when gnubg-nn is not installed.
    """
    return Path(network().__file__).parent / "data" / name


def rollout_probs(position: Position) -> Probs:
    """The cubeless chances of the player on roll before his roll, at 0-ply."""
    net = network()
    mine, theirs = position.sides()
    with lock:
        w, wg, wb, lg, lb = net.probabilities([theirs, mine], 0)
    return possible_probs(position.board, (w, wg, wb, lg, lb), position.checkers)

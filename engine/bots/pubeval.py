"""Tesauro's pubeval (1993): the classic benchmark evaluator, written from its published encoding.

pubeval scores the position *after* a play, seen by the player who made it, with a linear function
of 122 inputs: five per point (an opponent blot, one own checker, two or more, exactly three,
and half the excess over three), the opponent's checkers on the bar and the mover's checkers off.
Two weight sets exist, one for races and one for contact; which one applies depends on the
position *before* the play. The weights ship in ``pubeval.json`` (package data, read once).

The board layout is the engine's (and pubeval's own): ``board[1..24]`` the mover's points, positive
for his checkers, ``board[0]`` minus the opponent's bar, ``board[25]`` the mover's bar.

>>> from engine import Position, legal_plays
>>> start = Position.initial()
>>> best = max(legal_plays(start, (3, 1)), key=lambda p: score_play(start, p))
>>> str(best)
'8/5 6/5'
>>> score(Position.from_board([0] * 19 + [-15] + [0] * 6), race=True)  # all his checkers off
99999999.0
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from importlib import resources

from engine.movegen import Play
from engine.position import CHECKERS, Position

__all__ = ["INPUTS", "WIN_SCORE", "encode", "score", "score_play", "weights"]

INPUTS = 122
WIN_SCORE = 99999999.0
"""The score of a position where the mover has borne off all his checkers."""


@cache
def weights() -> dict[str, tuple[float, ...]]:
    """The two published weight sets, ``{"race": ..., "contact": ...}``, 122 numbers each."""
    text = resources.files("engine.bots").joinpath("pubeval.json").read_text(encoding="utf-8")
    data = json.loads(text)
    out = {kind: tuple(float(w) for w in data[kind]) for kind in ("race", "contact")}
    if any(len(w) != INPUTS for w in out.values()):
        raise ValueError(f"pubeval.json must hold {INPUTS} weights per set")
    return out


def _point_inputs(n: int) -> tuple[float, float, float, float, float]:
    """The five inputs of one point holding ``n`` (signed, mover positive) checkers."""
    return (
        1.0 if n == -1 else 0.0,
        1.0 if n == 1 else 0.0,
        1.0 if n >= 2 else 0.0,
        1.0 if n == 3 else 0.0,
        (n - 3) / 2.0 if n >= 4 else 0.0,
    )


def encode(board: Sequence[int]) -> list[float]:
    """pubeval's 122 inputs for a 26-int board seen by the player who has just moved.

    Inputs ``5*(j-1) .. 5*(j-1)+4`` describe point ``25 - j`` (so the first block is the mover's
    24-point); input 120 is half the opponent's checkers on the bar, input 121 the fraction of the
    mover's checkers borne off.

    >>> x = encode(Position.initial().board)
    >>> x[:5], x[120], x[121]  # the mover's two back checkers on his 24-point
    ([0.0, 0.0, 1.0, 0.0, 0.0], 0.0, 0.0)
    """
    x: list[float] = []
    for j in range(1, 25):
        x.extend(_point_inputs(board[25 - j]))
    off = CHECKERS - sum(v for v in board[1:] if v > 0)
    x.append(-board[0] / 2.0)
    x.append(off / 15.0)
    return x


@cache
def _tables(kind: str) -> tuple[tuple[tuple[float, ...], ...], float, float]:
    """Per point, the weighted sum of its five inputs for every count -15..15 (index n + 15).

    Scoring then costs one lookup per point instead of 120 multiplications, and gives the same
    sum as the dot product with :func:`encode` (the tests check it).
    """
    w = weights()[kind]
    per_point: list[tuple[float, ...]] = [()] * 25
    for point in range(1, 25):
        k = 5 * (24 - point)  # j = 25 - point, k = 5 * (j - 1)
        per_point[point] = tuple(
            sum(wi * xi for wi, xi in zip(w[k : k + 5], _point_inputs(n), strict=True))
            for n in range(-15, 16)
        )
    return tuple(per_point), w[120], w[121]


def score(position: Position, *, race: bool) -> float:
    """pubeval's score of ``position``, seen by the player who has just moved (higher is better
    for him). ``race`` chooses the race weights; pubeval decides it from the position *before*
    the play (see :func:`score_play`).
    """
    b = position.board
    own = sum(v for v in b[1:] if v > 0)
    if own == 0:
        return WIN_SCORE
    table, w_bar, w_off = _tables("race" if race else "contact")
    # The share of his checkers borne off (of 15, or of 3 in hypergammon).
    total = w_bar * (-b[0] / 2.0) + w_off * ((position.checkers - own) / position.checkers)
    for point in range(1, 25):
        total += table[point][b[point] + 15]
    return total


def score_play(position: Position, play: Play) -> float:
    """pubeval's score of ``play`` (from :func:`engine.legal_plays`) in ``position``."""
    after = position.apply(play).swap_players()
    return score(after, race=position.is_race())

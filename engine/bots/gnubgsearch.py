"""GNU Backgammon's n-ply cubeful evaluation, searched on its own networks (``gnubg-nn``).

GNU Backgammon analyses a play by evaluating the position after it ``n`` plies deep: for each
of the 21 rolls the side on roll plays its best 0-ply play, and so on down to the leaves, which
its networks evaluate at 0-ply and Janowski's interpolation turns into cubeful equities (the
cube's efficiency from the position's class, :func:`engine.bots.cubeful.gnubg_cube_efficiency`).
At every node, the leaves included, the side on roll may double and the other take or pass:
the node's value for each state of the cube is the better of not doubling and doubling (then
the worse, for the doubler, of the take and the pass). This module is that search (GNU
Backgammon's ``EvaluatePositionCubeful4``, its ``GetECF3`` and its pruned choice of each node's
play, ``FindBestMoveInEval``) in Python, each node's play and each leaf
from gnubg-nn, so that a review grades plays and cube actions with the equities GNU
Backgammon's ``analyse match`` reports (the weights are its 1.01 networks: see
:mod:`engine.bots.gnubgnet`).

Values inside the search are absolute: points of a money game (the cube's value included), or
the match winning chance of the side on roll. :func:`play_equities` and :func:`cube_equities`
normalise them to the cube, as the rest of the analysis expects.

Match play uses bgsage's match equity table (Kazaross XG2, GNU Backgammon's default) and its
live-cube conversion at the leaves (GNU Backgammon's ``Cl2CfMatch``), so gnubg-nn and bgsage
must both be installed; they have wheels for the same platforms. Only 15-checker variants:
gnubg-nn's networks know no other. A money game's bear-offs of six checkers or fewer a side
take GNU Backgammon's exact cubeful equities from its two-sided database, as gnubg does.

One play searched 2 plies deep takes 462 best-play choices (each ranking a node's plays in
Python) and about 441 leaf evaluations: 0.05 to 0.1 s.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from itertools import product
from math import comb
from typing import Any

from engine.bots import gnubgnet, sage
from engine.bots.cubeful import gnubg_cube_efficiency
from engine.bots.decisions import (
    CubeEquities,
    Probs,
    can_double_usefully,
    match_equity_after,
)
from engine.context import MatchContext
from engine.position import Position

__all__ = ["available", "cube_equities", "play_equities"]

_ROLLS = tuple((a, b, 1.0 if a == b else 2.0) for a in range(1, 7) for b in range(a, 7))
_Board = Sequence[Sequence[int]]
"""gnubg-nn's board: the side not on roll, then the side on roll, each 25 counts from its
owner's view (points 1 to 24, then the bar)."""

_RACE, _CONTACT_CLASSES = 3, (4, 5)  # gnubg-nn's classes: 0 over, 1-2 bear-off, 3 race, 4-5 contact
_PRUNE = -4  # gnubg-nn's probabilities() by the pruning networks (its p_prune)
_MIN_PRUNE = 5  # GNU Backgammon's MIN_PRUNE_MOVES
_POINTS = (1, 2, 3, -1, -2, -3)  # a game's outcomes, in the order of its chances' shares


def available() -> bool:
    """Whether the search can run: gnubg-nn for the networks, bgsage for match play's table."""
    return gnubgnet.available() and sage.available()


def _board(position: Position) -> list[list[int]]:
    """gnubg-nn's board of ``position`` (its player 0 on roll)."""
    mine, theirs = position.sides()
    return [theirs, mine]


def _efficiency(kind: int, board: _Board) -> float:
    """Janowski's ``x`` of a position of gnubg-nn's class ``kind`` for the side on roll, as GNU
    Backgammon's 0-ply takes it."""
    if kind in _CONTACT_CLASSES:
        return gnubg_cube_efficiency(False, False, 0)
    home = kind != 3
    pips = sum((i + 1) * c for i, c in enumerate(board[1]))
    return gnubg_cube_efficiency(True, home, pips)


@dataclass(eq=False, slots=True)
class _Cube:
    """One state of the cube seen by the side on roll, worked out once per search. Compared
    by identity: :meth:`_Search.cube` hands out one object a state (hashing the context at
    every node of a search cost a tenth of its time)."""

    ctx: MatchContext
    match: bool  # a match's state: values are match winning chances, not points
    cash: float  # the roller's value when his double is passed (the cube's value won)
    lose: float  # his value when he loses the cube's value (match play: the normalisation)
    convert: Callable[[Probs, float], float]  # Janowski's interpolation at this state
    outcomes: tuple[float, ...]  # his value of each outcome in _POINTS
    doubled: _Cube | None = None  # after he doubles and is taken, if he may double
    swapped: _Cube | None = None  # the same state seen by the opponent


_TWO_SIDED = 1  # gnubg-nn's class of a two-sided bear-off: both sides home, 6 checkers or fewer
_BEAROFF_FILE, _BEAROFF_HEADER = (
    "gnubg_ts0.bd",
    b"gnubg-TS-06-06-1",
)  # 6 points, 6 checkers, cubeful


def _bearoff_index(points: int = 6, checkers: int = 6) -> dict[tuple[int, ...], int]:
    """GNU Backgammon's index of every one-sided bear-off position (its ``PositionBearoff``),
    by the checkers on the six home points: the rank of the position's bit pattern among the
    combinations of ``points + checkers`` bits."""

    def rank(bits: int, n: int, r: int) -> int:
        if n == r:
            return 0
        if bits & (1 << (n - 1)):
            return comb(n - 1, r) + rank(bits, n - 1, r - 1)
        return rank(bits, n - 1, r)

    out = {}
    for side in product(range(checkers + 1), repeat=points):
        if sum(side) > checkers:
            continue
        j = points - 1 + sum(side)
        bits = 1 << j
        for count in side[:-1]:
            j -= count + 1
            bits |= 1 << j
        out[side] = rank(bits, points + checkers, points)
    return out


@functools.cache
def _two_sided() -> tuple[bytes, dict[tuple[int, ...], int]]:
    """GNU Backgammon's two-sided bear-off database, as gnubg-nn ships it: for each pair of
    positions (the roller's index times 924 plus the opponent's) four equities of the roller,
    two bytes each: cubeless, cube owned by him, centred, owned by the opponent."""
    data = gnubgnet.data_file(_BEAROFF_FILE).read_bytes()
    if not data.startswith(_BEAROFF_HEADER):
        raise RuntimeError(f"{_BEAROFF_FILE} is not GNU Backgammon's 6-point cubeful database")
    return data, _bearoff_index()


def _bearoff_equities(board: _Board) -> tuple[float, float, float, float]:
    """The roller's exact money equities in a two-sided bear-off: cubeless, his cube, the cube
    centred, his opponent's cube (each per unit of the cube)."""
    data, index = _two_sided()
    at = 40 + 8 * (index[tuple(board[1][:6])] * len(index) + index[tuple(board[0][:6])])
    a, b, c, d = (
        int.from_bytes(data[at + k : at + k + 2], "little") / 32767.5 - 1.0 for k in (0, 2, 4, 6)
    )
    return a, b, c, d


class _Search:
    """One search's conversions between cube states and values (see the module docstring)."""

    def __init__(self, net: Any) -> None:
        self.net = net
        self.met = sage.match_equity
        self._cubes: dict[MatchContext, _Cube] = {}

    def cube(self, ctx: MatchContext) -> _Cube:
        """The state ``ctx`` worked out, with the states it leads to (a search meets a handful)."""
        found = self._cubes.get(ctx)
        if found is not None:
            return found
        found = self._cubes[ctx] = _Cube(
            ctx,
            bool(ctx.match_length),
            self.won(ctx, 1),
            self.won(ctx, -1),
            sage.cl2cf_at(ctx),
            tuple(self.won(ctx, k) for k in _POINTS),
        )
        found.swapped = self.cube(ctx.swapped())
        if can_double_usefully(ctx):
            found.doubled = self.cube(replace(ctx, cube_value=2 * ctx.cube_value, cube_owner=1))
        return found

    def won(self, ctx: MatchContext, points: int) -> float:
        """The roller's value once he wins ``points`` times the cube (< 0: loses; a single
        game under the Jacoby rule while the cube is centred)."""
        if ctx.match_length:
            return match_equity_after(ctx, points * ctx.cube_value, self.met)
        if ctx.jacoby and ctx.cube_owner is None:
            points = 1 if points > 0 else -1
        return float(points * ctx.cube_value)

    def normalise(self, cube: _Cube, value: float) -> float:
        """A value as the analysis gives equities: +1 is winning the cube's current value."""
        if not cube.match:
            return value / cube.ctx.cube_value
        win, lose = cube.cash, cube.lose
        return 2.0 * (value - lose) / (win - lose) - 1.0 if win > lose else 1.0

    def leaf(
        self, board: _Board, states: Sequence[_Cube], probs: Probs | None = None
    ) -> tuple[list[float], Probs]:
        """The networks' chances of the roller (``probs`` when they are known already) and, for
        each state of the cube, his value by Janowski's interpolation (no cube action: the root
        of a cube decision); in a money game's two-sided bear-off, his exact values from GNU
        Backgammon's database, as gnubg takes them."""
        start = [list(board[0]), list(board[1])]
        kind = self.net.classify(start)
        if kind == _TWO_SIDED and not states[0].match:
            cubeless, mine, centred, theirs = _bearoff_equities(board)
            by_owner = {None: centred, 0: mine, 1: theirs}
            values = [by_owner[c.ctx.cube_owner] * c.ctx.cube_value for c in states]
            return values, ((cubeless + 1.0) / 2.0, 0.0, 0.0, 0.0, 0.0)
        if probs is None:
            w, wg, wb, lg, lb = self.net.probabilities(start, 0)
            probs = (w, wg, wb, lg, lb)
        x = _efficiency(kind, board)
        values = []
        for cube in states:
            eq = cube.convert(probs, x)
            if cube.match:  # decisions.to_match_equity, its two anchors worked out once
                mwc = cube.lose + (eq + 1.0) / 2.0 * (cube.cash - cube.lose)
                values.append(min(1.0, max(0.0, mwc)))
            else:
                values.append(eq * cube.ctx.cube_value)
        return values, probs

    def node(
        self, board: _Board, states: Sequence[_Cube], plies: int, probs: Probs | None = None
    ) -> tuple[list[float], Probs]:
        """The roller's value for each cube state before his roll, searched ``plies`` deep,
        with his own cube action at this node (at a leaf too, on the leaf's values, as GNU
        Backgammon does), and his cubeless chances. A money game's two-sided bear-off is not
        searched: its values are exact (gnubg's ``CLASS_PERFECT``)."""
        expanded = list(dict.fromkeys(states))
        for cube in states:
            if cube.doubled is not None and cube.doubled not in expanded:
                expanded.append(cube.doubled)
        if plies == 0 or (not states[0].match and self.exact(board)):
            values, probs = self.leaf(board, expanded, probs)
        else:
            values, probs = self.rolls(board, expanded, plies)
        by_state = dict(zip(expanded, values, strict=True))
        out = []
        for cube in states:
            no_double = by_state[cube]
            if cube.doubled is not None:
                take, cash = by_state[cube.doubled], cube.cash
                if take >= no_double and cash >= no_double:
                    no_double = min(take, cash)
            out.append(no_double)
        return out, probs

    def rolls(
        self, board: _Board, states: Sequence[_Cube], plies: int
    ) -> tuple[list[float], Probs]:
        """The mean over the 36 rolls of the roller's value after his best play, each state of
        the cube kept as it is (no cube action at this node), and of his chances."""
        theirs = [_swapped(c) for c in states]
        total = [0.0] * len(states)
        chances = [0.0] * 5
        match = states[0].match
        for a, b, weight in _ROLLS:
            child = self.best_play(board, a, b, states[0])  # the opponent on roll
            if not any(child[0]):
                values, mine = self.finished(child, states)
            else:
                them, their = self.node(child, theirs, plies - 1)
                values = [1.0 - v for v in them] if match else [-v for v in them]
                w, wg, wb, lg, lb = their
                mine = (1.0 - w, lg, lb, wg, wb)
            for i, v in enumerate(values):
                total[i] += weight * v
            for i, p in enumerate(mine):
                chances[i] += weight * p
        w, wg, wb, lg, lb = (c / 36.0 for c in chances)
        return [t / 36.0 for t in total], (w, wg, wb, lg, lb)

    def exact(self, board: _Board) -> bool:
        """Whether the position is in GNU Backgammon's two-sided bear-off database."""
        return bool(self.net.classify([list(board[0]), list(board[1])]) == _TWO_SIDED)

    def best_play(self, board: _Board, a: int, b: int, cube: _Cube) -> _Board:
        """The board after the roller's best 0-ply play of ``a``-``b`` at the node's actual cube
        ``cube``, the roller's side first (so the opponent on roll).

        GNU Backgammon's choice (its ``FindBestMoveInEval``): when there are more plays than
        ``5 + log2(plays)`` and all lead to positions of one class (race or contact), its
        pruning network keeps that many by their cubeless utility, and the kept ones are ranked
        by their cubeful 0-ply equity at the node's cube. (gnubg-nn's own choice ranks by
        cubeless money equity: at a match score, where a gammon is worth otherwise, and with
        the cube owned or under the Jacoby rule, it is not gnubg's play; a 3-point match's no
        double came out 0.924 with it against gnubg's 0.945.)"""
        net = self.net
        start = [list(board[0]), list(board[1])]
        if not cube.match and net.classify(start) < _RACE:
            # A money bear-off: gnubg's figures are those of the cubeless choice (measured:
            # tests/test_pr_gnubg.py's bear-off, exact that way, 0.023 off the other).
            return net.boardfromkey(net.best_move(start, a, b, b=1)[1])  # type: ignore[no-any-return]
        children: Sequence[_Board] = [
            tuple(reversed(net.boardfromkey(k))) for k in net.moves(start, a, b)
        ]
        if not children:
            return (start[1], start[0])  # no play: the turn passes as it is
        if len(children) == 1:
            return children[0]
        keep = _MIN_PRUNE + len(children).bit_length() - 1
        theirs = [_swapped(cube)]
        if len(children) > keep:
            children = self.pruned(children, theirs[0], keep)
        best, best_value = children[0], -math.inf
        for child in children:
            if not any(child[0]):
                return child
            theirs_value = self.node(child, theirs, 0)[0][0]
            value = 1.0 - theirs_value if cube.match else -theirs_value
            if value > best_value:
                best, best_value = child, value
        return best

    def pruned(self, children: Sequence[_Board], theirs: _Cube, keep: int) -> Sequence[_Board]:
        """The ``keep`` plays whose results the pruning network finds worst for the opponent
        (on roll in each of ``children``), by his cubeless match equity; all of them when the
        results are not all races or all contact positions (gnubg then scores every play)."""
        net = self.net
        boards = [[list(c[0]), list(c[1])] for c in children]
        kind = net.classify(boards[0])
        if kind < _RACE or any(net.classify(b) != kind for b in boards[1:]):
            return children
        o1, o2, o3, l1, l2, l3 = theirs.outcomes
        scores = []
        for b in boards:
            w, wg, wb, lg, lb = net.probabilities(b, _PRUNE)
            scores.append(
                (w - wg) * o1 + (wg - wb) * o2 + wb * o3
                + (1.0 - w - lg) * l1 + (lg - lb) * l2 + lb * l3
            )  # fmt: skip
        order = sorted(range(len(children)), key=scores.__getitem__)
        return [children[i] for i in order[:keep]]

    def finished(self, child: _Board, states: Sequence[_Cube]) -> tuple[list[float], Probs]:
        """The roller has borne off his last checker: his exact value and chances."""
        loser = child[1]
        gammon = sum(loser) == 15
        backgammon = gammon and any(loser[18:25])
        points = 3 if backgammon else 2 if gammon else 1
        probs: Probs = (1.0, float(gammon), float(backgammon), 0.0, 0.0)
        return [c.outcomes[points - 1] for c in states], probs


def _swapped(cube: _Cube) -> _Cube:
    assert cube.swapped is not None  # set by _Search.cube for every state it hands out
    return cube.swapped


def play_equities(
    afters: Sequence[Position], ctx: MatchContext | None, plies: int
) -> list[tuple[float, Probs]]:
    """The mover's equity and cubeless chances after each of his plays, ``afters`` (each still
    seen by the mover, as :attr:`engine.analysis.evaluator.PlayValue.after`), searched
    ``plies`` deep as GNU Backgammon's ``plies``-ply analysis does (0: the networks on each
    position). With ``ctx`` the equity is cubeful, normalised to the cube, the cube's states
    searched at every node; without, it is the cubeless money equity (the same search without
    the cube, which gnubg-nn runs itself)."""
    net = gnubgnet.network()
    search = _Search(net)
    out: list[tuple[float, Probs]] = []
    with gnubgnet.lock:
        for after in afters:
            board = list(reversed(_board(after)))  # the opponent on roll
            if not any(board[0]):  # the mover has borne off his last checker: exact
                cube = search.cube(ctx or MatchContext())
                values, probs = search.finished(board, [cube])
                out.append((search.normalise(cube, values[0]), probs))
                continue
            if ctx is None:
                w, wg, wb, lg, lb = net.probabilities(board, plies)
                equity = -(2.0 * w - 1.0 + wg - lg + wb - lb)
            else:
                cube = search.cube(ctx)
                values, (w, wg, wb, lg, lb) = search.node(board, [_swapped(cube)], plies)
                equity = search.normalise(cube, 1.0 - values[0] if cube.match else -values[0])
            out.append((equity, (1.0 - w, lg, lb, wg, wb)))
    return out


def cube_equities(position: Position, ctx: MatchContext, plies: int) -> tuple[CubeEquities, Probs]:
    """The cube decision of the player on roll before his roll, searched ``plies`` deep as GNU
    Backgammon's cube analysis does: no double, double/take, double/pass (normalised to the
    cube), and his cubeless chances."""
    search = _Search(gnubgnet.network())
    cube = search.cube(ctx)
    states = [cube, search.cube(replace(ctx, cube_value=2 * ctx.cube_value, cube_owner=1))]
    board = _board(position)
    with gnubgnet.lock:
        # A money game's two-sided bear-off is exact at the root too (gnubg's CLASS_PERFECT).
        if plies == 0 or (not cube.match and search.exact(board)):
            values, probs = search.leaf(board, states)
        else:
            values, probs = search.rolls(board, states, plies)
    return (
        CubeEquities(
            search.normalise(cube, values[0]),
            search.normalise(cube, values[1]),
            search.normalise(cube, cube.cash),
        ),
        probs,
    )

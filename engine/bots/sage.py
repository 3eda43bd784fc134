"""The bgsage adapter: the only module that imports bgsage (PyPI ``bgsage``, MPL-2.0).

bgsage is optional. This module imports it behind a guard, so importing it never fails, and
:func:`available` says whether the engine can run; :func:`engine.bots.get_bot` checks that before
building a bgsage player.

Conventions, checked by the tests:

* bgsage's board is ours except index 0, which holds the opponent's bar as a *positive* count
  (ours is minus that count), so :func:`to_sage` negates it.
* Its move generator differs from the rules in two places (it returns the unchanged board when no
  move exists, and offers bearing off the last checker with one die where both dice can and must
  be played). So we never play bgsage's moves: we ask it to rank its candidates, look up each of
  the engine's legal plays by resulting board, and evaluate any play missing from its list
  directly.
* Equities are normalised to the cube: +1 means winning the current cube value. In match play
  they are bgsage's normalised match equities (-1 and +1 are losing and winning the cube's value
  in match winning chances, linear in between and beyond).

Thread safety: bgsage documents its analyzer as thread-safe, but the multi-ply strategies share a
position cache that each call clears, so every analyzer is used under its own lock. One analyzer
per search depth is built on first use and kept for the life of the process.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from engine.bots.decisions import CubeEquities, Probs, far_from_doubling
from engine.bots.possible import final_probs, possible_probs
from engine.context import MatchContext
from engine.movegen import Dice, Play, legal_plays
from engine.position import Position

try:  # optional dependency: see available()
    import bgbot_cpp
    import bgsage
    from bgsage import analyzer as bgsage_analyzer
except ImportError:  # pragma: no cover - exercised on platforms without bgsage wheels
    bgsage = None
    bgbot_cpp = None
    bgsage_analyzer = None

__all__ = [
    "SCREEN_PLY",
    "PlayEvaluation",
    "Probs",
    "analyse_plays",
    "available",
    "best_play_equities",
    "cl2cf",
    "cl2cf_at",
    "cube_analysis",
    "cube_equities",
    "double_analysis",
    "equity",
    "evaluate_plays",
    "match_equity",
    "reference_equities",
    "rollout_move",
    "rollout_moves",
    "rollout_probs",
    "run_cube_with",
    "screen_cube",
    "screened_cube",
    "search_cube",
    "to_sage",
    "version",
]


_OWNER = {None: "centered", 0: "player", 1: "opponent"}


def available() -> bool:
    """Whether bgsage imported."""
    return bgsage is not None


def version() -> str:
    """bgsage's installed version, for the log line."""
    return metadata.version("bgsage")


def to_sage(position: Position) -> list[int]:
    """The position as bgsage's 26 ints (index 0: the opponent's bar as a positive count).

    >>> to_sage(Position.from_board([-1, 0, 0, 0, 0, 0, 3] + [0] * 19))[:7]
    [1, 0, 0, 0, 0, 0, 3]
    """
    board = list(position.board)
    board[0] = -board[0]
    return board


class _Analyzer:
    """A bgsage analyzer at one depth and the lock that serialises its use.

    The cubeful analyzer of a depth shares the cubeless one's search (``twin``): bgsage's
    cubeful analyzer is a wrapper around the same cubeless one, and each holds its own copy of
    the networks and of the bearoff database (about 40 MB at 2 and 3 plies). Sharing it, they
    share its position cache too, so they share the lock as well."""

    def __init__(self, ply: int, cubeful: bool = False, twin: _Analyzer | None = None) -> None:
        self.ply = ply
        # Cubeless (the default): cube and score are applied by equity() on the returned
        # chances, so one analyzer serves money and match play alike, at every depth. The
        # cubeful one searches the cube's states at every node, as GNU Backgammon's n-ply
        # cubeful evaluation does (see analyse_plays).
        self.sage: Any = bgsage.BgBotAnalyzer(eval_level=f"{ply}ply", cubeful=cubeful)
        self.lock: threading.Lock = threading.Lock() if twin is None else twin.lock
        if twin is not None:
            _share_search(self.sage, twin.sage, cubeful)
        _clear_only_when_filled(self.sage)


class _ClearOnlyWhenFilled:
    """A bgsage n-ply strategy whose ``clear_cache`` does nothing when its cache is empty.

    bgsage's checker-play search clears the strategy's position cache at its end, and a clear
    costs about 4 ms of CPU with the GIL held, even of an empty cache. It is empty every time in
    the bot's searches (``cache_size()`` read 0 at every clear, checker play and cubeful play, 2
    and 3 plies; the cube searches do not go through it). In the computer's search thread, at
    niceness 5, those 4 ms stretched whenever the thread lost its core, and every press, the
    event loop and the drawing's answers waited for the GIL meanwhile: at 2,000 live games it
    was 24% of the time the GIL was held (sampled). A filled cache is still cleared, as before.
    """

    def __init__(self, strategy: Any) -> None:
        self._strategy = strategy

    def clear_cache(self) -> None:
        if self._strategy.cache_size():
            self._strategy.clear_cache()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._strategy, name)


def _clear_only_when_filled(analyzer: Any) -> None:
    """Wrap ``analyzer``'s n-ply strategy (see :class:`_ClearOnlyWhenFilled`), once: twins
    share it. An analyzer built otherwise (another bgsage) is left as it is."""
    search: Any = getattr(analyzer, "_analyzer", None)
    search = getattr(search, "_inner", search)
    strategy = getattr(search, "_strategy_nply", None)
    if strategy is None or isinstance(strategy, _ClearOnlyWhenFilled):
        return
    if hasattr(strategy, "cache_size") and hasattr(strategy, "clear_cache"):
        search._strategy_nply = _ClearOnlyWhenFilled(strategy)


def _share_search(new: Any, twin: Any, cubeful: bool) -> None:
    """Make ``new`` search with ``twin``'s cubeless analyzer, and free its own (when bgsage is
    built as this expects: else each keeps its own, as before)."""
    wrapper = getattr(bgsage_analyzer, "_CubefulAnalyzer", None)
    ours, theirs = getattr(new, "_analyzer", None), getattr(twin, "_analyzer", None)
    if wrapper is None or ours is None or theirs is None:
        return
    inner = theirs._inner if isinstance(theirs, wrapper) else theirs
    if isinstance(inner, wrapper) or type(inner) is not type(
        ours._inner if isinstance(ours, wrapper) else ours
    ):
        return
    new._analyzer = wrapper(inner) if cubeful else inner
    new._bearoff_db = twin._bearoff_db


_analyzers: dict[tuple[int, bool], _Analyzer] = {}
_analyzers_lock = threading.Lock()


def _analyzer(ply: int, cubeful: bool = False) -> _Analyzer:
    if bgsage is None:
        raise RuntimeError("bgsage is not installed; use the pure-Python fallback")
    with _analyzers_lock:
        if (ply, cubeful) not in _analyzers:
            twin = _analyzers.get((ply, not cubeful))
            _analyzers[ply, cubeful] = _Analyzer(ply, cubeful, twin)
        return _analyzers[ply, cubeful]


def _probs(p: Any) -> Probs:
    return (
        float(p.win),
        float(p.gammon_win),
        float(p.backgammon_win),
        float(p.gammon_loss),
        float(p.backgammon_loss),
    )


def evaluate_plays(
    position: Position, dice: Dice, plays: Sequence[Play], ply: int
) -> list[tuple[Position, Probs]]:
    """For each play (from :func:`engine.legal_plays`), the resulting position seen by the mover
    and its cubeless chances for the mover, at bgsage's depth ``ply``.

    The candidates bgsage ranks below its filter keep their 1-ply chances, as in bgsage itself.
    """
    return [(e.after, e.probs) for e in analyse_plays(position, dice, plays, ply)]


@dataclass(frozen=True, slots=True)
class PlayEvaluation:
    """One play evaluated by :func:`analyse_plays`: the position after it seen by the mover, the
    mover's cubeless chances, and the depth they come from (``ply``, or 1 for a candidate that
    bgsage's filter dropped; a finished game is exact and counts as full depth)."""

    after: Position
    probs: Probs
    ply: int
    equity: float | None = None
    """With a cubeful search (:func:`analyse_plays` given a context), the mover's cubeful
    equity after the play (normalised to the cube); None otherwise, and for a finished game."""


def analyse_plays(
    position: Position,
    dice: Dice,
    plays: Sequence[Play],
    ply: int,
    *,
    force: Sequence[Play] = (),
    cubeful: MatchContext | None = None,
) -> list[PlayEvaluation]:
    """Like :func:`evaluate_plays`, saying at which depth each play was evaluated. The plays in
    ``force`` are searched at full depth even when bgsage's candidate filter would drop them
    (bgsage's ``force_boards``), so that a weak play can be judged like the best one.

    With ``cubeful`` (the cube and score of the player on roll) the search is cubeful: at every
    node of the ``ply``-deep search the side on roll may double and the other take or pass, as
    in GNU Backgammon's n-ply cubeful evaluation, and each play's :attr:`PlayEvaluation.equity`
    is that cubeful equity. It differs from Janowski's interpolation on the same depth's
    cubeless chances (:func:`equity`) where the cube is near its use: a race whose loser will
    be doubled out next turn loses the whole cube, not a share of it.

    ``plays`` may hold the empty play ``Play(())`` when the dice cannot be played: it stands for
    the unchanged position.
    """
    analyzer = _analyzer(ply, cubeful is not None)
    afters = [position.apply(play).swap_players() for play in plays]
    forced = [to_sage(position.apply(play).swap_players()) for play in force]
    cube = _cube_arguments(cubeful) if cubeful is not None else {}
    with analyzer.lock:
        ranked = analyzer.sage.checker_play(
            to_sage(position), dice[0], dice[1], force_boards=forced or None, **cube
        )
        by_board = {tuple(m.board): m for m in ranked.moves}
        return [_play_evaluation(analyzer, by_board, after, ply, cubeful) for after in afters]


def _cube_arguments(cubeful: MatchContext) -> dict[str, Any]:
    """bgsage's cube and score arguments for a cubeful search, from the roller's context."""
    away = cubeful.away() if cubeful.match_length else (0, 0)
    return {
        "cube_value": cubeful.cube_value,
        "cube_owner": _OWNER[cubeful.cube_owner],
        "away1": away[0],
        "away2": away[1],
        "is_crawford": cubeful.crawford,
        "jacoby": cubeful.jacoby,
        "beaver": False,  # the bot's games have no beavers
    }


def _play_evaluation(
    analyzer: _Analyzer,
    by_board: dict[tuple[int, ...], Any],
    after: Position,
    ply: int,
    cubeful: MatchContext | None,
) -> PlayEvaluation:
    """One play's evaluation for :func:`analyse_plays` (``after`` is the position after it, as
    there), from bgsage's ranked candidates ``by_board``; called with ``analyzer.lock`` held."""
    final = final_probs(after)
    if final is not None:
        return PlayEvaluation(after, final, ply)
    move = by_board.get(tuple(to_sage(after)))
    if move is not None:
        depth = ply if move.eval_level == f"{ply}-ply" else 1
        eq = float(move.equity) if cubeful is not None else None
        return PlayEvaluation(after, _probs(move.probs), depth, eq)
    # A legal play bgsage did not generate: evaluate its result directly. (Slightly
    # different from a ranked candidate's value, since bgsage's ranking also looks
    # at the position before the play; no such play is known, this is a safety net.)
    probs = _probs(analyzer.sage.post_move_analytics(to_sage(after)).probs)
    return PlayEvaluation(after, probs, ply)


def reference_equities(
    position: Position, dice: Dice, plays: Sequence[Play], ply: int
) -> tuple[float, list[float]]:
    """For grading plays: ``(best, equities)``, the cubeless equity of the best play bgsage finds
    and of each given play, every one of them searched at full depth ``ply``.

    The given plays are forced through bgsage's candidate filter, so a weak play is judged at the
    same depth as the best one (this is what bgsage's ``force_boards`` is for).
    """
    analyzer = _analyzer(ply)
    afters = [tuple(to_sage(position.apply(p).swap_players())) for p in plays]
    with analyzer.lock:
        ranked = analyzer.sage.checker_play(
            to_sage(position), dice[0], dice[1], force_boards=[list(a) for a in set(afters)]
        )
    by_board = {tuple(m.board): float(m.equity) for m in ranked.moves}
    legal = [by_board[a] for a in afters if a in by_board]
    if len(legal) != len(afters):
        raise ValueError(f"bgsage did not evaluate every play of {position!r} with {dice}")
    # bgsage's best may be one of its extra, illegal candidates; the best legal play is then the
    # best among the forced ones and bgsage's other full-depth candidates that are legal.
    engine_legal = {
        tuple(to_sage(position.apply(p).swap_players())) for p in legal_plays(position, dice)
    }
    best = max(float(m.equity) for m in ranked.moves if tuple(m.board) in engine_legal)
    return max(best, *legal), legal


def equity(after: Position, probs: Probs, ctx: MatchContext | None) -> float:
    """The mover's equity after his play, for ranking plays.

    Without ``ctx`` (cubeless money play) it is the cubeless equity. With a context it is
    bgsage's cubeful equity by Janowski's interpolation, at the match score when there is one:
    the same conversion bgsage applies to its own 1-ply candidates.
    """
    return _board_equity(to_sage(after), probs, ctx)


def _board_equity(board: list[int], probs: Sequence[float], ctx: MatchContext | None) -> float:
    """:func:`equity` of a post-move board in bgsage's layout."""
    w, wg, wb, lg, lb = probs
    if ctx is None:
        return 2.0 * w - 1.0 + wg - lg + wb - lb
    pips = bgbot_cpp.pip_counts(board)
    x = bgbot_cpp.cube_efficiency(list(probs), bgbot_cpp.is_race(board), pips[0], pips[1])
    return cl2cf((w, wg, wb, lg, lb), ctx, x)


def cl2cf_at(ctx: MatchContext) -> Callable[[Probs, float], float]:
    """:func:`cl2cf` at one state of the cube, for many calls (its arguments worked out once)."""
    owner = getattr(bgbot_cpp.CubeOwner, _OWNER[ctx.cube_owner].upper())
    if ctx.match_length:
        away0, away1 = ctx.away()
        cube, crawford, convert = ctx.cube_value, ctx.crawford, bgbot_cpp.cl2cf

        def match(probs: Probs, x: float) -> float:
            return float(convert(probs, cube, owner, x, away0, away1, crawford, False))

        return match
    jacoby, money = bool(ctx.jacoby and ctx.cube_owner is None), bgbot_cpp.cl2cf_money

    def janowski(probs: Probs, x: float) -> float:
        return float(money(probs, owner, x, jacoby))

    return janowski


def cl2cf(probs: Probs, ctx: MatchContext, x: float) -> float:
    """The cubeful equity (normalised to the cube) of the player on roll before his roll, from
    his cubeless chances by Janowski's interpolation with cube efficiency ``x``: bgsage's
    conversion, GNU Backgammon's ``Cl2CfMoney`` and, at a match score, its live-cube
    ``Cl2CfMatch`` on bgsage's match equity table (:func:`cl2cf_at` for many calls)."""
    return cl2cf_at(ctx)(probs, x)


def _batch_item(position: Position, ctx: MatchContext) -> dict[str, Any]:
    item: dict[str, Any] = {
        "board": to_sage(position),
        "cube_value": ctx.cube_value,
        "cube_owner": _OWNER[ctx.cube_owner],
    }
    if ctx.match_length:
        away = ctx.away()
        item.update(away1=away[0], away2=away[1], is_crawford=ctx.crawford)
    return item


_ROLLS21 = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


def best_play_equities(position: Position, ctx: MatchContext | None) -> dict[Dice, float]:
    """The :func:`equity` of the best play of the player on roll with each of the 21 rolls
    (keys ``(a, b)`` with ``a <= b``), at 1-ply: what luck is measured with.

    bgsage's own candidates are ranked, without the engine's legal plays (this is about a third
    faster): where its move generator differs from the rules (the unchanged board when no move
    exists; bearing the last checker off with one die) the result is a position that a legal
    play also reaches (the unchanged position; every checker off), so the best value is the
    same. A finished game gets its exact chances.
    """
    analyzer = _analyzer(1)
    board = to_sage(position)
    out: dict[Dice, float] = {}
    with analyzer.lock:
        for d1, d2 in _ROLLS21:
            best = -1e9
            for m in analyzer.sage.checker_play(board, d1, d2).moves:
                after = list(m.board)
                probs = _probs(m.probs)
                if all(v <= 0 for v in after[1:]):  # every checker of the mover is off
                    final = final_probs(Position.from_board([-after[0], *after[1:]]))
                    probs = final if final is not None else probs
                best = max(best, _board_equity(after, probs, ctx))
            out[(d1, d2)] = best
    return out


def rollout_moves(position: Position) -> dict[Dice, tuple[Position, Probs]]:
    """For each of the 21 rolls (keys ``(a, b)``, ``a <= b``), the best play of the player on
    roll at 1-ply by cubeless equity: the position after it, seen by the opponent (now on roll),
    and the mover's cubeless chances there (exact when he has just borne off his last checker).
    What a rollout plays and measures luck with (:mod:`engine.analysis.rollout`); see
    :func:`best_play_equities` for why bgsage's own candidates are enough."""
    analyzer = _analyzer(1)
    board = to_sage(position)
    out: dict[Dice, tuple[Position, Probs]] = {}
    ranking = _ranking(position)
    with analyzer.lock:
        for d1, d2 in _ROLLS21:
            out[(d1, d2)] = _best_move(analyzer, board, position, d1, d2, ranking)
    return out


def rollout_move(position: Position, dice: Dice) -> tuple[Position, Probs]:
    """:func:`rollout_moves` for one roll only (a rollout without variance reduction)."""
    analyzer = _analyzer(1)
    d1, d2 = min(dice), max(dice)
    with analyzer.lock:
        return _best_move(analyzer, to_sage(position), position, d1, d2, _ranking(position))


def _best_move(
    analyzer: _Analyzer,
    board: list[int],
    position: Position,
    d1: int,
    d2: int,
    ranking: _PossibleRanking | None,
) -> tuple[Position, Probs]:
    """The best of bgsage's candidates by cubeless equity without the gammons and backgammons
    the position rules out (see :mod:`engine.bots.possible`; bgsage's own ranking where no play
    can rule one out), a play that ends the game worth its exact result; the chosen play's
    chances are its :func:`~engine.bots.possible.possible_probs`."""
    moves = analyzer.sage.checker_play(board, d1, d2).moves
    if ranking is not None and ranking.may_end:
        for m in moves:  # a play that ends the game is the best, worth its exact result
            if all(v <= 0 for v in m.board[1:]):
                after = [-m.board[0], *m.board[1:]]
                final = final_probs(Position.from_board(after))
                if final is not None:
                    return Position.from_board(after).swap_players(), final
    if ranking is not None:
        best = max(moves, key=ranking)
    else:
        best = max(moves, key=lambda m: float(m.cubeless_equity))
    after = [-best.board[0], *best.board[1:]]  # the engine's layout, the mover's view
    probs = possible_probs(after, _probs(best.probs), position.checkers)
    return Position.from_board(after).swap_players(), probs


def _bears_off_now(position: Position) -> bool:
    """Whether the mover may bear a checker off with this roll: his checkers need at most 24
    pips to be home."""
    b = position.board
    return 19 * b[25] + sum((p - 6) * b[p] for p in range(7, 25) if b[p] > 0) <= 24


def _ranking(position: Position) -> _PossibleRanking | None:
    """How to rank the plays from ``position``: None (bgsage's own ranking) unless a play may
    reach a position where a gammon or a backgammon is impossible (a side has borne off or the
    mover may now, or it is a race)."""
    if position.borne_off() != (0, 0) or position.is_race() or _bears_off_now(position):
        return _PossibleRanking(position)
    return None


class _PossibleRanking:
    """The key that ranks bgsage's candidates from ``position`` by their cubeless equity less
    the impossible gammons and backgammons (the rules of :mod:`engine.bots.possible` that the
    play can change, checked once per position where they cannot)."""

    def __init__(self, position: Position) -> None:
        mine_off, theirs_off = position.borne_off()
        self.race = position.is_race()
        self.no_win_gammon = theirs_off > 0
        self.no_win_backgammon = self.race and not any(v < 0 for v in position.board[:7])
        self.lost_no_gammon = mine_off > 0
        self.may_end = _bears_off_now(position)
        self.may_bear_off = mine_off == 0 and self.may_end
        self.checkers = position.checkers

    def __call__(self, m: Any) -> float:
        p = m.probs
        value = float(m.cubeless_equity)
        if self.no_win_gammon:
            value -= float(p.gammon_win) + float(p.backgammon_win)
        elif self.no_win_backgammon:
            value -= float(p.backgammon_win)
        lg, lb = float(p.gammon_loss), float(p.backgammon_loss)
        if lg or lb:
            board = m.board
            if self.lost_no_gammon or (self.may_bear_off and self._borne_off(board)):
                value += lg + lb
            elif self.race and not any(v > 0 for v in board[19:]):
                value += lb
        return value

    def _borne_off(self, board: Sequence[int]) -> bool:
        return sum(v for v in board[1:] if v > 0) < self.checkers


def rollout_probs(position: Position) -> Probs:
    """The cubeless chances of the player on roll before his roll, at 1-ply (the network on the
    position, seen as the opponent's position after his play)."""
    analyzer = _analyzer(1)
    with analyzer.lock:
        r = analyzer.sage.post_move_analytics(to_sage(position.swap_players()))
    w, wg, wb, lg, lb = _probs(r.probs)
    return possible_probs(position.board, (1.0 - w, lg, lb, wg, wb), position.checkers)


def screen_cube(items: Sequence[tuple[Position, MatchContext]], ply: int) -> list[CubeEquities]:
    """Cheap cube equities for many positions at once (player on roll, before his roll):
    Janowski's interpolation on bgsage's cubeless chances at depth ``ply`` (what its
    ``batch_evaluate`` gives), about twenty times cheaper than :func:`cube_equities`' cubeful
    search. They agree closely near the doubling window and can be off by a few tenths far from
    it, so they serve to find the positions that are far from any cube decision."""
    out: list[CubeEquities | None] = [None] * len(items)
    for jacoby in (False, True):
        index = [k for k, (_, ctx) in enumerate(items) if bool(ctx.jacoby) is jacoby]
        if not index:
            continue
        group = [items[k] for k in index]
        if ply < 2:
            results = bgsage.batch_evaluate(
                [_batch_item(*item) for item in group],
                eval_level=f"{ply}ply",
                jacoby=jacoby,
                beaver=False,
            )
            cubes = [_cube(r.equity_nd, r.equity_dt, r.equity_dp) for r in results]
        else:
            cubes = _screen_batch(group, ply, jacoby)
        for k, cube in zip(index, cubes, strict=True):
            out[k] = cube
    return [c for c in out if c is not None]


def _screen_batch(
    items: Sequence[tuple[Position, MatchContext]], ply: int, jacoby: bool
) -> list[CubeEquities]:
    """``bgsage.batch_evaluate`` at ``ply`` (2 or more) on strategies kept between calls: the
    function builds a new one, its 24 networks read from their files, at every call (about 42
    ms of CPU, where a position at 2 plies takes 5), which the computer's screen of each double
    paid."""
    match = any(ctx.match_length for _, ctx in items)  # as batch_evaluate: a match in the batch
    positions = []
    for position, ctx in items:
        item = _batch_item(position, ctx)
        owner = bgsage_analyzer.resolve_owner(item["cube_owner"])
        extra = (item["away1"], item["away2"], item["is_crawford"]) if "away1" in item else ()
        positions.append((item["board"], item["cube_value"], owner, *extra))
    with _screen_strategy(ply) as strategy:
        raw = bgbot_cpp.batch_evaluate_positions(
            positions, strategy, 0, jacoby=jacoby and not match, beaver=False
        )
    return [_cube(r["equity_nd"], r["equity_dt"], r["equity_dp"]) for r in raw]


def _cube(nd: Any, dt: Any, dp: Any) -> CubeEquities:
    return CubeEquities(float(nd), float(dt), float(dp))


# Idle screen strategies by depth. A strategy's position cache is not to be shared between
# threads, and one strategy behind a lock made a world-class double (a position) wait for a
# review's screen of a whole game when both ran in one process (the terminal).
_idle_screens: dict[int, list[Any]] = {}
_idle_lock = threading.Lock()


@contextlib.contextmanager
def _screen_strategy(ply: int) -> Iterator[Any]:
    """An n-ply strategy for this thread alone while it screens: an idle one, or a new one
    when every one is in use (so a process holds as many as it ever screened with at once:
    one, where each worker process does one thing at a time)."""
    with _idle_lock:
        idle = _idle_screens.setdefault(ply, [])
        strategy = idle.pop() if idle else None
    if strategy is None:
        strategy = _new_screen_strategy(ply)
    try:
        yield strategy
    finally:
        with _idle_lock:
            _idle_screens[ply].append(strategy)


def _new_screen_strategy(ply: int) -> Any:
    """The n-ply strategy ``bgsage.batch_evaluate`` builds for ``ply`` (its default networks,
    filter and threads): about 42 ms of CPU, its 24 networks read from their files."""
    weights = bgsage_analyzer.default_weights()
    settings = {
        "n_plies": ply,
        "filter_max_moves": 5,
        "filter_threshold": 0.08,
        "parallel_evaluate": False,
        "parallel_threads": 0,
    }
    if isinstance(weights, bgsage_analyzer.WeightConfigPair):
        paths, hiddens = weights.weight_args
        kind = getattr(weights, "strategy_type", "pair")
        return bgbot_cpp.create_multipy(kind, paths, hiddens, **settings)
    return bgbot_cpp.create_multipy_5nn(*weights.weight_args, **settings)


def cube_equities(position: Position, ctx: MatchContext, ply: int) -> CubeEquities:
    """bgsage's cube analysis of ``position`` for the player on roll (player 0 of ``ctx``)."""
    return cube_analysis(position, ctx, ply)[0]


CubeRunner = Callable[..., Any]
"""Runs ``fn(position, ctx, ply)`` somewhere and returns its result (:func:`run_cube_with`)."""

_cube_runner: CubeRunner | None = None


def run_cube_with(runner: CubeRunner | None) -> None:
    """Make :func:`cube_analysis` hand its search to ``runner`` (None: run it in the calling
    thread, the default), called as ``runner(fn, position, ctx, ply)`` with a module-level
    ``fn``, so that the runner may send it to another process.

    Why: bgsage's cube decision rebuilds its networks from their files at every call (about
    40 ms of a 50 to 90 ms decision) while holding the GIL, which it releases only for the
    search itself; in a process serving many players every other thread, the event loop
    included, stops for that long. The bot runs these searches in a worker process of their
    own (``bot.heavy``); the engine only knows it is handed a function to call.
    """
    global _cube_runner
    _cube_runner = runner


def cube_analysis(position: Position, ctx: MatchContext, ply: int) -> tuple[CubeEquities, Probs]:
    """:func:`cube_equities` and the roller's cubeless chances before his roll, at depth ``ply``
    (one bgsage call gives both), where :func:`run_cube_with` says."""
    runner = _cube_runner
    if runner is None:
        return search_cube(position, ctx, ply)
    result: tuple[CubeEquities, Probs] = runner(search_cube, position, ctx, ply)
    return result


SCREEN_PLY = 2
"""The depth of the cheap screen before a deeper search of a double (:func:`double_analysis`)."""


def double_analysis(position: Position, ctx: MatchContext, ply: int) -> CubeEquities | None:
    """:func:`cube_equities` at depth ``ply`` to decide whether to double, or None when a cheap
    screen (:func:`screen_cube` at :data:`SCREEN_PLY`) finds the player on roll far from any
    cube decision (:func:`~engine.bots.decisions.far_from_doubling`), where :func:`run_cube_with`
    says. Deeper than the screen, most decisions end there: a 3-ply search costs about four
    times a 2-ply screen, and most rolls of a game are far from doubling."""
    runner = _cube_runner
    if runner is None:
        return screened_cube(position, ctx, ply)
    result: CubeEquities | None = runner(screened_cube, position, ctx, ply)
    return result


def screened_cube(position: Position, ctx: MatchContext, ply: int) -> CubeEquities | None:
    """:func:`double_analysis` in the calling thread (what a runner calls). A bear-off is not
    screened: the search reads its exact chances in bgsage's bearoff database, the screen has
    only the networks' estimates, which can be far off there (gammons)."""
    if (
        ply > SCREEN_PLY
        and not _in_bearoff_database(position)
        and far_from_doubling(screen_cube([(position, ctx)], SCREEN_PLY)[0])
    ):
        return None
    return search_cube(position, ctx, ply)[0]


def _in_bearoff_database(position: Position) -> bool:
    db = _bearoff()
    return db is not None and bool(db.is_bearoff(to_sage(position)))


def search_cube(position: Position, ctx: MatchContext, ply: int) -> tuple[CubeEquities, Probs]:
    """:func:`cube_analysis` in the calling thread (what a runner calls).

    bgsage's own cube search (the one its analyzer's ``cube_action`` makes, with the same
    arguments: its default networks, bearoff database and threads), called without building an
    analyzer: the search loads its networks itself at every call, so a process that only
    decides cubes needs no analyzer's copy of them (about 40 MB a depth). The tests hold it
    equal to ``cube_action``'s answer."""
    board = to_sage(position)
    away = ctx.away()
    match = away[0] > 0 or away[1] > 0
    owner = getattr(bgbot_cpp.CubeOwner, _OWNER[ctx.cube_owner].upper())
    with _cube_lock:  # one search at a time, as under the analyzer's lock before
        r = bgbot_cpp.cube_decision_nply_unified(
            board,
            ctx.cube_value,
            owner,
            ply,
            *_cube_networks(),
            n_threads=_search_threads(),
            away1=away[0],
            away2=away[1],
            is_crawford=ctx.crawford,
            jacoby=ctx.jacoby and not match,  # as cube_action: no Jacoby rule in a match
            beaver=False,  # the bot's games have no beavers
            bearoff_db=_bearoff(),
        )
    cube = _cube(r["equity_nd"], r["equity_dt"], r["equity_dp"])
    # Through bgsage's Probabilities, as cube_action: it keeps each share within the one above
    # it (the search can return backgammons above gammons in a bear-off).
    return cube, _probs(bgsage.types.Probabilities.from_list(list(r["probs"])))


_cube_lock = threading.Lock()


@functools.cache
def _cube_networks() -> tuple[str, list[str], list[int]]:
    """bgsage's default networks, as its analyzer passes them to a cube search."""
    weights = bgsage_analyzer.default_weights()
    return weights.strategy_type, weights.weight_paths_list, weights.hidden_sizes_list


@functools.cache
def _bearoff() -> Any:
    """bgsage's bearoff database, loaded once (None where it cannot be, as its analyzer)."""
    path = bgsage_analyzer.bearoff_db_path()
    db = bgbot_cpp.BearoffDB()
    return db if path and db.load(path) else None


def _search_threads() -> int:
    """The threads bgsage's analyzer gives a search of 2 plies or more."""
    default = getattr(bgsage_analyzer, "_default_parallel_threads", None)
    return max(2, default() if default is not None else 2)


def match_equity(away0: int, away1: int, *, post_crawford: bool) -> float:
    """bgsage's match winning chance for the side ``away0`` points away at the start of a game.

    ``post_crawford`` matters only when a side is 1-away: False for the Crawford game (the first
    game at that score), True for the games after it.
    """
    if away0 <= 0:
        return 1.0
    if away1 <= 0:
        return 0.0
    return float(bgbot_cpp.get_met(away0, away1, post_crawford))

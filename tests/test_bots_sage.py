"""The bgsage adapter: board convention, cube and score conversions, match equities."""

from __future__ import annotations

import random
import threading

import pytest

from engine import Position, legal_plays
from engine.bots import backend
from engine.bots.decisions import CubeEquities, far_from_doubling, to_match_equity
from engine.context import MatchContext
from tests.conftest import load_corpus

if backend() != "bgsage":
    pytest.skip("bgsage is not installed", allow_module_level=True)

import bgbot_cpp
import bgsage

from engine.bots import sage

CORPUS = load_corpus()


def _sample(n: int, seed: int = 1) -> list[tuple[Position, tuple[int, int]]]:
    rng = random.Random(seed)
    cases = rng.sample([c for c in CORPUS if c["kind"] != "synthetic"], n)
    return [(Position.from_position_id(str(c["position_id"])), tuple(c["dice"])) for c in cases]  # type: ignore[misc]


def test_board_convention_agrees_with_bgsage() -> None:
    # bgsage flips boards its way; our swap must match once index 0 is converted.
    for pos, _ in _sample(200):
        assert bgbot_cpp.flip_board(sage.to_sage(pos)) == sage.to_sage(pos.swap_players())


def test_bgsage_candidates_cover_every_legal_play() -> None:
    # With the conversion, every legal result is one of bgsage's candidates (bgsage may offer
    # more, never fewer, on this corpus).
    for case in CORPUS:
        pos = Position.from_position_id(str(case["position_id"]))
        d1, d2 = case["dice"]  # type: ignore[misc]
        ours = {
            tuple(sage.to_sage(p.result_position().swap_players()))
            for p in legal_plays(pos, (d1, d2))
        }
        theirs = {tuple(b) for b in bgbot_cpp.possible_moves(sage.to_sage(pos), d1, d2)}
        assert ours <= theirs, case["position_id"]


CONTEXTS = [
    MatchContext(),
    MatchContext(jacoby=True),
    MatchContext(cube_value=2, cube_owner=0),
    MatchContext(cube_value=4, cube_owner=1),
    MatchContext(match_length=7, score=(2, 4)),
    MatchContext(match_length=5, score=(3, 1), cube_value=2, cube_owner=1),
    MatchContext(match_length=7, score=(6, 3), crawford=True),
]


@pytest.mark.parametrize("ctx", CONTEXTS, ids=str)
def test_cubeful_equities_match_bgsage_at_one_ply(ctx: MatchContext) -> None:
    # Our conversion of cubeless chances must reproduce bgsage's own cubeful 1-ply ranking.
    cubeful = bgsage.BgBotAnalyzer(eval_level="1ply", cubeful=True)
    owner = {None: "centered", 0: "player", 1: "opponent"}[ctx.cube_owner]
    away = ctx.away()
    compared = 0
    for pos, dice in _sample(25, seed=2):
        plays = legal_plays(pos, dice)
        ours = {
            tuple(sage.to_sage(after)): sage.equity(after, probs, ctx)
            for after, probs in sage.evaluate_plays(pos, dice, plays, 1)
        }
        theirs = cubeful.checker_play(
            sage.to_sage(pos),
            *dice,
            cube_value=ctx.cube_value,
            cube_owner=owner,
            away1=away[0],
            away2=away[1],
            is_crawford=ctx.crawford,
            jacoby=ctx.jacoby,
        )
        for move in theirs.moves:
            p = move.probs
            chances = (p.win, p.gammon_win, p.backgammon_win, p.gammon_loss, p.backgammon_loss)
            # bgsage sometimes reports chances (from its bear-off database) that are not the
            # ones its equity came from; compare only where the two agree.
            consistent = sage.equity(pos, chances, None) == pytest.approx(move.cubeless_equity)
            if tuple(move.board) in ours and consistent:
                assert ours[tuple(move.board)] == pytest.approx(move.equity, abs=1e-5)
                compared += 1
    assert compared > 100


def test_cubeless_equity_is_bgsage_cubeless_equity() -> None:
    pos, dice = Position.initial(), (5, 3)
    plays = legal_plays(pos, dice)
    ranked = bgsage.BgBotAnalyzer(eval_level="1ply", cubeful=False).checker_play(
        sage.to_sage(pos), *dice
    )
    by_board = {tuple(m.board): m.equity for m in ranked.moves}
    for after, probs in sage.evaluate_plays(pos, dice, plays, 1):
        assert sage.equity(after, probs, None) == pytest.approx(
            by_board[tuple(sage.to_sage(after))]
        )


def test_match_equity_flag_means_post_crawford() -> None:
    # 1-away against 2-away: about 68% in the Crawford game, about 51% after it (free drop).
    assert sage.match_equity(1, 2, post_crawford=False) == pytest.approx(0.68, abs=0.01)
    assert sage.match_equity(1, 2, post_crawford=True) == pytest.approx(0.51, abs=0.01)
    assert sage.match_equity(0, 3, post_crawford=False) == 1.0
    assert sage.match_equity(3, 0, post_crawford=False) == 0.0


@pytest.mark.parametrize(
    "ctx",
    [
        MatchContext(match_length=7, score=(2, 4)),
        MatchContext(match_length=5, score=(3, 1), cube_value=2),
        MatchContext(match_length=9, score=(0, 0)),
        MatchContext(match_length=7, score=(6, 3), crawford=True),
        MatchContext(match_length=7, score=(3, 6)),  # post-Crawford
    ],
    ids=str,
)
def test_normalised_equity_to_match_chances_like_bgsage(ctx: MatchContext) -> None:
    away = ctx.away()
    post_crawford = 1 in away and not ctx.crawford
    for eq in (-1.0, -0.4, 0.0, 0.3, 1.0, 1.5):
        # bgsage's eq2mwc takes "is_crawford" as post-Crawford at a 1-away score.
        theirs = bgbot_cpp.eq2mwc(eq, away[0], away[1], ctx.cube_value, post_crawford)
        assert to_match_equity(eq, ctx, sage.match_equity) == pytest.approx(
            min(1.0, max(0.0, theirs)), abs=2e-3
        )


def test_reference_equities_grade_the_best_play_zero() -> None:
    pos, dice = Position.initial(), (6, 4)
    plays = legal_plays(pos, dice)
    best, equities = sage.reference_equities(pos, dice, plays, 2)
    assert max(equities) == pytest.approx(best)
    assert min(equities) < best - 0.05  # some plays are clear mistakes


def test_evaluation_of_a_finished_game_is_exact() -> None:
    # Bearing off the last checker: chances are certain, a backgammon is worth 3.
    board = [0] * 26
    board[6], board[4], board[20] = 1, -1, -14
    pos = Position.from_board(board)
    plays = legal_plays(pos, (6, 2))
    [(after, probs)] = sage.evaluate_plays(pos, (6, 2), plays, 1)
    assert probs == (1.0, 1.0, 1.0, 0.0, 0.0)
    assert sage.equity(after, probs, None) == 3.0


def test_the_cubeful_analyzer_shares_the_cubeless_search() -> None:
    # One copy of the networks per depth: the cubeful analyzer wraps the cubeless one's search,
    # under the same lock, and gives what an analyzer of its own gives, calls interleaved.
    plain, cubeful = sage._analyzer(2), sage._analyzer(2, True)
    assert cubeful.lock is plain.lock
    inner = plain.sage._analyzer
    assert cubeful.sage._analyzer._inner is inner
    own = {c: bgsage.BgBotAnalyzer(eval_level="2ply", cubeful=c) for c in (False, True)}
    ctx = MatchContext(match_length=5, score=(1, 2), cube_value=2, cube_owner=0)
    for pos, dice in _sample(6, seed=3):
        board = sage.to_sage(pos)
        for c, shared in ((True, cubeful), (False, plain), (True, cubeful)):
            cube = sage._cube_arguments(ctx) if c else {}
            score = {"away1": 4, "away2": 3}
            with shared.lock:
                got = shared.sage.checker_play(board, *dice, **cube)
                action = shared.sage.cube_action(board, 2, "player", **score)
            want = own[c].checker_play(board, *dice, **cube)
            assert [(m.board, m.equity) for m in got.moves] == [
                (m.board, m.equity) for m in want.moves
            ]
            assert action.equity_nd == own[c].cube_action(board, 2, "player", **score).equity_nd


class _Strategy:
    """A stand-in for bgsage's n-ply strategy: a cache of ``size`` entries, its clears counted."""

    def __init__(self, size: int) -> None:
        self.size, self.clears = size, 0

    def cache_size(self) -> int:
        return self.size

    def clear_cache(self) -> None:
        self.clears += 1
        self.size = 0

    def n_plies(self) -> int:
        return 3


def test_an_empty_position_cache_is_not_cleared_again() -> None:
    # bgsage clears the cache after every search, about 4 ms with the GIL held even when it is
    # empty: the wrapper passes a clear on only when something is cached.
    empty, filled = _Strategy(0), _Strategy(12)
    for strategy in (empty, filled):
        wrapped = sage._ClearOnlyWhenFilled(strategy)
        wrapped.clear_cache()
        wrapped.clear_cache()
        assert wrapped.n_plies() == 3  # everything else is the strategy's own
    assert (empty.clears, filled.clears, filled.size) == (0, 1, 0)


@pytest.mark.parametrize("ply", [2, 3])
def test_the_shared_search_clears_only_a_filled_cache_and_plays_the_same(ply: int) -> None:
    # The analyzers' search is wrapped once (the cubeful twin shares it) and finds what a fresh
    # bgsage analyzer finds, calls interleaved with cube actions (which fill and clear the cache).
    plain, cubeful = sage._analyzer(ply), sage._analyzer(ply, True)
    strategy = plain.sage._analyzer._strategy_nply
    assert isinstance(strategy, sage._ClearOnlyWhenFilled)
    assert cubeful.sage._analyzer._inner._strategy_nply is strategy
    own = bgsage.BgBotAnalyzer(eval_level=f"{ply}ply", cubeful=False)
    bear_off = Position.from_position_id("2wAAAAAAAAAAAA")  # where bgsage saw stale values
    for pos, dice in [*_sample(4, seed=10 + ply), (bear_off, (6, 1)), (bear_off, (2, 1))]:
        board = sage.to_sage(pos)
        with plain.lock:
            got = plain.sage.checker_play(board, *dice)
            action = plain.sage.cube_action(board, 1, "centered")
        assert [(m.board, m.equity) for m in got.moves] == [
            (m.board, m.equity) for m in own.checker_play(board, *dice).moves
        ]
        assert action.equity_nd == own.cube_action(board, 1, "centered").equity_nd


@pytest.mark.parametrize("ply", [2, 3])
def test_cube_search_gives_the_analyzers_answer(ply: int) -> None:
    # search_cube calls bgsage's cube search without an analyzer (the cube process holds none):
    # the same equities and chances as the analyzer's cube_action, money and match, every cube
    # state; a bearoff position too (bgsage's bearoff database).
    positions = [pos for pos, _ in _sample(5, seed=ply)]
    positions.append(Position.from_position_id("2wAAAAAAAAAAAA"))  # both sides bearing off
    analyzer = sage._analyzer(ply).sage
    for pos in positions:
        for ctx in CONTEXTS:
            away = ctx.away()
            r = analyzer.cube_action(
                sage.to_sage(pos),
                ctx.cube_value,
                sage._OWNER[ctx.cube_owner],
                away1=away[0],
                away2=away[1],
                is_crawford=ctx.crawford,
                jacoby=ctx.jacoby,
                beaver=False,
            )
            cube, probs = sage.search_cube(pos, ctx, ply)
            assert (cube.no_double, cube.double_take, cube.double_pass) == (
                r.equity_nd,
                r.equity_dt,
                r.equity_dp,
            ), (pos.position_id(), ctx)
            assert probs == sage._probs(r.probs)


def test_the_screen_gives_bgsages_batch_evaluation() -> None:
    # screen_cube keeps one strategy per depth instead of bgsage.batch_evaluate's new one per
    # call: the same equities, money (with and without the Jacoby rule) and match play, in one
    # mixed batch and one position at a time, twice (the kept strategy is not changed by use).
    items = [(pos, ctx) for (pos, _), ctx in zip(_sample(7, seed=5), CONTEXTS, strict=True)]
    want = []
    for jacoby in (False, True):
        group = [(k, item) for k, item in enumerate(items) if bool(item[1].jacoby) is jacoby]
        results = bgsage.batch_evaluate(
            [sage._batch_item(*item) for _, item in group],
            eval_level="2ply",
            jacoby=jacoby,
            beaver=False,
        )
        pairs = zip(group, results, strict=True)
        want += [(k, (r.equity_nd, r.equity_dt, r.equity_dp)) for (k, _), r in pairs]
    expected = [cube for _, cube in sorted(want)]
    for _ in range(2):
        assert [_triple(c) for c in sage.screen_cube(items, 2)] == expected
    alone = [_triple(sage.screen_cube([item], 2)[0]) for item in items[:3]]
    assert alone == expected[:3]


def _triple(cube: CubeEquities) -> tuple[float, float, float]:
    return (cube.no_double, cube.double_take, cube.double_pass)


def test_a_screen_does_not_wait_for_another_threads_screen() -> None:
    """In one process (the terminal) a world-class double's screen of one position went behind
    a review's screen of a whole game, on one strategy behind a lock. Each thread now screens
    on a strategy of its own while it screens, and strategies are kept for the next."""
    item = (_sample(1, seed=3)[0][0], MatchContext())
    expected = _triple(sage.screen_cube([item], 2)[0])
    with sage._screen_strategy(2) as held:  # another thread's screen, in progress
        answers: list[tuple[float, float, float]] = []
        thread = threading.Thread(
            target=lambda: answers.append(_triple(sage.screen_cube([item], 2)[0]))
        )
        thread.start()
        thread.join(120)  # a guard against a hang only: it ends as soon as its screen is done
        assert answers == [expected]
    kept = list(sage._idle_screens[2])
    assert len(kept) >= 2 and any(s is held for s in kept)
    with sage._screen_strategy(2) as again:  # an idle one, not a new one
        assert any(s is again for s in kept)


def test_a_bear_off_is_searched_even_where_the_screen_is_far() -> None:
    # In bgsage's bearoff database the search has exact chances, the screen only the networks'.
    far = Position.from_position_id("EAAAwB0AAAAAAA")  # the mover trails in a bear-off
    ctx = MatchContext()
    assert sage._in_bearoff_database(far)
    assert far_from_doubling(sage.screen_cube([(far, ctx)], 2)[0])
    assert sage.screened_cube(far, ctx, 3) == sage.search_cube(far, ctx, 3)[0]
    contact = _sample(1, seed=2)[0][0]
    assert not sage._in_bearoff_database(contact)


def test_cube_analysis_runs_where_the_runner_says() -> None:
    calls = []

    def runner(fn, position, ctx, ply):  # type: ignore[no-untyped-def]
        calls.append((fn, position, ctx, ply))
        return fn(position, ctx, ply)

    pos = Position.initial()
    direct = sage.cube_analysis(pos, MatchContext(), 2)
    sage.run_cube_with(runner)
    try:
        assert sage.cube_analysis(pos, MatchContext(), 2) == direct
    finally:
        sage.run_cube_with(None)
    assert calls == [(sage.search_cube, pos, MatchContext(), 2)]
    sage.cube_analysis(pos, MatchContext(), 2)
    assert len(calls) == 1  # back in the calling thread

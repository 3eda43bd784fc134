"""Standings: hand-checked tables, and the tie-break orders and arena sums on random results."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    MatchResult,
    WinType,
    arena_points,
    arena_standings,
    round_robin_schedule,
    round_robin_standings,
    swiss_standings,
)

FAST = settings(max_examples=60, deadline=None)
R = MatchResult


def test_swiss_hand_checked_buchholz_and_sonneborn_berger() -> None:
    # Three rounds of six players. Scores: 3 won all three; 2 and 5 two; 1 and 4 one; 6 none.
    results = [
        R(1, 4), R(5, 2), R(3, 6),  # round 1
        R(3, 1), R(4, 5), R(2, 6),  # round 2
        R(3, 4), R(2, 1), R(5, 6),  # round 3
    ]  # fmt: skip
    rows = swiss_standings([1, 2, 3, 4, 5, 6], results)
    got = [(r.player, r.score, r.buchholz, r.sonneborn_berger) for r in rows]
    assert got == [
        (3, 3, 2, 2),  # opponents 6 (0), 1 (1), 4 (1); all beaten
        (5, 2, 3, 2),  # opponents 2 (2), 4 (1), 6 (0); beat 2 and 6: SB 2
        (2, 2, 3, 1),  # opponents 5 (2), 6 (0), 1 (1); beat 6 and 1: SB 1, below 5
        (4, 1, 6, 2),  # opponents 1 (1), 5 (2), 3 (3); beat 5: SB 2
        (1, 1, 6, 1),  # opponents 4 (1), 3 (3), 2 (2); beat 4: SB 1, below 4
        (6, 0, 7, 0),
    ]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]


def test_swiss_bye_scores_a_win_and_adds_nothing_to_buchholz() -> None:
    rows = swiss_standings([1, 2, 3], [R(1, 2)], byes=[3])
    by_player = {r.player: r for r in rows}
    assert (by_player[3].score, by_player[3].buchholz, by_player[3].byes) == (1, 0, 1)
    assert (by_player[1].score, by_player[1].buchholz) == (1, 0)
    assert [r.player for r in rows] == [1, 3, 2]  # 1 and 3 tie on everything: seed order
    with pytest.raises(ValueError, match="not in the tournament"):
        swiss_standings([1, 2], [], byes=[9])


def test_round_robin_head_to_head_breaks_a_tie_on_wins_and_difference() -> None:
    results = [
        R(2, 1, 5, 4), R(1, 3, 5, 4), R(1, 4, 5, 2),
        R(3, 2, 5, 4), R(2, 4, 5, 2), R(4, 3, 5, 0),
    ]  # fmt: skip
    rows = round_robin_standings([1, 2, 3, 4], results)
    # 1 and 2: two wins, +3 and 14 points each; 2 beat 1, so 2 is first despite the seeding
    assert [(r.player, r.wins, r.difference, r.head_to_head) for r in rows] == [
        (2, 2, 3, 1),
        (1, 2, 3, 0),
        (4, 1, -1, 0),
        (3, 1, -5, 0),
    ]
    assert all(r.played == 3 and r.losses == 3 - r.wins for r in rows)


def test_arena_streak_doubles_wins_until_a_loss() -> None:
    g, b = WinType.GAMMON, WinType.BACKGAMMON
    results = [
        R(1, 2),
        R(1, 3),  # 2 + 2: now on fire
        R(1, 2, win_type=g),
        R(1, 3, win_type=b),  # 6 + 8
        R(2, 1),  # the fire goes out
        R(1, 3),  # 2
    ]
    rows = {r.player: r for r in arena_standings([1, 2, 3], results)}
    assert rows[1].points == 2 + 2 + 6 + 8 + 0 + 2
    assert (rows[1].wins, rows[1].played, rows[1].streak, rows[1].best_streak) == (5, 6, 1, 4)
    assert rows[2].points == 2 and not rows[2].on_fire


def test_arena_performance_breaks_a_tie_on_points() -> None:
    ratings = {1: 1500.0, 2: 1500.0, 3: 1900.0, 4: 1100.0}
    rows = arena_standings([1, 2, 3, 4], [R(2, 4), R(1, 3)], ratings)
    # 1 and 2 both have 2 points; 1 beat a 1900 player (2300), 2 a 1100 one (1500)
    assert [(r.player, r.points, r.performance) for r in rows][:2] == [(1, 2, 2300), (2, 2, 1500)]


# -- properties ---------------------------------------------------------------------------

results_of = st.lists(
    st.tuples(
        st.integers(min_value=1, max_value=8),
        st.integers(min_value=1, max_value=8),
        st.sampled_from(list(WinType)),
        st.integers(min_value=0, max_value=6),
    ).filter(lambda t: t[0] != t[1]),
    max_size=60,
)


def _results(raw: list[tuple[int, int, WinType, int]]) -> list[MatchResult]:
    return [R(a, b, 7, lost, win_type=w) for a, b, w, lost in raw]


@FAST
@given(results_of)
def test_arena_points_add_up(raw: list[tuple[int, int, WinType, int]]) -> None:
    players = list(range(1, 9))
    results = _results(raw)
    # the rule said another way: a win counts double when the player's last two matches
    # were both wins
    history: dict[int, list[bool]] = defaultdict(list)
    expected = 0
    for r in results:
        base = {WinType.SINGLE: 2, WinType.GAMMON: 3, WinType.BACKGAMMON: 4}[r.win_type]
        last_two = history[r.winner][-2:]
        expected += 2 * base if last_two == [True, True] else base
        history[r.winner].append(True)
        history[r.loser].append(False)
    rows = arena_standings(players, results)
    assert sum(r.points for r in rows) == expected
    assert sum(r.wins for r in rows) == len(results)
    assert sum(r.played for r in rows) == 2 * len(results)
    for row in rows:
        assert 2 * row.wins <= row.points <= 8 * row.wins
    keys = [(r.points, r.performance, r.best_streak) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert arena_points(R(1, 2), wins_before=1) == 2


@FAST
@given(results_of, st.lists(st.integers(min_value=1, max_value=8), max_size=4))
def test_swiss_order_obeys_score_buchholz_sonneborn_berger(
    raw: list[tuple[int, int, WinType, int]], byes: list[int]
) -> None:
    players = list(range(1, 9))
    results = _results(raw)
    rows = swiss_standings(players, results, byes)
    score = {r.player: r.score for r in rows}
    for row in rows:
        mine = [r for r in results if row.player in r.players]
        assert row.score == sum(r.winner == row.player for r in mine) + byes.count(row.player)
        assert row.buchholz == sum(score[r.opponent(row.player)] for r in mine)
        assert row.sonneborn_berger == sum(score[r.loser] for r in mine if r.winner == row.player)
    keys = [(r.score, r.buchholz, r.sonneborn_berger) for r in rows]
    assert keys == sorted(keys, reverse=True)
    seed = {p: i for i, p in enumerate(players)}
    for a, b in itertools.pairwise(rows):
        if (a.score, a.buchholz, a.sonneborn_berger) == (b.score, b.buchholz, b.sonneborn_berger):
            assert seed[a.player] < seed[b.player]


@FAST
@given(st.integers(min_value=2, max_value=9), st.randoms())
def test_round_robin_order_obeys_wins_difference_head_to_head(n: int, rng: random.Random) -> None:
    players = list(range(1, n + 1))
    results = []
    for rnd in round_robin_schedule(players):
        for a, b in rnd.pairs:
            w, lo = (a, b) if rng.random() < 0.5 else (b, a)
            results.append(R(w, lo, 3, rng.randrange(3)))
    rows = round_robin_standings(players, results)
    assert all(r.played == n - 1 for r in rows)
    assert sum(r.wins for r in rows) == n * (n - 1) // 2
    assert sum(r.difference for r in rows) == 0
    keys = [(r.wins, r.difference, r.head_to_head, r.points_for) for r in rows]
    assert keys == sorted(keys, reverse=True)
    for row in rows:
        tied = {o.player for o in rows if (o.wins, o.difference) == (row.wins, row.difference)}
        beaten = [r for r in results if r.winner == row.player and r.loser in tied]
        assert row.head_to_head == len(beaten)


def test_results_are_checked() -> None:
    with pytest.raises(ValueError, match="cannot play himself"):
        R(1, 1)
    with pytest.raises(ValueError, match="more than the loser"):
        R(1, 2, 3, 5)
    with pytest.raises(ValueError, match="not in the tournament"):
        round_robin_standings([1, 2], [R(1, 3)])
    with pytest.raises(ValueError, match="did not play"):
        R(1, 2).opponent(3)

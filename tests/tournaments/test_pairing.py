"""Pairings: round robin schedules, Swiss rounds, arena pairings, knockout brackets.

Property tests generate tournaments and results with Hypothesis and check the invariants; where a
rule says "when avoidable", a brute-force search over every pairing says whether it was.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    Bracket,
    MatchResult,
    Round,
    arena_pairings,
    bracket_rounds,
    champion,
    pending_matches,
    round_robin_schedule,
    seed_at_random,
    seed_by_rating,
    swiss_round,
    swiss_standings,
)
from bot.tournaments.knockout import seed_order

FAST = settings(max_examples=60, deadline=None)


def _matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``players`` (an even count)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, partner in enumerate(rest):
        for tail in _matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, partner), *tail]


def _exists(players: list[int], sitters: Sequence[int | None], met: set[frozenset[int]]) -> bool:
    """Whether some sitter (or none) and a matching of the others avoid every pair in ``met``."""
    for out in sitters:
        rest = [p for p in players if p != out]
        for m in _matchings(rest):
            if all(frozenset(pair) not in met for pair in m):
                return True
    return False


def _check_round(rnd: Round, players: list[int]) -> None:
    seen = rnd.players()
    assert sorted(seen) == sorted(players), "every player once per round"
    assert (rnd.bye is not None) == (len(players) % 2 == 1)


# -- round robin ---------------------------------------------------------------------------


@FAST
@given(st.integers(min_value=2, max_value=24))
def test_round_robin_everybody_meets_everybody_exactly_once(n: int) -> None:
    players = list(range(100, 100 + n))
    rounds = round_robin_schedule(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for rnd in rounds:
        _check_round(rnd, players)
    pairs = Counter(frozenset(p) for r in rounds for p in r.pairs)
    assert set(pairs) == {frozenset(c) for c in itertools.combinations(players, 2)}
    assert set(pairs.values()) == {1}
    games = Counter(p for r in rounds for pair in r.pairs for p in pair)
    assert set(games.values()) == {n - 1}
    byes = Counter(r.bye for r in rounds if r.bye is not None)
    assert sorted(byes) == (players if n % 2 else [])
    assert set(byes.values()) <= {1}


def test_round_robin_refuses_too_few_or_repeated_players() -> None:
    with pytest.raises(ValueError, match="at least two"):
        round_robin_schedule([1])
    with pytest.raises(ValueError, match="twice"):
        round_robin_schedule([1, 2, 1])


# -- Swiss ---------------------------------------------------------------------------------


def _play_swiss(
    n: int, rounds: int, seed: int
) -> Iterator[tuple[Round, list[int], set[frozenset[int]], Counter[int]]]:
    """A Swiss of ``n`` players with random results; yields each round with the pairs met and
    the byes given before it."""
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    results: list[MatchResult] = []
    previous: list[Round] = []
    byes: Counter[int] = Counter()
    for _ in range(rounds):
        table = swiss_standings(players, results, byes.elements())
        ranking = [row.player for row in table]
        rnd = swiss_round(ranking, scores={r.player: r.score for r in table}, previous=previous)
        met = {frozenset(p) for r in previous for p in r.pairs}
        yield rnd, ranking, met, Counter(byes)
        previous.append(rnd)
        if rnd.bye is not None:
            byes[rnd.bye] += 1
        for a, b in rnd.pairs:
            results.append(MatchResult(a, b) if rng.random() < 0.5 else MatchResult(b, a))


@FAST
@given(st.integers(min_value=2, max_value=10), st.integers(min_value=1, max_value=10), st.randoms())
def test_swiss_avoids_repeats_and_second_byes_when_possible(
    n: int, rounds: int, rnd_source: random.Random
) -> None:
    players = list(range(1, n + 1))
    for rnd, ranking, met, byes in _play_swiss(n, rounds, rnd_source.randrange(10**6)):
        _check_round(rnd, players)
        repeats = [p for p in rnd.pairs if frozenset(p) in met]
        sitters: list[int | None] = list(players) if n % 2 else [None]
        fresh: list[int | None] = [p for p in players if not byes[p]] if n % 2 else [None]
        if repeats:
            assert not _exists(players, sitters, met), f"avoidable repeat {repeats}"
        elif rnd.bye is not None and byes[rnd.bye]:
            assert not _exists(players, fresh, met), f"avoidable second bye for {rnd.bye}"
        if rnd.bye is not None and not byes[rnd.bye]:
            # the bye goes to the lowest-ranked player without one, unless that forces a repeat
            below = [p for p in ranking[ranking.index(rnd.bye) + 1 :] if not byes[p]]
            assert repeats or not _exists(players, below, met), "bye not to the lowest"


@FAST
@given(st.integers(min_value=2, max_value=40))
def test_swiss_second_round_pairs_within_score_groups(half: int) -> None:
    n = 2 * half
    players = list(range(1, n + 1))
    results = [MatchResult(a, a + 1) for a in players[::2]]  # the odd numbers win
    previous = [Round(tuple((r.winner, r.loser) for r in results))]
    table = swiss_standings(players, results)
    score = {r.player: r.score for r in table}
    rnd = swiss_round([r.player for r in table], scores=score, previous=previous)
    _check_round(rnd, players)
    # winners meet winners and losers losers; an odd group of winners sends its lowest down
    cross = [p for p in rnd.pairs if score[p[0]] != score[p[1]]]
    assert len(cross) == half % 2
    first = {frozenset(p) for p in previous[0].pairs}
    assert not [p for p in rnd.pairs if frozenset(p) in first] or n == 2


def test_swiss_first_round_is_top_half_against_bottom_half() -> None:
    rnd = swiss_round(list(range(1, 9)), scores={}, previous=[])
    assert rnd.pairs == ((1, 5), (2, 6), (3, 7), (4, 8))


def test_swiss_bye_goes_to_the_lowest_without_one() -> None:
    first = swiss_round([1, 2, 3, 4, 5], scores={}, previous=[])
    assert first.bye == 5
    second = swiss_round([5, 1, 2, 3, 4], scores={5: 1, 1: 1, 2: 1}, previous=[first])
    assert second.bye == 4


def test_swiss_is_deterministic_and_fast_enough_on_256_players() -> None:
    runs = [list(_play_swiss(256, 6, seed=3)) for _ in range(2)]
    assert [r[0] for r in runs[0]] == [r[0] for r in runs[1]]
    for rnd, _ranking, met, _byes in runs[0]:
        assert not [p for p in rnd.pairs if frozenset(p) in met]


# -- arena ---------------------------------------------------------------------------------


@FAST
@given(
    st.lists(st.integers(min_value=1, max_value=40), min_size=0, max_size=9, unique=True),
    st.randoms(),
)
def test_arena_pairs_everybody_free_and_avoids_an_immediate_rematch(
    waiting: list[int], rng: random.Random
) -> None:
    last = {}
    shuffled = list(waiting)
    rng.shuffle(shuffled)
    for a, b in zip(shuffled[::2], shuffled[1::2], strict=False):
        if rng.random() < 0.7:
            last[a], last[b] = b, a
    points = {p: rng.choice([0, 2, 4, 6]) for p in waiting}
    rnd = arena_pairings(waiting, points=points, ratings={}, last_opponent=last)
    assert sorted(rnd.players()) == sorted(waiting)
    assert (rnd.bye is not None) == (len(waiting) % 2 == 1)
    met = {frozenset((a, b)) for a, b in last.items()}
    if any(frozenset(p) in met for p in rnd.pairs):
        sitters: list[int | None] = list(waiting) if len(waiting) % 2 else [None]
        assert not _exists(list(waiting), sitters, met)


def test_arena_pairs_by_points_then_rating() -> None:
    rnd = arena_pairings(
        [1, 2, 3, 4, 5],
        points={1: 2, 2: 8, 3: 4},
        ratings={4: 1700.0, 5: 1400.0, 1: 1500.0},
        last_opponent={},
    )
    # order: 2 (8), 3 (4), 1 (2, 1500), 4 (0, 1700), 5 (0, 1400); 5 arrived last and waits
    assert rnd == Round(((2, 3), (1, 4)), bye=5)


# -- knockout ------------------------------------------------------------------------------


@FAST
@given(st.integers(min_value=2, max_value=70), st.randoms(), st.booleans())
def test_knockout_has_n_minus_one_matches_and_one_champion(
    n: int, rng: random.Random, by_rating: bool
) -> None:
    players = list(range(1, n + 1))
    ratings = {p: rng.uniform(1000, 2000) for p in players}
    seeds = seed_by_rating(players, ratings) if by_rating else seed_at_random(players, rng)
    bracket = Bracket.seeded(seeds)
    size = bracket.size
    assert size // 2 < n <= size
    first = bracket_rounds(bracket, {})[0]
    bye_players = {m.winner for m in first if m.bye}
    assert bye_players == set(seeds[: size - n]), "the top seeds get the byes"
    winners: dict[tuple[int, int], int] = {}
    played = 0
    while champion(bracket, winners) is None:
        ready = pending_matches(bracket, winners)
        assert ready
        for m in ready:
            assert m.top is not None and m.bottom is not None
            winners[m.key] = rng.choice([m.top, m.bottom])
            played += 1
    assert played == n - 1
    losers = Counter(m.loser for r in bracket_rounds(bracket, winners) for m in r if m.loser)
    assert set(losers.values()) == {1}
    assert set(losers) | {champion(bracket, winners)} == set(players)


def test_seed_order_keeps_the_top_two_seeds_apart_until_the_final() -> None:
    for size in (2, 4, 8, 16, 32, 64):
        order = seed_order(size)
        assert sorted(order) == list(range(1, size + 1))
        # first round: seeds add up to size + 1 (1 v N, 2 v N-1, ...)
        assert {order[i] + order[i + 1] for i in range(0, size, 2)} == {size + 1}
        half = size // 2
        assert (1 in order[:half]) != (2 in order[:half])


def test_bracket_refuses_impossible_results() -> None:
    bracket = Bracket.seeded([1, 2, 3, 4])
    with pytest.raises(ValueError, match="cannot win"):
        bracket_rounds(bracket, {(0, 0): 2})
    with pytest.raises(ValueError, match="cannot win"):
        bracket_rounds(bracket, {(1, 0): 1})  # the final before the semi-finals
    with pytest.raises(ValueError, match="no match"):
        bracket_rounds(bracket, {(2, 0): 1})
    with pytest.raises(ValueError, match="bye"):
        bracket_rounds(Bracket.seeded([1, 2, 3]), {(0, 0): 1})
    with pytest.raises(ValueError, match="at least two"):
        Bracket.seeded([1])
    with pytest.raises(ValueError, match="twice"):
        Bracket.seeded([1, 2, 1])

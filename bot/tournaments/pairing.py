"""Pairings for round robin, Swiss and arena tournaments (knockouts: :mod:`.knockout`).

* **Round robin**: the circle method (Berger tables). With ``n`` players (one more, a bye, when
  ``n`` is odd) there are ``n - 1`` rounds (``n`` when odd) and everybody meets everybody once.
* **Swiss**: the players are ranked by the standings (score, then the tie-breaks); within a score
  group the top half meets the bottom half (1 v 5, 2 v 6, ... in a group of eight), the lowest
  of an odd group floats down to the next group, and nobody meets the same opponent twice. A
  depth-first search with backtracking takes those preferences in order, so the first complete
  pairing it finds follows the basic rules of the Dutch system (FIDE's, without its colour
  rules: backgammon has none, nor its finer exchanges between halves) wherever no repeat gets
  in the way, and it backtracks only around repeats: pairing 256 players takes a few ms. When
  the count is odd, the lowest-ranked player who has not had a bye sits out (and scores a win).
* **Arena**: whoever is waiting is paired by points (then rating) with the nearest player in that
  order, avoiding an immediate rematch (the opponent of one's last match) when possible.

Pairings are deterministic: the same inputs give the same pairings (random seeding, where wanted,
happens before, with :func:`bot.tournaments.knockout.seed_at_random`).

>>> [r.pairs for r in round_robin_schedule([1, 2, 3, 4])]
[((1, 4), (2, 3)), ((1, 3), (4, 2)), ((1, 2), (3, 4))]
>>> swiss_round([1, 2, 3, 4, 5], scores={}, previous=[])
Round(pairs=((1, 3), (2, 4)), bye=5)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from bot.tournaments.values import PlayerId, Round

__all__ = [
    "SEARCH_BUDGET",
    "arena_pairings",
    "round_robin_schedule",
    "swiss_round",
]

SEARCH_BUDGET = 10_000
"""How many partial pairings a search may try before it gives up avoiding repeats. Far more
than any realistic Swiss needs (repeats only get hard to avoid when nearly everybody has met
everybody, and then the players are few), and it bounds the time of the pathological cases:
about 40 ms for 256 players (``bench/bench_tournament.py`` measures one)."""

Pair = tuple[PlayerId, PlayerId]
_Avoid = Mapping[PlayerId, AbstractSet[PlayerId]]
"""For each player, the players he should not meet now (symmetric; every player a key)."""
_Candidates = Callable[[PlayerId, Sequence[PlayerId]], list[PlayerId]]


def round_robin_schedule(players: Sequence[PlayerId]) -> tuple[Round, ...]:
    """Every round of a round robin of ``players``, by the circle method.

    The first player stays put and the others turn around him one place a round; with an odd
    count a bye takes the extra place, so each player sits out exactly once.

    >>> [(r.pairs, r.bye) for r in round_robin_schedule([1, 2, 3])]
    [(((2, 3),), 1), (((1, 3),), 2), (((1, 2),), 3)]

    :raises ValueError: with fewer than two players or a player twice.
    """
    _check_players(players)
    slots: list[PlayerId | None] = list(players)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    rounds = []
    for _ in range(n - 1):
        pairs: list[Pair] = []
        bye = None
        for i in range(n // 2):
            a, b = slots[i], slots[n - 1 - i]
            if a is None:
                bye = b
            elif b is None:
                bye = a
            else:
                pairs.append((a, b))
        rounds.append(Round(tuple(pairs), bye))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return tuple(rounds)


def swiss_round(
    ranking: Sequence[PlayerId],
    *,
    scores: Mapping[PlayerId, float],
    previous: Iterable[Round],
) -> Round:
    """The next round of a Swiss tournament.

    :param ranking: the players still in, best first (the standings order; for the first round,
        by rating or at random).
    :param scores: each player's score so far (missing means 0); the players are grouped by it.
    :param previous: the rounds already paired (their pairs and byes).

    Rules, in order of priority: nobody meets an opponent twice and nobody gets a second bye
    (when some pairing allows it); the bye goes to the lowest-ranked player without one; within
    each score group the top half meets the bottom half, the lowest of an odd group floating
    down. If the search cannot avoid a repeat (or gives up after :data:`SEARCH_BUDGET` steps),
    the pairing keeps to score order and repeats as few matches as its greedy pass allows.

    >>> swiss_round([1, 2, 3, 4], scores={1: 1, 3: 1}, previous=[Round(((1, 2), (3, 4)))])
    Round(pairs=((1, 3), (2, 4)), bye=None)

    :raises ValueError: with fewer than two players or a player twice.
    """
    _check_players(ranking)
    rank = {p: i for i, p in enumerate(ranking)}
    order = sorted(ranking, key=lambda p: (-scores.get(p, 0), rank[p]))
    met, byes = _history(ranking, previous)
    group_first = _top_half_against_bottom_half(scores)
    if len(order) % 2 == 0:
        return Round(tuple(_pair_all(order, met, group_first)))
    # Lowest first among those without a bye, then the fewest byes.
    place = {p: i for i, p in enumerate(order)}
    sitters = sorted(order, key=lambda p: (byes.get(p, 0), -place[p]))
    return _with_one_out(order, sitters, met, group_first)


def _history(
    ranking: Sequence[PlayerId], previous: Iterable[Round]
) -> tuple[dict[PlayerId, set[PlayerId]], dict[PlayerId, int]]:
    """Whom each player has met, and how many byes each has had, in the rounds so far."""
    met: dict[PlayerId, set[PlayerId]] = {p: set() for p in ranking}
    byes: dict[PlayerId, int] = {}
    for rnd in previous:
        for a, b in rnd.pairs:
            met.setdefault(a, set()).add(b)
            met.setdefault(b, set()).add(a)
        if rnd.bye is not None:
            byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
    return met, byes


def _top_half_against_bottom_half(scores: Mapping[PlayerId, float]) -> _Candidates:
    """The partners to try for the best unpaired player, in the Swiss order: his score group's
    middle player first (the top half meets the bottom half), the next group when his is empty
    (he floats down)."""

    def group_first(top: PlayerId, rest: Sequence[PlayerId]) -> list[PlayerId]:
        score = scores.get(top, 0)
        group = [p for p in rest if scores.get(p, 0) == score]
        if not group:  # ``top`` floats down: the best of the next group first
            return list(rest)
        # ``top`` heads a group of len(group) + 1: his partner is the group's middle player.
        lower = (len(group) + 1) // 2 - 1
        preferred = group[lower:] + group[:lower][::-1]
        return [*preferred, *rest[len(group) :]]

    return group_first


def arena_pairings(
    waiting: Sequence[PlayerId],
    *,
    points: Mapping[PlayerId, int],
    ratings: Mapping[PlayerId, float],
    last_opponent: Mapping[PlayerId, PlayerId],
) -> Round:
    """Pair the players waiting in an arena.

    :param waiting: the free players, in the order they became free.
    :param points: arena points so far (missing means 0).
    :param ratings: ratings (missing means 0); the second key after points.
    :param last_opponent: each player's opponent in his last match, never to be met again at
        once when another pairing exists.
    :returns: the pairs, best-ranked first, and as ``bye`` the player left waiting when the
        count is odd: the latest to become free (who waited least) unless that forces a rematch.

    >>> arena_pairings([1, 2, 3, 4], points={1: 4, 2: 4}, ratings={}, last_opponent={1: 2, 2: 1})
    Round(pairs=((1, 3), (2, 4)), bye=None)
    """
    if len(set(waiting)) != len(waiting):
        raise ValueError("a player is waiting twice")
    if len(waiting) < 2:
        return Round((), waiting[0] if waiting else None)
    arrival = {p: i for i, p in enumerate(waiting)}
    order = sorted(waiting, key=lambda p: (-points.get(p, 0), -ratings.get(p, 0.0), arrival[p]))

    avoid: dict[PlayerId, set[PlayerId]] = {p: set() for p in order}
    for a, b in last_opponent.items():
        avoid.setdefault(a, set()).add(b)
        avoid.setdefault(b, set()).add(a)

    def nearest(top: PlayerId, rest: Sequence[PlayerId]) -> list[PlayerId]:
        return list(rest)  # ``rest`` is in ranking order: the nearest below ``top`` first

    if len(order) % 2 == 0:
        return Round(tuple(_pair_all(order, avoid, nearest)))
    return _with_one_out(order, list(reversed(waiting)), avoid, nearest)


def _with_one_out(
    order: list[PlayerId],
    sitters: list[PlayerId],
    avoid: _Avoid,
    candidates: _Candidates,
) -> Round:
    """The pairing of ``order`` less one player, the first of ``sitters`` for whom a pairing
    without an avoided pair exists (or the first of them, pairing around avoided pairs)."""
    budget = [SEARCH_BUDGET]
    partners = _partner_counts(order, avoid)
    for out in sitters:
        if any(n - (out not in avoid[p]) == 0 for p, n in partners.items() if p != out):
            continue  # someone would have nobody left to play: no need to search
        rest = [p for p in order if p != out]
        pairs = _search(rest, avoid, candidates, budget)
        if pairs is not None:
            return Round(tuple(pairs), out)
        if budget[0] <= 0:
            break
    out = sitters[0]
    rest = [p for p in order if p != out]
    return Round(tuple(_greedy(rest, avoid, candidates)), out)


def _pair_all(order: list[PlayerId], avoid: _Avoid, candidates: _Candidates) -> list[Pair]:
    hopeless = 0 in _partner_counts(order, avoid).values()
    pairs = None if hopeless else _search(order, avoid, candidates, [SEARCH_BUDGET])
    return pairs if pairs is not None else _greedy(order, avoid, candidates)


def _partner_counts(order: list[PlayerId], avoid: _Avoid) -> dict[PlayerId, int]:
    """How many allowed partners each player has among ``order``."""
    present = set(order)
    return {p: len(order) - 1 - len(avoid[p] & present) for p in order}


def _search(
    order: list[PlayerId], avoid: _Avoid, candidates: _Candidates, budget: list[int]
) -> list[Pair] | None:
    """The first pairing of ``order`` (an even count) without an avoided pair, trying the
    partners of the best remaining player in the order ``candidates`` prefers; ``None`` when
    there is none or the budget (shared, in steps) runs out.

    Iterative, with an explicit stack, so 256 players need no deep recursion."""
    pairs: list[Pair] = []
    remaining = list(order)
    stack: list[tuple[PlayerId, list[PlayerId], int, list[PlayerId]]] = []
    while remaining:
        top, rest = remaining[0], remaining[1:]
        shunned = avoid[top]
        options = [p for p in candidates(top, rest) if p not in shunned]
        choice = 0
        while choice >= len(options):  # dead end: undo the last pair and try its next option
            if not stack or budget[0] <= 0:
                return None
            top, options, choice, remaining = stack.pop()
            pairs.pop()
            choice += 1
            rest = remaining[1:]
        budget[0] -= 1
        partner = options[choice]
        stack.append((top, options, choice, remaining))
        pairs.append((top, partner))
        remaining = [p for p in rest if p != partner]
    return pairs


def _greedy(order: list[PlayerId], avoid: _Avoid, candidates: _Candidates) -> list[Pair]:
    """Pair in order, each with his first allowed candidate, or his first candidate if none."""
    pairs: list[Pair] = []
    remaining = list(order)
    while remaining:
        top, rest = remaining[0], remaining[1:]
        options = candidates(top, rest)
        partner = next((p for p in options if p not in avoid[top]), options[0])
        pairs.append((top, partner))
        remaining = [p for p in rest if p != partner]
    return pairs


def _check_players(players: Sequence[PlayerId]) -> None:
    if len(players) < 2:
        raise ValueError("pairing needs at least two players")
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice")

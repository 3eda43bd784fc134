"""Knockout brackets: seeding, byes, and the bracket as results come in.

A bracket has a power-of-two number of first-round *slots*. Seeds are placed by the standard
order (1 v N, then the winner meets the 4 v N-3 winner, and so on, so that seeds 1 and 2 can only
meet in the final); when the number of players is not a power of two, the missing seeds are
byes, so the top seeds get them. A bye is not a match: ``N`` players play ``N - 1`` matches.

The bracket itself never changes; the results are a mapping from a match's ``(round, index)``
key to its winner, which is what the service stores. :func:`bracket_rounds` rebuilds the whole
picture from the two.

>>> b = Bracket.seeded([10, 20, 30, 40, 50])   # seeds 1 to 5
>>> b.slots
(10, None, 40, 50, 20, None, 30, None)
>>> [(m.key, m.top, m.bottom) for m in pending_matches(b, {})]
[((0, 1), 40, 50), ((1, 1), 20, 30)]
>>> results = {(0, 1): 40, (1, 0): 10, (1, 1): 30, (2, 0): 30}
>>> champion(b, results)
30
>>> sum(1 for r in bracket_rounds(b, results) for m in r if not m.bye)
4
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.values import PlayerId

__all__ = [
    "Bracket",
    "BracketMatch",
    "MatchKey",
    "bracket_rounds",
    "champion",
    "pending_matches",
    "seed_at_random",
    "seed_by_rating",
    "seed_order",
]

MatchKey = tuple[int, int]
"""``(round, index)``: round 0 is the first; index counts from the top of the bracket."""


def seed_order(size: int) -> tuple[int, ...]:
    """The seed (1-based) in each first-round slot of a bracket of ``size`` slots.

    >>> seed_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)

    :raises ValueError: when ``size`` is not a power of two.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power-of-two number of slots, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


def seed_by_rating(
    players: Sequence[PlayerId], ratings: Mapping[PlayerId, float]
) -> list[PlayerId]:
    """``players`` best rating first; equal ratings keep their order (sign-up order), and a
    player without a rating counts as 0.

    >>> seed_by_rating([1, 2, 3], {1: 1500.0, 2: 1720.0, 3: 1500.0})
    [2, 1, 3]
    """
    return sorted(players, key=lambda p: -ratings.get(p, 0.0))


def seed_at_random(players: Sequence[PlayerId], rng: random.Random) -> list[PlayerId]:
    """``players`` in a random order drawn from ``rng`` (the same seed, the same draw).

    >>> a, b = (seed_at_random([1, 2, 3, 4], random.Random(7)) for _ in range(2))
    >>> a == b, sorted(a)
    (True, [1, 2, 3, 4])
    """
    out = list(players)
    rng.shuffle(out)
    return out


@dataclass(frozen=True, slots=True)
class Bracket:
    """The first-round slots of a knockout, top to bottom; ``None`` is a bye."""

    slots: tuple[PlayerId | None, ...]

    def __post_init__(self) -> None:
        seed_order(len(self.slots))  # checks the power of two
        players = [p for p in self.slots if p is not None]
        if len(players) < 2:
            raise ValueError("a knockout needs at least two players")
        if len(set(players)) != len(players):
            raise ValueError("a player appears twice in the bracket")
        for i in range(0, len(self.slots), 2):
            if self.slots[i] is None and self.slots[i + 1] is None:
                raise ValueError(f"first-round match {i // 2} has two byes")

    @classmethod
    def seeded(cls, seeds: Sequence[PlayerId]) -> Bracket:
        """The bracket of ``seeds`` (best first) in the standard order, top seeds taking the byes.

        >>> Bracket.seeded([1, 2, 3]).slots
        (1, None, 2, 3)

        :raises ValueError: with fewer than two players or a player twice.
        """
        size = 1
        while size < len(seeds):
            size *= 2
        slots = tuple(seeds[s - 1] if s <= len(seeds) else None for s in seed_order(size))
        return cls(slots)

    @property
    def size(self) -> int:
        """The number of first-round slots."""
        return len(self.slots)

    @property
    def round_count(self) -> int:
        """The number of rounds (the final is the last)."""
        return self.size.bit_length() - 1

    @property
    def players(self) -> tuple[PlayerId, ...]:
        """The players, top of the bracket first."""
        return tuple(p for p in self.slots if p is not None)


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match of the bracket as far as the results tell.

    ``top`` and ``bottom`` are ``None`` while the earlier match that feeds them is unfinished
    (or, in the first round, for a bye); ``winner`` is ``None`` until it is played. A bye has
    ``bye`` set and its player as the winner.
    """

    key: MatchKey
    top: PlayerId | None
    bottom: PlayerId | None
    winner: PlayerId | None
    bye: bool = False

    @property
    def ready(self) -> bool:
        """Both players are known and the match is not played yet."""
        return self.top is not None and self.bottom is not None and self.winner is None

    @property
    def loser(self) -> PlayerId | None:
        """The player knocked out here, once the match is played."""
        if self.winner is None or self.bye:
            return None
        return self.bottom if self.winner == self.top else self.top


def bracket_rounds(
    bracket: Bracket, winners: Mapping[MatchKey, PlayerId]
) -> tuple[tuple[BracketMatch, ...], ...]:
    """Every match of the bracket, round by round, with the ``winners`` known so far.

    :raises ValueError: when a winner is recorded for a match he does not play (or whose
        players are not known yet), or for a key outside the bracket.
    """
    for key in winners:
        rnd, index = key
        if not (0 <= rnd < bracket.round_count and 0 <= index < bracket.size >> (rnd + 1)):
            raise ValueError(f"no match {key} in a bracket of {bracket.size}")
    feed: list[PlayerId | None] = list(bracket.slots)
    rounds: list[tuple[BracketMatch, ...]] = []
    for rnd in range(bracket.round_count):
        matches = []
        for index in range(len(feed) // 2):
            top, bottom = feed[2 * index], feed[2 * index + 1]
            matches.append(_match(rnd, index, top, bottom, winners.get((rnd, index))))
        rounds.append(tuple(matches))
        feed = [m.winner for m in matches]
    return tuple(rounds)


def _match(
    rnd: int, index: int, top: PlayerId | None, bottom: PlayerId | None, won: PlayerId | None
) -> BracketMatch:
    key = (rnd, index)
    if rnd == 0 and (top is None or bottom is None):
        present = top if top is not None else bottom
        if won is not None:
            raise ValueError(f"match {key} is a bye for {present}: it has no result")
        return BracketMatch(key, top, bottom, present, bye=True)
    if won is not None and (top is None or bottom is None or won not in (top, bottom)):
        raise ValueError(f"player {won} cannot win match {key} ({top} v {bottom})")
    return BracketMatch(key, top, bottom, won)


def pending_matches(bracket: Bracket, winners: Mapping[MatchKey, PlayerId]) -> list[BracketMatch]:
    """The matches to play now: both players known, no winner yet, top of the bracket first."""
    return [m for r in bracket_rounds(bracket, winners) for m in r if m.ready]


def champion(bracket: Bracket, winners: Mapping[MatchKey, PlayerId]) -> PlayerId | None:
    """The winner of the final, or ``None`` while it is unplayed."""
    return bracket_rounds(bracket, winners)[-1][0].winner

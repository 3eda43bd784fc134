"""Provably fair dice.

Every game (a match or a money game: one database row) gets a secret 32-byte seed from the
operating system's CSPRNG (:mod:`secrets`). Its SHA-256 hash, the *commitment*, is published when
the game starts; the seed itself is revealed when the game ends. The n-th die of the game
(counting from 0, opening roll included) is::

    HMAC-SHA256(key=seed, msg=f"die:{n}:{j}") -> 32 bytes; the first byte b < 252 gives b % 6 + 1

with ``j = 0`` and, in the (1 in 10^57) case where all 32 bytes are >= 252, ``j = 1, 2, ...``.
Anyone holding the revealed seed can recompute every die and compare with the game record, and
check that the seed hashes to the commitment shown at the start, so the bot cannot have chosen
the dice after the fact. :func:`verify_rolls` does exactly that.

>>> seed = bytes(32)
>>> dice = GameDice(seed)
>>> dice.roll(), dice.roll(), dice.counter
((5, 4), (1, 4), 4)
>>> commitment(seed) == hashlib.sha256(seed).hexdigest()
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence

__all__ = ["GameDice", "commitment", "derive_die", "new_seed", "verify_rolls"]


def new_seed() -> bytes:
    """A fresh secret seed from the operating system's CSPRNG."""
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The public commitment to ``seed``: its SHA-256 hash in hex."""
    return hashlib.sha256(seed).hexdigest()


def derive_die(seed: bytes, n: int) -> int:
    """The n-th die (1-6) of the game whose seed is ``seed``."""
    j = 0
    while True:
        digest = hmac.new(seed, f"die:{n}:{j}".encode(), hashlib.sha256).digest()
        for b in digest:
            if b < 252:  # 252 = 42 * 6: rejecting the rest keeps the six faces equally likely
                return b % 6 + 1
        j += 1


class GameDice:
    """The dice of one game: a seed and how many dice have been drawn from it."""

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        if len(seed) != 32:
            raise ValueError("a dice seed has 32 bytes")
        self.seed = seed
        self.counter = counter

    @classmethod
    def fresh(cls) -> GameDice:
        return cls(new_seed())

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def die(self) -> int:
        value = derive_die(self.seed, self.counter)
        self.counter += 1
        return value

    def roll(self) -> tuple[int, int]:
        return self.die(), self.die()


def verify_rolls(seed: bytes, published_commitment: str, dice: Iterable[int]) -> list[str]:
    """Check a finished game: the seed matches the commitment and every die in ``dice`` (in the
    order drawn) is the one the seed gives. Returns the problems found ([] when all is fair).

    >>> seed = bytes(32)
    >>> verify_rolls(seed, commitment(seed), [5, 4, 1, 4])
    []
    >>> verify_rolls(seed, commitment(seed), [5, 5])
    ['die #1 is 5, the seed gives 4']
    """
    problems = []
    if not hmac.compare_digest(commitment(seed), published_commitment.lower()):
        problems.append("the seed does not match the commitment published at the start")
    for n, value in enumerate(dice):
        expected = derive_die(seed, n)
        if value != expected:
            problems.append(f"die #{n} is {value}, the seed gives {expected}")
    return problems


def dice_of_events(events: Sequence[tuple[str, Sequence[int] | None]]) -> list[int]:
    """The dice drawn, in order, from a game record: each opening roll (tie or not) and each
    roll gives two dice. ``events`` are (kind, dice) pairs of the move log."""
    out: list[int] = []
    for kind, dice in events:
        if kind in ("opening", "roll") and dice:
            out.extend(dice)
    return out

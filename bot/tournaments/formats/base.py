"""The protocol every tournament format implements, and the registry the formats join.

A format is one object: how it seeds, what it pairs next, how it ranks, when it is over and
who wins, what its standings picture looks like (a bracket, or a table and its columns), the
part of the rules it adds and how long its scheduled event should last. Everything else (the
entrants, the games, the clocks, the channel's messages) is shared and asks the format.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Protocol, TypeVar

from bot.tournaments.knockout import seed_at_random, seed_by_rating
from bot.tournaments.pictures import Standing
from bot.tournaments.plan import Pairing, State
from db.models import Tournament
from render.tournament import TableFormat

__all__ = [
    "LONGEST",
    "MINUTES_A_POINT",
    "TournamentFormat",
    "by_rounds",
    "register",
    "registered",
]

MINUTES_A_POINT = 12  # a point of a match between two people, about (the clock's 12+2 too)
LONGEST = timedelta(days=7)


class TournamentFormat(Protocol):
    """One tournament format. Subclass it: the methods with a body are the usual rule.

    :ivar name: the value stored in ``tournaments.format``, the command's option value and the
        key of its name (``tournament.format.<name>`` in :mod:`bot.i18n`).
    :ivar words: other words a person may type for it (short French ones).
    :ivar order: its place among the command's choices.
    :ivar table: the columns of its standings picture (a layout of
        :data:`render.tournament.COLUMNS`); None draws a bracket instead.
    """

    name: str
    words: tuple[str, ...] = ()
    order: int = 100
    table: TableFormat | None = None

    def next_pairings(self, state: State, now: datetime) -> list[Pairing]:
        """The matches to start now (none while what must end first is being played)."""
        ...

    def standings(self, state: State) -> list[Standing]:
        """The table, in the format's order (a bracket's format has none: ``[]``)."""
        ...

    def over(self, state: State, now: datetime) -> bool:
        """Whether it is over, asked once nothing is played and nothing more is paired."""
        return True

    def champion(self, state: State) -> int | None:
        """The winner (an active player first: a disqualified leader does not win)."""
        active = state.active
        return next((row.player for row in self.standings(state) if row.player in active), None)

    def seed(self, tour: Tournament, players: list[int], ratings: Mapping[int, float]) -> list[int]:
        """The players in seeding order: by rating when rated, else at random (the
        tournament's own seed, so every process draws the same)."""
        if tour.rated:
            return seed_by_rating(players, ratings)
        return seed_at_random(players, random.Random(tour.seed))

    def configure(self, tour: Tournament, *, rounds: int, minutes: int) -> None:
        """Keep the creation options the format uses (``rounds``, ``minutes``) on ``tour``."""
        return None  # most formats use neither

    def started(self, tour: Tournament, now: datetime) -> None:
        """What the format sets on the tournament when it starts (an arena's end)."""
        return None  # most formats set nothing

    def rules(self, tour: Tournament, lang: str) -> list[str]:
        """Its part of the rules paragraph (a Swiss's rounds, an arena's minutes)."""
        return []

    def duration(self, tour: Tournament) -> timedelta:
        """How long its scheduled event should last."""
        ...


def by_rounds(tour: Tournament, rounds: int) -> timedelta:
    """``rounds`` times a match's likely length, at least an hour and at most a week."""
    minutes = rounds * max(1, tour.match_length or 1) * MINUTES_A_POINT
    return min(LONGEST, max(timedelta(hours=1), timedelta(minutes=minutes)))


F = TypeVar("F", bound=TournamentFormat)
_REGISTRY: dict[str, TournamentFormat] = {}


def register(fmt: F) -> F:
    """Add ``fmt`` to the formats a tournament may have (its module does it on import).

    :raises ValueError: when another format has its name.
    """
    known = _REGISTRY.get(fmt.name)
    if known is not None and known is not fmt:
        raise ValueError(f"two tournament formats are named {fmt.name!r}")
    _REGISTRY[fmt.name] = fmt
    return fmt


def registered() -> Sequence[TournamentFormat]:
    """Every format, in the command's order."""
    return sorted(_REGISTRY.values(), key=lambda f: (f.order, f.name))

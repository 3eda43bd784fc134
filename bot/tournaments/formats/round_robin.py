"""Round robin: everybody plays everybody once, a round at a time (Berger tables)."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.tournaments.formats.base import TournamentFormat, by_rounds, register
from bot.tournaments.pairing import round_robin_schedule
from bot.tournaments.pictures import Standing
from bot.tournaments.plan import Pairing, State, round_pairings
from bot.tournaments.standings import round_robin_standings
from db.models import Tournament


class RoundRobin(TournamentFormat):
    """The next round of the schedule once the last one is over."""

    name = "round_robin"
    order = 1
    table = "round_robin"

    def next_pairings(self, state: State, now: datetime) -> list[Pairing]:
        if state.playing:
            return []
        rnd = state.last_round + 1
        schedule = round_robin_schedule(state.seeded)
        if rnd >= len(schedule):
            return []
        return round_pairings(rnd, schedule[rnd], state.active)

    def standings(self, state: State) -> list[Standing]:
        return list(round_robin_standings(state.seeded, state.results()))

    def duration(self, tour: Tournament) -> timedelta:
        """One round fewer than the most players, up to 16."""
        players = max(2, tour.max_players or 256)
        return by_rounds(tour, min(players, 16) - 1)


ROUND_ROBIN = register(RoundRobin())

"""Arena: play as many matches as you like within a time window; points for wins, a streak
bonus (as in lichess arenas)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

from bot.i18n import t
from bot.tournaments.formats.base import TournamentFormat, register
from bot.tournaments.knockout import seed_by_rating
from bot.tournaments.pairing import arena_pairings
from bot.tournaments.pictures import Standing
from bot.tournaments.plan import Pairing, State, aware
from bot.tournaments.standings import arena_standings
from db.models import MatchStatus, Tournament


class Arena(TournamentFormat):
    """Whoever is free is paired at once, until the window closes."""

    name = "arena"
    order = 3
    table = "arena"

    def next_pairings(self, state: State, now: datetime) -> list[Pairing]:
        if not self._open(state, now):
            return []
        busy = {p for m in state.playing for p in (m.player0_id, m.player1_id)}
        last = _last_results(state)
        joined = {e.player_id: e.joined for e in state.entrants}
        free = [p for p in state.active if p not in busy]
        free.sort(key=lambda p: (last.get(p, (-1, 0))[0], joined[p]))
        table = arena_standings(state.seeded, state.results(), state.ratings)
        points = {row.player: row.points for row in table}
        opponents = {p: last[p][1] for p in free if p in last}
        pairs = arena_pairings(free, points=points, ratings=state.ratings, last_opponent=opponents)
        rnd, slot = state.last_round + 1, 0
        out = []
        for a, b in pairs.pairs:
            if opponents.get(a) == b and len(state.active) > 3:
                continue  # no immediate rematch: they wait for someone else to be free
            out.append(Pairing(rnd, slot, a, b))
            slot += 1
        return out

    @staticmethod
    def _open(state: State, now: datetime) -> bool:
        ends = state.tournament.ends_at
        return ends is not None and aware(ends) > now

    def standings(self, state: State) -> list[Standing]:
        return list(arena_standings(state.seeded, state.results(), state.ratings))

    def over(self, state: State, now: datetime) -> bool:
        ends = state.tournament.ends_at
        return ends is not None and aware(ends) <= now  # the window has closed

    def seed(self, tour: Tournament, players: list[int], ratings: Mapping[int, float]) -> list[int]:
        return seed_by_rating(players, ratings)  # rated or not: the pairing follows ratings

    def configure(self, tour: Tournament, *, rounds: int, minutes: int) -> None:
        tour.minutes = minutes

    def started(self, tour: Tournament, now: datetime) -> None:
        tour.ends_at = now + timedelta(minutes=tour.minutes or 60)

    def rules(self, tour: Tournament, lang: str) -> list[str]:
        return [t("tournament.rules.minutes", lang, minutes=tour.minutes or 0)]

    def duration(self, tour: Tournament) -> timedelta:
        return timedelta(minutes=tour.minutes or 60)  # its window, however long


def _last_results(state: State) -> dict[int, tuple[int, int]]:
    """Each player's latest finished match: (its result number, his opponent)."""
    last: dict[int, tuple[int, int]] = {}
    for m in state.matches:
        if m.status is MatchStatus.FINISHED and m.player1_id is not None:
            for p in (m.player0_id, m.player1_id):
                last[p] = max(last.get(p, (-1, 0)), (m.result_no or 0, m.other(p) or 0))
    return last


ARENA = register(Arena())

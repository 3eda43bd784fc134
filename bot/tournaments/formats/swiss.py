"""Swiss: a fixed number of rounds, each pairing players with the same score."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.i18n import t
from bot.tournaments.formats.base import TournamentFormat, by_rounds, register
from bot.tournaments.pairing import swiss_round
from bot.tournaments.pictures import Standing
from bot.tournaments.plan import Pairing, State, byes, previous_rounds, round_pairings
from bot.tournaments.standings import swiss_standings
from bot.tournaments.values import Round
from db.models import Tournament


class Swiss(TournamentFormat):
    """The next round once the last one is over, until its rounds are played."""

    name = "swiss"
    words = ("suisse",)  # short for the label
    order = 2
    table = "swiss"

    def next_pairings(self, state: State, now: datetime) -> list[Pairing]:
        if state.playing:
            return []
        rnd = state.last_round + 1
        if rnd >= (state.tournament.rounds or 0) or len(state.active) < 2:
            return []
        return round_pairings(rnd, self._round(state), state.active)

    def _round(self, state: State) -> Round:
        table = swiss_standings(state.seeded, state.results(), byes(state))
        active = state.active
        ranking = [row.player for row in table if row.player in active]
        scores = {row.player: row.score for row in table}
        return swiss_round(ranking, scores=scores, previous=previous_rounds(state))

    def standings(self, state: State) -> list[Standing]:
        return list(swiss_standings(state.seeded, state.results(), byes(state)))

    def configure(self, tour: Tournament, *, rounds: int, minutes: int) -> None:
        tour.rounds = rounds

    def rules(self, tour: Tournament, lang: str) -> list[str]:
        return [t("tournament.rules.rounds", lang, rounds=tour.rounds or 0)]

    def duration(self, tour: Tournament) -> timedelta:
        return by_rounds(tour, tour.rounds or 5)


SWISS = register(Swiss())

"""Knockout: single elimination, lose once and you are out. A bracket, not a table."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from bot.tournaments.formats.base import TournamentFormat, by_rounds, register
from bot.tournaments.knockout import champion, pending_matches
from bot.tournaments.pictures import Standing
from bot.tournaments.plan import Pairing, State, bracket, walkover, winners
from db.models import Tournament


class Knockout(TournamentFormat):
    """The bracket pairs each match once both its players are known."""

    name = "knockout"
    words = ("élimination",)  # short for the label
    order = 0
    table = None  # a bracket

    def next_pairings(self, state: State, now: datetime) -> list[Pairing]:
        taken = {(m.round, m.slot) for m in state.matches}
        ready = pending_matches(bracket(state), winners(state))
        out = []
        for m in ready:
            if m.key not in taken:
                assert m.top is not None and m.bottom is not None
                out.append(walkover(m.key[0], m.key[1], m.top, m.bottom, state.active))
        return out

    def standings(self, state: State) -> list[Standing]:
        return []  # the bracket is its standings

    def over(self, state: State, now: datetime) -> bool:
        return self.champion(state) is not None

    def champion(self, state: State) -> int | None:
        return champion(bracket(state), winners(state))

    def duration(self, tour: Tournament) -> timedelta:
        """log2 of the most players rounds."""
        players = max(2, tour.max_players or 256)
        return by_rounds(tour, math.ceil(math.log2(players)))


KNOCKOUT = register(Knockout())

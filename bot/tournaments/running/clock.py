"""A tournament's clock, as on the big sites: a delay per move plus a time bank per match.

Each player of a match starts with ``clock_bank`` seconds per point of the match. When the
decision passes to the other player, the time the first one took beyond the delay comes off his
bank; the game's deadline (the move timer's column) becomes the moment the new player's delay
and bank run out, so the tournament sweep forfeits him then: a player whose bank runs out loses
the match. Stored on the match row (``bank0``, ``bank1``, ``clock_since``), so the clock
survives restarts and works across processes like everything else.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from bot.service.model import Table
from bot.service.refusal import aware
from db import games as games_repo
from db import tournaments as repo
from db.models import Game as GameRow
from db.models import Tournament, TournamentMatch

__all__ = ["TournamentClock"]


class TournamentClock:
    """Start a match's clock and charge it as the game goes."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self.clock = clock

    @staticmethod
    def applies(tour: Tournament) -> bool:
        return tour.clock_delay is not None and tour.clock_bank is not None

    def start(self, tour: Tournament, match: TournamentMatch, row: GameRow) -> None:
        """Full banks for both players; the first to act has his delay and bank."""
        if not self.applies(tour):
            return
        bank = float((tour.clock_bank or 0) * tour.match_length)
        repo.start_clock(match, bank, self.clock())
        if row.turn is not None:
            games_repo.set_deadline(row, self._deadline(tour, match, row.turn))

    def on_saving(self, s: Session, row: GameRow, table: Table) -> None:
        """The hook before a game is saved: charge the player who handed the decision over."""
        if not table.tournament:  # loaded by load_table, which knows (no query at every press)
            return
        match = repo.match_of_game(s, row.id)
        if match is None or match.bank0 is None or match.clock_since is None:
            return
        before = row.turn  # the row still holds the state before this action
        after = None if table.match.is_over else table.game.turn
        games_before = len((row.state or {}).get("games", ()))
        if before == after and games_before == len(table.match.games):
            return  # the same player's move goes on: his clock keeps running
        tour = s.get(Tournament, match.tournament_id)
        assert tour is not None
        now = self.clock()
        charged = None
        if before is not None:
            used = (now - aware(match.clock_since)).total_seconds() - (tour.clock_delay or 0)
            if used > 0:
                charged = (before, _bank(match, before) - used)
        repo.hand_clock_over(match, now, charged)
        if after is not None:
            games_repo.move_deadline(row, self._deadline(tour, match, after))

    def _deadline(self, tour: Tournament, match: TournamentMatch, seat: int) -> datetime:
        left = max(0.0, _bank(match, seat)) + (tour.clock_delay or 0)
        return self.clock() + timedelta(seconds=left)


def _bank(match: TournamentMatch, seat: int) -> float:
    return (match.bank0 if seat == 0 else match.bank1) or 0.0

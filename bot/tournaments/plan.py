"""A tournament as stored, read for its format: the entrants and the matches so far, and the
helpers every format shares (results, walkovers, rounds, the bracket, the byes).

Nothing here reads or writes the database: the caller (:mod:`bot.tournaments.running.run`)
loads a :class:`State` under the tournament's lock, asks its format
(:mod:`bot.tournaments.formats`) what to play next and who leads, and stores the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.tournaments.knockout import Bracket
from bot.tournaments.values import MatchResult, Round, WinType
from db.models import EntrantStatus, MatchStatus, Tournament, TournamentEntrant, TournamentMatch

__all__ = [
    "Pairing",
    "State",
    "aware",
    "bracket",
    "byes",
    "previous_rounds",
    "round_pairings",
    "walkover",
    "winners",
]


@dataclass(frozen=True)
class Pairing:
    """A match to store: a bye when ``player1`` is None; a walkover when ``walkover`` names the
    winner (the opponent left the tournament before it could be played)."""

    round: int
    slot: int
    player0: int
    player1: int | None
    walkover: int | None = None


@dataclass
class State:
    """A tournament as stored: its row, its entrants (registration order), its matches."""

    tournament: Tournament
    entrants: Sequence[TournamentEntrant]
    matches: Sequence[TournamentMatch]
    names: dict[int, str] = field(default_factory=dict)

    @property
    def seeded(self) -> list[int]:
        ordered = sorted(self.entrants, key=lambda e: (e.seed or 10**6, e.joined))
        return [e.player_id for e in ordered]

    @property
    def active(self) -> set[int]:
        return {e.player_id for e in self.entrants if e.status is EntrantStatus.ACTIVE}

    @property
    def playing(self) -> list[TournamentMatch]:
        return [m for m in self.matches if m.status is MatchStatus.PLAYING]

    def results(self) -> list[MatchResult]:
        """The results, in the order they came in."""
        done = [m for m in self.matches if m.status is MatchStatus.FINISHED and m.winner_id]
        done.sort(key=lambda m: m.result_no or 0)
        return [_result(m) for m in done]

    @property
    def last_round(self) -> int:
        return max((m.round for m in self.matches), default=-1)

    @property
    def ratings(self) -> dict[int, float]:
        return {e.player_id: e.rating for e in self.entrants}


def aware(moment: datetime) -> datetime:
    """SQLite returns naive datetimes for aware columns: they are UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _result(m: TournamentMatch) -> MatchResult:
    assert m.winner_id is not None and m.player1_id is not None
    loser = m.player1_id if m.winner_id == m.player0_id else m.player0_id
    won, lost = m.winner_points or 1, m.loser_points or 0
    return MatchResult(m.winner_id, loser, max(won, lost + 1), lost, WinType(m.win_type or 1))


def walkover(rnd: int, slot: int, a: int, b: int | None, active: set[int]) -> Pairing:
    """The pairing of ``a`` and ``b``, decided at once when one of them has left."""
    if b is None:
        return Pairing(rnd, slot, a, None)
    if a in active and b not in active:
        return Pairing(rnd, slot, a, b, walkover=a)
    if b in active and a not in active:
        return Pairing(rnd, slot, a, b, walkover=b)
    if a not in active:  # both left: the higher seed goes through, nothing is played
        return Pairing(rnd, slot, a, b, walkover=a)
    return Pairing(rnd, slot, a, b)


def round_pairings(rnd: int, pairs: Round, active: set[int]) -> list[Pairing]:
    """A whole round to store: its matches (walkovers decided), its bye last."""
    out = [walkover(rnd, i, a, b, active) for i, (a, b) in enumerate(pairs.pairs)]
    if pairs.bye is not None:
        out.append(Pairing(rnd, len(out), pairs.bye, None))
    return out


def bracket(state: State) -> Bracket:
    return Bracket.seeded(state.seeded)


def winners(state: State) -> dict[tuple[int, int], int]:
    done = (m for m in state.matches if m.status is MatchStatus.FINISHED and m.winner_id)
    return {(m.round, m.slot): m.winner_id for m in done if m.winner_id is not None}


def byes(state: State) -> list[int]:
    """The byes of the rounds that are over. A bye counts as a win once its round ends, as the
    others' results do: counted at once, a player who lost his only match ranked second, "Played
    2", while the round of his bye was still being played."""
    unfinished = {m.round for m in state.matches if m.status in _UNFINISHED}
    bye = MatchStatus.BYE
    return [m.player0_id for m in state.matches if m.status is bye and m.round not in unfinished]


# A round with a match still on, or voided by a cancellation, is not over: its bye waits.
_UNFINISHED = (MatchStatus.PLAYING, MatchStatus.VOID)


def previous_rounds(state: State) -> list[Round]:
    """Every round so far, its pairs and its bye (a Swiss pairs nobody twice)."""
    rounds: dict[int, tuple[list[tuple[int, int]], list[int]]] = {}
    for m in state.matches:
        pairs, bye = rounds.setdefault(m.round, ([], []))
        if m.player1_id is None:
            bye.append(m.player0_id)
        else:
            pairs.append((m.player0_id, m.player1_id))
    return [Round(tuple(p), b[0] if b else None) for _, (p, b) in sorted(rounds.items())]

"""What a tournament plays next, from what is stored: the entrants and the matches so far.

A leaf over the pure :mod:`bot.tournaments`: :func:`next_pairings` says which matches to start
now (each format's rules), :func:`standings` ranks the players, :func:`champion` names the
winner once the tournament is over. Nothing here reads or writes the database; the caller
(:mod:`bot.service.tournament_run`) holds the tournament's lock while it asks and stores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.service.refusal import aware
from bot.tournaments import (
    Bracket,
    Format,
    MatchResult,
    Round,
    WinType,
    arena_pairings,
    arena_standings,
    bracket_rounds,
    pending_matches,
    round_robin_schedule,
    round_robin_standings,
    swiss_round,
    swiss_standings,
)
from bot.tournaments import champion as bracket_champion
from bot.tournaments.pictures import Standing
from db.models import EntrantStatus, MatchStatus, Tournament, TournamentEntrant, TournamentMatch

__all__ = [
    "Pairing",
    "State",
    "bracket",
    "champion",
    "finished",
    "next_pairings",
    "standings",
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
    def format(self) -> Format:
        return Format(self.tournament.format)

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


def _result(m: TournamentMatch) -> MatchResult:
    assert m.winner_id is not None and m.player1_id is not None
    loser = m.player1_id if m.winner_id == m.player0_id else m.player0_id
    won, lost = m.winner_points or 1, m.loser_points or 0
    return MatchResult(m.winner_id, loser, max(won, lost + 1), lost, WinType(m.win_type or 1))


def _walkover(rnd: int, slot: int, a: int, b: int | None, active: set[int]) -> Pairing:
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


def next_pairings(state: State, now: datetime) -> list[Pairing]:
    """The matches to start now (none while the current round is still being played)."""
    fmt = state.format
    if fmt is Format.KNOCKOUT:
        return _knockout(state)
    if fmt is Format.ARENA:
        return _arena(state, now)
    if state.playing:
        return []
    rnd = state.last_round + 1
    if fmt is Format.ROUND_ROBIN:
        schedule = round_robin_schedule(state.seeded)
        if rnd >= len(schedule):
            return []
        return _round(rnd, schedule[rnd], state.active)
    if rnd >= (state.tournament.rounds or 0) or len(state.active) < 2:
        return []
    return _round(rnd, _swiss(state), state.active)


def _round(rnd: int, pairs: Round, active: set[int]) -> list[Pairing]:
    out = [_walkover(rnd, i, a, b, active) for i, (a, b) in enumerate(pairs.pairs)]
    if pairs.bye is not None:
        out.append(Pairing(rnd, len(out), pairs.bye, None))
    return out


def bracket(state: State) -> Bracket:
    return Bracket.seeded(state.seeded)


def winners(state: State) -> dict[tuple[int, int], int]:
    done = (m for m in state.matches if m.status is MatchStatus.FINISHED and m.winner_id)
    return {(m.round, m.slot): m.winner_id for m in done if m.winner_id is not None}


def _knockout(state: State) -> list[Pairing]:
    taken = {(m.round, m.slot) for m in state.matches}
    ready = pending_matches(bracket(state), winners(state))
    out = []
    for m in ready:
        if m.key not in taken:
            assert m.top is not None and m.bottom is not None
            out.append(_walkover(m.key[0], m.key[1], m.top, m.bottom, state.active))
    return out


def _swiss(state: State) -> Round:
    table = swiss_standings(state.seeded, state.results(), _byes(state))
    active = state.active
    ranking = [row.player for row in table if row.player in active]
    scores = {row.player: row.score for row in table}
    return swiss_round(ranking, scores=scores, previous=_previous(state))


def _byes(state: State) -> list[int]:
    """The byes of the rounds that are over. A bye counts as a win once its round ends, as the
    others' results do: counted at once, a player who lost his only match ranked second, "Played
    2", while the round of his bye was still being played."""
    unfinished = {m.round for m in state.matches if m.status in _UNFINISHED}
    bye = MatchStatus.BYE
    return [m.player0_id for m in state.matches if m.status is bye and m.round not in unfinished]


# A round with a match still on, or voided by a cancellation, is not over: its bye waits.
_UNFINISHED = (MatchStatus.PLAYING, MatchStatus.VOID)


def _previous(state: State) -> list[Round]:
    rounds: dict[int, tuple[list[tuple[int, int]], list[int]]] = {}
    for m in state.matches:
        pairs, byes = rounds.setdefault(m.round, ([], []))
        if m.player1_id is None:
            byes.append(m.player0_id)
        else:
            pairs.append((m.player0_id, m.player1_id))
    return [Round(tuple(p), b[0] if b else None) for _, (p, b) in sorted(rounds.items())]


def _arena(state: State, now: datetime) -> list[Pairing]:
    t = state.tournament
    if t.ends_at is None or aware(t.ends_at) <= now:
        return []
    busy = {p for m in state.playing for p in (m.player0_id, m.player1_id)}
    last: dict[int, tuple[int, int]] = {}  # player: (result number, opponent)
    for m in state.matches:
        if m.status is MatchStatus.FINISHED and m.player1_id is not None:
            for p in (m.player0_id, m.player1_id):
                last[p] = max(last.get(p, (-1, 0)), (m.result_no or 0, m.other(p) or 0))
    joined = {e.player_id: e.joined for e in state.entrants}
    free = [p for p in state.active if p not in busy]
    free.sort(key=lambda p: (last.get(p, (-1, 0))[0], joined[p]))
    points = {row.player: row.points for row in standings(state)}  # type: ignore[union-attr]
    ratings = {e.player_id: e.rating for e in state.entrants}
    opponents = {p: last[p][1] for p in free if p in last}
    pairs = arena_pairings(free, points=points, ratings=ratings, last_opponent=opponents)
    rnd, slot = state.last_round + 1, 0
    out = []
    for a, b in pairs.pairs:
        if opponents.get(a) == b and len(state.active) > 3:
            continue  # no immediate rematch: they wait for someone else to be free
        out.append(Pairing(rnd, slot, a, b))
        slot += 1
    return out


def standings(state: State) -> list[Standing]:
    """The table, in the format's order."""
    fmt, players, results = state.format, state.seeded, state.results()
    if fmt is Format.ROUND_ROBIN:
        return list(round_robin_standings(players, results))
    if fmt is Format.SWISS:
        return list(swiss_standings(players, results, _byes(state)))
    ratings = {e.player_id: e.rating for e in state.entrants}
    return list(arena_standings(players, results, ratings))


def finished(state: State, now: datetime) -> bool:
    """Whether the tournament is over: nothing is being played and nothing more will be."""
    if state.playing or next_pairings(state, now):
        return False
    if state.format is Format.KNOCKOUT:
        return bracket_champion(bracket(state), winners(state)) is not None
    if state.format is Format.ARENA:
        t = state.tournament
        return t.ends_at is not None and aware(t.ends_at) <= now
    return True


def champion(state: State) -> int | None:
    """The winner (an active player first: a disqualified leader does not win)."""
    if state.format is Format.KNOCKOUT:
        return bracket_champion(bracket(state), winners(state))
    active = state.active
    table = standings(state)
    return next((row.player for row in table if row.player in active), None)


def knockout_rounds(state: State) -> int:
    return len(bracket_rounds(bracket(state), winners(state)))

"""Standings of round robin, Swiss and arena tournaments, and arena scoring.

Every function takes the players (in seed order: the last tie-break) and the results, and returns
one row per player, best first, with ``rank`` counting from 1. Knockouts have no table: their
standings are the bracket (:mod:`bot.tournaments.knockout`).

**Round robin**: match wins, then points difference (match points won minus lost over all
matches), then head-to-head (wins in the matches between the players still tied), then match
points won, then seed order.

**Swiss**: score (a win or a bye is 1, a loss 0), then Buchholz (the sum of the scores of the
opponents met; a bye adds nothing), then Sonneborn-Berger (the sum of the scores of the
opponents beaten), then seed order.

**Arena** (the rule of the big sites' arenas, as on lichess): a win scores 2 points, 3 with a
gammon, 4 with a backgammon; a loss scores 0. A player who has won his last two matches is *on
fire*: his wins score double (4, 6 or 8) until he loses. The table ranks by points, then
performance (the mean of the opponent's rating plus 400 for each win and minus 400 for each
loss), then the longest winning run, then seed order.

>>> from bot.tournaments.values import MatchResult as R
>>> rows = swiss_standings([1, 2, 3, 4], [R(1, 2), R(3, 4), R(1, 3), R(2, 4)])
>>> [(s.player, s.score, s.buchholz, s.sonneborn_berger) for s in rows]
[(1, 2, 2, 2), (2, 1, 2, 0), (3, 1, 2, 0), (4, 0, 2, 0)]
>>> [arena_points(R(1, 2), wins_before=n) for n in (0, 1, 2, 3)]
[2, 2, 4, 4]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments.values import MatchResult, PlayerId, WinType

__all__ = [
    "ARENA_WIN_POINTS",
    "ON_FIRE_AFTER",
    "ArenaStanding",
    "RoundRobinStanding",
    "SwissStanding",
    "arena_points",
    "arena_standings",
    "round_robin_standings",
    "swiss_standings",
]

ARENA_WIN_POINTS: Mapping[WinType, int] = {
    WinType.SINGLE: 2,
    WinType.GAMMON: 3,
    WinType.BACKGAMMON: 4,
}
"""Arena points for a win, by how the deciding game ended (a loss scores 0)."""

ON_FIRE_AFTER = 2
"""Consecutive wins after which a player's wins count double, until he loses."""


@dataclass(frozen=True, slots=True)
class RoundRobinStanding:
    """A round robin row."""

    rank: int
    player: PlayerId
    played: int
    wins: int
    losses: int
    points_for: int
    points_against: int
    head_to_head: int
    """Wins against the players tied with him on wins and difference (0 when nobody is)."""

    @property
    def difference(self) -> int:
        """Match points won minus match points lost."""
        return self.points_for - self.points_against


@dataclass(frozen=True, slots=True)
class SwissStanding:
    """A Swiss row."""

    rank: int
    player: PlayerId
    played: int
    wins: int
    byes: int
    score: int
    buchholz: int
    sonneborn_berger: int


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    """An arena row."""

    rank: int
    player: PlayerId
    points: int
    played: int
    wins: int
    streak: int
    """Current run of wins (on fire from :data:`ON_FIRE_AFTER`)."""
    best_streak: int
    performance: int
    """Performance rating (0 before his first match)."""

    @property
    def on_fire(self) -> bool:
        """Whether his next win counts double."""
        return self.streak >= ON_FIRE_AFTER


def round_robin_standings(
    players: Sequence[PlayerId], results: Iterable[MatchResult]
) -> list[RoundRobinStanding]:
    """The round robin table (see the module's rules).

    >>> from bot.tournaments.values import MatchResult as R
    >>> rows = round_robin_standings([1, 2, 3], [R(1, 2, 5, 0), R(2, 3, 5, 4), R(3, 1, 5, 3)])
    >>> [(s.player, s.wins, s.difference) for s in rows]
    [(1, 1, 3), (3, 1, 1), (2, 1, -4)]

    :raises ValueError: for a result of a player who is not in ``players``.
    """
    results = list(results)
    _check_results(players, results)
    wins, won, lost, played = _match_totals(players, results)
    h2h = _head_to_head(players, results, wins, {p: won[p] - lost[p] for p in players})
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(
        players,
        key=lambda p: (-wins[p], lost[p] - won[p], -h2h[p], -won[p], seed[p]),
    )
    return [
        RoundRobinStanding(
            i + 1, p, played[p], wins[p], played[p] - wins[p], won[p], lost[p], h2h[p]
        )
        for i, p in enumerate(order)
    ]


def _match_totals(
    players: Sequence[PlayerId], results: Sequence[MatchResult]
) -> tuple[dict[PlayerId, int], dict[PlayerId, int], dict[PlayerId, int], dict[PlayerId, int]]:
    """Each player's match wins, match points won, match points lost and matches played."""
    wins = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    for r in results:
        wins[r.winner] += 1
        for p in r.players:
            played[p] += 1
        won[r.winner] += r.winner_points
        lost[r.winner] += r.loser_points
        won[r.loser] += r.loser_points
        lost[r.loser] += r.winner_points
    return wins, won, lost, played


def _head_to_head(
    players: Sequence[PlayerId],
    results: Sequence[MatchResult],
    wins: Mapping[PlayerId, int],
    difference: Mapping[PlayerId, int],
) -> dict[PlayerId, int]:
    """Each player's wins against the players tied with him on wins and points difference."""
    tied: dict[tuple[int, int], set[PlayerId]] = {}
    for p in players:
        tied.setdefault((wins[p], difference[p]), set()).add(p)
    h2h = dict.fromkeys(players, 0)
    for r in results:
        if r.loser in tied[(wins[r.winner], difference[r.winner])]:
            h2h[r.winner] += 1
    return h2h


def swiss_standings(
    players: Sequence[PlayerId],
    results: Iterable[MatchResult],
    byes: Iterable[PlayerId] = (),
) -> list[SwissStanding]:
    """The Swiss table (see the module's rules); ``byes`` lists each bye given (a player twice
    if he had two) in the rounds that are over: the bye of a round still being played would
    rank its player above those whose result is not in yet.

    :raises ValueError: for a result or a bye of a player who is not in ``players``.
    """
    results = list(results)
    _check_results(players, results)
    wins = dict.fromkeys(players, 0)
    bye_count = dict.fromkeys(players, 0)
    for p in byes:
        if p not in bye_count:
            raise ValueError(f"bye for player {p}, who is not in the tournament")
        bye_count[p] += 1
    for r in results:
        wins[r.winner] += 1
    score = {p: wins[p] + bye_count[p] for p in players}
    buchholz = dict.fromkeys(players, 0)
    sb = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    for r in results:
        buchholz[r.winner] += score[r.loser]
        buchholz[r.loser] += score[r.winner]
        sb[r.winner] += score[r.loser]
        played[r.winner] += 1
        played[r.loser] += 1
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-score[p], -buchholz[p], -sb[p], seed[p]))
    return [
        SwissStanding(i + 1, p, played[p], wins[p], bye_count[p], score[p], buchholz[p], sb[p])
        for i, p in enumerate(order)
    ]


def arena_points(result: MatchResult, *, wins_before: int) -> int:
    """The points the winner of ``result`` scores, having won his ``wins_before`` last matches.

    >>> from bot.tournaments.values import MatchResult as R, WinType
    >>> arena_points(R(1, 2, win_type=WinType.BACKGAMMON), wins_before=0)
    4
    >>> arena_points(R(1, 2, win_type=WinType.GAMMON), wins_before=2)
    6
    """
    base = ARENA_WIN_POINTS[result.win_type]
    return 2 * base if wins_before >= ON_FIRE_AFTER else base


def arena_standings(
    players: Sequence[PlayerId],
    results: Iterable[MatchResult],
    ratings: Mapping[PlayerId, float] | None = None,
) -> list[ArenaStanding]:
    """The arena table; ``results`` in the order the matches ended (streaks depend on it).

    >>> from bot.tournaments.values import MatchResult as R
    >>> rows = arena_standings([1, 2], [R(1, 2), R(1, 2), R(1, 2), R(2, 1)])
    >>> [(s.player, s.points, s.streak, s.best_streak) for s in rows]
    [(1, 8, 0, 3), (2, 2, 1, 1)]

    :raises ValueError: for a result of a player who is not in ``players``.
    """
    results = list(results)
    _check_results(players, results)
    rating = ratings or {}
    points = dict.fromkeys(players, 0)
    wins = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    streak = dict.fromkeys(players, 0)
    best = dict.fromkeys(players, 0)
    perf_sum = dict.fromkeys(players, 0.0)
    for r in results:
        points[r.winner] += arena_points(r, wins_before=streak[r.winner])
        wins[r.winner] += 1
        streak[r.winner] += 1
        best[r.winner] = max(best[r.winner], streak[r.winner])
        streak[r.loser] = 0
        perf_sum[r.winner] += rating.get(r.loser, 0.0) + 400
        perf_sum[r.loser] += rating.get(r.winner, 0.0) - 400
        for p in r.players:
            played[p] += 1
    perf = {p: round(perf_sum[p] / played[p]) if played[p] else 0 for p in players}
    seed = {p: i for i, p in enumerate(players)}
    order = sorted(players, key=lambda p: (-points[p], -perf[p], -best[p], seed[p]))
    return [
        ArenaStanding(i + 1, p, points[p], played[p], wins[p], streak[p], best[p], perf[p])
        for i, p in enumerate(order)
    ]


def _check_results(players: Sequence[PlayerId], results: Sequence[MatchResult]) -> None:
    known = set(players)
    if len(known) != len(players):
        raise ValueError("a player appears twice")
    for r in results:
        for p in r.players:
            if p not in known:
                raise ValueError(f"result of player {p}, who is not in the tournament")

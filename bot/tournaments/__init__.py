"""Tournaments: all their code. Pairings and standings as pure functions (no Discord, no
database, no I/O), the formats built on them, and in :mod:`bot.tournaments.running` the use
cases that store the players, the rounds and the results and ask the formats what to play
next and who leads:

* :mod:`bot.tournaments.values`: the values they share (:class:`MatchResult`, :class:`Round`);
* :mod:`bot.tournaments.knockout`: seeding and the bracket;
* :mod:`bot.tournaments.pairing`: round robin schedules, Swiss rounds, arena pairings;
* :mod:`bot.tournaments.standings`: the tables, with each format's tie-breaks, and arena scoring;
* :mod:`bot.tournaments.pictures`: the standings as the pictures of :mod:`render.tournament`;
* :mod:`bot.tournaments.plan`: a tournament as stored (:class:`~bot.tournaments.plan.State`),
  read by the formats;
* :mod:`bot.tournaments.formats`: the formats, one object each, and their registry.

>>> rounds = round_robin_schedule([1, 2, 3, 4])
>>> results = [MatchResult(a, b) for r in rounds for a, b in r.pairs]
>>> [row.player for row in round_robin_standings([1, 2, 3, 4], results)][:1]
[1]
"""

from bot.tournaments.knockout import (
    Bracket,
    BracketMatch,
    MatchKey,
    bracket_rounds,
    champion,
    pending_matches,
    seed_at_random,
    seed_by_rating,
)
from bot.tournaments.pairing import arena_pairings, round_robin_schedule, swiss_round
from bot.tournaments.standings import (
    ArenaStanding,
    RoundRobinStanding,
    SwissStanding,
    arena_points,
    arena_standings,
    round_robin_standings,
    swiss_standings,
)
from bot.tournaments.values import MatchResult, PlayerId, Round, WinType

__all__ = [
    "ArenaStanding",
    "Bracket",
    "BracketMatch",
    "MatchKey",
    "MatchResult",
    "PlayerId",
    "Round",
    "RoundRobinStanding",
    "SwissStanding",
    "WinType",
    "arena_pairings",
    "arena_points",
    "arena_standings",
    "bracket_rounds",
    "champion",
    "pending_matches",
    "round_robin_schedule",
    "round_robin_standings",
    "seed_at_random",
    "seed_by_rating",
    "swiss_round",
    "swiss_standings",
]

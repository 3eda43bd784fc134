"""The vocabulary shared by the tournament modules: players, results and rounds (the formats
are objects of their own, :mod:`bot.tournaments.formats`).

Everything here is a plain frozen value: the service stores results in the database and hands
them back to the pure functions of :mod:`bot.tournaments.pairing`,
:mod:`bot.tournaments.knockout` and :mod:`bot.tournaments.standings`, which never do I/O.

A player is known by a :data:`PlayerId` (the service uses its database id). Backgammon has no
draws, so a match result is a winner and a loser, with the match score and, for arenas, the
kind of win that ended it.

>>> r = MatchResult(winner=1, loser=2, winner_points=5, loser_points=3, win_type=WinType.GAMMON)
>>> r.players, r.margin
((1, 2), 2)
>>> Round(pairs=((1, 2), (3, 4)), bye=5).players()
(1, 2, 3, 4, 5)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TypeAlias

__all__ = ["MatchResult", "PlayerId", "Round", "WinType"]

PlayerId: TypeAlias = int
"""A player's identity (the service uses its database id)."""


class WinType(IntEnum):
    """How the game that decided a match ended (its value times the cube, in arena scoring)."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match.

    :param winner_points: the winner's match score (e.g. 5 in a 5-point match won 5-3);
        used for the points difference of round robins.
    :param loser_points: the loser's match score.
    :param win_type: how the deciding game ended; used by arena scoring.
    :raises ValueError: when a player plays himself or the scores say the loser won.
    """

    winner: PlayerId
    loser: PlayerId
    winner_points: int = 1
    loser_points: int = 0
    win_type: WinType = WinType.SINGLE

    def __post_init__(self) -> None:
        if self.winner == self.loser:
            raise ValueError(f"player {self.winner} cannot play himself")
        if self.loser_points < 0 or self.winner_points <= self.loser_points:
            raise ValueError(
                f"the winner must score more than the loser: "
                f"{self.winner_points}-{self.loser_points}"
            )

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        """The winner and the loser."""
        return (self.winner, self.loser)

    @property
    def margin(self) -> int:
        """The winner's points minus the loser's."""
        return self.winner_points - self.loser_points

    def opponent(self, player: PlayerId) -> PlayerId:
        """The other player of the match.

        :raises ValueError: when ``player`` did not play it.
        """
        if player == self.winner:
            return self.loser
        if player == self.loser:
            return self.winner
        raise ValueError(f"player {player} did not play {self.winner} v {self.loser}")


@dataclass(frozen=True, slots=True)
class Round:
    """The pairings of one round: the matches to play and the player who sits out, if any.

    In a Swiss tournament the bye counts as a win; in a round robin it scores nothing (every
    player gets one when the count is odd).
    """

    pairs: tuple[tuple[PlayerId, PlayerId], ...]
    bye: PlayerId | None = None

    def players(self) -> tuple[PlayerId, ...]:
        """Every player of the round, in order, the bye last."""
        out = [p for pair in self.pairs for p in pair]
        if self.bye is not None:
            out.append(self.bye)
        return tuple(out)

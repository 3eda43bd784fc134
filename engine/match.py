"""Matches to N points with the Crawford rule, and single money games.

A :class:`Match` owns its games; the score is what the finished games earned. The game after a
player first reaches N-1 points is the Crawford game (no doubling); doubling resumes after it.

>>> m = Match(length=3)
>>> m.game.opening_roll(6, 1); _ = m.game.play_text("13/7 8/7")
>>> m.game.resign(1, 2); m.game.accept_resignation()   # player 1 resigns a gammon: 2 points
>>> m.score, m.is_over
((2, 0), False)
>>> m.next_game().crawford
True
"""

from __future__ import annotations

from typing import Any

from engine.context import MAX_CUBE
from engine.errors import GameStateError
from engine.game import Game
from engine.variant import Variant

__all__ = ["Match"]


class Match:
    """A match to ``length`` points (0: a single money game).

    :param jacoby: money game only: gammons count only once the cube has been turned.
    :param cube: False to play without the doubling cube.
    :param variant: the variant every game of the match is played in.

    >>> Match(length=3, variant=Variant.NACKGAMMON).game.position.position_id()
    '4Dl4ADbgOXgANg'
    """

    def __init__(
        self,
        *,
        length: int = 0,
        jacoby: bool = False,
        cube: bool = True,
        variant: Variant = Variant.STANDARD,
    ) -> None:
        if not 0 <= length <= 64:
            raise ValueError("a match is played to 1..64 points (0 for a money game)")
        self.length = length
        self.jacoby = bool(jacoby and not length)
        self.cube = cube
        self.variant = variant
        # A match taken up from a GNU Backgammon Match ID starts at its score (and is past its
        # Crawford game when a player stands one point short: its games know that from the score).
        self.start_score: tuple[int, int] = (0, 0)
        self.forfeited_by: int | None = None  # who abandoned the match (a claim on time)
        self.games: list[Game] = [self._new_game((0, 0), crawford=False)]

    def _new_game(self, score: tuple[int, int], *, crawford: bool) -> Game:
        return Game(
            match_length=self.length,
            score=score,
            crawford=crawford,
            jacoby=self.jacoby,
            cube=self.cube,
            variant=self.variant,
        )

    @property
    def game(self) -> Game:
        """The current (last) game."""
        return self.games[-1]

    @property
    def score(self) -> tuple[int, int]:
        """Points won so far by players 0 and 1 (finished games only)."""
        won = list(self.start_score)
        for g in self.games:
            if g.result is not None:
                won[g.result.winner] += g.result.points
        return won[0], won[1]

    @property
    def is_over(self) -> bool:
        """True when the match (or the money game) is decided."""
        if self.forfeited_by is not None:
            return True
        if not self.game.is_over:
            return False
        return not self.length or max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        if self.forfeited_by is not None:
            return 1 - self.forfeited_by
        if not self.length:
            result = self.game.result
            return None if result is None else result.winner
        return 0 if self.score[0] >= self.length else 1

    def next_game(self) -> Game:
        """Start the next game of the match once the current one is over.

        :raises GameStateError: while the current game goes on, or when the match is over.
        """
        if not self.game.is_over:
            raise GameStateError("the current game is not over yet", code="match.game_on")
        if self.is_over:
            raise GameStateError("the match is over", code="match.over")
        game = self._new_game(self.score, crawford=self.game.next_is_crawford())
        self.games.append(game)
        return game

    def forfeit(self, loser: int) -> None:
        """``loser`` abandons the match (he let the move timer run out and the other player
        claimed): the game in progress is scored as a single game resigned, and the match is
        over, won by the other player, whatever the score.

        >>> m = Match(length=7)
        >>> m.game.opening_roll(3, 1)
        >>> m.forfeit(1)
        >>> m.is_over, m.winner, m.score
        (True, 0, (1, 0))

        :raises GameStateError: when the match is already over.
        """
        if loser not in (0, 1):
            raise ValueError("players are 0 and 1")
        if self.is_over:
            raise GameStateError("the match is over", code="match.over")
        if not self.game.is_over:
            self.game.forfeit(loser, 1)
        self.forfeited_by = loser

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot of the whole match; :meth:`from_dict` restores it."""
        d: dict[str, Any] = {
            "v": 1,
            "length": self.length,
            "jacoby": self.jacoby,
            "cube": self.cube,
            "games": [g.to_dict() for g in self.games],
        }
        if self.variant is not Variant.STANDARD:
            d["variant"] = self.variant.value
        if self.start_score != (0, 0):
            d["start_score"] = list(self.start_score)
        if self.forfeited_by is not None:
            d["forfeited_by"] = self.forfeited_by
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Match:
        """Restore a match saved by :meth:`to_dict`.

        :raises ValueError: when it is not a saved match.
        """
        try:
            m = cls(
                length=int(d["length"]),
                jacoby=bool(d["jacoby"]),
                cube=bool(d["cube"]),
                variant=Variant(d.get("variant", Variant.STANDARD)),
            )
            games = [Game.from_dict(g) for g in d["games"]]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a saved match: {exc!r}") from None
        if not games:
            raise ValueError("not a saved match: it has no game")
        m.games = games
        start = d.get("start_score", (0, 0))
        m.start_score = (int(start[0]), int(start[1]))
        forfeited = d.get("forfeited_by")
        m.forfeited_by = None if forfeited is None else int(forfeited)
        return m

    @classmethod
    def from_ids(
        cls,
        position_id: str,
        match_id: str | None = None,
        *,
        cube: bool = True,
        variant: Variant = Variant.STANDARD,
    ) -> Match:
        """A match whose current game stands where GNU Backgammon's IDs say: the position (seen
        by the player on roll), and from the Match ID the length, score, cube, Crawford flag,
        who is on roll, the dice if rolled and a double on offer. Without a Match ID: a money
        game, player 0 on roll, before rolling.

        >>> m = Match.from_ids("4HPwATDgc/ABMA", "MAEgASAAIAAE")  # 9 points, score 2-4
        >>> m.length, m.score, m.game.phase.value, m.game.on_roll
        (9, (2, 4), 'roll', 0)
        >>> Match.from_ids("4HPwATDgc/ABMA", "QYkqASAAIAAA").game.dice
        (5, 2)

        :raises InvalidPositionIdError, InvalidMatchIdError: on a bad ID.
        :raises GameStateError: when the Match ID describes no game being played.
        """
        from engine.ids import GameState, MatchKey, decode_match_id
        from engine.position import Position

        position = Position.from_position_id(position_id, checkers=variant.checkers)
        key = decode_match_id(match_id) if match_id else MatchKey()
        if key.game_state not in (GameState.PLAYING, GameState.NONE):
            raise GameStateError(
                "that Match ID describes a finished game", code="match.not_playing"
            )
        length = key.match_length
        if length and max(key.score) >= length:
            raise GameStateError("that Match ID describes a finished match", code="match.over")
        if key.cube_value > MAX_CUBE:
            raise GameStateError(f"the cube is at most {MAX_CUBE}", code="cube.max", max=MAX_CUBE)
        m = cls(length=length, jacoby=key.jacoby and not length, cube=cube, variant=variant)
        m.start_score = key.score if length else (0, 0)
        m.games = [Game.from_key(position, key, jacoby=m.jacoby, cube=cube, variant=variant)]
        return m

"""What a decision depends on besides the checkers: the cube and the score.

A :class:`MatchContext` is seen from the same side as the :class:`~engine.position.Position` it
goes with: player 0 is the player on roll in that position (or, for a take decision, the player
who must answer). Computer players receive it with every cube decision.

>>> ctx = MatchContext(match_length=7, score=(4, 6))
>>> ctx.away()
(3, 1)
>>> ctx.may_double(0)
True
>>> MatchContext(match_length=7, score=(4, 6), crawford=True).may_double(0)
False
"""

from __future__ import annotations

from dataclasses import dataclass, replace

__all__ = ["MAX_CUBE", "MatchContext"]

MAX_CUBE = 64


@dataclass(frozen=True, slots=True)
class MatchContext:
    """Cube and score from the view of player 0 (the side to act).

    ``cube_owner`` is None while the cube is centred, else 0 or 1. ``match_length`` 0 is a money
    game, where ``jacoby`` (gammons count only once the cube has been turned) may apply.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False

    def away(self) -> tuple[int, int]:
        """Points each side still needs (0, 0 in a money game)."""
        if not self.match_length:
            return (0, 0)
        return (self.match_length - self.score[0], self.match_length - self.score[1])

    def may_double(self, player: int) -> bool:
        """Whether ``player`` may offer a double now (ignoring whose turn it is).

        >>> MatchContext(match_length=5, score=(3, 0), cube_value=2).may_double(0)  # dead cube
        False
        >>> MatchContext(match_length=5, score=(3, 0), cube_value=2).may_double(1)
        True
        """
        if self.crawford or self.cube_value >= MAX_CUBE:
            return False
        if self.cube_dead(player):
            return False
        return self.cube_owner in (None, player)

    def cube_dead(self, player: int) -> bool:
        """True in a match when winning this game at the current stake already gives ``player``
        the match: GNU Backgammon 1.07 then refuses his double ("The cube is dead")."""
        return bool(self.match_length) and self.score[player] + self.cube_value >= self.match_length

    def swapped(self) -> MatchContext:
        """The same context seen by the other player.

        >>> MatchContext(cube_value=2, cube_owner=0, score=(1, 3), match_length=5).swapped().score
        (3, 1)
        """
        owner = None if self.cube_owner is None else 1 - self.cube_owner
        return replace(self, cube_owner=owner, score=(self.score[1], self.score[0]))

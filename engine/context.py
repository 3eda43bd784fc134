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
from typing import Any

from engine.errors import GameStateError

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

    @classmethod
    def seen_by(
        cls,
        player: int,
        *,
        cube_value: int,
        cube_owner: int | None,
        match_length: int,
        score: tuple[int, int],
        crawford: bool = False,
        jacoby: bool = False,
    ) -> MatchContext:
        """The context seen by ``player`` (0 or 1) of a game whose cube owner and score are
        given for players 0 and 1.

        >>> ctx = MatchContext.seen_by(1, cube_value=2, cube_owner=1, match_length=5, score=(3, 1))
        >>> ctx.cube_owner, ctx.score
        (0, (1, 3))
        """
        owner = None if cube_owner is None else (0 if cube_owner == player else 1)
        mine = score if player == 0 else (score[1], score[0])
        return cls(cube_value, owner, match_length, mine, crawford, jacoby)

    def to_dict(self) -> dict[str, Any]:
        """The context as stored with a review or a puzzle (JSON: the score is a list).

        >>> MatchContext(cube_value=2, cube_owner=1, match_length=5, score=(3, 1)).to_dict()
        {'cube': 2, 'owner': 1, 'length': 5, 'score': [3, 1], 'crawford': False, 'jacoby': False}
        """
        return {
            "cube": self.cube_value,
            "owner": self.cube_owner,
            "length": self.match_length,
            "score": list(self.score),
            "crawford": self.crawford,
            "jacoby": self.jacoby,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MatchContext:
        """The context :meth:`to_dict` stored (a missing owner is a centred cube).

        >>> ctx = MatchContext(cube_value=4, cube_owner=0, match_length=7, score=(2, 5))
        >>> MatchContext.from_dict(ctx.to_dict()) == ctx
        True
        >>> MatchContext.from_dict({"cube": 1, "length": 0, "score": [0, 0],
        ...                         "crawford": False, "jacoby": True}).cube_owner is None
        True
        """
        owner = d.get("owner")
        return cls(
            int(d["cube"]),
            None if owner is None else int(owner),
            int(d["length"]),
            (int(d["score"][0]), int(d["score"][1])),
            bool(d["crawford"]),
            bool(d["jacoby"]),
        )

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
        return self.why_no_double(player) is None

    def why_no_double(self, player: int) -> GameStateError | None:
        """Why ``player`` may not offer a double now (ignoring whose turn it is), or None when
        he may: the one place for the cube's rules (the Crawford game, the maximum cube, who
        owns the cube, a dead cube).

        >>> MatchContext(cube_value=2, cube_owner=1).why_no_double(0).code
        'cube.owner'
        >>> MatchContext(cube_value=2, cube_owner=0).why_no_double(0) is None
        True
        """
        if self.crawford:
            return GameStateError("no doubling in the Crawford game", code="cube.crawford")
        if self.cube_value >= MAX_CUBE:
            return GameStateError(
                f"the cube is at its maximum ({MAX_CUBE})", code="cube.max", max=MAX_CUBE
            )
        if self.cube_owner not in (None, player):
            return GameStateError("only the owner of the cube can redouble", code="cube.owner")
        if self.cube_dead(player):
            return GameStateError(
                "the cube is dead: winning this game at the current stake already wins the match",
                code="cube.dead",
            )
        return None

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

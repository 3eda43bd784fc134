"""The rules of a ladder, as pure functions over its rungs.

A ladder is a tuple of player ids, the top rung first (rung 1 is index 0). A member joins at the
bottom and may challenge anyone up to ``reach`` rungs above him. When the lower player of a
challenge wins, he takes the loser's rung and everyone between moves down one; when the higher
one wins, nothing moves. A member inactive for a set period drops one rung per period, below
the nearest active member under him (all the inactive drop together; all inactive: none
moves). Every function returns a new tuple holding the same members: the ladder stays a
permutation of its members (``tests/ladders/test_rules.py`` checks it with Hypothesis).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

__all__ = [
    "ACTIONS",
    "Verdict",
    "after_result",
    "dropped",
    "idle_dropped",
    "joined",
    "left",
    "may_challenge",
    "rung_of",
    "targets",
]

Rungs = tuple[int, ...]

# The actions of /ladder, its first option (the command's choices and the use case read it).
ACTIONS = ("create", "join", "leave", "challenge", "show", "close", "list")


class Verdict(StrEnum):
    """Whether a challenge may be made, and if not, why (each a message of the catalog:
    ``ladder.error.<verdict>``)."""

    OK = "ok"
    NOT_MEMBER = "not_member"  # the challenger is not on the ladder
    NOT_ON_LADDER = "not_on_ladder"  # the one challenged is not
    SELF = "self"
    BELOW = "below"  # the one challenged is below the challenger
    TOO_FAR = "too_far"  # more than ``reach`` rungs above


def rung_of(rungs: Rungs, player: int) -> int:
    """The player's rung, from 1 at the top; 0 when he is not on the ladder."""
    return rungs.index(player) + 1 if player in rungs else 0


def joined(rungs: Rungs, player: int) -> Rungs:
    """A new member, at the bottom (a member already on it stays where he is)."""
    return rungs if player in rungs else (*rungs, player)


def left(rungs: Rungs, player: int) -> Rungs:
    """A member leaves; those below him move up one."""
    return tuple(p for p in rungs if p != player)


def targets(rungs: Rungs, player: int, reach: int) -> Rungs:
    """Whom ``player`` may challenge: the members up to ``reach`` rungs above him, nearest
    first."""
    rung = rung_of(rungs, player)
    if rung <= 1:
        return ()
    return tuple(reversed(rungs[max(0, rung - 1 - reach) : rung - 1]))


def may_challenge(rungs: Rungs, challenger: int, defender: int, reach: int) -> Verdict:
    """Whether ``challenger`` may challenge ``defender`` on this ladder."""
    if challenger not in rungs:
        return Verdict.NOT_MEMBER
    if defender == challenger:
        return Verdict.SELF
    if defender not in rungs:
        return Verdict.NOT_ON_LADDER
    gap = rung_of(rungs, challenger) - rung_of(rungs, defender)
    if gap < 0:
        return Verdict.BELOW
    if gap > reach:
        return Verdict.TOO_FAR
    return Verdict.OK


def after_result(rungs: Rungs, winner: int, loser: int) -> Rungs:
    """The ladder after ``winner`` beat ``loser``: a winner from below takes the loser's rung
    and everyone from there to the winner's old rung moves down one; a winner from above keeps
    the ladder as it is (as does a result of someone no longer on it)."""
    if winner not in rungs or loser not in rungs:
        return rungs
    high, low = rungs.index(loser), rungs.index(winner)
    if low < high:
        return rungs
    return (*rungs[:high], winner, *rungs[high:low], *rungs[low + 1 :])


def dropped(rungs: Rungs, player: int, steps: int = 1) -> Rungs:
    """``player`` moves down ``steps`` rungs (no lower than the bottom); those he passes move up
    one."""
    if player not in rungs or steps <= 0:
        return rungs
    rest = left(rungs, player)
    place = min(len(rest), rungs.index(player) + steps)
    return (*rest[:place], player, *rest[place:])


def idle_dropped(rungs: Rungs, idle: Sequence[int]) -> Rungs:
    """The members of ``idle`` drop one rung together, relative to the active ones: each idle
    member goes below the nearest active member under him (who moves up over the idle ones
    between), the lowest first, so the idle keep their order among themselves and so do the
    active. An idle member with no active one below him stays; when everyone is idle, nobody
    moves (sequential drops would rotate the ladder).

    >>> idle_dropped((1, 2, 3), [1, 2])
    (3, 1, 2)
    >>> idle_dropped((1, 2, 3), [1, 2, 3])
    (1, 2, 3)
    >>> idle_dropped((1, 2, 3, 4), [1, 3])
    (2, 1, 4, 3)
    """
    lazy = set(idle) & set(rungs)
    out = list(rungs)
    for player in sorted(lazy, key=rungs.index, reverse=True):
        here = out.index(player)
        below = next((k for k in range(here + 1, len(out)) if out[k] not in lazy), None)
        if below is not None:
            out.insert(here, out.pop(below))
    return tuple(out)

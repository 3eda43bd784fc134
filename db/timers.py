"""The move timer's notices, claimed with a compare-and-swap on the game's version.

The timer sweep reads a game, decides which notice is due (a reminder, the offer to claim) and
records it in ``games.timer_stage`` before sending it. A move can commit between the read and
that write: it resets ``timer_stage`` to 0 with a new deadline. Checking only the stage seen
would then still match (0 -> 1 or 0 -> 2) and push the fresh deadline's notices ahead: a claim
offer for a player who has just moved, no reminder for the new deadline. The UPDATE therefore
also requires the version read, as every move's save does (:mod:`db.games`); it does not bump
the version, since the buttons on the board stay valid.
"""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from db.models import Game

__all__ = ["advance_timer_stage"]


def advance_timer_stage(
    session: Session, game_id: int, *, version: int, seen: int, stage: int
) -> bool:
    """Move the game's notice stage from ``seen`` to ``stage`` if the game is still at
    ``version`` with that stage. False when anything changed since it was read (a move, another
    process's sweep): the caller then sends nothing.

    :raises ValueError: when ``stage`` does not go forward.
    """
    if stage <= seen:
        raise ValueError(f"the timer stage only goes forward, not from {seen} to {stage}")
    result = session.execute(
        update(Game)
        .where(Game.id == game_id, Game.version == version, Game.timer_stage == seen)
        .values(timer_stage=stage)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]

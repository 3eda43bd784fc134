"""The persistence layer's exceptions.

The bot maps each one to a specific reply; none of them leaves a half-written action behind
(the unit of work that raised rolls back as a whole).
"""

from __future__ import annotations

__all__ = [
    "ChallengeClosed",
    "ChallengePending",
    "DatabaseUnavailable",
    "DbError",
    "GameMovedOn",
    "GameNotFound",
]


class DbError(Exception):
    """Base class of the errors the repositories raise on purpose."""


class GameNotFound(DbError, LookupError):
    """No game has this id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game #{game_id}")
        self.game_id = game_id


class GameMovedOn(DbError):
    """The game changed since the caller read it: another action (a second click, another bot
    process) applied first. Nothing of the caller's action was written; the bot answers "the game
    moved on" and shows the current board."""

    def __init__(self, game_id: int, expected_version: int | None = None) -> None:
        detail = (
            "" if expected_version is None else f" (the action was for version {expected_version})"
        )
        super().__init__(f"game #{game_id} moved on{detail}")
        self.game_id = game_id
        self.expected_version = expected_version


class ChallengeClosed(DbError):
    """The challenge is no longer pending: it was already answered, cancelled or it expired."""

    def __init__(self, challenge_id: int, status: str | None) -> None:
        super().__init__(f"challenge #{challenge_id} is no longer pending ({status or 'missing'})")
        self.challenge_id = challenge_id
        self.status = status


class DatabaseUnavailable(DbError):
    """The database could not do its part of the action: the server is down, silent or dropped
    the connection, the disk is full or read-only, a lock was held longer than the timeouts.
    The action's unit of work rolled back as a whole, so nothing of it was written and the
    player may simply try again; the bot answers "the database is unavailable".

    The engine raises it in place of SQLAlchemy's ``OperationalError`` (see
    :mod:`db.resilience`); ``__cause__`` keeps the driver's error for the logs.
    """

    def __init__(self, detail: str) -> None:
        super().__init__(f"the database is unavailable: {detail}")
        self.detail = detail


class ChallengePending(DbError):
    """The two players already have a pending challenge between them (``challenge_id``, made
    by either of them): one at a time per pair, enforced by a unique index."""

    def __init__(self, challenge_id: int | None) -> None:
        super().__init__(f"a challenge is already pending between them (#{challenge_id})")
        self.challenge_id = challenge_id

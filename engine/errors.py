"""The engine's exceptions.

Every refusal of bad input is a :class:`ValueError` subclass, so callers can catch one type and show
its message, while tests and tools can tell the kinds apart.
"""

from __future__ import annotations

__all__ = [
    "AmbiguousPlayError",
    "BackgammonError",
    "GameStateError",
    "IllegalPlayError",
    "InvalidMatchIdError",
    "InvalidPositionError",
    "InvalidPositionIdError",
    "PlaySyntaxError",
]


class BackgammonError(ValueError):
    """Base class of every error the engine raises on bad input."""


class PlaySyntaxError(BackgammonError):
    """The text of a play cannot be read as backgammon notation (``"24/18 13/11"``)."""


class IllegalPlayError(BackgammonError):
    """The play is well written but not legal in this position with these dice."""


class AmbiguousPlayError(BackgammonError):
    """The text matches more than one legal play (for example ``"24/18"`` with 6-6 could mean
    several things only when it is incomplete; the message lists the candidates)."""


class InvalidPositionError(BackgammonError):
    """A position that cannot exist (wrong checker count, both sides on one point, ...)."""


class InvalidPositionIdError(InvalidPositionError):
    """A GNU Backgammon Position ID that cannot be decoded into a legal position."""


class InvalidMatchIdError(BackgammonError):
    """A GNU Backgammon Match ID that cannot be decoded."""


class GameStateError(BackgammonError):
    """An action that the rules do not allow at this moment of the game (rolling twice, doubling
    when the cube is not yours, moving while a double is offered, ...)."""

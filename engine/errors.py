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
    """Base class of every error the engine raises on bad input.

    ``str(error)`` is an English sentence for logs and library users. ``code`` names the kind of
    refusal and ``params`` holds its values, so an application can show the same refusal in the
    user's language (the bot's message catalog has an entry per code).

    >>> e = IllegalPlayError("point 5 is held", code="illegal.blocked", point=5)
    >>> e.code, e.params, str(e)
    ('illegal.blocked', {'point': 5}, 'point 5 is held')
    """

    code = "error"

    def __init__(self, message: str, *, code: str | None = None, **params: object) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.params: dict[str, object] = params


class PlaySyntaxError(BackgammonError):
    """The text of a play cannot be read as backgammon notation (``"24/18 13/11"``)."""

    code = "syntax"


class IllegalPlayError(BackgammonError):
    """The play is well written but not legal in this position with these dice."""

    code = "illegal"


class AmbiguousPlayError(BackgammonError):
    """The text matches more than one legal play (for example ``"24/18"`` with 6-6 could mean
    several things only when it is incomplete; the message lists the candidates)."""

    code = "ambiguous"


class InvalidPositionError(BackgammonError):
    """A position that cannot exist (wrong checker count, both sides on one point, ...)."""

    code = "position.invalid"


class InvalidPositionIdError(InvalidPositionError):
    """A GNU Backgammon Position ID that cannot be decoded into a legal position."""

    code = "position_id.invalid"


class InvalidMatchIdError(BackgammonError):
    """A GNU Backgammon Match ID that cannot be decoded."""

    code = "match_id.invalid"


class GameStateError(BackgammonError):
    """An action that the rules do not allow at this moment of the game (rolling twice, doubling
    when the cube is not yours, moving while a double is offered, ...)."""

    code = "state"

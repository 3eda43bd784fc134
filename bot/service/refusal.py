"""Refusals: an action turned down before anything changed, and the small parsers that raise
them. A leaf module: every use case imports it, it imports none of them."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.i18n import Text
from bot.service.customid import row_id

__all__ = ["Refusal", "aware", "check_game_id", "int_arg", "point_arg", "quoted"]


class Refusal(Exception):
    """An action refused before anything changed; ``text`` says why."""

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key)
        self.text = Text(key, **params)


QUOTED = 40  # characters of something typed that a refusal quotes back


def quoted(typed: str) -> str:
    """What a refusal quotes of something typed: its first :data:`QUOTED` characters (a page
    pasted into the terminal came back whole, 100,000 characters in one message).

    >>> quoted("x" * 100)
    'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'
    """
    return typed if len(typed) <= QUOTED else typed[: QUOTED - 1] + "…"


def aware(moment: datetime) -> datetime:
    """SQLite returns naive datetimes for aware columns: they are UTC.

    >>> aware(datetime(2026, 1, 1)).tzinfo is UTC
    True
    """
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def check_game_id(game_id: object) -> int:
    """A game number as typed, if a game can have it (:func:`~bot.service.customid.row_id`);
    any other is refused as an unknown game's, without asking the database."""
    checked = row_id(game_id)
    if checked is None:
        raise Refusal("error.no_such_game", id=game_id)
    return checked


def int_arg(arg: str | None, allowed: tuple[int, ...], key: str) -> int:
    """A button's number argument, one of ``allowed``; else refused with ``key``.

    >>> int_arg("2", (1, 2, 3), "error.bad_button")
    2
    """
    try:
        value = int(arg or "")
    except ValueError:
        raise Refusal(key) from None
    if value not in allowed:
        raise Refusal(key)
    return value


def point_arg(arg: str | None) -> tuple[int, int]:
    """A point button's ``<point>-<die>``.

    >>> point_arg("13-6")
    (13, 6)
    """
    try:
        src, die = (int(x) for x in (arg or "").split("-"))
    except ValueError:
        raise Refusal("error.bad_button") from None
    if not (1 <= src <= 25 and 1 <= die <= 6):
        raise Refusal("error.bad_button")
    return src, die

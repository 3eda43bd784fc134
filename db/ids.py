"""The range of the row ids the bot hands out, checked before any query.

``games.id``, ``challenges.id``, ``tournaments.id``, ``puzzles.id`` and ``daily_posts.id`` are
32-bit INTEGER columns, while the ids a user can type (a command option: up to 2^53 - 1 on
Discord) or forge (a button's custom id) are wider. On
PostgreSQL a comparison with a wider number fails the whole statement (NumericValueOutOfRange),
instead of finding nothing; SQLite would find nothing. The repositories therefore treat an id
outside the column's range as what it is, the id of no row, without asking the database. (The
service refuses such ids where it parses them, ``bot.service.customid.row_id``; this is the
guard of last resort.)
"""

from __future__ import annotations

__all__ = ["MAX_ID", "MIN_ID", "in_range"]

MIN_ID = -(2**31)
MAX_ID = 2**31 - 1


def in_range(row_id: object) -> bool:
    """Whether ``row_id`` can be the id of a game, challenge, tournament, puzzle or post row
    (a 32-bit signed integer).

    >>> in_range(2**31 - 1), in_range(2**31), in_range(-(2**31) - 1), in_range(True)
    (True, False, False, False)
    """
    return type(row_id) is int and MIN_ID <= row_id <= MAX_ID

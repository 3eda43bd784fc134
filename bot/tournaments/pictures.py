"""The tournament pictures of :mod:`render.tournament`, from brackets and standings.

The service keeps players by id; these functions take a ``names`` mapping (id to display name)
and the viewer's language, and return the PNG bytes to attach.

>>> from bot.tournaments import Bracket, MatchResult, swiss_standings
>>> names = {1: "Ann", 2: "Bob", 3: "Cy"}
>>> bracket_picture(Bracket.seeded([1, 2, 3]), {(0, 1): 3}, names)[:4]
b'\\x89PNG'
>>> standings_picture("swiss", swiss_standings([1, 2, 3], [MatchResult(1, 2)]), names)[:4]
b'\\x89PNG'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from bot.drawers import DRAWERS
from bot.tournaments.knockout import (
    Bracket,
    BracketMatch,
    MatchKey,
    bracket_rounds,
    champion,
    seed_order,
)
from bot.tournaments.standings import ArenaStanding, RoundRobinStanding, SwissStanding
from bot.tournaments.values import PlayerId
from render.tournament import (
    BracketGame,
    BracketPicture,
    Entrant,
    StandingsRow,
    StandingsTable,
    TableFormat,
    render_bracket,
    render_standings,
)

__all__ = ["PAGE_ROWS", "bracket_picture", "standings_page", "standings_picture"]

PAGE_ROWS = 32
"""Rows in one standings picture: a phone shows them at a readable size."""

Standing = RoundRobinStanding | SwissStanding | ArenaStanding


def bracket_picture(
    bracket: Bracket,
    winners: Mapping[MatchKey, PlayerId],
    names: Mapping[PlayerId, str],
    *,
    scores: Mapping[MatchKey, tuple[int, int]] | None = None,
    title: str = "",
    subtitle: str = "",
    lang: str = "en",
    from_round: int = 0,
    viewer: PlayerId | None = None,
) -> bytes:
    """The bracket with the results so far (``scores``: each match's top and bottom scores),
    the ``viewer``'s rows in blue.

    :param from_round: the first round to draw: a bracket of 32 or more is shorter once its
        first rounds are over and left out.
    """
    seed_of = _seeds(bracket)
    every = bracket_rounds(bracket, winners)
    from_round = max(0, min(from_round, len(every) - 1))
    rounds = tuple(
        tuple(_game(m, names, seed_of, scores or {}, viewer) for m in r) for r in every[from_round:]
    )
    winner = champion(bracket, winners)
    return DRAWERS.call(
        render_bracket,
        BracketPicture(
            rounds,
            title=title,
            subtitle=subtitle,
            champion=None if winner is None else names.get(winner, str(winner)),
            lang=lang,
            first_round=from_round,
        ),
    )


def _game(
    m: BracketMatch,
    names: Mapping[PlayerId, str],
    seed_of: Mapping[PlayerId, int],
    scores: Mapping[MatchKey, tuple[int, int]],
    viewer: PlayerId | None,
) -> BracketGame:
    """One match of the bracket as drawn: its two entrants, scores and winner."""

    def entrant(player: PlayerId | None, score: int | None) -> Entrant:
        if player is None:
            return Entrant()
        name = names.get(player, str(player))
        return Entrant(name, seed_of.get(player), score, mine=player == viewer)

    top_score, bottom_score = scores.get(m.key, (None, None))
    won: Literal[0, 1] | None = None
    if m.winner is not None and not m.bye:
        won = 0 if m.winner == m.top else 1
    return BracketGame(entrant(m.top, top_score), entrant(m.bottom, bottom_score), won, bye=m.bye)


def _seeds(bracket: Bracket) -> dict[PlayerId, int]:
    """Each player's seed, read back from his slot (:meth:`Bracket.seeded` puts seed ``k`` in
    the ``k``-th place of the standard order)."""
    order = seed_order(bracket.size)
    return {p: seed for p, seed in zip(bracket.slots, order, strict=True) if p is not None}


def standings_page(
    standings: Sequence[Standing], *, viewer: PlayerId | None = None, rows: int = PAGE_ROWS
) -> tuple[int, int]:
    """The slice ``(start, stop)`` of ``standings`` to draw: the top ``rows``, or, when the
    viewer is further down, the page around him (so each player finds himself).

    >>> from bot.tournaments import swiss_standings
    >>> table = swiss_standings(list(range(100)), [])
    >>> standings_page(table), standings_page(table, viewer=70)
    ((0, 32), (54, 86))
    """
    where = next((i for i, s in enumerate(standings) if s.player == viewer), None)
    if where is None or where < rows:
        return 0, min(rows, len(standings))
    start = min(max(0, where - rows // 2), max(0, len(standings) - rows))
    return start, min(start + rows, len(standings))


def standings_picture(
    table_format: TableFormat,
    standings: Sequence[Standing],
    names: Mapping[PlayerId, str],
    *,
    viewer: PlayerId | None = None,
    rows: int | None = PAGE_ROWS,
    title: str = "",
    subtitle: str = "",
    lang: str = "en",
) -> bytes:
    """The standings as a table picture: one page of ``rows`` (the top, or the viewer's page,
    see :func:`standings_page`), or all of them when ``rows`` is ``None``.

    :raises ValueError: when a row does not belong to ``table_format``.
    """
    start, stop = (
        (0, len(standings)) if rows is None else standings_page(standings, viewer=viewer, rows=rows)
    )
    drawn = tuple(
        _row(table_format, s, names.get(s.player, str(s.player)), s.player == viewer)
        for s in standings[start:stop]
    )
    total = len(standings) if stop - start < len(standings) else None
    return DRAWERS.call(
        render_standings,
        StandingsTable(table_format, drawn, title=title, subtitle=subtitle, lang=lang, total=total),
    )


def _row(table_format: TableFormat, s: Standing, name: str, mine: bool) -> StandingsRow:
    if table_format == "round_robin" and isinstance(s, RoundRobinStanding):
        cells = (str(s.played), str(s.wins), str(s.losses), _signed(s.difference))
        return StandingsRow(s.rank, name, cells, highlight=mine)
    if table_format == "swiss" and isinstance(s, SwissStanding):
        numbers = (s.score, s.buchholz, s.sonneborn_berger, s.played + s.byes)
        return StandingsRow(s.rank, name, tuple(map(str, numbers)), highlight=mine)
    if table_format == "arena" and isinstance(s, ArenaStanding):
        perf = _signed(s.performance, plus="") if s.played else "–"
        values = (str(s.points), str(s.played), str(s.wins), str(s.best_streak), perf)
        return StandingsRow(s.rank, name, values, on_fire=s.on_fire, highlight=mine)
    raise ValueError(f"a {type(s).__name__} is not a row of a {table_format} table")


def _signed(n: int, plus: str = "+") -> str:
    """``n`` with a typographic minus (and ``plus`` before a positive number).

    >>> _signed(-4), _signed(3), _signed(0)
    ('−4', '+3', '0')
    """
    if n < 0:
        return f"−{-n}"
    return f"{plus}{n}" if n else "0"

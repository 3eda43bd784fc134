"""Writing plays in standard notation (``"13/7*/5 6/5"``), as GNU Backgammon's ``FormatMove``
does: steps sorted from the highest point, a checker's consecutive steps joined (the intermediate
point shown only when it hits), identical steps counted as ``(2)``.

A leaf below :mod:`engine.movegen` (whose plays print themselves with it) and
:mod:`engine.notation` (which reads what players type, and re-exports these functions).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.position import BAR, OFF, Move

__all__ = ["format_moves", "format_point"]


def format_point(point: int) -> str:
    """``"bar"`` for 25, ``"off"`` for 0, else the number.

    >>> format_point(25), format_point(0), format_point(7)
    ('bar', 'off', '7')
    """
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def format_moves(moves: Iterable[Move]) -> str:
    """Standard notation of the checker steps of a play (what ``str(play)`` returns).

    >>> format_moves([Move(8, 5, 3), Move(8, 5, 3), Move(6, 3, 3), Move(6, 3, 3)])
    '8/5(2) 6/3(2)'
    >>> format_moves([Move(13, 7, 6, True), Move(7, 5, 2)])
    '13/7*/5'
    """
    steps = sorted(moves, key=lambda m: (-m.src, -m.dst))
    # A point where the play hits stays written in every journey through it, as GNU Backgammon
    # writes it (two checkers 9/7*/5 make "9/7*/5(2)", not "9/7*/5 9/5").
    hit_anywhere = {m.dst for m in steps if m.hit}
    # Each chain is [points..., set of hit points]; join a step onto an earlier chain that ends
    # where the step starts (the same checker moving on).
    chains: list[tuple[list[int], set[int]]] = []
    for m in steps:
        for points, hits in chains:
            if points[-1] == m.src and m.src not in (OFF, BAR):
                if points[-1] not in hit_anywhere:
                    points.pop()
                points.append(m.dst)
                if m.hit:
                    hits.add(m.dst)
                break
        else:
            chains.append(([m.src, m.dst], {m.dst} if m.hit else set()))
    # Identical journeys are written once with a count; a hit shows on the first of them.
    counts: Counter[tuple[int, ...]] = Counter()
    hit_points: dict[tuple[int, ...], set[int]] = {}
    for points, hits in chains:
        counts[tuple(points)] += 1
        hit_points.setdefault(tuple(points), set()).update(hits)
    parts = []
    for journey, count in counts.items():
        text = format_point(journey[0])
        for p in journey[1:]:
            text += "/" + format_point(p) + ("*" if p in hit_points[journey] else "")
        parts.append(text + (f"({count})" if count > 1 else ""))
    return " ".join(parts)

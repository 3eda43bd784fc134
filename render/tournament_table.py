"""The standings table picture: rank, name, the format's columns, the tie-break rule below.

>>> row = StandingsRow(1, "Ann", ("2", "4", "3", "2"))
>>> render_standings(StandingsTable("swiss", (row,), lang="fr"))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Literal

from render.fonts import bold, clean_name, text_width, wrap
from render.tournament_draw import (
    BG,
    DIM,
    FIRE,
    GOLD,
    LINE,
    MARGIN,
    MINE,
    RGB,
    STRIPE,
    TEXT,
    IndexCanvas,
    draw_title,
    title_height,
)
from render.tournament_labels import tlabel

__all__ = ["COLUMNS", "StandingsRow", "StandingsTable", "TableFormat", "render_standings"]

TableFormat = Literal["round_robin", "swiss", "arena"]

COLUMNS: dict[TableFormat, tuple[str, ...]] = {
    "round_robin": ("played", "wins", "losses", "difference"),
    "swiss": ("score", "buchholz", "sonneborn_berger", "played"),
    "arena": ("points", "played", "wins", "best_streak", "performance"),
}
"""The columns of each table after the rank and the name: the label keys of
:mod:`render.tournament_labels`, in the order of :attr:`StandingsRow.values`."""


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One row: the rank, the name and the format's :data:`COLUMNS`, already written out.

    :param on_fire: marks an arena player whose next win counts double.
    :param highlight: marks the viewer's own row.
    """

    rank: int
    name: str
    values: tuple[str, ...]
    on_fire: bool = False
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """A standings table, or one page of it (then ``total`` is the whole table's length).

    :raises ValueError: when a row has not one value per column of its format.
    """

    format: TableFormat
    rows: tuple[StandingsRow, ...]
    title: str = ""
    subtitle: str = ""
    lang: str = "en"
    total: int | None = None

    def __post_init__(self) -> None:
        want = len(COLUMNS[self.format])
        for row in self.rows:
            if len(row.values) != want:
                raise ValueError(
                    f"a {self.format} row has {want} values ({', '.join(COLUMNS[self.format])})"
                    f", not {len(row.values)}: {row.values}"
                )


_T_ROW = 40  # a name on two lines of 16 pixels fits
_RANK_W = 50  # a three-digit rank, right-aligned 10 pixels before the name
_NAME_W = 200
_FIRE_W = 18
_HEAD_SIZE = 13
_HEAD_LINE = 80  # a column's head wider than this takes two lines


def render_standings(table: StandingsTable) -> bytes:
    """The standings as PNG bytes: rank, name and the format's columns, the leader in gold,
    the viewer's row (``highlight``) in blue, and the tie-break rule written underneath.

    At most about 600 pixels wide (a phone shows its 16-pixel names 10 high) and 40 high per
    row; drawn in palette indices (:class:`~render.tournament_draw.IndexCanvas`).
    """
    lang = table.lang
    heads = [wrap(bold(_HEAD_SIZE), tlabel(lang, k), _HEAD_LINE) for k in COLUMNS[table.format]]
    widths = [max(52, *(text_width(bold(_HEAD_SIZE), line) + 12 for line in h)) for h in heads]
    width = 2 * MARGIN + _RANK_W + _NAME_W + sum(widths)
    rules = textwrap.wrap(
        tlabel(lang, f"rules_{table.format}"), _wrap_chars(width), break_on_hyphens=False
    )
    top = MARGIN + title_height(table.title, table.subtitle)
    foot = 14 + 19 * len(rules) + (24 if table.total is not None else 0)
    height = top + _T_ROW * (len(table.rows) + 1) + foot + MARGIN
    canvas = IndexCanvas((width, height), (BG, STRIPE, MINE), (TEXT, DIM, GOLD, LINE, FIRE))
    draw_title(canvas, table.title, table.subtitle, width)
    _heads(canvas, lang, heads, widths, top + _T_ROW // 2)
    y = top + _T_ROW
    canvas.line((MARGIN, y, width - MARGIN, y), LINE, BG)
    for n, row in enumerate(table.rows):
        _draw_row(canvas, row, y, width, widths, striped=n % 2 == 1)
        y += _T_ROW
    y += 10
    for line in rules:
        canvas.text((MARGIN, y + 9), line, DIM, BG, strong=False, size=14, anchor="lm")
        y += 19
    if table.total is not None and table.rows:
        first, last = table.rows[0].rank, table.rows[-1].rank
        text = tlabel(lang, "rows_of", first=first, last=last, total=table.total)
        canvas.text((MARGIN, y + 12), text, TEXT, BG, strong=False, size=15, anchor="lm")
    return canvas.png()


def _heads(
    canvas: IndexCanvas, lang: str, heads: list[list[str]], widths: list[int], mid: int
) -> None:
    """The row of column names: a long one on two lines (*Meilleure / série*)."""
    cells = [(MARGIN + _RANK_W - 10, mid, tlabel(lang, "rank"), "rm")]
    cells.append((MARGIN + _RANK_W, mid, tlabel(lang, "player"), "lm"))
    cx = MARGIN + _RANK_W + _NAME_W
    for lines, w in zip(heads, widths, strict=True):
        step = _HEAD_SIZE + 2
        first = mid - step * (len(lines) - 1) // 2
        cells += [(cx + w // 2, first + k * step, line, "mm") for k, line in enumerate(lines)]
        cx += w
    for x, y, text, anchor in cells:
        canvas.text((x, y), text, DIM, BG, strong=True, size=_HEAD_SIZE, anchor=anchor)


def _wrap_chars(width: int) -> int:
    """How many characters of the 14-pixel note fit in a line (about 7.9 pixels each)."""
    return max(30, int((width - 2 * MARGIN) / 7.9))


def _draw_row(
    canvas: IndexCanvas,
    row: StandingsRow,
    y: int,
    width: int,
    widths: list[int],
    *,
    striped: bool,
) -> None:
    x = MARGIN
    back = MINE if row.highlight else (STRIPE if striped else BG)
    if back != BG:
        canvas.rect((x, y, width - MARGIN + 1, y + _T_ROW), back)
    mid = y + _T_ROW // 2
    leader = row.rank == 1
    colour = GOLD if leader else TEXT
    canvas.text(
        (x + _RANK_W - 10, mid), str(row.rank), colour, back, strong=True, size=16, anchor="rm"
    )
    name_w = _NAME_W - 12 - (_FIRE_W if row.on_fire else 0)
    name = clean_name(row.name)
    fitted = canvas.name((x + _RANK_W, mid), name, name_w, colour, back, strong=leader)
    if row.on_fire:
        used = max(text_width(fitted.font, line) for line in fitted.lines)
        _triangle(canvas, x + _RANK_W + used + 6, mid, back)
    cx = x + _RANK_W + _NAME_W
    for value, w in zip(row.values, widths, strict=True):
        canvas.text((cx + w // 2, mid), value, colour, back, strong=False, size=16, anchor="mm")
        cx += w


def _triangle(canvas: IndexCanvas, x: int, mid: int, back: RGB) -> None:
    """The on-fire mark, the ▲ of the rule under the table."""
    canvas.polygon([(x, mid + 5), (x + 12, mid + 5), (x + 6, mid - 6)], FIRE, back)

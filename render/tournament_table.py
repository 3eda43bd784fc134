"""The standings table picture: rank, name, the format's columns, the tie-break rule below.

>>> row = StandingsRow(1, "Ann", ("2", "4", "3", "2"))
>>> render_standings(StandingsTable("swiss", (row,), lang="fr"))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from render.fonts import bold, clean_name, regular, text_width
from render.tournament_draw import (
    BG,
    DIM,
    FIRE,
    GOLD,
    LINE,
    MARGIN,
    MINE,
    STRIPE,
    TEXT,
    draw_title,
    stamp,
    stamp_name,
    title_height,
    to_png,
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


_T_ROW = 30
_RANK_W = 52
_NAME_W = 330
_FIRE_W = 18


def render_standings(table: StandingsTable) -> bytes:
    """The standings as PNG bytes: rank, name and the format's columns, the leader in gold,
    the viewer's row (``highlight``) in blue, and the tie-break rule written underneath.

    About 700 to 850 pixels wide and 30 high per row.
    """
    lang = table.lang
    keys = COLUMNS[table.format]
    head_font = bold(14)
    heads = [tlabel(lang, k) for k in keys]
    widths = [max(72, text_width(head_font, h) + 22) for h in heads]
    width = 2 * MARGIN + _RANK_W + _NAME_W + sum(widths)
    rules = textwrap.wrap(tlabel(lang, f"rules_{table.format}"), _wrap_chars(width))
    top = MARGIN + title_height(table.title, table.subtitle)
    foot = 14 + 18 * len(rules) + (22 if table.total is not None else 0)
    height = top + _T_ROW * (len(table.rows) + 1) + foot + MARGIN
    im = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(im)
    draw_title(draw, table.title, table.subtitle, width)
    mid = top + _T_ROW // 2
    x = MARGIN
    draw.text((x + _RANK_W - 14, mid), tlabel(lang, "rank"), fill=DIM, font=head_font, anchor="rm")
    draw.text((x + _RANK_W, mid), tlabel(lang, "player"), fill=DIM, font=head_font, anchor="lm")
    cx = x + _RANK_W + _NAME_W
    for head, w in zip(heads, widths, strict=True):
        draw.text((cx + w // 2, mid), head, fill=DIM, font=head_font, anchor="mm")
        cx += w
    y = top + _T_ROW
    draw.line((x, y, width - MARGIN, y), fill=LINE, width=1)
    for n, row in enumerate(table.rows):
        _draw_row(im, draw, row, y, width, widths, striped=n % 2 == 1)
        y += _T_ROW
    y += 10
    for line in rules:
        draw.text((x, y + 9), line, fill=DIM, font=regular(13), anchor="lm")
        y += 18
    if table.total is not None and table.rows:
        text = tlabel(
            lang, "rows_of", first=table.rows[0].rank, last=table.rows[-1].rank, total=table.total
        )
        draw.text((x, y + 11), text, fill=TEXT, font=regular(14), anchor="lm")
    return to_png(im)


def _wrap_chars(width: int) -> int:
    """How many characters of the 13-pixel note fit in a line (about 7.3 pixels each)."""
    return max(30, int((width - 2 * MARGIN) / 7.3))


def _draw_row(
    im: Image.Image,
    draw: ImageDraw.ImageDraw,
    row: StandingsRow,
    y: int,
    width: int,
    widths: list[int],
    *,
    striped: bool,
) -> None:
    x = MARGIN
    if row.highlight or striped:
        fill = MINE if row.highlight else STRIPE
        draw.rectangle((x, y, width - MARGIN, y + _T_ROW - 1), fill=fill)
    mid = y + _T_ROW // 2
    leader = row.rank == 1
    colour = GOLD if leader else TEXT
    stamp(im, (x + _RANK_W - 14, mid), str(row.rank), colour, strong=True, size=16, anchor="rm")
    name_w = _NAME_W - 12 - (_FIRE_W if row.on_fire else 0)
    name = clean_name(row.name)
    fitted = stamp_name(im, (x + _RANK_W, mid), name, name_w, colour, strong=leader)
    if row.on_fire:
        used = max(text_width(fitted.font, line) for line in fitted.lines)
        _triangle(draw, x + _RANK_W + used + 6, mid)
    cx = x + _RANK_W + _NAME_W
    for value, w in zip(row.values, widths, strict=True):
        stamp(im, (cx + w // 2, mid), value, colour, strong=False, size=16, anchor="mm")
        cx += w


def _triangle(draw: ImageDraw.ImageDraw, x: int, mid: int) -> None:
    """The on-fire mark, the ▲ of the rule under the table."""
    draw.polygon([(x, mid + 5), (x + 12, mid + 5), (x + 6, mid - 6)], fill=FIRE)

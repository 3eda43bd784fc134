"""The ladder picture: its rungs (the viewer's in blue, the top in gold), who may challenge
whom, the challenges being played, and the latest results underneath.

The words come already written in the reader's language (:mod:`bot.ladders.view` takes them from
the catalogs); this module only lays them out. Made for a phone, as the tournament pictures:
608 pixels wide, names in 18-pixel bold (about 11 at a phone's 360 pixels).

>>> pic = LadderPicture("Club", "1 point", (LadderRow(1, "Ann", "", top=True),), "", ())
>>> render_ladder(pic)[:4]
b'\\x89PNG'
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import bold, clean_name, fit, regular
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
    title_height,
    to_png,
)

__all__ = ["MAX_ROWS", "WIDTH", "LadderPicture", "LadderRow", "render_ladder"]

WIDTH = 608
MAX_ROWS = 40  # rungs drawn; the view picks them (the top, and the viewer's neighbourhood)
_ROW = 38
_RUNG_W = 56
_NAME_W = 250


@dataclass(frozen=True, slots=True)
class LadderRow:
    """One rung: its number, the member's name and what he may do or is doing, written out.

    :param busy: he is playing a challenge (the note names it, in orange).
    :param top: the top rung (gold).
    :param highlight: the viewer's own rung (blue).
    """

    rung: int
    name: str
    note: str
    busy: bool = False
    top: bool = False
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class LadderPicture:
    """A whole picture: the title and the rules, the rungs (at most :data:`MAX_ROWS`; a row
    whose rung is 0 stands for the rungs left out), the results' heading and lines."""

    title: str
    subtitle: str
    rows: tuple[LadderRow, ...]
    results_title: str
    results: tuple[str, ...]
    empty: str = ""  # shown when nobody is on the ladder


def render_ladder(pic: LadderPicture) -> bytes:
    """The ladder as PNG bytes."""
    rows = pic.rows[:MAX_ROWS]
    head = title_height(pic.title, pic.subtitle)
    body = max(1, len(rows)) * _ROW
    tail = (36 + 28 * len(pic.results)) if pic.results else 0
    height = MARGIN * 2 + head + body + tail + 8
    im = Image.new("RGB", (WIDTH, height), BG)
    draw = ImageDraw.Draw(im)
    draw_title(draw, pic.title, pic.subtitle, WIDTH)
    y = MARGIN + head
    if not rows:
        draw.text((MARGIN, y + _ROW // 2), pic.empty, fill=DIM, font=regular(18), anchor="lm")
    for i, row in enumerate(rows):
        _row(draw, row, y + i * _ROW, stripe=i % 2 == 1)
    y += body + 8
    if pic.results:
        draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=LINE, width=1)
        draw.text((MARGIN, y + 20), pic.results_title, fill=TEXT, font=bold(18), anchor="lm")
        for i, line in enumerate(pic.results):
            text = fit(regular(16), clean_name(line), WIDTH - 2 * MARGIN)
            draw.text((MARGIN, y + 48 + 28 * i), text, fill=DIM, font=regular(16), anchor="lm")
    return to_png(im)


def _row(draw: ImageDraw.ImageDraw, row: LadderRow, y: int, *, stripe: bool) -> None:
    back = MINE if row.highlight else STRIPE if stripe else BG
    draw.rectangle((MARGIN // 2, y, WIDTH - MARGIN // 2, y + _ROW - 1), fill=back)
    middle = y + _ROW // 2
    if row.rung == 0:  # the rungs left out
        draw.text((MARGIN, middle), "⋮", fill=DIM, font=bold(18), anchor="lm")
        return
    ink = GOLD if row.top else TEXT
    draw.text((MARGIN + _RUNG_W - 12, middle), str(row.rung), fill=ink, font=bold(18), anchor="rm")
    name = fit(bold(18), clean_name(row.name) or "?", _NAME_W)
    draw.text((MARGIN + _RUNG_W, middle), name, fill=ink, font=bold(18), anchor="lm")
    left = MARGIN + _RUNG_W + _NAME_W + 12
    note = fit(regular(16), row.note, WIDTH - MARGIN - left)
    colour = FIRE if row.busy else DIM
    draw.text((left, middle), note, fill=colour, font=regular(16), anchor="lm")

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
from functools import lru_cache

from render.fonts import clean_name, fit, regular, text_width
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
    fit_text,
)

__all__ = ["MAX_ROWS", "WIDTH", "LadderPicture", "LadderRow", "render_ladder"]

WIDTH = 608
MAX_ROWS = 40  # rungs drawn; the view picks them (the top, and the viewer's neighbourhood)
_ROW = 42
_RUNG_W = 56
_NAME_W = 236
_NAME = 21  # pixels: about 12 at a phone's 360
_NOTE = 18


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
    """The ladder as PNG bytes, drawn in palette indices
    (:class:`~render.tournament_draw.IndexCanvas`)."""
    rows = pic.rows[:MAX_ROWS]
    subtitle = _lines(pic.subtitle, WIDTH - 2 * MARGIN)
    head = 44 + 26 * len(subtitle) + 12
    body = max(1, len(rows)) * _ROW
    tail = (40 + 30 * len(pic.results)) if pic.results else 0
    height = MARGIN * 2 + head + body + tail + 8
    canvas = IndexCanvas((WIDTH, height), (BG, STRIPE, MINE), (TEXT, DIM, GOLD, LINE, FIRE))
    title = fit_text(clean_name(pic.title), WIDTH - 2 * MARGIN, strong=True, size=28)
    canvas.text((MARGIN, MARGIN + 14), title, TEXT, BG, strong=True, size=28)
    for i, line in enumerate(subtitle):
        canvas.text((MARGIN, MARGIN + 48 + 26 * i), line, DIM, BG, strong=False, size=18)
    y = MARGIN + head
    if not rows:
        canvas.text((MARGIN, y + _ROW // 2), pic.empty, DIM, BG, strong=False, size=18)
    for i, row in enumerate(rows):
        _row(canvas, row, y + i * _ROW, stripe=i % 2 == 1)
    if pic.results:
        _results(canvas, pic, y + body + 8)
    return canvas.png()


def _results(canvas: IndexCanvas, pic: LadderPicture, y: int) -> None:
    """The latest results under a line: their heading, then one a line."""
    canvas.line((MARGIN, y, WIDTH - MARGIN, y), LINE, BG)
    canvas.text((MARGIN, y + 22), pic.results_title, TEXT, BG, strong=True, size=_NOTE)
    for i, line in enumerate(pic.results):
        text = fit_text(clean_name(line), WIDTH - 2 * MARGIN, strong=False, size=_NOTE)
        canvas.text((MARGIN, y + 54 + 30 * i), text, DIM, BG, strong=False, size=_NOTE)


@lru_cache(maxsize=256)
def _lines(text: str, width: int, sep: str = " · ") -> tuple[str, ...]:
    """The rules line on as many lines as it takes, cut between its parts (a part too long for
    a line is shortened); kept, as a ladder's rules seldom change."""
    font, lines = regular(18), list[str]()
    for part in text.split(sep):
        joined = f"{lines[-1]}{sep}{part}" if lines else part
        if lines and text_width(font, joined) <= width:
            lines[-1] = joined
        else:
            lines.append(fit(font, part, width))
    return tuple(lines)


def _skipped(canvas: IndexCanvas, x: int, middle: int, back: RGB) -> None:
    """A vertical ellipsis (⋮) for the rungs left out, drawn as three dots: the type has no
    such glyph (a character would draw nothing)."""
    for dy in (-7, 0, 7):
        top = middle + dy - 2
        canvas.polygon([(x, top), (x + 3, top), (x + 3, top + 3), (x, top + 3)], DIM, back)


def _row(canvas: IndexCanvas, row: LadderRow, y: int, *, stripe: bool) -> None:
    back = MINE if row.highlight else STRIPE if stripe else BG
    if back != BG:
        canvas.rect((MARGIN // 2, y, WIDTH - MARGIN // 2 + 1, y + _ROW), back)
    middle = y + _ROW // 2
    if row.rung == 0:  # the rungs left out
        _skipped(canvas, MARGIN + _RUNG_W - 20, middle, back)
        return
    ink = GOLD if row.top else TEXT
    at = (MARGIN + _RUNG_W - 14, middle)
    canvas.text(at, str(row.rung), ink, back, strong=True, size=_NAME, anchor="rm")
    name = fit_text(clean_name(row.name) or "?", _NAME_W, strong=True, size=_NAME)
    canvas.text((MARGIN + _RUNG_W, middle), name, ink, back, strong=True, size=_NAME)
    left = MARGIN + _RUNG_W + _NAME_W + 12
    note = fit_text(clean_name(row.note), WIDTH - MARGIN - left, strong=False, size=_NOTE)
    colour = FIRE if row.busy else DIM
    canvas.text((left, middle), note, colour, back, strong=False, size=_NOTE)

"""The weekly summary of one's drills as a PNG: accuracy, streak and PR in large figures, the
week's answers day by day (right and wrong), and the PR of the recent reviewed games as a line.

Drawn tall and with large text, so that it stays readable on a phone (Discord shows it about
360 pixels wide there). Every word comes in :class:`DrillWeek`, already in the reader's language.

>>> week = DrillWeek(
...     title="Your week",
...     subtitle="2026-11-24 – 2026-11-30",
...     tiles=(("Accuracy", "75 %", "6 of 8"), ("Streak", "4", "best 9"), ("PR", "6.2", "")),
...     days=(("M", 2, 3), ("T", 0, 0), ("W", 4, 5)),
...     pr_title="PR per game",
...     prs=(8.1, 7.0, 6.2),
...     no_pr="",
... )
>>> drill_week(week)[:4]
b'\\x89PNG'
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import bold, clean_name, fit, regular, text_width, wrap
from render.png import encode_rgb

__all__ = ["DrillWeek", "drill_week"]

_W, _H = 720, 880
_PAD = 28
_BG = (36, 39, 46)
_PANEL = (48, 52, 61)
_GRID = (70, 75, 86)
_TEXT = (225, 228, 235)
_DIM = (160, 166, 178)
_RIGHT = (98, 190, 120)
_WRONG = (226, 96, 88)
_LINE = (255, 196, 61)


@dataclass(frozen=True)
class DrillWeek:
    """What the picture shows, every word in the reader's language.

    :param tiles: three figures: (caption, the figure, a small line under it).
    :param days: the week's days, oldest first: (label, answers right, answers in all).
    :param prs: the PR of each recent counted game, oldest first (lower is better).
    :param no_pr: written in the PR panel when there are fewer than two games.
    :param decimal: the decimal separator of the PR axis.
    """

    title: str
    subtitle: str
    tiles: tuple[tuple[str, str, str], ...]
    days: tuple[tuple[str, int, int], ...]
    pr_title: str
    prs: tuple[float, ...]
    no_pr: str
    decimal: str = "."  # how the language writes the PR axis' numbers (French: ",")


def drill_week(week: DrillWeek) -> bytes:
    """The summary as PNG bytes."""
    im = Image.new("RGB", (_W, _H), _BG)
    draw = ImageDraw.Draw(im)
    inner = _W - 2 * _PAD
    draw.text((_PAD, 16), fit(bold(40), clean_name(week.title), inner), fill=_TEXT, font=bold(40))
    draw.text((_PAD, 66), fit(regular(28), week.subtitle, inner), fill=_DIM, font=regular(28))
    _tiles(draw, week.tiles, top=116)
    _bars(draw, week.days, top=316, bottom=556)
    _pr(draw, week, top=586, bottom=_H - 24)
    return encode_rgb(im)


def _tiles(draw: ImageDraw.ImageDraw, tiles: tuple[tuple[str, str, str], ...], top: int) -> None:
    n = max(1, len(tiles))
    gap = 16
    width = (_W - 2 * _PAD - gap * (n - 1)) // n
    for i, (caption, figure, small) in enumerate(tiles):
        left = _PAD + i * (width + gap)
        draw.rounded_rectangle([left, top, left + width, top + 180], 14, fill=_PANEL)
        inner = width - 24
        draw.text(
            (left + 12, top + 12), fit(regular(28), caption, inner), fill=_DIM, font=regular(28)
        )
        draw.text((left + 12, top + 52), fit(bold(64), figure, inner), fill=_TEXT, font=bold(64))
        draw.text(
            (left + 12, top + 136), fit(regular(24), small, inner), fill=_DIM, font=regular(24)
        )


def _bars(
    draw: ImageDraw.ImageDraw, days: tuple[tuple[str, int, int], ...], top: int, bottom: int
) -> None:
    """One bar per day: right answers in green under wrong ones in red."""
    draw.rounded_rectangle([_PAD, top, _W - _PAD, bottom], 14, fill=_PANEL)
    if not days:
        return
    most = max([total for _, _, total in days] + [1])
    label_h, left, right = 40, _PAD + 16, _W - _PAD - 16
    base, height = bottom - label_h, bottom - label_h - top - 20
    step = (right - left) / len(days)
    font = bold(28)
    for i, (label, good, total) in enumerate(days):
        x0 = left + i * step + step * 0.18
        x1 = left + (i + 1) * step - step * 0.18
        good_top = base - height * good / most
        all_top = base - height * total / most
        if total > good:
            draw.rectangle([x0, all_top, x1, good_top], fill=_WRONG)
        if good:
            draw.rectangle([x0, good_top, x1, base], fill=_RIGHT)
        draw.line([(x0, base), (x1, base)], fill=_GRID, width=2)
        shown = fit(font, label, int(step))
        cx = (x0 + x1) / 2 - text_width(font, shown) / 2
        draw.text((cx, base + 4), shown, fill=_TEXT, font=font)


def _pr(draw: ImageDraw.ImageDraw, week: DrillWeek, top: int, bottom: int) -> None:
    """The PR of the recent games as a line, the best (lowest) at the top."""
    draw.rounded_rectangle([_PAD, top, _W - _PAD, bottom], 14, fill=_PANEL)
    font = regular(28)
    draw.text(
        (_PAD + 16, top + 12), fit(font, week.pr_title, _W - 2 * _PAD - 32), fill=_DIM, font=font
    )
    values = week.prs
    if len(values) < 2:
        for i, line in enumerate(wrap(font, week.no_pr, _W - 2 * _PAD - 32)[:4]):
            draw.text((_PAD + 16, top + 70 + 40 * i), line, fill=_TEXT, font=font)
        return
    lo, hi = min(values), max(values)
    if hi - lo < 0.5:
        lo, hi = lo - 0.5, hi + 0.5
    left, right, y0, y1 = _PAD + 70, _W - _PAD - 24, top + 60, bottom - 24
    small = regular(24)
    for v in (lo, (lo + hi) / 2, hi):
        y = y0 + (v - lo) / (hi - lo) * (y1 - y0)
        draw.line([(left, y), (right, y)], fill=_GRID, width=1)
        draw.text((_PAD + 12, y - 13), f"{v:.1f}".replace(".", week.decimal), fill=_DIM, font=small)
    points = [
        (left + (right - left) * i / (len(values) - 1), y0 + (v - lo) / (hi - lo) * (y1 - y0))
        for i, v in enumerate(values)
    ]
    draw.line(points, fill=_LINE, width=5, joint="curve")
    for x, y in points if len(points) <= 60 else ():
        draw.ellipse([x - 5, y - 5, x + 5, y + 5], fill=_TEXT)

"""Small charts as PNG bytes: a rating history line, and a curve of winning chances.

>>> png = line_chart([1500.0, 1512.5, 1507.0, 1530.2], title="Rating")
>>> png[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from render.fonts import bold, regular

__all__ = ["line_chart"]

_W, _H = 800, 360
_PAD_L, _PAD_R, _PAD_T, _PAD_B = 70, 24, 48, 40
_BG = (36, 39, 46)
_GRID = (70, 75, 86)
_TEXT = (225, 228, 235)
_LINE = (255, 196, 61)
_DOT = (255, 255, 255)


def line_chart(
    values: Sequence[float],
    *,
    title: str = "",
    y_range: tuple[float, float] | None = None,
    baseline: float | None = None,
    x_label: str = "",
) -> bytes:
    """A line chart of ``values`` (in order) as PNG bytes.

    :param y_range: fixed bounds of the vertical axis (e.g. ``(0, 100)`` for percentages);
        by default the data's range with a margin.
    :param baseline: a value drawn as a dashed horizontal line (e.g. 50 %, or 1500 points).
    :raises ValueError: when there is nothing to draw.
    """
    if not values:
        raise ValueError("a chart needs at least one value")
    lo, hi = y_range if y_range else (min(values), max(values))
    if hi - lo < 1e-9:
        lo, hi = lo - 10, hi + 10
    if not y_range:
        margin = (hi - lo) * 0.1
        lo, hi = lo - margin, hi + margin
    im = Image.new("RGB", (_W, _H), _BG)
    draw = ImageDraw.Draw(im)
    small, big = regular(16), bold(22)
    if title:
        draw.text((_PAD_L, 12), title, fill=_TEXT, font=big)
    left, right, top, bottom = _PAD_L, _W - _PAD_R, _PAD_T, _H - _PAD_B

    def y_of(v: float) -> float:
        return bottom - (v - lo) / (hi - lo) * (bottom - top)

    for i in range(5):
        v = lo + (hi - lo) * i / 4
        y = y_of(v)
        draw.line([(left, y), (right, y)], fill=_GRID, width=1)
        draw.text((8, y - 9), f"{v:.0f}", fill=_TEXT, font=small)
    if baseline is not None and lo <= baseline <= hi:
        yb = y_of(baseline)
        for xd in range(left, right, 12):
            draw.line([(xd, yb), (min(xd + 6, right), yb)], fill=_TEXT, width=1)
    n = len(values)
    xs = [left + (right - left) * (i / (n - 1) if n > 1 else 0.5) for i in range(n)]
    points = [(x, y_of(v)) for x, v in zip(xs, values, strict=True)]
    if n > 1:
        draw.line(points, fill=_LINE, width=3, joint="curve")
    if n <= 60:
        for x, y in points:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=_DOT)
    if x_label:
        draw.text((left, bottom + 10), x_label, fill=_TEXT, font=small)
    out = io.BytesIO()
    im.save(out, "PNG", optimize=True)
    return out.getvalue()

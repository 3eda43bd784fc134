"""Small charts as PNG bytes: a rating history line, and a curve of winning chances.

>>> png = line_chart([1500.0, 1512.5, 1507.0, 1530.2], title="Rating")
>>> png[:4]
b'\\x89PNG'
>>> chances_chart([0.5, 0.62, 0.41, 1.0, 0.5, 0.3], separators=[4], labels=["Game 2"])[:4]
b'\\x89PNG'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise

from PIL import Image, ImageDraw, ImageFont

from render.fonts import bold, clean_name, regular, text_width
from render.png import encode_rgb

__all__ = ["chances_chart", "line_chart"]

Pts = list[tuple[float, float]]

_W, _H = 800, 360
_PAD_L, _PAD_R, _PAD_T, _PAD_B = 70, 24, 48, 40
_BG = (36, 39, 46)
_GRID = (70, 75, 86)
_TEXT = (225, 228, 235)
_DIM = (150, 156, 170)  # the moves' numbers under the plot
_LINE = (255, 196, 61)
_DOT = (255, 255, 255)
_ABOVE = (255, 196, 61)  # the player whose chances are drawn, when he is the favourite
_BELOW = (110, 160, 235)  # his opponent, when he is


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
    lo, hi = _value_range(values, y_range)
    im = Image.new("RGB", (_W, _H), _BG)
    draw = ImageDraw.Draw(im)
    small, big = regular(16), bold(22)
    if title:
        draw.text((_PAD_L, 12), clean_name(title), fill=_TEXT, font=big)
    left, right, top, bottom = _PAD_L, _W - _PAD_R, _PAD_T, _H - _PAD_B

    def y_of(v: float) -> float:
        return bottom - (v - lo) / (hi - lo) * (bottom - top)

    _draw_value_grid(draw, y_of, lo, hi, baseline)
    n = len(values)
    xs = [left + (right - left) * (i / (n - 1) if n > 1 else 0.5) for i in range(n)]
    _draw_line(draw, [(x, y_of(v)) for x, v in zip(xs, values, strict=True)])
    if x_label:
        draw.text((left, bottom + 10), x_label, fill=_TEXT, font=small)
    return encode_rgb(im)


def _draw_line(draw: ImageDraw.ImageDraw, points: list[tuple[float, float]]) -> None:
    """The series as a line, with a dot on each value while there are few enough to see."""
    if len(points) > 1:
        draw.line(points, fill=_LINE, width=3, joint="curve")
    if len(points) <= 60:
        for x, y in points:
            draw.ellipse([x - 3, y - 3, x + 3, y + 3], fill=_DOT)


def _value_range(
    values: Sequence[float], y_range: tuple[float, float] | None
) -> tuple[float, float]:
    """The vertical axis' bounds: ``y_range`` as given, else the data's with a 10% margin (a
    flat series gets ±10 so that it is drawn mid-height)."""
    lo, hi = y_range if y_range else (min(values), max(values))
    if hi - lo < 1e-9:
        lo, hi = lo - 10, hi + 10
    if not y_range:
        margin = (hi - lo) * 0.1
        lo, hi = lo - margin, hi + margin
    return lo, hi


def _draw_value_grid(
    draw: ImageDraw.ImageDraw,
    y_of: Callable[[float], float],
    lo: float,
    hi: float,
    baseline: float | None,
) -> None:
    """Five labelled horizontal grid lines, and ``baseline`` dashed when it is in range."""
    left, right, small = _PAD_L, _W - _PAD_R, regular(16)
    for i in range(5):
        v = lo + (hi - lo) * i / 4
        y = y_of(v)
        draw.line([(left, y), (right, y)], fill=_GRID, width=1)
        draw.text((8, y - 9), f"{v:.0f}", fill=_TEXT, font=small)
    if baseline is not None and lo <= baseline <= hi:
        yb = y_of(baseline)
        for xd in range(left, right, 12):
            draw.line([(xd, yb), (min(xd + 6, right), yb)], fill=_TEXT, width=1)


def chances_chart(
    chances: Sequence[float],
    *,
    separators: Sequence[int] = (),
    labels: Sequence[str] = (),
    title: str = "",
    legend: tuple[str, str] = ("", ""),
    ticks: Sequence[tuple[int, str]] = (),
) -> bytes:
    """Winning chances move by move as PNG bytes: a 0-100 % chart, the area above its dashed
    50 % line in gold (the player whose chances these are leads), below it in blue.

    :param chances: probabilities from 0 to 1, in order (one per move).
    :param separators: indices in ``chances`` where a new game starts: a vertical dashed line
        is drawn just before each, with the matching entry of ``labels`` (e.g. "Game 2").
    :param legend: who leads above and below the 50 % line (*Ann ahead*), under the plot beside
        a swatch of the area's colour, only for an area the chart has (see :func:`_shown`).
    :param ticks: ``(index in chances, text)``: a mark under the plot at that point, with its
        text (a move's number), left out where it would meet a game's label or another mark's.
    :raises ValueError: when there is nothing to draw or a chance is outside 0..1.
    """
    _check(chances)
    im = Image.new("RGB", (_W, CHANCES_H), _BG)
    draw = ImageDraw.Draw(im)
    small, big = regular(16), bold(22)
    if title:
        draw.text((_PAD_L, 12), clean_name(title), fill=_TEXT, font=big)
    games, cut_xs = _games(chances, separators)
    mid = _y_of(0.5)
    for game in games:  # areas first, so that the grid stays visible over them
        for (x0, y0), (x1, y1) in pairwise(game):
            _fill_segment(draw, x0, y0, x1, y1, mid)
    _draw_grid(draw, small)
    placed = _draw_cuts(draw, cut_xs, labels, small)
    _draw_ticks(draw, [(_x_of(i, len(chances)), text) for i, text in ticks], placed, small)
    _draw_curves(draw, games)
    left, _, _, bottom = chances_plot_box()
    _legend(draw, _shown(legend, games, mid), (left, bottom + 36), small)
    return encode_rgb(im)


def _check(chances: Sequence[float]) -> None:
    if not chances:
        raise ValueError("a chart needs at least one value")
    if any(not 0.0 <= c <= 1.0 for c in chances):
        raise ValueError("chances are probabilities, from 0 to 1")


def _games(chances: Sequence[float], separators: Sequence[int]) -> tuple[list[Pts], list[float]]:
    """The chances as points of the plot, a list per game, and where each new game's dashed
    line goes (halfway between its first point and the previous one)."""
    n = len(chances)
    xs = [_x_of(i, n) for i in range(n)]
    points = [(x, _y_of(c)) for x, c in zip(xs, chances, strict=True)]
    cuts = sorted({i for i in separators if 0 < i < n})
    games = [points[a:b] for a, b in zip([0, *cuts], [*cuts, n], strict=True)]
    return games, [(xs[index - 1] + xs[index]) / 2 for index in cuts]


def _x_of(index: int, n: int) -> float:
    """Where the point ``index`` of ``n`` goes across the chances chart's plot."""
    left, right, _, _ = chances_plot_box()
    return left + (right - left) * (index / (n - 1) if n > 1 else 0.5)


def _draw_ticks(
    draw: ImageDraw.ImageDraw,
    ticks: list[tuple[float, str]],
    taken: list[tuple[float, float]],
    font: ImageFont.FreeTypeFont,
) -> None:
    """A short mark under the plot at each tick, its text centred under it, unless the text
    would meet what is already written there (``taken``: spans of the games' labels)."""
    _, _, _, bottom = chances_plot_box()
    spans = list(taken)
    for x, text in ticks:
        half = text_width(font, text) / 2
        if any(x - half - 6 < b and a < x + half + 6 for a, b in spans):
            continue
        spans.append((x - half, x + half))
        draw.line([(x, bottom), (x, bottom + 4)], fill=_GRID, width=1)
        draw.text((x, bottom + 6), text, fill=_DIM, font=font, anchor="mt")


def _draw_curves(draw: ImageDraw.ImageDraw, games: list[Pts]) -> None:
    """Each game's curve (a dot for a game of one point), over everything but the words."""
    for game in games:
        if len(game) > 1:
            draw.line(game, fill=_DOT, width=2, joint="curve")
        else:
            (x, y) = game[0]
            draw.ellipse([x - 2, y - 2, x + 2, y + 2], fill=_DOT)


def _draw_cuts(
    draw: ImageDraw.ImageDraw,
    cut_xs: list[float],
    labels: Sequence[str],
    font: ImageFont.FreeTypeFont,
) -> list[tuple[float, float]]:
    """A dashed line before each new game, its label under the plot (no curve there); the
    spans across the chart that the labels take."""
    _, right, top, bottom = chances_plot_box()
    for x in cut_xs:
        for yd in range(top, bottom, 10):
            draw.line([(x, yd), (x, min(yd + 5, bottom))], fill=_TEXT, width=1)
    spans = []
    for x, text in label_places(cut_xs, labels, lambda t: text_width(font, t), right):
        draw.text((x, bottom + 6), text, fill=_TEXT, font=font)
        spans.append((x, x + text_width(font, text)))
    return spans


def _y_of(p: float) -> float:
    """The height of chance ``p`` on the chances chart's plot."""
    _, _, top, bottom = chances_plot_box()
    return bottom - p * (bottom - top)


def _draw_grid(draw: ImageDraw.ImageDraw, font: ImageFont.FreeTypeFont) -> None:
    """The chances chart's lines at 0, 25, 75 and 100 %, their numbers, the dashed 50 %."""
    left, right, _, _ = chances_plot_box()
    for pct in (0, 25, 75, 100):
        y = _y_of(pct / 100)
        draw.line([(left, y), (right, y)], fill=_GRID, width=1)
    for pct in (0, 25, 50, 75, 100):
        draw.text((8, _y_of(pct / 100) - 9), f"{pct} %", fill=_TEXT, font=font)
    mid = _y_of(0.5)
    for xd in range(left, right, 12):
        draw.line([(xd, mid), (min(xd + 6, right), mid)], fill=_TEXT, width=1)


CHANCES_H = 400  # the chances chart: taller than a line chart, for its legend under the plot
_CHANCES_PAD_B = 70


def label_places(
    cut_xs: Sequence[float],
    labels: Sequence[str],
    width: Callable[[str], float],
    right: float,
) -> list[tuple[float, str]]:
    """Where the games' labels go, each just right of its dashed line, none over another: a
    label that would run into the next line's label, or past ``right``, is shortened to its last
    word (``Game 3``: ``3``), and left out if even that does not fit (very short games).

    >>> label_places([100, 300], ["Game 2", "Game 3"], lambda s: 10 * len(s), 600)
    [(104, 'Game 2'), (304, 'Game 3')]
    >>> label_places([100, 130, 140], ["Game 2", "Game 3", "Game 4"], lambda s: 10 * len(s), 600)
    [(104, '2'), (144, 'Game 4')]
    """
    places: list[tuple[float, str]] = []
    for k, x in enumerate(cut_xs):
        if k >= len(labels) or not labels[k]:
            continue
        stop = min(cut_xs[k + 1] + 4 if k + 1 < len(cut_xs) else right, right)
        start = x + 4
        if places and start < places[-1][0] + width(places[-1][1]) + 6:
            continue  # the previous label runs over this line: this one is left out
        for text in (labels[k], labels[k].split()[-1]):
            if start + width(text) + 6 <= stop:
                places.append((start, text))
                break
    return places


def chances_plot_box() -> tuple[int, int, int, int]:
    """``(left, right, top, bottom)`` of the chances chart's plot, in pixels: the curve stays
    inside, and every word (title, game labels, legend) outside.

    >>> chances_plot_box()
    (70, 776, 48, 330)
    """
    return _PAD_L, _W - _PAD_R, _PAD_T, CHANCES_H - _CHANCES_PAD_B


def _legend(
    draw: ImageDraw.ImageDraw,
    legend: tuple[str, str],
    at: tuple[int, int],
    font: ImageFont.FreeTypeFont,
) -> None:
    """A swatch of each area's colour and the name of who leads there, in a row from ``at``."""
    x, y = at
    for name, color in zip(legend, (_ABOVE, _BELOW), strict=True):
        if not name:
            continue
        draw.rectangle((x, y + 3, x + 14, y + 17), fill=_mix(color, _BG, 0.6), outline=color)
        name = clean_name(name)  # as the board draws it: its emoji, no missing-glyph box
        draw.text((x + 22, y), name, fill=color, font=font)
        x += 22 + text_width(font, name) + 32


def _shown(legend: tuple[str, str], games: list[Pts], mid: float) -> tuple[str, str]:
    """The legend's entries whose area the chart has: a player never ahead gets no swatch of a
    colour found nowhere on the chart.

    >>> _shown(("Ann ahead", "Bob ahead"), [[(0, 50), (10, 80)]], 50)
    ('', 'Bob ahead')
    """

    def area(side: int) -> bool:  # -1 above the 50 % line (smaller y), +1 below
        return any(len(g) > 1 and any((y - mid) * side > 0 for _, y in g) for g in games)

    return (legend[0] if area(-1) else "", legend[1] if area(1) else "")


def _fill_segment(
    draw: ImageDraw.ImageDraw, x0: float, y0: float, x1: float, y1: float, mid: float
) -> None:
    """The area between one segment of the curve and the 50 % line, split where it crosses."""
    if (y0 - mid) * (y1 - mid) < 0:  # crosses the line: two triangles
        xc = x0 + (x1 - x0) * (mid - y0) / (y1 - y0)
        _fill_segment(draw, x0, y0, xc, mid, mid)
        _fill_segment(draw, xc, mid, x1, y1, mid)
        return
    above = min(y0, y1) < mid  # smaller y is higher on the picture
    color = _mix(_ABOVE if above else _BELOW, _BG, 0.35)
    draw.polygon([(x0, mid), (x0, y0), (x1, y1), (x1, mid)], fill=color)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    """``t`` of colour ``a`` over ``b`` (opaque, so adjacent areas leave no seams)."""
    return (
        round(a[0] * t + b[0] * (1 - t)),
        round(a[1] * t + b[1] * (1 - t)),
        round(a[2] * t + b[2] * (1 - t)),
    )

"""The board drawn in RGB, as the eye reads it: the reference the palette pictures of
:func:`render.render_board` are drawn after (see :mod:`render.paint`), the source of each
theme's palette, and the picture the tests sample when they compare colours.

>>> from engine import Position
>>> png = render_reference(Position.initial(), view=BoardView(dice=(3, 1), names=("Ann", "Bob")))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from engine import Position
from render import geometry as g
from render import sprites
from render.arrows import Step, draw_arrow, trace, trace_compared
from render.fonts import bold
from render.panels import band_height, draw_band, draw_strip, paste
from render.samples import SAMPLES
from render.theme import CHECKER_COLORS, RGB, THEMES, Theme
from render.view import BoardView, Side

__all__ = ["PALETTES", "draw_board", "palette", "render_reference", "sample_palette"]

PALETTES = Path(__file__).with_name("palettes.json")
"""Each theme's palette as :func:`sample_palette` finds it (half a second a theme), stored so
that a process draws its first board of a theme in milliseconds; written by
``python -m render.write_palettes``, and checked against the samples by the tests."""

# Measured on a mid-game board with arrows: as RGB the PNG weighs ~175 KB and takes ~16 ms to
# encode. Mapped to 256 colours it looks the same (the picture is flat colours plus
# anti-aliased edges) and weighs ~60 KB at level 3 (~3 ms); level 6 saves 10 KB for twice the
# time, level 9 5% more for ten times. Finding the 256 colours of each picture (fast octree)
# costs ~4 ms, so each theme's palette is found once, from pictures of every kind (see
# :func:`palette`), and mapping a picture to it costs under 1 ms.
PNG_COMPRESS_LEVEL = 3


def render_reference(position: Position, *, view: BoardView | None = None) -> bytes:
    """The PNG the renderer drew before it drew in palette indices: the whole picture drawn in
    RGB (:func:`draw_board`), mapped to the theme's palette and encoded by Pillow. The
    benchmark times it beside :func:`render.render_board`, and the tests compare the two.

    >>> from io import BytesIO
    >>> from PIL import Image
    >>> png = render_reference(Position.initial(), view=BoardView(viewpoint="opponent"))
    >>> Image.open(BytesIO(png)).size, len(png) < 150_000
    ((960, 840), True)
    """
    view = view or BoardView()
    im = draw_board(position, view)
    small = im.quantize(palette=palette(view.theme), dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


@lru_cache(maxsize=8)
def palette(theme: str) -> Image.Image:
    """The 256 colours of every picture in ``theme`` (a palette image): those
    :func:`sample_palette` finds, read from :data:`PALETTES` (found again for a theme not
    stored there).

    >>> len(palette("classic").getpalette() or []) // 3
    256
    """
    stored = _stored().get(theme)
    if stored is None:
        return sample_palette(theme)
    im = Image.new("P", (1, 1))
    im.putpalette(stored)
    return im


@lru_cache(maxsize=1)
def _stored() -> dict[str, list[int]]:
    try:
        data: dict[str, list[int]] = json.loads(PALETTES.read_text())
    except FileNotFoundError:
        return {}
    return data


def sample_palette(theme: str) -> Image.Image:
    """The 256 colours of the sample pictures (see :mod:`render.samples`), drawn in ``theme``
    in all four checker colours: together they show every element the renderer draws
    (highlights, arrows, hits, the bar, trays, dice, cubes, banners)."""
    scenes = [make() for make in SAMPLES.values()]
    pictures = [
        draw_board(pos, replace(view, theme=theme, colors=colors))
        for pos, view in scenes
        for colors in (("white", "black"), ("red", "blue"))
    ]
    sheet = Image.new("RGB", (g.WIDTH, sum(p.height for p in pictures)))
    y = 0
    for picture in pictures:
        sheet.paste(picture, (0, y))
        y += picture.height
    return sheet.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def draw_board(position: Position, view: BoardView) -> Image.Image:
    """The picture as a Pillow image (RGB), before encoding."""
    if not isinstance(position, Position):
        raise ValueError(f"render_board needs an engine Position, not {type(position).__name__}")
    t = THEMES[view.theme]
    # First, so a play that does not fit fails before any work.
    steps, others = (
        trace_compared(position, view) if view.other_play else (trace(position, view), [])
    )
    board = sprites.empty_board(view.theme, view.mirrored, view.numbers_for_bottom())
    band = band_height(view)
    if band:  # the picture grows by a band below the board, for the offer or caption
        im = Image.new("RGB", (g.WIDTH, g.HEIGHT + band), t.banner)
        im.paste(board, (0, 0))
    else:
        im = board.copy()
    d = ImageDraw.Draw(im)
    _highlight_numbers(d, view, t)
    _draw_points(im, d, position, view)
    _draw_bar(im, d, position, view)
    _draw_trays(im, position, view)
    _draw_last_play(im, others, view, t, t.arrow_other)
    _draw_last_play(im, steps, view, t, t.arrow)
    # What the player must read stays above the arrows: the checkers he can move and the
    # number of checkers borne off.
    _redraw_highlights(im, d, position, view, {s.end for s in steps + others})
    _draw_tray_counts(d, position, view, t)
    # An offered cube is drawn in the banner instead; in the Crawford game there is none.
    if view.double_offered_by is None and view.has_cube():
        where = g.cube_center(view.cube_owner_side(), view.bottom_side, view.mirrored)
        paste(im, sprites.cube(view.context.cube_value), where)
    _draw_dice(im, view, t)
    pips = position.pip_counts()
    draw_strip(im, pips[0], view, t, "mover")
    draw_strip(im, pips[1], view, t, "opponent")
    draw_band(im, view, t)
    return im


def _draw_last_play(
    im: Image.Image, steps: list[Step], view: BoardView, t: Theme, colour: RGB
) -> None:
    """Faint ghosts where the checkers left, rings where they hit, then the arrows over all."""
    ghost = sprites.ghost(view.color_of(view.last_play_by))
    for step in steps:
        if step.ghost is not None:
            paste(im, ghost, step.ghost)
    for step in steps:
        if step.hit:
            paste(im, sprites.ring(t.hit), step.end)
    for step in steps:
        draw_arrow(im, step.start, step.end, color=colour, edge=t.arrow_edge, width=8)


def _highlight_numbers(d: ImageDraw.ImageDraw, view: BoardView, t: Theme) -> None:
    """The numbers of the points a checker can move from, printed on a highlight chip."""
    for point in view.highlights:
        if point == 25:
            continue
        vpoint = g.to_viewer(point, view)
        x, y = g.number_center(vpoint, view.mirrored)
        number = g.point_label(vpoint, view.numbers_for_bottom())
        d.rounded_rectangle((x - 24, y - 15, x + 24, y + 15), radius=7, fill=t.highlight)
        d.text((x, y), str(number), font=bold(23), fill=t.table, anchor="mm")


# -- checkers -------------------------------------------------------------------------------


def _draw_stack(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    centers: list[tuple[int, int]],
    count: int,
    color: str,
    ring: tuple[int, int, int] | None,
    t: Theme,
) -> None:
    """``count`` checkers at the first of ``centers``; the ring on the last drawn one when the
    stack can move, and the count when not all fit (see :func:`_draw_count`)."""
    shown = min(count, len(centers))
    for k in range(shown):
        top = k == shown - 1
        paste(im, sprites.checker(color, ring if top else None), centers[k])
    _draw_count(d, centers, count, color, t)


def _draw_count(
    d: ImageDraw.ImageDraw, centers: list[tuple[int, int]], count: int, color: str, t: Theme
) -> None:
    """The number of checkers of a stack taller than the slots drawn: on the last checker
    drawn, or on the first, at the base of the point, in a theme that says so."""
    shown = min(count, len(centers))
    if count > shown:
        x, y = centers[0 if t.count_at_base else shown - 1]
        d.text((x, y), str(count), font=bold(26), fill=CHECKER_COLORS[color].label, anchor="mm")


@lru_cache(maxsize=64)
def _slots(vpoint: int, mirrored: bool) -> tuple[tuple[int, int], ...]:
    """The centres of the checkers drawn on a viewer point, the first against the frame."""
    return tuple(g.stack_center(vpoint, k, mirrored) for k in range(g.MAX_STACK))


def _top_checkers(pos: Position, view: BoardView) -> list[tuple[int, list[tuple[int, int]], int]]:
    """``(point, slot centres, count)`` of every occupied point and bar (mover's numbering, the
    opponent's bar as -25): where each stack is drawn."""
    out = []
    board = pos.board
    for point in range(1, 25):
        if board[point]:
            out.append((point, list(_slots(g.to_viewer(point, view), view.mirrored)), board[point]))
    mine, theirs = pos.bar()
    if mine:
        bottom = view.bottom_side == "mover"
        out.append((25, [g.bar_center(bottom, k) for k in range(g.MAX_STACK)], mine))
    if theirs:
        bottom = view.bottom_side == "opponent"
        out.append((-25, [g.bar_center(bottom, k) for k in range(g.MAX_STACK)], -theirs))
    return out


def _redraw_highlights(
    im: Image.Image,
    d: ImageDraw.ImageDraw,
    pos: Position,
    view: BoardView,
    arrow_ends: set[tuple[int, int]],
) -> None:
    """The checkers the player can move, drawn again over the arrows that cross them (but not
    under an arrow's head: that one shows where a checker arrived, and must stay seen)."""
    t = THEMES[view.theme]
    color = view.color_of("mover")
    for point, centers, count in _top_checkers(pos, view):
        if point not in view.highlights:
            continue
        top = centers[min(count, g.MAX_STACK) - 1]
        if top in arrow_ends:
            continue
        paste(im, sprites.checker(color, t.highlight), top)
        _draw_count(d, centers, count, color, t)


def _draw_points(im: Image.Image, d: ImageDraw.ImageDraw, pos: Position, view: BoardView) -> None:
    t = THEMES[view.theme]
    board = pos.board
    for point in view.highlights:
        if point != 25 and board[point] <= 0:
            raise ValueError(f"highlighted point {point} holds no checker of the player on roll")
    for point in range(1, 25):
        n = board[point]
        if not n:
            continue
        side: Side = "mover" if n > 0 else "opponent"
        vpoint = g.to_viewer(point, view)
        centers = [g.stack_center(vpoint, k, view.mirrored) for k in range(g.MAX_STACK)]
        ring = t.highlight if point in view.highlights else None
        _draw_stack(im, d, centers, abs(n), view.color_of(side), ring, t)


def _draw_bar(im: Image.Image, d: ImageDraw.ImageDraw, pos: Position, view: BoardView) -> None:
    t = THEMES[view.theme]
    mine, theirs = pos.bar()
    if 25 in view.highlights and not mine:
        raise ValueError("the bar is highlighted but the player on roll has no checker there")
    sides: tuple[tuple[Side, int], ...] = (("mover", mine), ("opponent", theirs))
    for side, count in sides:
        if not count:
            continue
        bottom = side == view.bottom_side
        centers = [g.bar_center(bottom, k) for k in range(g.MAX_STACK)]
        # Hit checkers must catch the eye: a frame in the colour that marks hits surrounds them.
        ends = [centers[0][1], centers[min(count, g.MAX_STACK) - 1][1]]
        r = g.CHECKER // 2 + 5
        box = (g.BAR_CX - r, min(ends) - r, g.BAR_CX + r, max(ends) + r)
        d.rounded_rectangle(box, radius=r, outline=t.hit, width=4)
        ring = t.highlight if side == "mover" and 25 in view.highlights else None
        _draw_stack(im, d, centers, count, view.color_of(side), ring, t)


def _borne_off(pos: Position) -> tuple[tuple[Side, int], ...]:
    mover, opponent = pos.borne_off()
    return (("mover", mover), ("opponent", opponent))


def _draw_trays(im: Image.Image, pos: Position, view: BoardView) -> None:
    for side, count in _borne_off(pos):
        bottom = side == view.bottom_side
        sprite = sprites.tray_slice(view.color_of(side))
        for k in range(count):
            paste(im, sprite, g.tray_center(bottom, k, view.mirrored))


def _draw_tray_counts(d: ImageDraw.ImageDraw, pos: Position, view: BoardView, t: Theme) -> None:
    """How many checkers each player has borne off, on a chip of the tray's colour at the end
    of his tray nearest the middle of the board, where no checker lies (15 take less room) and
    no bear-off arrow ends (they end on the checkers)."""
    for side, count in _borne_off(pos):
        if not count:
            continue
        x, y = g.tray_count_center(side == view.bottom_side, view.mirrored)
        d.rounded_rectangle((x - 24, y - 16, x + 24, y + 16), radius=8, fill=t.tray)
        d.text((x, y), str(count), font=bold(24), fill=t.number, anchor="mm")


# -- dice ---------------------------------------------------------------------------------------


def _draw_dice(im: Image.Image, view: BoardView, t: Theme) -> None:
    """The mover's dice, high first as players read them: those he can still play bright (the
    one he chose outlined in the highlight colour and raised), the others faded."""
    faces = view.faces()
    if not faces:
        return
    live = list(view.playable())
    selected = view.selected_die
    centers = g.dice_centers(len(faces), view.bottom_side == "mover")
    color = view.color_of("mover")
    d = ImageDraw.Draw(im)
    # Of equal dice, the ones played are the first ones: the row is played left to right.
    playable = [False] * len(faces)
    for i in reversed(range(len(faces))):
        if faces[i] in live:
            live.remove(faces[i])
            playable[i] = True
    for face, can, (x, y) in zip(faces, playable, centers, strict=True):
        if can and face == selected:
            selected = None  # one die only, the first of its value
            y -= g.DIE_LIFT
            r = g.DIE // 2 + 5
            d.rounded_rectangle((x - r, y - r, x + r, y + r), radius=13, fill=t.highlight)
        paste(im, sprites.die(face, color, not can), (x, y))

"""Pre-drawn pieces: the empty board, checkers, dice and cubes, each drawn once and cached.

Pillow draws shapes without anti-aliasing, so every piece with a curve or a slanted edge is drawn
at :data:`SS` times its size and scaled down once; a render then only pastes finished pieces,
which keeps it within its time budget. Caches are bounded (a few themes and colours make a few
dozen pieces), so memory stays flat however many boards are drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render import geometry as g
from render.fonts import bold
from render.theme import CHECKER_COLORS, RGB, THEMES, Theme

Box = tuple[int, int, int, int]

__all__ = ["checker", "cube", "die", "empty_board", "tray_slice"]

SS = 4  # supersampling factor for pieces
BOARD_SS = 2  # and for the empty board (large, drawn once per variant)

_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def _shrink(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    return im.resize(size, Image.Resampling.LANCZOS)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


SHADOW = 4  # transparent margin around a checker sprite, room for its shadow


@lru_cache(maxsize=64)
def checker(color: str, ring: RGB | None = None) -> Image.Image:
    """A checker seen from above (RGBA, :data:`geometry.CHECKER` wide plus a shadow margin, its
    centre at the sprite's centre). With ``ring``, its rim is drawn thick in that colour: the
    highlight of a checker that can move."""
    c = CHECKER_COLORS[color]
    n = g.CHECKER * SS
    pad = SHADOW * SS
    full = n + 2 * pad
    # A soft shadow below and to the right lifts the checker off the board.
    shadow = Image.new("L", (full, full), 0)
    ImageDraw.Draw(shadow).ellipse((pad + SS, pad + 2 * SS, pad + n, pad + n + SS), fill=110)
    shadow = shadow.filter(ImageFilter.GaussianBlur(2 * SS))
    im = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    im.paste((0, 0, 0, 255), (0, 0), shadow)
    d = ImageDraw.Draw(im)
    rim = (ring or c.rim) + (255,)
    d.ellipse((pad, pad, pad + n - 1, pad + n - 1), fill=rim)
    inset = (5 if ring else 2) * SS
    body = (pad + inset, pad + inset, pad + n - 1 - inset, pad + n - 1 - inset)
    d.ellipse(body, fill=(*c.body, 255))
    # Light from the top left: a lighter upper half fading into the body.
    glow = Image.new("L", (full, full), 0)
    ImageDraw.Draw(glow).ellipse(
        (pad + inset + 3 * SS, pad + inset + 2 * SS, pad + n * 0.8, pad + n * 0.72), fill=70
    )
    glow = glow.filter(ImageFilter.GaussianBlur(5 * SS))
    lit = Image.new("RGBA", (full, full), (*_mix(c.body, (255, 255, 255), 0.55), 255))
    body_mask = Image.new("L", (full, full), 0)
    ImageDraw.Draw(body_mask).ellipse(body, fill=255)
    im.paste(lit, (0, 0), ImageChops.multiply(glow, body_mask))
    r = int(n * 0.31)
    cx = pad + n // 2
    d.ellipse((cx - r, cx - r, cx + r, cx + r), outline=(*c.ring, 255), width=SS * 2)
    size = g.CHECKER + 2 * SHADOW
    return _shrink(im, (size, size))


@lru_cache(maxsize=16)
def ghost(color: str) -> Image.Image:
    """Where a checker of the last play stood before it moved: its outline only (RGBA, the size
    of :func:`checker`). A faded checker would tint the point under it (a faint white checker
    on a red point reads as a pink one); an outline leaves the point its own colour."""
    c = CHECKER_COLORS[color]
    n = g.CHECKER * SS
    pad = SHADOW * SS
    full = n + 2 * pad
    im = Image.new("RGBA", (full, full), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    # A dashed ring in the checker's colour, edged by its rim: it reads as a place, not as a
    # checker of whatever colour the point shows through it.
    ring = (pad + 2 * SS, pad + 2 * SS, pad + n - 1 - 2 * SS, pad + n - 1 - 2 * SS)
    for k in range(GHOST_DASHES):
        a = k * 360 / GHOST_DASHES
        d.arc(ring, a, a + 360 / GHOST_DASHES * 0.6, fill=(*c.rim, 255), width=6 * SS)
    inner = (ring[0] + SS, ring[1] + SS, ring[2] - SS, ring[3] - SS)
    for k in range(GHOST_DASHES):
        a = k * 360 / GHOST_DASHES + 2
        d.arc(inner, a, a + 360 / GHOST_DASHES * 0.6 - 4, fill=(*c.body, 255), width=4 * SS)
    size = g.CHECKER + 2 * SHADOW
    return _shrink(im, (size, size))


GHOST_DASHES = 12


@lru_cache(maxsize=16)
def icon(color: str) -> Image.Image:
    """A small checker beside a player's name, to say which colour is his."""
    return checker(color).resize((38, 38), Image.Resampling.LANCZOS)


@lru_cache(maxsize=16)
def ring(color: RGB) -> Image.Image:
    """A ring around a checker's slot: marks where the last play hit."""
    n = (g.CHECKER + 10) * SS
    im = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    ImageDraw.Draw(im).ellipse((0, 0, n - 1, n - 1), outline=(*color, 255), width=5 * SS)
    return _shrink(im, (g.CHECKER + 10, g.CHECKER + 10))


@lru_cache(maxsize=16)
def tray_slice(color: str) -> Image.Image:
    """A borne-off checker lying edge-on in the tray (RGBA): a bar of its colour outlined by
    its rim (so a pile reads as separate checkers on a dark tray too), lit along its top."""
    c = CHECKER_COLORS[color]
    w, h = g.SIDE - 18, g.SLICE_H - 1
    im = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    radius = 4 * SS
    edge = 6  # 1.5 px at the final size
    d.rounded_rectangle((0, 0, w * SS - 1, h * SS - 1), radius=radius, fill=(*c.rim, 255))
    inner = (edge, edge, w * SS - 1 - edge, h * SS - 1 - edge)
    d.rounded_rectangle(inner, radius=radius - edge, fill=(*c.body, 255))
    lit = _mix(c.body, (255, 255, 255), 0.3)
    d.line(
        (edge + radius, edge + SS, w * SS - edge - radius, edge + SS), fill=(*lit, 255), width=SS
    )
    return _shrink(im, (w, h))


DIE = g.DIE


@lru_cache(maxsize=64)
def die(face: int, color: str, used: bool) -> Image.Image:
    """A die of the mover's colour (RGBA); a used die is faded to a third."""
    c = CHECKER_COLORS[color]
    n = DIE * SS
    im = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, n - 1, n - 1), radius=10 * SS, fill=(*c.rim, 255))
    d.rounded_rectangle(
        (2 * SS, 2 * SS, n - 1 - 2 * SS, n - 1 - 2 * SS), radius=9 * SS, fill=(*c.body, 255)
    )
    pr = int(n * 0.085)
    for fx, fy in _PIPS[face]:
        x, y = int(fx * n), int(fy * n)
        d.ellipse((x - pr, y - pr, x + pr, y + pr), fill=(*c.label, 255))
    out = _shrink(im, (DIE, DIE))
    if used:
        alpha = out.getchannel("A").point(lambda a: a * 30 // 100)
        out.putalpha(alpha)
    return out


CUBE = 54  # side of the doubling cube


@lru_cache(maxsize=32)
def cube(value: int, size: int = CUBE) -> Image.Image:
    """The doubling cube showing ``value`` (RGBA). A centred cube at 1 shows 64, as real cubes
    have no face 1."""
    text = str(64 if value == 1 else value)
    n = size * SS
    im = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, n - 1, n - 1), radius=8 * SS, fill=(40, 34, 28, 255))
    d.rounded_rectangle(
        (2 * SS, 2 * SS, n - 1 - 2 * SS, n - 1 - 2 * SS), radius=7 * SS, fill=(250, 246, 232, 255)
    )
    font = bold(int(n * (0.5 if len(text) <= 2 else 0.36 if len(text) == 3 else 0.27)))
    d.text((n // 2, n // 2), text, font=font, fill=(30, 30, 30), anchor="mm")
    return _shrink(im, (size, size))


@lru_cache(maxsize=16)
def empty_board(theme_name: str, mirrored: bool, numbers_for_bottom: bool) -> Image.Image:
    """The board with no checkers: frame, field, points, bar, trays, cube well and numbers (RGB).

    Render copies it and draws on the copy."""
    t = THEMES[theme_name]
    s = BOARD_SS
    im = Image.new("RGB", (g.WIDTH * s, g.HEIGHT * s), t.table)
    d = ImageDraw.Draw(im)

    def box(b: Box, fill: RGB) -> None:
        d.rectangle((b[0] * s, b[1] * s, b[2] * s - 1, b[3] * s - 1), fill=fill)

    _frame(box, t, mirrored)
    for vpoint in range(1, 25):
        tri = g.point_triangle(vpoint, mirrored)
        col = g.point_column(vpoint, mirrored)
        color = t.point_a if (col + (vpoint >= 13)) % 2 == 0 else t.point_b
        d.polygon([(x * s, y * s) for x, y in tri], fill=color)
    im = im.resize((g.WIDTH, g.HEIGHT), Image.Resampling.LANCZOS)
    _numbers(ImageDraw.Draw(im), t, mirrored, numbers_for_bottom)
    return im


def _frame(fill: Callable[[Box, RGB], None], t: Theme, mirrored: bool) -> None:
    top, bottom = g.INFO_H, g.HEIGHT - g.INFO_H
    fill((0, top, g.WIDTH, bottom), t.frame_dark)
    fill((2, top + 2, g.WIDTH - 2, bottom - 2), t.frame_light)
    fill((4, top + 4, g.WIDTH - 3, bottom - 3), t.frame)
    # The field's two halves, each sunk into the frame by a dark edge.
    for left, right in ((g.LEFT_X, g.BAR_X), (g.RIGHT_X, g.FIELD_RIGHT)):
        fill((left - 3, g.FIELD_TOP - 3, right + 3, g.FIELD_BOTTOM + 3), t.frame_dark)
        fill((left, g.FIELD_TOP, right, g.FIELD_BOTTOM), t.field)
    # The bar: a raised strip with a dark seam down its middle, where the board folds.
    fill((g.BAR_X + 3, g.FIELD_TOP - 3, g.RIGHT_X - 3, g.FIELD_BOTTOM + 3), t.frame_dark)
    fill((g.BAR_X + 5, g.FIELD_TOP - 3, g.RIGHT_X - 5, g.FIELD_BOTTOM + 3), t.frame)
    fill((g.BAR_CX - 1, g.FIELD_TOP - 3, g.BAR_CX + 1, g.FIELD_BOTTOM + 3), t.frame_dark)
    # Two trays by the home boards, one per player, and the cube's well on the other side.
    for bottom_player in (False, True):
        left, top_, right, bottom_ = g.tray_box(bottom_player, mirrored)
        fill((left - 2, top_ - 2, right + 2, bottom_ + 2), t.frame_dark)
        fill((left, top_, right, bottom_), t.tray)
    left, top_, right, bottom_ = g.cube_well(mirrored)
    fill((left - 2, top_ - 2, right + 2, bottom_ + 2), t.frame_dark)
    fill((left, top_, right, bottom_), t.tray)


def _numbers(d: ImageDraw.ImageDraw, t: Theme, mirrored: bool, for_bottom: bool) -> None:
    font = bold(23)
    for vpoint in range(1, 25):
        x, y = g.number_center(vpoint, mirrored)
        number = g.point_label(vpoint, for_bottom)
        d.text((x, y), str(number), font=font, fill=t.number, anchor="mm")

"""Helpers for the renderer's tests: decode a picture and tell what stands at a pixel by its
nearest reference colour (the PNG is quantized, so colours are compared, never matched)."""

from __future__ import annotations

import io

from PIL import Image

from engine import Position
from render import BoardView, checker_center, render_board, sprites
from render.theme import CHECKER_COLORS, THEMES

RGB = tuple[int, int, int]


def picture(position: Position, **options: object) -> Image.Image:
    data = render_board(position, view=BoardView(**options))  # type: ignore[arg-type]
    return Image.open(io.BytesIO(data)).convert("RGB")


FACE = (0, 20)  # where to look at a checker: below its centre, clear of a printed count


def checker_face(color: str) -> RGB:
    """The colour of a drawn checker of ``color`` at :data:`FACE` from its centre."""
    sprite = sprites.checker(color)
    xy = (sprite.width // 2 + FACE[0], sprite.height // 2 + FACE[1])
    r, g, b, _ = sprite.getpixel(xy)  # type: ignore[misc]
    return (r, g, b)


def slice_face(color: str) -> RGB:
    """The colour at the centre of a borne-off checker of ``color`` in its tray."""
    sprite = sprites.tray_slice(color)
    r, g, b, _ = sprite.getpixel((sprite.width // 2, sprite.height // 2))  # type: ignore[misc]
    return (r, g, b)


def distance(a: RGB, b: RGB) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5)


def nearest(pixel: RGB, refs: dict[str, RGB]) -> str:
    return min(refs, key=lambda name: distance(pixel, refs[name]))


def surfaces(
    theme: str = "classic", colors: tuple[str, ...] = ("white", "black"), tray: bool = False
) -> dict[str, RGB]:
    """Everything a checker slot can show: a checker of each colour (lying in a tray if
    ``tray``) or the bare board."""
    t = THEMES[theme]
    refs = {c: slice_face(c) if tray else checker_face(c) for c in colors}
    refs.update(field=t.field, point_a=t.point_a, point_b=t.point_b, tray=t.tray, frame=t.frame)
    return refs


def what_is_at(im: Image.Image, xy: tuple[int, int], **kw: object) -> str:
    pixel = im.getpixel(xy)
    assert isinstance(pixel, tuple)
    return nearest((pixel[0], pixel[1], pixel[2]), surfaces(**kw))  # type: ignore[arg-type]


def stack(
    im: Image.Image, point: int, view: BoardView | None = None, side: str = "mover", limit: int = 5
) -> list[str]:
    """What each of the slots of ``point`` shows, from the frame toward the middle."""
    view = view or BoardView()
    out = []
    for k in range(limit):
        x, y = checker_center(point, k, view=view, side=side)  # type: ignore[arg-type]
        out.append(what_is_at(im, (x + FACE[0], y + FACE[1]), colors=view.colors))
    return out


def count_near(
    im: Image.Image, center: tuple[int, int], color: RGB, radius: int, tolerance: float = 40.0
) -> int:
    """How many pixels within a square of ``radius`` around ``center`` are close to ``color``."""
    x0, y0 = center
    n = 0
    for x in range(x0 - radius, x0 + radius + 1):
        for y in range(y0 - radius, y0 + radius + 1):
            if 0 <= x < im.width and 0 <= y < im.height:
                p = im.getpixel((x, y))
                assert isinstance(p, tuple)
                if distance((p[0], p[1], p[2]), color) <= tolerance:
                    n += 1
    return n


__all__ = [
    "CHECKER_COLORS",
    "THEMES",
    "checker_face",
    "count_near",
    "distance",
    "nearest",
    "picture",
    "stack",
    "surfaces",
    "what_is_at",
]

"""The board drawn straight into palette indices: prepared layers, pasted pieces, no quantize
pass over the picture.

:func:`render.board.draw_board` draws the picture in RGB, as the eye reads it; mapping its
800,000 pixels to the theme's 256 colours then cost as much as drawing it. Here the picture is
a palette (``P``) image from the start:

* the static layer (frame, field, points, trays, numbers) of each theme, orientation and
  numbering is drawn once, in RGB and in palette indices (:func:`layer`);
* every piece (a stack of checkers with its count, the tray's checkers, a number's chip, a
  die, the cube, a player's strip in his language) is drawn once in RGB over the layer's
  pixels where it lies, mapped to the palette, and kept with the mask of the pixels it
  changes (:func:`piece`, an LRU of :data:`PIECES` entries); a board pastes them;
* what lies over other pieces (the last play's arrows, ghosts and hit rings, a highlighted
  checker drawn again over an arrow) is drawn over the pixels already there, only in its own
  box (:func:`overlay`), so its anti-aliased edges blend with what is under them.

A piece drawn over the bare layer differs from the RGB drawing only where it overlaps another
piece by a few pixels (the shadow of a checker on its neighbour's rim): see the README.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar

from PIL import Image, ImageChops, ImageDraw

from render import geometry as g
from render import png, sprites
from render.board import palette

if TYPE_CHECKING:  # Pillow's own images, under its Image objects (no such name at run time)
    from PIL._imaging import ImagingCore as Core

__all__ = ["PIECES", "Canvas", "Pen", "layer", "overlay", "piece", "to_palette"]

Box = tuple[int, int, int, int]
XY = tuple[int, int]
V = TypeVar("V")

PIECES = 4096
"""How many pieces are kept at most: a bound on the count of keys; the bytes of their pixels
(:data:`PIECE_BYTES`) bind first (about 1,800 pieces of a busy worker's mix fill them). With
1,024 the count bound bound first, at 8 MB: a new board missed a third more of its stacks,
and drew them again."""

PIECE_BYTES = 16 << 20
"""How many bytes of pixels (indices and masks) the kept pieces take at most: the oldest go
first. A player's strip with his name is the largest piece (813 x 64 pixels, 104 KB with its
mask when it is highlighted: the player to act), and every game has its own: with 1,024 of
them kept a busy drawing worker held 90 MB of names (the benchmark's 2,000 live games), though
a game's names were long evicted when its next board came. Stacks, dice and the others are a
few kilobytes."""

OVERLAYS = 4096
"""How many drawings over the pieces are kept at most: a ghost, a hit ring, a checker drawn
again (~10 KB each with its mask), and the parts of an arrow's edges that lie over pieces (a
checker's width or two, ~5 KB); :data:`OVERLAY_BYTES` binds first (about 2,300 of a busy
worker's mix). With 1,024 (7 MB) a new board drew a fifth more of them again."""

OVERLAY_BYTES = 16 << 20
"""How many bytes of pixels (indices and masks) the kept drawings over the pieces take at
most: the oldest go first."""

ARROWS = 512
"""How many arrows drawn over the bare layer are kept (an arrow's box, ~25 KB on average,
100 KB for the longest): about 15 MB at most."""

_Kept = tuple["Core", "Core | None", XY]  # indices, mask (None: whole), where
_pieces: OrderedDict[Hashable, _Kept] = OrderedDict()
_pieces_bytes = [0]  # of the kept pieces' pixels
_pieces_lock = threading.Lock()
_drawn_over: OrderedDict[Hashable, tuple[Core, Core]] = OrderedDict()
_drawn_over_bytes = [0]  # of the kept drawings' pixels
WHOLE_ARROWS = 256
"""How many arrows are kept as drawn over what lay under them (~25 KB each, 100 KB for the
longest): about 7 MB at most."""

_bare_arrows: OrderedDict[Hashable, Core] = OrderedDict()
_whole_arrows: OrderedDict[Hashable, Core] = OrderedDict()
BLOCK = 32  # the side of the squares an arrow's edges over pieces are drawn again in
_CHANGED = [0] + [255] * 255  # a difference of indices to a paste mask


def to_palette(rgb: Image.Image, theme: str) -> Image.Image:
    """An RGB image mapped to the theme's palette (nearest colour, no dithering)."""
    return rgb.quantize(palette=palette(theme), dither=Image.Dither.NONE)


def _indices(rgb: Core, theme: str) -> Core:
    """:func:`to_palette`'s indices, as Pillow's own image (no palette copied with them: a
    piece's indices are pasted into the picture, which has its palette)."""
    out: Core = rgb.convert("P", Image.Dither.NONE, palette(theme).im)
    return out


@lru_cache(maxsize=16)
def layer(theme: str, mirrored: bool, for_bottom: bool) -> tuple[Image.Image, Image.Image]:
    """The empty board of a theme, orientation and numbering, in RGB and in palette indices
    (read only, shared)."""
    rgb = sprites.empty_board(theme, mirrored, for_bottom)
    return rgb, to_palette(rgb, theme)


def _changed(new: Core, old: Core) -> Core:
    """The mask (0 or 255) of the pixels whose index differs: the difference of the indices
    themselves (Pillow's chops work on any 8-bit image, with no colour lookup), made 0 or 255
    (Image.point and ImageChops: the same, slower)."""
    out: Core = new.chop_difference(old).point(_CHANGED, "L")
    return out


def _crop(im: Image.Image, box: Box) -> Core:
    """``box`` of ``im`` (within it), as Pillow's own image: Image.crop without its checks
    and the copy of its palette (five times as fast on a checker's box)."""
    out: Core = im.im.crop(box)
    return out


class Pen:
    """Draws on a crop of the picture in the picture's coordinates."""

    def __init__(self, im: Image.Image, origin: XY) -> None:
        self.im = im
        self.ox, self.oy = origin
        self._d: ImageDraw.ImageDraw | None = None

    @property
    def d(self) -> ImageDraw.ImageDraw:
        """A drawing context on the crop, made when first asked for (an arrow's edges and
        most pieces are pasted, not drawn)."""
        if self._d is None:
            self._d = ImageDraw.Draw(self.im)
        return self._d

    def at(self, xy: XY) -> XY:
        return xy[0] - self.ox, xy[1] - self.oy

    def box(self, box: Box) -> Box:
        return box[0] - self.ox, box[1] - self.oy, box[2] - self.ox, box[3] - self.oy

    def paste(self, sprite: Image.Image, center: XY) -> None:
        """An RGBA ``sprite`` centred on ``center`` (as Image.paste pastes it through its own
        alpha, without its checks: the crop is the pen's own, RGB)."""
        x, y = self.at(center)
        w, h = sprite.size
        left, top = x - w // 2, y - h // 2
        self.im.im.paste(sprite.im, (left, top, left + w, top + h), sprite.im)


Draw = Callable[[Pen], None]


@dataclass(slots=True)
class Canvas:
    """The picture being drawn (palette indices) and the layer it was started from."""

    im: Image.Image
    theme: str
    key: tuple[str, bool, bool]

    @classmethod
    def start(cls, theme: str, mirrored: bool, for_bottom: bool, height: int) -> Canvas:
        _, flat = layer(theme, mirrored, for_bottom)
        if height == flat.height:
            return cls(flat.copy(), theme, (theme, mirrored, for_bottom))
        im = Image.new("P", (g.WIDTH, height), 0)
        im.putpalette(flat.getpalette() or [])
        im.paste(flat, (0, 0))
        return cls(im, theme, (theme, mirrored, for_bottom))

    def put(self, indices: Core, mask: Core, at: XY) -> None:
        """Paste ``indices`` through ``mask`` (as Image.paste does, without its checks: the
        picture is this canvas's own, the box within it, the modes right)."""
        x, y = at
        width, height = indices.size
        self.im.im.paste(indices, (x, y, x + width, y + height), mask)


def _digest(im: Image.Image, box: Box) -> int:
    """What lies in ``box`` of ``im``, as a key: Python's own hash of its bytes (64 bits,
    keyed per process), two and a half times as fast as BLAKE2 over an arrow's box."""
    return hash(_raw(im.im, box))


def _raw(im: Core, box: Box) -> bytes:
    """The bytes of ``box`` of ``im`` (8 bits a pixel), read straight from the box."""
    return png.raw(im, box, box[2] - box[0])


def _clip(box: Box, size: XY) -> Box:
    return max(box[0], 0), max(box[1], 0), min(box[2], size[0]), min(box[3], size[1])


def piece(canvas: Canvas, key: Hashable, box: Box, draw: Draw, whole: bool = False) -> None:
    """Paste the piece ``key`` (the same key must always draw the same thing) over ``box`` of
    the picture: drawn by ``draw`` over the bare layer the first time, then kept. ``whole``:
    the piece holds all that lies in its box so far (it draws the pieces under it itself), so
    it is copied whole, not through its mask (a copy of rows, not a blend of pixels), and
    kept without one. Another is kept cropped to the pixels it changes (its mask's box): the
    rest of its box would be pasted through a mask of zeros, that is not at all."""
    box = _clip(box, (g.WIDTH, g.HEIGHT))
    full = (canvas.key, key, box, whole)
    with _pieces_lock:
        kept = _pieces.get(full)
        if kept is not None:
            _pieces.move_to_end(full)
    if kept is None:
        kept = _prepared(canvas, box, draw, whole)
        _keep(full, kept)
    indices, mask, (x, y) = kept
    if mask is None:
        width, height = indices.size
        canvas.im.im.paste(indices, (x, y, x + width, y + height))
    else:
        canvas.put(indices, mask, (x, y))


def _prepared(canvas: Canvas, box: Box, draw: Draw, whole: bool) -> _Kept:
    """A piece to keep: its indices drawn over the bare layer, and, unless ``whole``, the mask
    of the pixels that differ from the layer, both cropped to those pixels."""
    indices = _over_bare(canvas, box, draw)
    if whole:
        return indices, None, box[:2]
    # A mask of 0 and 255 copies where it is 255 (a greyscale paste blends only between).
    mask = _changed(indices, _crop(layer(*canvas.key)[1], box))
    inside = mask.getbbox(False) or (0, 0, 1, 1)  # nothing changed: one pixel, masked out
    if inside != (0, 0, *mask.size):
        indices, mask = indices.crop(inside), mask.crop(inside)
    return indices, mask, (box[0] + inside[0], box[1] + inside[1])


def _keep(full: Hashable, kept: _Kept) -> None:
    """Keep a piece; forget the oldest beyond :data:`PIECES` pieces or :data:`PIECE_BYTES`."""
    _keep_bounded(_pieces, _pieces_bytes, full, kept, _size, (PIECES, PIECE_BYTES))


def _keep_bounded(
    kept: OrderedDict[Hashable, V],
    used: list[int],
    full: Hashable,
    value: V,
    weigh: Callable[[V], int],
    most: tuple[int, int],
) -> None:
    """Keep ``value`` for ``full`` in ``kept``, whose bytes ``used`` counts (each value's by
    ``weigh``); forget the oldest beyond ``most``: a count of values and of bytes (the newest
    stays, however large)."""
    with _pieces_lock:
        if full in kept:  # another thread drew it meanwhile
            return
        kept[full] = value
        used[0] += weigh(value)
        while len(kept) > most[0] or (used[0] > most[1] and len(kept) > 1):
            used[0] -= weigh(kept.popitem(last=False)[1])


def _size(kept: _Kept) -> int:
    indices, mask, _ = kept
    width, height = indices.size
    return int(width * height) * (1 if mask is None else 2)


def overlay(
    canvas: Canvas,
    box: Box,
    draw: Draw,
    covered: Image.Image | None = None,
    key: Hashable = None,
) -> None:
    """Draw over ``box`` of the picture as it stands (its colours, in RGB), and map back only
    the pixels that changed, or those of ``covered`` (a 0/255 mask of ``box``, of pixels that
    differ from the bare layer only) when the caller knows which. With a ``key`` (the same key
    must always draw the same thing), the result is kept by what lay under it: the last
    play's arrows come back on every press of a turn, over the same checkers."""
    if box[0] < 0 or box[1] < 0 or box[2] > canvas.im.width or box[3] > canvas.im.height:
        box, covered = _clip(box, canvas.im.size), None
    if box[2] <= box[0] or box[3] <= box[1]:
        return
    full: Hashable = None
    if key is not None:
        full = (canvas.key, key, box, _digest(canvas.im, box))
        kept = _hit(_drawn_over, full)
        if kept is not None:
            canvas.put(*kept, box[:2])
            return
    indices, mask = _drawn(canvas, box, draw, None if covered is None else covered.im)
    if full is not None:
        _keep_over(full, (indices, mask))
    canvas.put(indices, mask, box[:2])


def arrow(
    canvas: Canvas,
    box: Box,
    draw: Draw,
    masks: tuple[Image.Image, Image.Image],
    key: Hashable,
) -> None:
    """An arrow (or anything drawn through a mask), as :func:`overlay` draws it, in two parts.
    ``masks``: the pixels it covers in ``box``, and those of them whose colour depends on what
    lies under them (its anti-aliased edges, not the pixels it paints whole).

    The arrow is kept as drawn over the bare layer, wherever it lies, and pasted; only the
    squares of :data:`BLOCK` pixels where its edges cross a piece (a checker, a chip) are
    drawn again over what lies there, and kept by what lay under them: a new board's arrows
    cost a few small drawings, not one over their whole box. The whole is kept too, by what
    lay under all of it (:data:`WHOLE_ARROWS`): the next press of a turn pastes it at once."""
    if box[0] < 0 or box[1] < 0 or box[2] > canvas.im.width or box[3] > g.HEIGHT:
        overlay(canvas, box, draw, None, key)
        return
    covered, edges = masks[0].im, masks[1].im
    full = (canvas.key, key, box, _digest(canvas.im, box))
    kept = _hit(_whole_arrows, full)
    if kept is not None:
        canvas.put(kept, covered, box[:2])
        return
    changed = _changed(_crop(canvas.im, box), _crop(layer(*canvas.key)[1], box))
    redo = changed.chop_multiply(edges)
    again = [
        (sub, *_kept_over(canvas, sub, draw, redo.crop(_shift(sub, box)), key))
        for sub in _parts(redo, box)
    ]
    canvas.put(_bare(canvas, box, draw, key), covered, box[:2])
    for sub, indices, mask in again:
        canvas.put(indices, mask, sub[:2])
    _put(_whole_arrows, full, _crop(canvas.im, box), WHOLE_ARROWS)


def _shift(sub: Box, box: Box) -> Box:
    return sub[0] - box[0], sub[1] - box[1], sub[2] - box[0], sub[3] - box[1]


def _parts(mask: Core, box: Box) -> list[Box]:
    """The boxes (in the picture) of the groups of :data:`BLOCK`-pixel squares of ``mask``
    (over ``box``) that hold a pixel to draw, neighbours joined into one box."""
    width, height = mask.size
    cols = -(-width // BLOCK)
    # Each step of the reduction averages: a lone pixel drawn must survive it.
    fours = mask.reduce((4, 4), (0, 0, width, height)).point(_CHANGED, "L")
    blocks = fours.reduce((BLOCK // 4, BLOCK // 4), (0, 0, *fours.size))
    todo = {i for i, v in enumerate(_raw(blocks, (0, 0, *blocks.size))) if v}
    out = []
    while todo:
        group, stack = set(), [todo.pop()]
        while stack:
            i = stack.pop()
            group.add(i)
            y, x = divmod(i, cols)
            near = {(y + a) * cols + x + b for a in (-1, 0, 1) for b in (-1, 0, 1)}
            found = {j for j in near & todo if abs(j % cols - x) <= 1}
            todo -= found
            stack += found
        xs, ys = [i % cols for i in group], [i // cols for i in group]
        part = (min(xs) * BLOCK, min(ys) * BLOCK, (max(xs) + 1) * BLOCK, (max(ys) + 1) * BLOCK)
        part = _clip(part, (width, height))
        x0, y0, x1, y1 = mask.crop(part).getbbox() or (0, 0, 0, 0)
        out.append(
            (
                box[0] + part[0] + x0,
                box[1] + part[1] + y0,
                box[0] + part[0] + x1,
                box[1] + part[1] + y1,
            )
        )
    return out


def _kept_over(
    canvas: Canvas, box: Box, draw: Draw, covered: Core, key: Hashable
) -> tuple[Core, Core]:
    """:func:`_drawn` over ``box``, kept by what lies under it."""
    # Which pixels to draw follows from what lies under.
    full = (canvas.key, key, box, _digest(canvas.im, box))
    kept = _hit(_drawn_over, full)
    if kept is not None:
        return kept
    kept = _drawn(canvas, box, draw, covered)
    _keep_over(full, kept)
    return kept


def _hit(kept: OrderedDict[Hashable, V], full: Hashable) -> V | None:
    """What ``kept`` holds for ``full``, now its newest; under the lock, since another thread
    may be evicting it (boards are drawn in the press threads when the drawing worker fails)."""
    with _pieces_lock:
        found = kept.get(full)
        if found is not None:
            kept.move_to_end(full)
        return found


def _put(kept: OrderedDict[Hashable, V], full: Hashable, value: V, most: int) -> None:
    """Keep ``value`` for ``full``, forgetting the oldest beyond ``most``."""
    with _pieces_lock:
        kept[full] = value
        if len(kept) > most:
            kept.popitem(last=False)


def _keep_over(full: Hashable, kept: tuple[Core, Core]) -> None:
    """Keep a drawing over the pieces; forget the oldest beyond :data:`OVERLAYS` drawings or
    :data:`OVERLAY_BYTES`."""
    _keep_bounded(_drawn_over, _drawn_over_bytes, full, kept, _over_size, (OVERLAYS, OVERLAY_BYTES))


def _over_size(kept: tuple[Core, Core]) -> int:
    return _size((*kept, (0, 0)))


def _over_bare(canvas: Canvas, box: Box, draw: Draw) -> Core:
    """``draw`` over ``box`` of the canvas's bare layer, as palette indices (not kept)."""
    rgb = layer(*canvas.key)[0]
    crop = rgb._new(_crop(rgb, box))
    draw(Pen(crop, (box[0], box[1])))
    return _indices(crop.im, canvas.theme)


def _bare(canvas: Canvas, box: Box, draw: Draw, key: Hashable) -> Core:
    """The indices of ``box`` with ``key`` drawn over the bare layer (kept)."""
    full = (canvas.key, key, box)
    kept = _hit(_bare_arrows, full)
    if kept is None:
        kept = _over_bare(canvas, box, draw)
        _put(_bare_arrows, full, kept, ARROWS)
    return kept


def _drawn(canvas: Canvas, box: Box, draw: Draw, covered: Core | None) -> tuple[Core, Core]:
    """:func:`overlay`'s drawing: the box's indices, and the mask of those to paste. A
    ``covered`` mask given holds only pixels that differ from the bare layer (an arrow's edges
    over pieces): their colours are the palette's own, so the layer's are not looked up."""
    if covered is not None:
        crop = canvas.im._new(_crop(canvas.im, box).convert("RGB"))
        draw(Pen(crop, (box[0], box[1])))
        return _indices(crop.im, canvas.theme), covered
    before = _under(canvas, box)
    crop = before.copy()
    draw(Pen(crop, (box[0], box[1])))
    # Only the pixels drawn on: mapping a palette colour back to the palette may not give the
    # same index (Pillow's mapping is approximate), and the rest must stay as it was.
    diff = ImageChops.difference(crop, before)
    drawn = diff.im.point(_CHANGED * 3, None).convert("L")
    return _indices(crop.im, canvas.theme), drawn.point(_CHANGED, "L")


def _under(canvas: Canvas, box: Box) -> Image.Image:
    """The colours of ``box`` as they stand: the layer's own (not their nearest in the palette)
    where nothing was drawn on it yet, so that what is drawn over them blends as in RGB."""
    under = _crop(canvas.im, box)
    if box[3] > g.HEIGHT:  # the band below the board has no layer
        return canvas.im._new(under.convert("RGB"))
    rgb, flat = layer(*canvas.key)
    out = rgb._new(_crop(rgb, box))
    out.im.paste(under.convert("RGB"), (0, 0, *out.size), _changed(under, _crop(flat, box)))
    return out


def forget() -> None:
    """Drop every kept piece and drawing (the benchmark measures a first sight with it)."""
    with _pieces_lock:
        _pieces.clear()
        _pieces_bytes[0] = 0
        _drawn_over.clear()
        _drawn_over_bytes[0] = 0
    _bare_arrows.clear()
    _whole_arrows.clear()

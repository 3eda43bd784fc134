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

from PIL import Image, ImageChops, ImageDraw

from render import geometry as g
from render import sprites
from render.board import palette

__all__ = ["PIECES", "Canvas", "Pen", "layer", "overlay", "piece", "to_palette"]

Box = tuple[int, int, int, int]
XY = tuple[int, int]

PIECES = 1024
"""How many pieces are kept at most (a stack of five checkers weighs ~50 KB)."""

PIECE_BYTES = 16 << 20
"""How many bytes of pixels (indices and masks) the kept pieces take at most: the oldest go
first. A player's strip with his name is the largest piece (813 x 64 pixels, 104 KB with its
mask when it is highlighted: the player to act), and every game has its own: with 1,024 of
them kept a busy drawing worker held 90 MB of names (the benchmark's 2,000 live games), though
a game's names were long evicted when its next board came. Stacks, dice and the others are a
few kilobytes."""

OVERLAYS = 1024
"""How many drawings over the pieces are kept: a ghost, a hit ring, a checker drawn again
(~10 KB each with its mask), and the parts of an arrow's edges that lie over pieces (a
checker's width or two, ~5 KB): about 10 MB at most."""

ARROWS = 512
"""How many arrows drawn over the bare layer are kept (an arrow's box, ~25 KB on average,
100 KB for the longest): about 15 MB at most."""

_Kept = tuple[Image.Image, Image.Image | None, XY]  # indices, mask (None: whole), where
_pieces: OrderedDict[Hashable, _Kept] = OrderedDict()
_pieces_bytes = [0]  # of the kept pieces' pixels
_pieces_lock = threading.Lock()
_drawn_over: OrderedDict[Hashable, tuple[Image.Image, Image.Image]] = OrderedDict()
WHOLE_ARROWS = 256
"""How many arrows are kept as drawn over what lay under them (~25 KB each, 100 KB for the
longest): about 7 MB at most."""

_bare_arrows: OrderedDict[Hashable, Image.Image] = OrderedDict()
_whole_arrows: OrderedDict[Hashable, Image.Image] = OrderedDict()
BLOCK = 32  # the side of the squares an arrow's edges over pieces are drawn again in
_CHANGED = [0] + [255] * 255  # a difference of indices to a paste mask


def to_palette(rgb: Image.Image, theme: str) -> Image.Image:
    """An RGB image mapped to the theme's palette (nearest colour, no dithering)."""
    return rgb.quantize(palette=palette(theme), dither=Image.Dither.NONE)


@lru_cache(maxsize=16)
def layer(theme: str, mirrored: bool, for_bottom: bool) -> tuple[Image.Image, Image.Image]:
    """The empty board of a theme, orientation and numbering, in RGB and in palette indices
    (read only, shared)."""
    rgb = sprites.empty_board(theme, mirrored, for_bottom)
    return rgb, to_palette(rgb, theme)


def _changed(new: Image.Image, old: Image.Image) -> Image.Image:
    """The mask (0 or 255) of the pixels whose index differs: the difference of the indices
    themselves (Pillow's chops work on any 8-bit image, with no colour lookup), made 0 or 255
    (Image.point and ImageChops: the same, slower)."""
    diff = new.im.chop_difference(old.im)
    return new._new(diff.point(_CHANGED, "L"))


class Pen:
    """Draws on a crop of the picture in the picture's coordinates."""

    def __init__(self, im: Image.Image, origin: XY) -> None:
        self.im = im
        self.ox, self.oy = origin
        self.d = ImageDraw.Draw(im)

    def at(self, xy: XY) -> XY:
        return xy[0] - self.ox, xy[1] - self.oy

    def box(self, box: Box) -> Box:
        return box[0] - self.ox, box[1] - self.oy, box[2] - self.ox, box[3] - self.oy

    def paste(self, sprite: Image.Image, center: XY) -> None:
        """An RGBA ``sprite`` centred on ``center``."""
        x, y = self.at(center)
        self.im.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


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

    def put(self, indices: Image.Image, mask: Image.Image, at: XY) -> None:
        """Paste ``indices`` through ``mask`` (as Image.paste does, without its checks: the
        picture is this canvas's own, the box within it, the modes right)."""
        x, y = at
        self.im.im.paste(indices.im, (x, y, x + indices.width, y + indices.height), mask.im)


def _digest(im: Image.Image) -> int:
    """What lies in ``im``, as a key: Python's own hash of its bytes (64 bits, keyed per
    process), two and a half times as fast as BLAKE2 over an arrow's box."""
    return hash(im.tobytes())


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
        canvas.im.im.paste(indices.im, (x, y, x + indices.width, y + indices.height))
    else:
        canvas.put(indices, mask, (x, y))


def _prepared(canvas: Canvas, box: Box, draw: Draw, whole: bool) -> _Kept:
    """A piece to keep: its indices drawn over the bare layer, and, unless ``whole``, the mask
    of the pixels that differ from the layer, both cropped to those pixels."""
    indices = _over_bare(canvas, box, draw)
    if whole:
        return indices, None, box[:2]
    # A mask of 0 and 255 copies where it is 255 (a greyscale paste blends only between).
    mask = _changed(indices, layer(*canvas.key)[1].crop(box))
    inside = mask.getbbox() or (0, 0, 1, 1)  # nothing changed: one pixel, masked out
    if inside != (0, 0, *mask.size):
        indices, mask = indices.crop(inside), mask.crop(inside)
    return indices, mask, (box[0] + inside[0], box[1] + inside[1])


def _keep(full: Hashable, kept: _Kept) -> None:
    """Keep a piece; forget the oldest beyond :data:`PIECES` pieces or :data:`PIECE_BYTES`."""
    with _pieces_lock:
        if full in _pieces:  # another thread drew it meanwhile
            return
        _pieces[full] = kept
        _pieces_bytes[0] += _size(kept)
        while len(_pieces) > PIECES or (_pieces_bytes[0] > PIECE_BYTES and len(_pieces) > 1):
            _pieces_bytes[0] -= _size(_pieces.popitem(last=False)[1])


def _size(kept: _Kept) -> int:
    indices, mask, _ = kept
    return indices.width * indices.height * (1 if mask is None else 2)


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
        under = _digest(canvas.im.crop(box))
        full = (canvas.key, key, box, under)
        kept = _drawn_over.get(full)
        if kept is not None:
            _drawn_over.move_to_end(full)
            canvas.put(*kept, box[:2])
            return
    indices, covered = _drawn(canvas, box, draw, covered)
    if full is not None:
        _drawn_over[full] = indices, covered
        if len(_drawn_over) > OVERLAYS:
            _drawn_over.popitem(last=False)
    canvas.put(indices, covered, box[:2])


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
    covered, edges = masks
    if box[0] < 0 or box[1] < 0 or box[2] > canvas.im.width or box[3] > g.HEIGHT:
        overlay(canvas, box, draw, None, key)
        return
    under = canvas.im.crop(box)
    full = (canvas.key, key, box, _digest(under))
    kept = _whole_arrows.get(full)
    if kept is not None:
        _whole_arrows.move_to_end(full)
        canvas.put(kept, covered, box[:2])
        return
    _, flat = layer(*canvas.key)
    changed = _changed(under, flat.crop(box))
    redo = changed._new(changed.im.chop_multiply(edges.im))
    again = [
        (sub, *_kept_over(canvas, sub, draw, redo.crop(_shift(sub, box)), key))
        for sub in _parts(redo, box)
    ]
    canvas.put(_bare(canvas, box, draw, key), covered, box[:2])
    for sub, indices, mask in again:
        canvas.put(indices, mask, sub[:2])
    _whole_arrows[full] = canvas.im.crop(box)
    if len(_whole_arrows) > WHOLE_ARROWS:
        _whole_arrows.popitem(last=False)


def _shift(sub: Box, box: Box) -> Box:
    return sub[0] - box[0], sub[1] - box[1], sub[2] - box[0], sub[3] - box[1]


def _parts(mask: Image.Image, box: Box) -> list[Box]:
    """The boxes (in the picture) of the groups of :data:`BLOCK`-pixel squares of ``mask``
    (over ``box``) that hold a pixel to draw, neighbours joined into one box."""
    cols = -(-mask.width // BLOCK)
    # Each step of the reduction averages: a lone pixel drawn must survive it.
    fours = mask.reduce(4)
    blocks = fours._new(fours.im.point(_CHANGED, "L")).reduce(BLOCK // 4).tobytes()
    todo = {i for i, v in enumerate(blocks) if v}
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
        part = _clip(part, mask.size)
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
    canvas: Canvas, box: Box, draw: Draw, covered: Image.Image, key: Hashable
) -> tuple[Image.Image, Image.Image]:
    """:func:`_drawn` over ``box``, kept by what lies under it."""
    under = _digest(canvas.im.crop(box))
    full = (canvas.key, key, box, under)  # which pixels to draw follows from what lies under
    kept = _drawn_over.get(full)
    if kept is not None:
        _drawn_over.move_to_end(full)
        return kept
    kept = _drawn(canvas, box, draw, covered)
    _drawn_over[full] = kept
    if len(_drawn_over) > OVERLAYS:
        _drawn_over.popitem(last=False)
    return kept


def _over_bare(canvas: Canvas, box: Box, draw: Draw) -> Image.Image:
    """``draw`` over ``box`` of the canvas's bare layer, as palette indices (not kept)."""
    crop = layer(*canvas.key)[0].crop(box)
    draw(Pen(crop, (box[0], box[1])))
    return to_palette(crop, canvas.theme)


def _bare(canvas: Canvas, box: Box, draw: Draw, key: Hashable) -> Image.Image:
    """The indices of ``box`` with ``key`` drawn over the bare layer (kept)."""
    full = (canvas.key, key, box)
    kept = _bare_arrows.get(full)
    if kept is None:
        kept = _bare_arrows[full] = _over_bare(canvas, box, draw)
        if len(_bare_arrows) > ARROWS:
            _bare_arrows.popitem(last=False)
    else:
        _bare_arrows.move_to_end(full)
    return kept


def _drawn(
    canvas: Canvas, box: Box, draw: Draw, covered: Image.Image | None
) -> tuple[Image.Image, Image.Image]:
    """:func:`overlay`'s drawing: the box's indices, and the mask of those to paste. A
    ``covered`` mask given holds only pixels that differ from the bare layer (an arrow's edges
    over pieces): their colours are the palette's own, so the layer's are not looked up."""
    if covered is not None:
        crop = canvas.im.crop(box).convert("RGB")
        draw(Pen(crop, (box[0], box[1])))
        return to_palette(crop, canvas.theme), covered
    before = _under(canvas, box)
    crop = before.copy()
    draw(Pen(crop, (box[0], box[1])))
    # Only the pixels drawn on: mapping a palette colour back to the palette may not give the
    # same index (Pillow's mapping is approximate), and the rest must stay as it was.
    diff = ImageChops.difference(crop, before)
    drawn = diff._new(diff.im.point(_CHANGED * 3, None)).convert("L")
    return to_palette(crop, canvas.theme), drawn._new(drawn.im.point(_CHANGED, "L"))


def _under(canvas: Canvas, box: Box) -> Image.Image:
    """The colours of ``box`` as they stand: the layer's own (not their nearest in the palette)
    where nothing was drawn on it yet, so that what is drawn over them blends as in RGB."""
    under = canvas.im.crop(box)
    if box[3] > g.HEIGHT:  # the band below the board has no layer
        return under.convert("RGB")
    rgb, flat = layer(*canvas.key)
    out = rgb.crop(box)
    out.paste(under.convert("RGB"), (0, 0), _changed(under, flat.crop(box)))
    return out


def forget() -> None:
    """Drop every kept piece and drawing (the benchmark measures a first sight with it)."""
    with _pieces_lock:
        _pieces.clear()
        _pieces_bytes[0] = 0
    _drawn_over.clear()
    _bare_arrows.clear()
    _whole_arrows.clear()

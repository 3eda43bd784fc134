"""What the tournament and ladder pictures share: colours, fitted names, the title, cached
text, a canvas of palette indices and its PNG.

See :mod:`render.tournament` for the pictures themselves.

>>> fit_name("Ann", 200)
FittedName(lines=('Ann',), size=17, strong=False)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.fonts import bold, clean_name, fit, regular, text_width
from render.png import encode

__all__ = [
    "BG",
    "BOX",
    "DIM",
    "FIRE",
    "GOLD",
    "LINE",
    "MARGIN",
    "MINE",
    "NAME_SIZE",
    "RGB",
    "STRIPE",
    "TEXT",
    "WIN_ROW",
    "FittedName",
    "Font",
    "IndexCanvas",
    "draw_title",
    "fit_name",
    "fit_text",
    "title_height",
]

RGB = tuple[int, int, int]
BG: RGB = (36, 39, 46)
BOX: RGB = (54, 58, 69)
STRIPE: RGB = (43, 46, 55)
WIN_ROW: RGB = (82, 70, 36)  # a winner's row: gold on the dark background
TEXT: RGB = (236, 238, 243)
DIM: RGB = (142, 148, 162)
LINE: RGB = (96, 102, 118)
GOLD: RGB = (255, 196, 61)
FIRE: RGB = (255, 128, 54)
MINE: RGB = (40, 72, 112)  # the viewer's own row

MARGIN = 24

Font = ImageFont.FreeTypeFont


# -- names ------------------------------------------------------------------------------------

# Never under 16 pixels: the pictures are at most 608 wide, so a phone (380) shows a name at
# least 10 pixels high.
_ONE_LINE = (17, 16)
_TWO_LINES = (16,)
NAME_SIZE = min(_ONE_LINE + _TWO_LINES)
"""The smallest type a name is drawn in."""


@dataclass(frozen=True, slots=True)
class FittedName:
    """How a name is drawn: its lines, the type size, and whether in bold."""

    lines: tuple[str, ...]
    size: int
    strong: bool

    @property
    def font(self) -> Font:
        """The font to draw the lines in."""
        return (bold if self.strong else regular)(self.size)


@lru_cache(maxsize=4096)
def fit_name(name: str, width: int, strong: bool = False) -> FittedName:
    """How to draw ``name`` within ``width`` pixels, by preference: on one line at 17 or 16
    pixels (in bold when ``strong``, while that fits); on two lines cut between words (at a
    space, after a hyphen or an underscore) at 16; on two lines cut between letters; and
    only when even that fails, two lines ending with an ellipsis. The two-line forms are never
    bold: the weight would cost the room they need.

    >>> fit_name("Ann", 200)
    FittedName(lines=('Ann',), size=17, strong=False)
    >>> fit_name("Maximilian Alexander von Hohenzollern", 200).lines
    ('Maximilian Alexander', 'von Hohenzollern')
    >>> fit_name("xX_BackgammonDestroyer_2000_Xx", 230).lines
    ('xX_BackgammonDestroyer_', '2000_Xx')
    >>> fit_name("Maximilian Alexander von Hohenzollern-Sigmaringen", 200).lines
    ('Maximilian Alexander', 'von Hohenzollern-Sig…')
    """
    weights = (True, False) if strong else (False,)
    for heavy in weights:
        face = bold if heavy else regular
        for size in _ONE_LINE:
            if text_width(face(size), name) <= width:
                return FittedName((name,), size, heavy)
    for split in (_split_between_words, _split_between_letters):
        for size in _TWO_LINES:
            lines = split(name, regular(size), width)
            if lines is not None:
                return FittedName(lines, size, False)
    font = regular(_TWO_LINES[-1])
    first = _longest_prefix(name, font, width)
    # The first line ends between words when it can: "Maximilian Alexander / von Hohenz…",
    # not "Maximilian Alexander vo / n Hohenz…".
    inside_a_word = first[-1] not in " -_" and name[len(first)] not in " -_"
    cut = max((i for i, ch in enumerate(first) if ch in " -_"), default=0)
    if inside_a_word and cut > 0:
        first = first[: cut + (first[cut] != " ")]
    return FittedName((first, fit(font, name[len(first) :].strip(), width)), _TWO_LINES[-1], False)


def _split_between_words(name: str, font: Font, width: int) -> tuple[str, str] | None:
    """``name`` in two lines that fit, cut where the longer line is shortest."""
    best: tuple[int, str, str] | None = None
    for i, ch in enumerate(name):
        if ch in " -_":
            a, b = name[: i if ch == " " else i + 1].rstrip(), name[i + 1 :].strip()
            wa, wb = text_width(font, a), text_width(font, b)
            if a and b and wa <= width and wb <= width and (best is None or max(wa, wb) < best[0]):
                best = (max(wa, wb), a, b)
    return None if best is None else (best[1], best[2])


def _split_between_letters(name: str, font: Font, width: int) -> tuple[str, str] | None:
    """``name`` in two lines, the first as long as fits, if the rest fits too."""
    first = _longest_prefix(name, font, width)
    rest = name[len(first) :].strip()
    return (first, rest) if rest and text_width(font, rest) <= width else None


def _longest_prefix(name: str, font: Font, width: int) -> str:
    end = len(name)
    while end > 1 and text_width(font, name[:end]) > width:
        end -= 1
    return name[:end]


def _name_lines(fitted: FittedName, xy: tuple[int, int]) -> list[tuple[tuple[int, int], str]]:
    """Where each line of a fitted name goes: one line on ``xy``, two around it."""
    x, y = xy
    if len(fitted.lines) == 1:
        return [((x, y), fitted.lines[0])]
    step = fitted.size + 2
    return [((x, y - step // 2), fitted.lines[0]), ((x, y + step // 2 + 1), fitted.lines[1])]


# -- title ------------------------------------------------------------------------------------


def title_height(title: str, subtitle: str) -> int:
    """The room the title and the subtitle take above the picture (none without them)."""
    return (40 if title else 0) + (32 if subtitle else 0)


def draw_title(canvas: IndexCanvas, title: str, subtitle: str, width: int) -> None:
    """The title in bold and the subtitle under it, each shortened to the picture's width."""
    room = width - 2 * MARGIN
    if title:
        text = fit_text(clean_name(title), room, strong=True, size=26)
        canvas.text((MARGIN, MARGIN + 14), text, TEXT, BG, strong=True, size=26, anchor="lm")
    if subtitle:
        text = fit_text(subtitle, room, strong=False, size=16)
        y = MARGIN + (46 if title else 10)
        canvas.text((MARGIN, y), text, DIM, BG, strong=False, size=16, anchor="lm")


# -- cached text ------------------------------------------------------------------------------


def _face(strong: bool, size: int) -> Font:
    return (bold if strong else regular)(size)


@lru_cache(maxsize=4096)
def fit_text(text: str, width: int, *, strong: bool, size: int) -> str:
    """:func:`~render.fonts.fit` in the given type, kept: a ladder or a bracket is drawn again
    with the same names and notes, and measuring them is most of drawing them from cached
    masks."""
    return fit(_face(strong, size), text, width)


@lru_cache(maxsize=4096)
def _glyph(ch: str, strong: bool, size: int) -> tuple[Image.Image, int, int]:
    """One character drawn once as an anti-aliased mask, with its offset from its origin on the
    baseline: every name is put together from these (FreeType draws each glyph of a string at
    a whole pixel too, so the result is the same picture)."""
    font = _face(strong, size)
    left, top, right, bottom = (int(v) for v in font.getbbox(ch, anchor="ls"))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), ch, fill=255, font=font, anchor="ls")
    return mask, left, top


@lru_cache(maxsize=65536)
def _step(pair: str, strong: bool, size: int) -> float:
    """How far the pen moves from the first character of ``pair`` to the second: its advance
    and the kerning between them (a single character: its advance)."""
    font = _face(strong, size)
    return float(font.getlength(pair) - (font.getlength(pair[1:]) if len(pair) > 1 else 0))


@lru_cache(maxsize=8192)
def _stamp_mask(text: str, strong: bool, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` as an anti-aliased mask, with its offset from the anchor point, put together
    from cached glyphs and kept: the same numbers fill most cells of a table, and a table is
    drawn again after every result with the same names, so a 256-row table takes a small part
    of the 100 ms it may take."""
    pens, pen = [], 0.0
    for i in range(len(text)):
        pens.append(math.floor(pen + 0.5))  # as FreeType: half up (round() takes 2.5 to 2)
        pen += _step(text[i : i + 2], strong, size)
    glyphs = [_glyph(ch, strong, size) for ch in text]
    boxes = [
        (x + g[1], g[2], x + g[1] + g[0].width, g[2] + g[0].height)
        for x, g in zip(pens, glyphs, strict=True)
    ]
    left = min((b[0] for b in boxes), default=0)
    top = min((b[1] for b in boxes), default=0)
    right = max((b[2] for b in boxes), default=1)
    bottom = max((b[3] for b in boxes), default=1)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    core = mask.im  # the core's paste: Image.paste's checks cost more than the copy here
    for (glyph, _, _), box in zip(glyphs, boxes, strict=True):
        core.paste(255, (box[0] - left, box[1] - top, box[2] - left, box[3] - top), glyph.im)
    dx, dy = _anchor_offset(strong, size, pen, anchor)
    return mask, left + dx, top + dy


def _anchor_offset(strong: bool, size: int, advance: float, anchor: str) -> tuple[int, int]:
    """Where the pen starts on the baseline, from the anchor point (left, middle or right of
    the text; its vertical place as Pillow puts it, the same for every text of a font)."""
    dx = {"l": 0.0, "m": -advance / 2, "r": -advance}[anchor[0]]
    return round(dx), _baseline(strong, size, anchor[1])


@lru_cache(maxsize=256)
def _baseline(strong: bool, size: int, vertical: str) -> int:
    font = _face(strong, size)
    return int(font.getbbox("x", anchor="l" + vertical)[1] - font.getbbox("x", anchor="ls")[1])


# -- a canvas of palette indices ----------------------------------------------------------------

_LEVELS = 16  # shades of anti-aliasing between a background and an ink


class IndexCanvas:
    """A picture drawn straight in palette indices (a ``P`` image), as the board is: every pixel
    is a background, an ink, or one of :data:`_LEVELS` shades between an ink and the background
    it is drawn on. Text is stamped from cached masks already turned into indices (copied, not
    blended), shapes are drawn in an index by :attr:`draw` (Pillow draws them without
    anti-aliasing, so in the same pixels as in RGB), and the PNG needs no mapping of its
    colours: the tables, brackets and ladders cost a fraction of drawing them in RGB and
    quantizing them.

    Text must lie on a flat background, the one given (the tables' rows, stripes and header,
    the brackets' boxes, the ladders' rungs are): its pixels are copied with it.
    """

    def __init__(self, size: tuple[int, int], backs: tuple[RGB, ...], inks: tuple[RGB, ...]):
        if len(backs) * len(inks) * _LEVELS > 256:
            raise ValueError(f"{len(backs)} backgrounds and {len(inks)} inks need over 256 colours")
        self.backs, self.inks = backs, inks
        self.im = Image.new("P", size, self.index(backs[0]))
        self.draw = ImageDraw.Draw(self.im)

    def index(self, back: RGB, ink: RGB | None = None, level: int = 0) -> int:
        """The palette index of ``ink`` at ``level`` (of ``_LEVELS - 1``) over ``back``."""
        base = self.backs.index(back) * len(self.inks) + self.inks.index(ink or self.inks[0])
        return base * _LEVELS + (level if ink is not None else 0)

    def colour(self, rgb: RGB) -> int:
        """The index of a flat colour: a background, or an ink at full strength."""
        return self.index(rgb) if rgb in self.backs else self.index(self.backs[0], rgb, _LEVELS - 1)

    def rect(self, box: tuple[int, int, int, int], back: RGB) -> None:
        """Fill ``box`` (its right and bottom edges excluded) with ``back``."""
        self.im.paste(self.index(back), box)

    def line(self, box: tuple[int, int, int, int], ink: RGB, back: RGB) -> None:
        self.draw.line(box, fill=self.index(back, ink, _LEVELS - 1), width=1)

    def polygon(self, points: list[tuple[int, int]], ink: RGB, back: RGB) -> None:
        self.draw.polygon(points, fill=self.index(back, ink, _LEVELS - 1))

    def text(
        self,
        xy: tuple[int, int],
        text: str,
        ink: RGB,
        back: RGB,
        *,
        strong: bool,
        size: int,
        anchor: str = "lm",
    ) -> None:
        """``text`` as :meth:`ImageDraw.text` draws it (from cached glyphs), on ``back``."""
        shades, dx, dy = _shaded(text, strong, size, anchor, self.index(back, ink, 0))
        x, y = xy[0] + dx, xy[1] + dy
        self.im.im.paste(shades.im, (x, y, x + shades.width, y + shades.height))

    def name(
        self, xy: tuple[int, int], name: str, width: int, ink: RGB, back: RGB, strong: bool
    ) -> FittedName:
        """``name`` fitted into ``width`` (:func:`fit_name`), its lines centred vertically on
        ``xy[1]``, on ``back``."""
        fitted = fit_name(name, width, strong)
        for at, line in _name_lines(fitted, xy):
            self.text(at, line, ink, back, strong=fitted.strong, size=fitted.size, anchor="lm")
        return fitted

    def png(self) -> bytes:
        self.im.putpalette(_palette(self.backs, self.inks))
        return encode(self.im)


@lru_cache(maxsize=16)
def _palette(backs: tuple[RGB, ...], inks: tuple[RGB, ...]) -> bytes:
    """Each ink's :data:`_LEVELS` shades over each background, as RGB triples."""
    palette: list[int] = []
    for back in backs:
        for ink in inks:
            for k in range(_LEVELS):
                f = k / (_LEVELS - 1)
                palette += [round(b + (i - b) * f) for b, i in zip(back, ink, strict=True)]
    return bytes(palette)


@lru_cache(maxsize=8192)
def _shaded(
    text: str, strong: bool, size: int, anchor: str, base: int
) -> tuple[Image.Image, int, int]:
    """The mask of ``text`` turned into palette indices from ``base`` (its background) up, with
    its offset from the anchor point."""
    mask, dx, dy = _stamp_mask(text, strong, size, anchor)
    return mask._new(mask.im.point(_shades(base), "L")), dx, dy  # Image.point: the same, slower


@lru_cache(maxsize=256)
def _shades(base: int) -> list[int]:
    """The table from a mask's coverage (0 to 255) to the index of its shade above ``base``."""
    return [base + (a * (_LEVELS - 1) + 127) // 255 for a in range(256)]

"""The fonts shipped with the renderer, and fitting text (names above all) into a width.

DejaVu Sans, cut down to :data:`COVERED`, and Noto Emoji, cut down to
:data:`~render.emoji_cover.EMOJI` (see ``render/FONTS-LICENSE.txt``), are loaded from the
package, never from the system, so every machine draws the same picture. :func:`bold` and
:func:`regular` draw an emoji from Noto Emoji and the rest from DejaVu Sans, in one call.

>>> clean_name("Zoë 🎲")
'Zoë 🎲'
>>> fit(bold(24), "a rather long name for a player", 200)
'a rather lon…'
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageFont

from render.emoji_cover import EMOJI

__all__ = [
    "COVERED",
    "EMOJI",
    "STAND_IN",
    "bold",
    "clean_name",
    "covered",
    "fit",
    "is_emoji",
    "regular",
    "text_width",
    "wrap",
]

_HERE = Path(__file__).resolve().parent

COVERED: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x017F),  # Latin-1 and Latin Extended-A: every accent of the Latin alphabets
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x04FF),  # Cyrillic
    (0x2010, 0x2027),  # dashes, quotes, bullet, ellipsis
    (0x2030, 0x203A),
    (0x2190, 0x2193),  # arrows
    (0x2212, 0x2212),  # minus
    (0x25B2, 0x25C4),  # triangles
    (0x25C6, 0x25C6),  # black diamond: the stand-in for an emoji (STAND_IN)
    (0x2713, 0x2713),  # check mark
    (0x2717, 0x2717),  # ballot x
)
"""The code points the shipped fonts draw (inclusive ranges); keep in step with the subset
command in ``render/FONTS-LICENSE.txt``."""


def covered(ch: str) -> bool:
    """Whether the shipped fonts have a glyph for ``ch`` (the ranges hold a few unassigned code
    points, which have none)."""
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in COVERED) and unicodedata.category(ch) != "Cn"


_EMOJI_CODES = frozenset(c for lo, hi in EMOJI for c in range(lo, hi + 1))


def is_emoji(ch: str) -> bool:
    """Whether ``ch`` is drawn from the emoji font (DejaVu Sans has no glyph for it)."""
    return ord(ch) in _EMOJI_CODES


def _runs(text: str) -> list[tuple[bool, str]]:
    """``text`` cut where it changes font: ``(emoji, part)`` pairs, in order."""
    runs: list[tuple[bool, str]] = []
    for ch in text:
        emoji = is_emoji(ch)
        if runs and runs[-1][0] == emoji:
            runs[-1] = (emoji, runs[-1][1] + ch)
        else:
            runs.append((emoji, ch))
    return runs


class Face(ImageFont.FreeTypeFont):
    """A DejaVu Sans face that draws the emoji of a text from Noto Emoji, on the same baseline.

    Pillow draws a text in one font, so a text with an emoji is drawn run by run into one
    mask; a text without one (nearly all) goes straight to FreeType, at no cost.
    Every caller (``ImageDraw.text``, :func:`text_width`, the tournament pictures' cached
    glyphs) goes through :meth:`getlength`, :meth:`getbbox` and :meth:`getmask2`.
    """

    def __init__(self, path: Path, size: int) -> None:
        super().__init__(str(path), size)
        self.emoji = _emoji(size)
        # A name is drawn again on every board of a game: its mask is kept (a few hundred).
        self._masks: dict[tuple[str, str], tuple[Image.Image, tuple[int, int]]] = {}

    @staticmethod
    def _plain(text: str | bytes | bytearray) -> bool:
        return not isinstance(text, str) or text.isascii() or not any(map(is_emoji, text))

    def getlength(self, text: str | bytes, *args: Any, **kwargs: Any) -> float:
        if self._plain(text):
            return super().getlength(text, *args, **kwargs)
        assert isinstance(text, str)
        dejavu = ImageFont.FreeTypeFont.getlength
        return sum(self.emoji.getlength(p) if e else dejavu(self, p) for e, p in _runs(text))

    def getbbox(
        self,
        text: str | bytes | bytearray,
        mode: str = "",
        direction: str | None = None,
        features: list[str] | None = None,
        language: str | None = None,
        stroke_width: float = 0,
        anchor: str | None = None,
    ) -> tuple[float, float, float, float]:
        if self._plain(text):
            return super().getbbox(text, mode, direction, features, language, stroke_width, anchor)
        assert isinstance(text, str)
        mask, (x, y) = self._mixed(text, anchor or "la")
        return (x, y, x + mask.width, y + mask.height)

    def getmask2(
        self, text: str | bytes, mode: str = "", *args: Any, **kwargs: Any
    ) -> tuple[Any, tuple[int, int]]:
        if self._plain(text):
            return super().getmask2(text, mode, *args, **kwargs)
        assert isinstance(text, str)
        # ImageDraw.text passes the anchor by keyword (Pillow 10) or as the fifth argument
        # after the mode (Pillow 11 on).
        anchor = kwargs.get("anchor") or (args[4] if len(args) > 4 else None)
        mask, offset = self._mixed(text, anchor or "la")
        return mask.im, offset

    def _run(self, emoji: bool, part: str) -> tuple[Any, tuple[int, int], float]:
        """One run's mask, its offset from the pen on the baseline, and its advance."""
        if emoji:
            core, offset = self.emoji.getmask2(part, "L", anchor="ls")
            return core, offset, self.emoji.getlength(part)
        core, offset = super().getmask2(part, "L", anchor="ls")
        return core, offset, super().getlength(part)

    def _mixed(self, text: str, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
        """:meth:`_compose`, kept."""
        key = (text, anchor)
        if key not in self._masks:
            if len(self._masks) >= 512:
                self._masks.clear()
            self._masks[key] = self._compose(text, anchor)
        return self._masks[key]

    def _compose(self, text: str, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
        """``text`` drawn run by run on the baseline as one mask, and its offset from the
        anchor point (the anchor's height is DejaVu Sans's, as for a text without emoji)."""
        pieces, pen = [], 0.0
        for emoji, part in _runs(text):
            core, (dx, dy), advance = self._run(emoji, part)
            pieces.append((core, round(pen) + dx, dy))
            pen += advance
        left = min(x for _, x, _ in pieces)
        top = min(y for _, _, y in pieces)
        right = max(x + c.size[0] for c, x, _ in pieces)
        bottom = max(y + c.size[1] for c, _, y in pieces)
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        for core, x, y in pieces:
            mask.im.paste(
                255, (x - left, y - top, x - left + core.size[0], y - top + core.size[1]), core
            )
        shift = {"l": 0.0, "m": -pen / 2, "r": -pen}[anchor[0]]
        rise = (
            super().getbbox("x", anchor="l" + anchor[1])[1] - super().getbbox("x", anchor="ls")[1]
        )
        return mask, (left + round(shift), top + round(rise))


@lru_cache(maxsize=32)
def _emoji(size: int) -> ImageFont.FreeTypeFont:
    """Noto Emoji at ``size`` pixels, shared by both weights (it has one)."""
    return ImageFont.truetype(str(_HERE / "NotoEmoji.ttf"), size)


@lru_cache(maxsize=32)
def bold(size: int) -> Face:
    """DejaVu Sans Bold at ``size`` pixels (emoji from Noto Emoji)."""
    return Face(_HERE / "DejaVuSans-Bold.ttf", size)


@lru_cache(maxsize=32)
def regular(size: int) -> Face:
    """DejaVu Sans at ``size`` pixels (emoji from Noto Emoji)."""
    return Face(_HERE / "DejaVuSans.ttf", size)


STAND_IN = "\u25c6"
"""What a symbol of a name that neither font draws becomes (an emoji newer than the emoji
font, say): ``◆``, a visible mark, never the empty box of a missing glyph and never silently
dropped."""

_ZWJ = "\u200d"


@lru_cache(maxsize=4096)
def clean_name(name: str) -> str:
    """A player's name as the fonts can draw it: an emoji stays (the first of a sequence joined
    by zero-width joiners stands for it; variation selectors and skin tones go; a flag is its
    two letters, boxed), a symbol neither font has becomes :data:`STAND_IN`, other scripts
    become ``?`` (so a name in Chinese still shows it is there).

    >>> clean_name("李小龙"), clean_name("  "), clean_name("Ann\\n")
    ('???', '', 'Ann')
    >>> clean_name("🇫🇷 Zoé 👩‍👩‍👧 👍🏽 \U0001f700")
    '🇫🇷 Zoé 👩 👍 ◆'
    """
    out: list[str] = []
    prev = ""
    for ch in unicodedata.normalize("NFC", name):
        kind = unicodedata.category(ch)
        if ch.isspace():
            out.append(" ")
        elif covered(ch):
            out.append(ch)
        elif prev == _ZWJ and (is_emoji(ch) or kind == "So"):
            pass  # the rest of a joined sequence: its first emoji stands for it
        elif is_emoji(ch):
            out.append(ch)
        elif kind == "So":
            out.append(STAND_IN)
        elif kind[0] not in ("S", "C", "M"):
            out.append("?")
        prev = ch
    return " ".join("".join(out).split())


@lru_cache(maxsize=4096)
def text_width(font: ImageFont.FreeTypeFont, text: str) -> int:
    """The advance width of ``text`` in ``font``, in pixels; kept (4,096 texts): a new board
    measures its strips' pip counts, words and scores again, 80 microseconds each."""
    return int(font.getlength(text) + 0.5)


def fit(font: ImageFont.FreeTypeFont, text: str, width: int) -> str:
    """``text``, shortened with an ellipsis if needed to fit ``width`` pixels."""
    if text_width(font, text) <= width:
        return text
    while text and text_width(font, text.rstrip() + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(font: ImageFont.FreeTypeFont, text: str, width: int) -> list[str]:
    """``text`` on one line if it fits ``width`` pixels, else on two, split at the space that
    balances them best; a line that still does not fit is shortened (see :func:`fit`).

    >>> wrap(bold(24), "Ordinateur (débutant)", 200)
    ['Ordinateur', '(débutant)']
    """
    if text_width(font, text) <= width:
        return [text]
    words = text.split(" ")
    if len(words) < 2:
        return [fit(font, text, width)]
    cuts = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    first, second = min(cuts, key=lambda c: max(text_width(font, c[0]), text_width(font, c[1])))
    return [fit(font, first, width), fit(font, second, width)]

"""The fonts shipped with the renderer, and fitting text (names above all) into a width.

DejaVu Sans, cut down to :data:`COVERED` (see ``render/FONTS-LICENSE.txt``), is loaded from the
package, never from the system, so every machine draws the same picture.

>>> clean_name("Zoë 🎲")
'Zoë ◆'
>>> fit(bold(24), "a rather long name for a player", 200)
'a rather lon…'
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

__all__ = [
    "COVERED",
    "STAND_IN",
    "bold",
    "clean_name",
    "covered",
    "fit",
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


@lru_cache(maxsize=32)
def bold(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Bold at ``size`` pixels."""
    return ImageFont.truetype(str(_HERE / "DejaVuSans-Bold.ttf"), size)


@lru_cache(maxsize=32)
def regular(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans at ``size`` pixels."""
    return ImageFont.truetype(str(_HERE / "DejaVuSans.ttf"), size)


STAND_IN = "\u25c6"
"""What an emoji (or another symbol the fonts lack) of a name becomes: ``◆``, a visible mark in
the shipped fonts, never the empty box of a missing glyph and never silently dropped."""

_ZWJ = "\u200d"


def _regional(ch: str) -> bool:
    """A regional indicator: two of them make one flag."""
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


@lru_cache(maxsize=4096)
def clean_name(name: str) -> str:
    """A player's name as the fonts can draw it: an emoji or another symbol they lack becomes
    :data:`STAND_IN` (one for a whole emoji: a flag, a sequence joined by zero-width joiners;
    variation selectors and skin tones go), other scripts become ``?`` (so a name in Chinese
    still shows it is there).

    >>> clean_name("李小龙"), clean_name("  "), clean_name("Ann\\n")
    ('???', '', 'Ann')
    >>> clean_name("🇫🇷 Zoé 👩‍👩‍👧 👍🏽")
    '◆ Zoé ◆ ◆'
    """
    out: list[str] = []
    prev, flag_open = "", False
    for ch in unicodedata.normalize("NFC", name):
        kind = unicodedata.category(ch)
        if ch.isspace():
            out.append(" ")
        elif covered(ch):
            out.append(ch)
        elif kind == "So":
            # One mark an emoji: not after a joiner, nor for a flag's second letter.
            if prev != _ZWJ and not (flag_open and _regional(ch)):
                out.append(STAND_IN)
            flag_open = _regional(ch) and not flag_open
        elif kind[0] not in ("S", "C", "M"):
            out.append("?")
        prev = ch
    return " ".join("".join(out).split())


def text_width(font: ImageFont.FreeTypeFont, text: str) -> int:
    """The advance width of ``text`` in ``font``, in pixels."""
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

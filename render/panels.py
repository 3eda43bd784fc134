"""The words on the picture: each player's strip (colour, name, pips, score) and the band below
the board that announces a double, a resignation or the end of the game, and holds a caption.

Names are fitted by design: a smaller size, then two lines; cut with an ellipsis only when even
two lines cannot hold them (a name of fifty letters)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from render import geometry as g
from render import sprites
from render.fonts import bold, clean_name, fit, regular, text_width, wrap
from render.labels import counted, label, points_text, result_text
from render.theme import RGB, THEMES, Theme
from render.view import BoardView, Side

__all__ = ["StripPart", "band_height", "draw_band", "draw_strip", "stats_left", "stats_marks"]

NAME_FONT = 28
MATCH_LINE_X = g.WIDTH // 2 + 40  # centre of the match line in the top strip
NAME_SIZES = (28, 26, 24, 22)  # a name takes the largest that fits, then two lines at the last


def paste(im: Image.Image, sprite: Image.Image, center: tuple[int, int]) -> None:
    """Paste an RGBA ``sprite`` centred on ``center``."""
    x, y = center
    im.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


def _name(view: BoardView, side: Side) -> str:
    return clean_name(view.name_of(side)) or view.default_name(side)


# -- strips ---------------------------------------------------------------------------------


StripPart = Literal["all", "name", "stats", "count", "word", "score"]
_STATS: dict[StripPart, tuple[bool, bool, bool]] = {  # the count, the word, the score drawn
    "all": (True, True, True),
    "stats": (True, True, True),
    "name": (False, False, False),
    "count": (True, False, False),
    "word": (False, True, False),
    "score": (False, False, True),
}


def draw_strip(
    im: Image.Image,
    pips: int,
    view: BoardView,
    t: Theme,
    side: Side,
    dy: int = 0,
    *,
    dx: int = 0,
    part: StripPart = "all",
) -> None:
    """A player's strip: his colour and name at the left (lit, with "to play", "to take or
    drop"... when the decision is his), his pip count and, in a match, his score at the right;
    the top strip also names the match. ``im`` starts ``dx`` pixels right and ``dy`` down the
    picture (a strip drawn on its own). ``part``: the background with only the left part
    (colour, name, match) or the right (pips, score), see :func:`stats_left`."""
    d = ImageDraw.Draw(im)
    left, top, right, bottom = g.strip_box(side == view.bottom_side)
    left, top, right, bottom = left - dx, top - dy, right - dx, bottom - dy
    cy = (top + bottom) // 2
    decision = view.decision() if view.turn_marker else None
    deciding = decision is not None and decision[0] == side
    if deciding:
        d.rectangle((left, top, right - 1, bottom - 1), fill=t.table_active)
        d.rectangle((left, top, left + 5, bottom - 1), fill=t.accent)
    if part in ("all", "name"):
        paste(im, sprites.icon(view.color_of(side)), (left + 40, cy))
    score = _score(view, side)
    stats_x = _draw_stats(d, pips, view.lang, score, t, (right - 24, cy), _STATS[part])
    if part not in ("all", "name"):
        return
    name_end = stats_x - 40
    if side != view.bottom_side:
        match_w = _draw_match_line(d, view, t, cy, MATCH_LINE_X - dx)
        if match_w:
            name_end = min(name_end, MATCH_LINE_X - dx - match_w // 2 - 24)
    tag = label(view.lang, decision[1]) if decision is not None and deciding else ""
    _draw_name(d, view, t, side, (left + 72, cy), name_end, tag)


def stats_left(pips: int, view: BoardView, side: Side) -> tuple[int, int]:
    """Where a strip's pips and score begin, and where its match line ends (0 when it has
    none), in the picture's x: the left part (colour, name, match) ends 40 pixels before the
    first, so the two parts can be drawn and kept apart (the pips change at every turn, the
    name never)."""
    right = g.strip_box(side == view.bottom_side)[2]
    match = _match_text(view) if side != view.bottom_side and view.context.match_length else ""
    return _places(pips, view.lang, _score(view, side), right - 24, match)


def stats_marks(pips: int, view: BoardView, side: Side) -> tuple[int, int, str]:
    """Where a strip's pip count ends and its word ("pips") ends, in the picture's x, and the
    word: the pips, the word and the score can be kept apart (a new board's pips are often new,
    its word and score seldom)."""
    right = g.strip_box(side == view.bottom_side)[2]
    return _marks(pips, view.lang, _score(view, side), right - 24)


@lru_cache(maxsize=4096)
def _marks(pips: int, lang: str, score: str | None, right: int) -> tuple[int, int, str]:
    word_end = right - text_width(bold(30), score) - 44 if score is not None else right
    word = " " + counted(lang, "pips", pips)
    return word_end - text_width(regular(24), word), word_end, word


@lru_cache(maxsize=4096)
def _places(pips: int, lang: str, score: str | None, right: int, match: str) -> tuple[int, int]:
    """:func:`stats_left`, kept: measuring the texts costs more than pasting a kept strip."""
    stats_x = _draw_stats(None, pips, lang, score, None, (right, 0), _STATS["name"])
    match_end = MATCH_LINE_X + text_width(regular(23), match) // 2 + 1 if match else 0
    return stats_x, match_end


def _score(view: BoardView, side: Side) -> str | None:
    """A player's score in a match (None in a money game)."""
    ctx = view.context
    return str(ctx.score[0 if side == "mover" else 1]) if ctx.match_length else None


def _draw_stats(
    d: ImageDraw.ImageDraw | None,
    pips: int,
    lang: str,
    score: str | None,
    t: Theme | None,
    at: tuple[int, int],
    which: tuple[bool, bool, bool],
) -> int:
    """Score chip (in a match) and pip count, right-aligned at ``at``; returns where they begin.
    ``which``: whether to draw the count, the word and the score (with ``d`` None, nothing)."""
    x, cy = at
    count, words, chip = which if d is not None and t is not None else (False, False, False)
    if score is not None:
        w = text_width(bold(30), score)
        if chip and d is not None and t is not None:
            d.rounded_rectangle((x - w - 22, cy - 22, x, cy + 22), radius=8, fill=t.number)
            d.text((x - 11 - w // 2, cy), score, font=bold(30), fill=t.table, anchor="mm")
        x -= w + 44
    word = " " + counted(lang, "pips", pips)
    if words and d is not None and t is not None:
        d.text((x, cy), word, font=regular(24), fill=t.text_dim, anchor="rm")
    x -= text_width(regular(24), word)
    if count and d is not None and t is not None:
        d.text((x, cy), str(pips), font=bold(26), fill=t.text, anchor="rm")
    return x - text_width(bold(26), str(pips))


def _draw_name(
    d: ImageDraw.ImageDraw,
    view: BoardView,
    t: Theme,
    side: Side,
    at: tuple[int, int],
    end: int,
    tag: str,
) -> None:
    """The name, with ``tag`` after it ("to play" when the decision is his), between ``at``
    and ``end``; when the name would be cut beside a long tag ("to take or drop" in a strip
    that also names the match), the tag goes under the name instead."""
    x, cy = at
    name = _name(view, side)
    tag_w = text_width(regular(24), tag) + 16 if tag else 0
    lines, font = fit_name(name, max(end - x - tag_w, 60))
    small = bold(NAME_SIZES[-1])
    if tag and " ".join(lines) != name and text_width(small, name) <= end - x:
        d.text((x, cy - 12), name, font=small, fill=t.text, anchor="lm")
        d.text(
            (x, cy + 15),
            fit(regular(20), tag, end - x),
            font=regular(20),
            fill=t.accent,
            anchor="lm",
        )
        return
    step = font.size + 4
    y = cy - (len(lines) - 1) * step // 2
    for line in lines:
        d.text((x, y), line, font=font, fill=t.text, anchor="lm")
        y += step
    if tag:
        tag_x = x + max(text_width(font, line) for line in lines) + 16
        d.text((tag_x, cy + 1), tag, font=regular(24), fill=t.accent, anchor="lm")


def fit_name(name: str, width: int) -> tuple[list[str], ImageFont.FreeTypeFont]:
    """A name in a player's strip: one line in the largest of :data:`NAME_SIZES` that fits
    ``width``, else two lines in the smallest.

    >>> fit_name("Computer (intermediate)", 220)[0]
    ['Computer', '(intermediate)']
    """
    for size in NAME_SIZES:
        if text_width(bold(size), name) <= width:
            return [name], bold(size)
    font = bold(NAME_SIZES[-1])
    return wrap(font, name, width), font


def _match_text(view: BoardView) -> str:
    text = counted(view.lang, "match_to", view.context.match_length)
    if view.is_crawford_game():
        text += " · " + label(view.lang, "crawford")
    return text


def _draw_match_line(
    d: ImageDraw.ImageDraw, view: BoardView, t: Theme, cy: int, x: int = MATCH_LINE_X
) -> int:
    """The match length and the Crawford mark in the middle of the top strip (centred on
    ``x``); returns its width (0 in a money game, where there is none)."""
    if not view.context.match_length:
        return 0
    text = _match_text(view)
    d.text((x, cy), text, font=regular(23), fill=t.text_dim, anchor="mm")
    return text_width(regular(23), text)


# -- the message band -----------------------------------------------------------------------
# A double, a resignation or a result, and any caption, are written in a band below the board
# rather than across it: across the middle they hid the checkers on the bar and the arrows of
# the last play, and a long name had to be cut to keep the banner on the field.

BAND_PAD = 16  # above and below the band's lines
BAND_MARGIN = 28  # left and right
HEADLINE = (34, 24)  # the largest and smallest size of a headline; then it takes two lines
CAPTION_FONT = 26


@dataclass(frozen=True, slots=True)
class _Line:
    text: str
    font: ImageFont.FreeTypeFont
    color: RGB
    height: int
    caption: bool = False  # a line of the caption, not of the offer or result


def band_height(view: BoardView) -> int:
    """The height of the band under the board (0 when there is nothing to say)."""
    lines, _ = _band_lines(view, THEMES[view.theme])
    return 2 * BAND_PAD + sum(line.height for line in lines) if lines else 0


def draw_band(im: Image.Image, view: BoardView, t: Theme, top: int = g.HEIGHT) -> None:
    """The offer or result, if any, then the caption, below the board (``im`` is already tall
    enough: see :func:`band_height`; ``top`` is where the band begins in ``im``). An offered
    cube stands at the left of the offer."""
    lines, cube = _band_lines(view, t)
    if not lines:
        return
    d = ImageDraw.Draw(im)
    d.rectangle((0, top, g.WIDTH - 1, im.height - 1), fill=t.banner)
    d.rectangle((0, top, g.WIDTH - 1, top + 3), fill=t.accent)
    offer_h = sum(line.height for line in lines if not line.caption)
    y = top + BAND_PAD
    if cube:
        paste(im, sprites.cube(cube), (BAND_MARGIN + sprites.CUBE // 2, y + offer_h // 2))
    for line in lines:
        d.text(
            (g.WIDTH // 2, y + line.height // 2),
            line.text,
            font=line.font,
            fill=line.color,
            anchor="mm",
        )
        y += line.height


def _band_lines(view: BoardView, t: Theme) -> tuple[list[_Line], int | None]:
    """The band's lines, and the value of the offered cube (None when no double is offered)."""
    lang = view.lang
    # Lines are centred; with the cube at the left they must not reach it on either side.
    cube = view.context.cube_value * 2 if view.double_offered_by is not None else None
    width = g.WIDTH - 2 * BAND_MARGIN - (2 * (sprites.CUBE + 16) if cube else 0)
    lines: list[_Line] = []
    if view.game_over is not None:
        over = view.game_over
        detail = f"{result_text(lang, over.value)} · {points_text(lang, over.points)}"
        lines.append(_Line(label(lang, "game_over").upper(), bold(18), t.text_dim, 26))
        lines += _headline(label(lang, "wins", name="{name}"), _name(view, over.winner), width, t)
        lines.append(_Line(detail, regular(26), t.text, 36))
    elif view.resignation is not None:
        res = view.resignation
        worth = points_text(lang, res.value * view.context.cube_value)
        lines += _headline(label(lang, "resigns", name="{name}"), _name(view, res.by), width, t)
        lines.append(_Line(f"{result_text(lang, res.value)} · {worth}", regular(26), t.text, 36))
    elif view.double_offered_by is not None:
        template = label(lang, "offers_double", name="{name}")
        lines += _headline(template, _name(view, view.double_offered_by), width, t)
        if len(lines) == 1:
            lines[0] = replace(lines[0], height=max(lines[0].height, sprites.CUBE + 8))
    font = regular(CAPTION_FONT)
    colors = (*view.caption_colors, *("text",) * len(view.caption))
    for text, color in zip(view.caption, colors, strict=False):
        # A long line takes two rather than lose its end; a name in it is drawn as in a strip.
        for part in wrap(font, clean_name(text), g.WIDTH - 2 * BAND_MARGIN):
            lines.append(_Line(part, font, getattr(t, color), CAPTION_FONT + 12, caption=True))
    return lines, cube


def _headline(template: str, name: str, width: int, t: Theme) -> list[_Line]:
    """``template`` (holding ``{name}``) said of ``name`` within ``width`` pixels, in the accent
    colour: on one line in the largest size that fits, else the name on a line of its own (two
    lines if need be) above the rest. A name is cut only when even that cannot hold it."""
    whole = template.replace("{name}", name)
    for size in range(HEADLINE[0], HEADLINE[1] - 1, -2):
        if text_width(bold(size), whole) <= width:
            return [_Line(whole, bold(size), t.accent, size + 14)]
    size = HEADLINE[1]
    rest = template.replace("{name}", "").strip()
    name_lines = wrap(bold(size), name, width)
    first = template.strip().startswith("{name}")
    texts = [*name_lines, rest] if first else [rest, *name_lines]
    return [_Line(text, bold(size), t.accent, size + 10) for text in texts]

"""The words on the picture: each player's strip (colour, name, pips, score) and the banner
across the board that announces a double, a resignation or the end of the game."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import geometry as g
from render import sprites
from render.fonts import bold, clean_name, fit, regular, text_width
from render.labels import label, points_text, result_text
from render.theme import Theme
from render.view import BoardView, Side

__all__ = ["draw_banner", "draw_strip"]

NAME_FONT = 28
MATCH_LINE_X = g.WIDTH // 2 + 40  # centre of the match line in the top strip
BANNER_NAME_W = 420  # widest a name may be in a banner, so the banner stays on the field


def paste(im: Image.Image, sprite: Image.Image, center: tuple[int, int]) -> None:
    """Paste an RGBA ``sprite`` centred on ``center``."""
    x, y = center
    im.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


def _name(view: BoardView, side: Side) -> str:
    return clean_name(view.name_of(side)) or view.default_name(side)


# -- strips ---------------------------------------------------------------------------------


def draw_strip(im: Image.Image, pips: int, view: BoardView, t: Theme, side: Side) -> None:
    """A player's strip: his colour and name at the left (with "to play" when he is on roll),
    his pip count and, in a match, his score at the right; the top strip also names the match."""
    d = ImageDraw.Draw(im)
    left, top, right, bottom = g.strip_box(side == view.bottom_side)
    cy = (top + bottom) // 2
    on_roll = side == "mover" and view.game_over is None
    if on_roll:
        d.rectangle((left, top, right - 1, bottom - 1), fill=t.table_active)
        d.rectangle((left, top, left + 5, bottom - 1), fill=t.accent)
    paste(im, sprites.icon(view.color_of(side)), (left + 40, cy))
    stats_x = _draw_stats(d, pips, view, t, side, (right - 24, cy))
    name_end = stats_x - 40
    if side != view.bottom_side:
        match_w = _draw_match_line(d, view, t, cy)
        if match_w:
            name_end = min(name_end, MATCH_LINE_X - match_w // 2 - 24)
    _draw_name(d, view, t, side, (left + 72, cy), name_end, on_roll)


def _draw_stats(
    d: ImageDraw.ImageDraw, pips: int, view: BoardView, t: Theme, side: Side, at: tuple[int, int]
) -> int:
    """Score chip (in a match) and pip count, right-aligned at ``at``; returns where they begin."""
    x, cy = at
    ctx = view.context
    if ctx.match_length:
        score = str(ctx.score[0 if side == "mover" else 1])
        w = text_width(bold(30), score)
        d.rounded_rectangle((x - w - 22, cy - 22, x, cy + 22), radius=8, fill=t.number)
        d.text((x - 11 - w // 2, cy), score, font=bold(30), fill=t.table, anchor="mm")
        x -= w + 44
    word = " " + label(view.lang, "pips")
    d.text((x, cy), word, font=regular(24), fill=t.text_dim, anchor="rm")
    x -= text_width(regular(24), word)
    d.text((x, cy), str(pips), font=bold(26), fill=t.text, anchor="rm")
    return x - text_width(bold(26), str(pips))


def _draw_name(
    d: ImageDraw.ImageDraw,
    view: BoardView,
    t: Theme,
    side: Side,
    at: tuple[int, int],
    end: int,
    on_roll: bool,
) -> None:
    x, cy = at
    tag = label(view.lang, "to_play") if on_roll else ""
    tag_w = text_width(regular(24), tag) + 16 if tag else 0
    name = fit(bold(NAME_FONT), _name(view, side), max(end - x - tag_w, 60))
    d.text((x, cy), name, font=bold(NAME_FONT), fill=t.text, anchor="lm")
    if tag:
        tag_x = x + text_width(bold(NAME_FONT), name) + 16
        d.text((tag_x, cy + 1), tag, font=regular(24), fill=t.accent, anchor="lm")


def _draw_match_line(d: ImageDraw.ImageDraw, view: BoardView, t: Theme, cy: int) -> int:
    """The match length and the Crawford mark in the middle of the top strip; returns its
    width (0 in a money game, where there is none)."""
    ctx = view.context
    if not ctx.match_length:
        return 0
    text = label(view.lang, "match_to", n=ctx.match_length)
    if ctx.crawford:
        text += " · " + label(view.lang, "crawford")
    d.text((MATCH_LINE_X, cy), text, font=regular(23), fill=t.text_dim, anchor="mm")
    return text_width(regular(23), text)


# -- banners --------------------------------------------------------------------------------


def draw_banner(im: Image.Image, view: BoardView, t: Theme) -> None:
    """The double, resignation or result on offer, if any, across the middle of the board."""
    lang = view.lang

    def who(side: Side) -> str:
        return fit(bold(36), _name(view, side), BANNER_NAME_W)

    if view.game_over is not None:
        over = view.game_over
        detail = f"{result_text(lang, over.value)} · {points_text(lang, over.points)}"
        lines = (label(lang, "game_over").upper(), label(lang, "wins", name=who(over.winner)))
        _banner(im, t, (*lines, detail), cube=None)
    elif view.resignation is not None:
        res = view.resignation
        worth = points_text(lang, res.value * view.context.cube_value)
        headline = label(lang, "resigns", name=who(res.by))
        _banner(im, t, ("", headline, f"{result_text(lang, res.value)} · {worth}"), cube=None)
    elif view.double_offered_by is not None:
        headline = label(lang, "offers_double", name=who(view.double_offered_by))
        _banner(im, t, ("", headline, ""), cube=view.context.cube_value * 2)


_BANNER_ROWS = ((18, True, 26), (36, True, 46), (26, False, 36))  # font size, bold, row height


def _banner(im: Image.Image, t: Theme, lines: tuple[str, str, str], cube: int | None) -> None:
    """A caption, a headline and a detail (any may be empty), and the offered cube if any, on a
    dark rounded panel outlined in the accent colour."""
    fonts = [bold(size) if heavy else regular(size) for size, heavy, _ in _BANNER_ROWS]
    cube_w = sprites.CUBE + 24 if cube else 0
    w = max(text_width(f, s) for f, s in zip(fonts, lines, strict=True)) + cube_w + 64
    h = 40 + sum(row[2] for row, s in zip(_BANNER_ROWS, lines, strict=True) if s)
    cx, cy = g.BAR_CX, g.MID_Y
    box = (cx - w // 2, cy - h // 2, cx + w // 2, cy + h // 2)
    # Slightly see-through, so the checkers under it still show.
    shape = Image.new("L", (w, h), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, w - 1, h - 1), radius=16, fill=238)
    im.paste(t.banner, box[:2], shape)
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(box, radius=16, outline=t.accent, width=3)
    if cube:
        paste(im, sprites.cube(cube), (box[0] + 32 + sprites.CUBE // 2, cy))
    y = box[1] + 24
    colors = (t.text_dim, t.accent, t.text)
    for font, text, color, row in zip(fonts, lines, colors, _BANNER_ROWS, strict=True):
        if text:
            d.text((cx + cube_w // 2, y + row[2] // 2), text, font=font, fill=color, anchor="mm")
            y += row[2]

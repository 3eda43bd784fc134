"""The board picture: :func:`render_board` turns a position and a :class:`BoardView` into PNG
bytes.

>>> from engine import Position
>>> png = render_board(Position.initial(), view=BoardView(dice=(3, 1), names=("Ann", "Bob")))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from engine import Position
from render import geometry as g
from render import sprites
from render.arrows import draw_arrow, trace
from render.fonts import bold, clean_name, fit, regular, text_width
from render.labels import label, points_text, result_text
from render.theme import CHECKER_COLORS, THEMES, Theme
from render.view import BoardView, Side

__all__ = ["draw_board", "render_board"]

# Measured on a mid-game board with arrows: as RGB the PNG weighs ~175 KB and takes ~16 ms to
# encode; quantized to 256 colours (fast octree, ~4 ms, no visible change: the picture is flat
# colours plus anti-aliased edges) it weighs ~45 KB at level 6 (~5 ms). Level 9 saves 5% more for
# five times the time.
PNG_COMPRESS_LEVEL = 6


def render_board(position: Position, *, view: BoardView | None = None) -> bytes:
    """The PNG picture of ``position`` (seen by the player on roll) with everything ``view``
    adds: names, dice, cube, score, highlights, the last play, offers and results.

    :param position: the position, seen from the player on roll (as the engine gives it).
    :param view: what to show and how (see :class:`render.BoardView`); the default shows the
        bare position from the mover's side, in English.
    :returns: PNG bytes, about 960 x 840 pixels and under 150 KB.
    :raises ValueError: when an option contradicts the position (a highlight on a point where
        the mover has no checker, a last play that cannot have led here).
    """
    im = draw_board(position, view or BoardView())
    small = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def draw_board(position: Position, view: BoardView) -> Image.Image:
    """The picture as a Pillow image (RGB), before encoding."""
    if not isinstance(position, Position):
        raise ValueError(f"render_board needs an engine Position, not {type(position).__name__}")
    t = THEMES[view.theme]
    steps = trace(position, view)
    im = sprites.empty_board(view.theme, view.mirrored, view.numbers_for_bottom()).copy()
    d = ImageDraw.Draw(im)
    _highlight_numbers(d, view, t)
    _draw_points(im, d, position, view)
    _draw_bar(im, d, position, view)
    _draw_trays(im, d, position, view, t)
    for step in steps:
        if step.ghost is not None:
            _paste(im, sprites.ghost(view.color_of(view.last_play_by)), step.ghost)
    for step in steps:
        if step.hit:
            _paste(im, sprites.ring(t.hit), step.end)
    for step in steps:
        draw_arrow(im, step.start, step.end, color=t.arrow, edge=t.arrow_edge, width=8)
    if view.double_offered_by is None:
        _paste(
            im,
            sprites.cube(view.context.cube_value),
            g.cube_center(view.cube_owner_side(), view.bottom_side, view.mirrored),
        )
    _draw_dice(im, view)
    both: tuple[Side, Side] = ("mover", "opponent")
    for side in both:
        _draw_strip(im, d, position, view, t, side)
    _draw_banner(im, view, t)
    return im


def _paste(im: Image.Image, sprite: Image.Image, center: tuple[int, int]) -> None:
    x, y = center
    im.paste(sprite, (x - sprite.width // 2, y - sprite.height // 2), sprite)


def _highlight_numbers(d: ImageDraw.ImageDraw, view: BoardView, t: Theme) -> None:
    """The numbers of the points a checker can move from, printed on a highlight chip."""
    for point in view.highlights:
        if point == 25:
            continue
        vpoint = g.to_viewer(point, view)
        x, y = g.number_center(vpoint, view.mirrored)
        number = vpoint if view.numbers_for_bottom() else 25 - vpoint
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
) -> None:
    """``count`` checkers at the first of ``centers``; the last drawn one carries the count when
    not all fit, and the ring when the stack can move."""
    shown = min(count, len(centers))
    for k in range(shown):
        top = k == shown - 1
        _paste(im, sprites.checker(color, ring if top else None), centers[k])
    if count > shown:
        x, y = centers[shown - 1]
        d.text((x, y), str(count), font=bold(26), fill=CHECKER_COLORS[color].label, anchor="mm")


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
        _draw_stack(im, d, centers, abs(n), view.color_of(side), ring)


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
        _draw_stack(im, d, centers, count, view.color_of(side), ring)


def _draw_trays(
    im: Image.Image, d: ImageDraw.ImageDraw, pos: Position, view: BoardView, t: Theme
) -> None:
    off: tuple[tuple[Side, int], ...] = (
        ("mover", pos.borne_off()[0]),
        ("opponent", pos.borne_off()[1]),
    )
    for side, count in off:
        if not count:
            continue
        bottom = side == view.bottom_side
        sprite = sprites.tray_slice(view.color_of(side))
        for k in range(count):
            _paste(im, sprite, g.tray_center(bottom, k, view.mirrored))
        # The count sits just beyond the stack, toward the middle of the board.
        x, y = g.tray_center(bottom, count - 1, view.mirrored)
        y += -22 if bottom else 22
        d.text((x, y), str(count), font=bold(24), fill=t.number, anchor="mm")


# -- dice, strips, banners ------------------------------------------------------------------


def _draw_dice(im: Image.Image, view: BoardView) -> None:
    if view.dice is None:
        return
    d1, d2 = view.dice
    faces = [d1] * 4 if d1 == d2 else [d1, d2]
    left = list(faces if view.dice_left is None else view.dice_left)
    # Dice still to play are the last ones of the row: the played ones fade on the left.
    used = [True] * len(faces)
    for i in range(len(faces) - 1, -1, -1):
        if faces[i] in left:
            left.remove(faces[i])
            used[i] = False
    centers = g.dice_centers(len(faces), view.bottom_side == "mover")
    color = view.color_of("mover")
    for face, was_used, center in zip(faces, used, centers, strict=True):
        _paste(im, sprites.die(face, color, was_used), center)


def _draw_strip(
    im: Image.Image, d: ImageDraw.ImageDraw, pos: Position, view: BoardView, t: Theme, side: Side
) -> None:
    bottom = side == view.bottom_side
    left, top, right, bot = g.strip_box(bottom)
    on_roll = side == "mover" and view.game_over is None
    if on_roll:
        d.rectangle((left, top, right - 1, bot - 1), fill=t.table_active)
        d.rectangle((left, top, left + 5, bot - 1), fill=t.accent)
    cy = (top + bot) // 2
    _paste(im, sprites.icon(view.color_of(side)), (left + 40, cy))
    # Right end: pip count, then the score in a match.
    i = 0 if side == "mover" else 1
    x = right - 24
    ctx = view.context
    if ctx.match_length:
        score = str(ctx.score[i])
        font = bold(30)
        w = text_width(font, score)
        d.rounded_rectangle((x - w - 22, cy - 22, x, cy + 22), radius=8, fill=t.number)
        d.text((x - 11 - w // 2, cy), score, font=font, fill=t.table, anchor="mm")
        x -= w + 22 + 22
    pips = pos.pip_counts()[i]
    word = " " + label(view.lang, "pips")
    d.text((x, cy), word, font=regular(24), fill=t.text_dim, anchor="rm")
    x -= text_width(regular(24), word)
    d.text((x, cy), str(pips), font=bold(26), fill=t.text, anchor="rm")
    x -= text_width(bold(26), str(pips))
    # Left: name, and what the player on roll has to do.
    name = clean_name(view.name_of(side)) or label(
        view.lang, "player" if side == "mover" else "opponent"
    )
    name_x = left + 72
    room = x - name_x - 40
    tag = label(view.lang, "to_play") if on_roll else ""
    tag_w = text_width(regular(24), tag) + 16 if tag else 0
    name = fit(bold(28), name, max(room - tag_w, 60))
    d.text((name_x, cy), name, font=bold(28), fill=t.text, anchor="lm")
    if tag:
        tx = name_x + text_width(bold(28), name) + 16
        d.text((tx, cy + 1), tag, font=regular(24), fill=t.accent, anchor="lm")
    if not bottom:
        _draw_match_line(d, view, t, cy)


def _draw_match_line(d: ImageDraw.ImageDraw, view: BoardView, t: Theme, cy: int) -> None:
    """The match length and the Crawford mark, in the middle of the top strip."""
    ctx = view.context
    if not ctx.match_length:
        return
    text = label(view.lang, "match_to", n=ctx.match_length)
    if ctx.crawford:
        text += " · " + label(view.lang, "crawford")
    d.text((g.WIDTH // 2 + 40, cy), text, font=regular(23), fill=t.text_dim, anchor="mm")


def _draw_banner(im: Image.Image, view: BoardView, t: Theme) -> None:
    lang = view.lang
    cube_value = view.context.cube_value
    if view.game_over is not None:
        over = view.game_over
        who = clean_name(view.name_of(over.winner)) or label(lang, "player")
        lines = [
            label(lang, "game_over").upper(),
            label(lang, "wins", name=who),
            f"{result_text(lang, over.value)} · {points_text(lang, over.points)}",
        ]
        _banner(im, t, lines, cube=None)
    elif view.resignation is not None:
        res = view.resignation
        who = clean_name(view.name_of(res.by)) or label(lang, "player")
        worth = points_text(lang, res.value * cube_value)
        lines = ["", label(lang, "resigns", name=who), f"{result_text(lang, res.value)} · {worth}"]
        _banner(im, t, lines, cube=None)
    elif view.double_offered_by is not None:
        who = clean_name(view.name_of(view.double_offered_by)) or label(lang, "player")
        lines = ["", label(lang, "offers_double", name=who), ""]
        _banner(im, t, lines, cube=cube_value * 2)


def _banner(im: Image.Image, t: Theme, lines: list[str], cube: int | None) -> None:
    """A message across the middle of the board: a small caption, a headline, a detail."""
    _caption, _headline, _detail = lines
    fonts = (bold(18), bold(36), regular(26))
    widths = [text_width(f, s) for f, s in zip(fonts, lines, strict=True)]
    cube_w = sprites.CUBE + 24 if cube else 0
    w = max(widths) + cube_w + 64
    h = 28 + sum(h for h, s in zip((26, 46, 36), lines, strict=True) if s) + 12
    cx, cy = g.BAR_CX, g.MID_Y
    box = (cx - w // 2, cy - h // 2, cx + w // 2, cy + h // 2)
    overlay = Image.new("L", (w, h), 0)
    ImageDraw.Draw(overlay).rounded_rectangle((0, 0, w - 1, h - 1), radius=16, fill=238)
    im.paste(t.banner, box[:2], overlay)
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(box, radius=16, outline=t.accent, width=3)
    text_x = cx + cube_w // 2
    y = box[1] + 24
    if cube:
        _paste(im, sprites.cube(cube), (box[0] + 32 + sprites.CUBE // 2, cy))
    for font, text, color, height in zip(
        fonts, lines, (t.text_dim, t.accent, t.text), (26, 46, 36), strict=True
    ):
        if text:
            d.text((text_x, y + height // 2), text, font=font, fill=color, anchor="mm")
            y += height

"""The board picture: :func:`render_board` turns a position and a :class:`BoardView` into PNG
bytes, drawn in palette indices (see :mod:`render.paint`) and kept by what it shows.

>>> from engine import Position
>>> png = render_board(Position.initial(), view=BoardView(dice=(3, 1), names=("Ann", "Bob")))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from functools import lru_cache

from PIL import Image, ImageDraw, _imaging

from engine import Position
from render import geometry as g
from render import sprites
from render.arrows import Step, _bends_back, _masks, trace, trace_compared
from render.board import _borne_off, _top_checkers
from render.fonts import bold
from render.paint import Canvas, Draw, Pen, arrow, overlay, piece, to_palette
from render.panels import (
    StripPart,
    band_height,
    draw_band,
    draw_strip,
    stats_left,
    stats_marks,
)
from render.png import encode
from render.theme import CHECKER_COLORS, RGB, THEMES
from render.view import BoardView, Side

__all__ = ["PICTURES", "paint_board", "render_board"]

PICTURES = 128
"""How many pictures are kept by what they show (~60 KB each): an unchanged board (a button
pressed again, a board shown to both players) is never drawn twice."""

_pictures: OrderedDict[tuple[Position, BoardView], bytes] = OrderedDict()


def render_board(position: Position, *, view: BoardView | None = None) -> bytes:
    """The PNG picture of ``position`` (seen by the player on roll) with everything ``view``
    adds: names, dice, cube, score, highlights, the last play, offers and results.

    :param position: the position, seen from the player on roll (as the engine gives it).
    :param view: what to show and how (see :class:`render.BoardView`); the default shows the
        bare position from the mover's side, in English.
    :returns: PNG bytes under 150 KB (a palette picture): 960 x 840 pixels, and taller by a
        band below the board when it announces a double, a resignation or a result, or holds
        a caption. The same position and view give the same bytes, kept for the next call.
    :raises ValueError: when an option contradicts the position (a highlight on a point where
        the mover has no checker, a last play that cannot have led here).

    >>> from io import BytesIO
    >>> png = render_board(Position.initial(), view=BoardView(viewpoint="opponent", lang="fr"))
    >>> Image.open(BytesIO(png)).size, Image.open(BytesIO(png)).mode, len(png) < 150_000
    ((960, 840), 'P', True)
    """
    view = view or BoardView()
    if not isinstance(position, Position):
        raise ValueError(f"render_board needs an engine Position, not {type(position).__name__}")
    key = (position, view)
    png = _pictures.get(key)
    if png is None:
        png = encode(paint_board(position, view))
        _pictures[key] = png
        if len(_pictures) > PICTURES:
            _pictures.popitem(last=False)
    else:
        _pictures.move_to_end(key)
    return png


def forget() -> None:
    """Drop every kept picture (the benchmark draws each board afresh)."""
    _pictures.clear()


def paint_board(position: Position, view: BoardView) -> Image.Image:
    """The picture in palette indices (mode ``P``), before encoding."""
    if not isinstance(position, Position):
        raise ValueError(f"render_board needs an engine Position, not {type(position).__name__}")
    _check_highlights(position, view)
    # First, so a play that does not fit fails before any work.
    steps, others = (
        trace_compared(position, view) if view.other_play else (trace(position, view), [])
    )
    band = band_height(view)
    c = Canvas.start(view.theme, view.mirrored, view.numbers_for_bottom(), g.HEIGHT + band)
    over = _overlays(steps + others, view)
    crossed = _crossed(position, view, over)
    _stacks(c, position, view, crossed)
    _trays(c, position, view)
    _last_play(c, others, view, THEMES[view.theme].arrow_other)
    _last_play(c, steps, view, THEMES[view.theme].arrow)
    _redraw_highlights(c, position, view, {s.end for s in steps + others}, crossed)
    _tray_counts(c, position, view, over)
    if view.double_offered_by is None and view.has_cube():
        _cube(c, view, over)
    _dice(c, view, over)
    pips = position.pip_counts()
    _strip(c, pips[0], view, "mover")
    _strip(c, pips[1], view, "opponent")
    if band:
        _band(c, view, band)
    return c.im


def _check_highlights(position: Position, view: BoardView) -> None:
    board = position.board
    for point in view.highlights:
        if point != 25 and board[point] <= 0:
            raise ValueError(f"highlighted point {point} holds no checker of the player on roll")
    if 25 in view.highlights and not position.bar()[0]:
        raise ValueError("the bar is highlighted but the player on roll has no checker there")


def _around(center: XY, r: int) -> tuple[int, int, int, int]:
    return center[0] - r, center[1] - r, center[0] + r + 1, center[1] + r + 1


XY = tuple[int, int]
Box = tuple[int, int, int, int]


# -- pieces over the bare board ---------------------------------------------------------------


Chip = tuple[int, int, str]  # where a point's number is printed, and the number


def _chip(point: int, view: BoardView) -> Chip | None:
    """The highlight chip of a point a checker can move from (None for the bar)."""
    if point == 25 or point not in view.highlights:
        return None
    vpoint = g.to_viewer(point, view)
    x, y = g.number_center(vpoint, view.mirrored)
    return x, y, str(g.point_label(vpoint, view.numbers_for_bottom()))


def _draw_chip(p: Pen, chip: Chip, t_name: str) -> None:
    """The number of a point a checker can move from, printed on a highlight chip."""
    x, y, number = chip
    rgb, mask = _chip_sprite(t_name, number)
    p.im.paste(rgb, p.at((x - 24, y - 15)), mask)


@lru_cache(maxsize=128)
def _chip_sprite(t_name: str, number: str) -> tuple[Image.Image, Image.Image]:
    """A chip and the mask of its pixels (read only, shared): the rectangle is drawn whole
    (not anti-aliased) and the number blends only over it, so pasting it draws what drawing
    it there would."""
    t = THEMES[t_name]
    mask = Image.new("L", (49, 31), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, 48, 30), radius=7, fill=255)
    rgb = Image.new("RGB", (49, 31), t.highlight)
    ImageDraw.Draw(rgb).text((24, 15), number, font=bold(23), fill=t.table, anchor="mm")
    return rgb, mask


@lru_cache(maxsize=2048)
def _stack_draw(
    centers: tuple[XY, ...],
    count: int,
    color: str,
    ring: RGB | None,
    twice: bool,
    t_name: str,
    frame: bool,
    chip: Chip | None,
) -> tuple[Box, Draw]:
    """The box and the drawing of a stack (the checkers on a point or on the bar); a
    highlighted one (``twice``) has its top checker and count drawn twice, as
    :func:`_redraw_highlights` draws them again over the last play. Kept (2,048 stacks, a
    few hundred bytes each): a board asks for its fifteen or so stacks at every drawing."""
    t = THEMES[t_name]
    shown = min(count, len(centers))
    xs = [x for x, _ in centers[:shown]]
    ys = [y for _, y in centers[:shown]]
    m = g.CHECKER // 2 + sprites.SHADOW + 2  # a checker, its shadow and the bar's frame
    top, bottom = min(ys) - m, max(ys) + m + 1
    if chip is not None:  # drawn first: the checkers' shadows lie over it
        top, bottom = min(top, chip[1] - 17), max(bottom, chip[1] + 18)
    box = (min(xs) - m, top, max(xs) + m + 1, bottom)

    def draw(p: Pen) -> None:
        if chip is not None:
            _draw_chip(p, chip, t_name)
        if frame:  # hit checkers catch the eye: a frame in the colour that marks hits
            r = g.CHECKER // 2 + 5
            ends = [centers[0][1], centers[shown - 1][1]]
            frame_box = (g.BAR_CX - r, min(ends) - r, g.BAR_CX + r, max(ends) + r)
            p.d.rounded_rectangle(p.box(frame_box), radius=r, outline=t.hit, width=4)
        for k in range(shown):
            p.paste(sprites.checker(color, ring if k == shown - 1 else None), centers[k])
        _count(p, centers, count, color, t.count_at_base)
        if twice:
            p.paste(sprites.checker(color, ring), centers[shown - 1])
            _count(p, centers, count, color, t.count_at_base)

    return box, draw


def _count(p: Pen, centers: tuple[XY, ...], count: int, color: str, at_base: bool) -> None:
    """The number of checkers of a stack taller than the slots drawn."""
    shown = min(count, len(centers))
    if count > shown:
        xy = centers[0 if at_base else shown - 1]
        label = CHECKER_COLORS[color].label
        p.d.text(p.at(xy), str(count), font=bold(26), fill=label, anchor="mm")


def _stacks(c: Canvas, position: Position, view: BoardView, crossed: set[int]) -> None:
    """Every point's checkers, then each player's on the bar (framed). A highlighted stack
    comes with its point's number on a chip, and has its top checker drawn again: here if
    nothing of the last play lies over it, else over the last play (``crossed``, see
    :func:`_redraw_highlights`).

    A stack's shadow and rim overlap its neighbours' by a few pixels: each is kept with the
    stacks drawn before it that its box meets, and drawn over them, so the overlaps read as
    in the RGB drawing."""
    t = THEMES[view.theme]
    before: list[tuple[Box, Hashable, Draw]] = []
    for point, centers, count in _top_checkers(position, view):
        side: Side = "mover" if count > 0 else "opponent"
        ring = t.highlight if side == "mover" and point in view.highlights else None
        color = view.color_of(side)
        bar = point in (25, -25)
        twice = ring is not None and point not in crossed
        chip = _chip(point, view) if side == "mover" else None
        key = ("stack", tuple(centers), abs(count), color, ring, twice, bar, chip)
        args = (abs(count), color, ring, twice, view.theme, bar, chip)
        box, draw = _stack_draw(tuple(centers), *args)
        x0, y0, x1, y1 = box
        under = [
            (k, d) for b, k, d in before if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]
        ]
        under_keys = tuple(k for k, _ in under)
        piece(c, (key, under_keys), box, _over([d for _, d in under], draw), whole=True)
        before.append((box, key, draw))


def _over(under: list[Draw], draw: Draw) -> Draw:
    """``draw`` over what ``under`` draws."""

    def both(p: Pen) -> None:
        for d in under:
            d(p)
        draw(p)

    return both


def _trays(c: Canvas, position: Position, view: BoardView) -> None:
    for side, count in _borne_off(position):
        if not count:
            continue
        bottom = side == view.bottom_side
        color = view.color_of(side)
        places = [g.tray_center(bottom, k, view.mirrored) for k in range(count)]

        def draw(p: Pen, places: list[XY] = places, color: str = color) -> None:
            sprite = sprites.tray_slice(color)
            for xy in places:
                p.paste(sprite, xy)

        left, top, right, bottom_y = g.tray_box(bottom, view.mirrored)
        piece(c, ("tray", bottom, count, color), (left, top, right, bottom_y), draw)


# -- what lies over the pieces --------------------------------------------------------------


def _last_play(c: Canvas, steps: list[Step], view: BoardView, colour: RGB) -> None:
    """Faint ghosts where the checkers left, rings where they hit, then the arrows over all."""
    t = THEMES[view.theme]
    ghost = sprites.ghost(view.color_of(view.last_play_by))
    color = view.color_of(view.last_play_by)
    for step in steps:
        if step.ghost is not None:
            _sprite_over(c, ghost, step.ghost, ("ghost", color))
    for step in steps:
        if step.hit:
            _sprite_over(c, sprites.ring(t.hit), step.end, ("ring", t.hit))
    for step in steps:
        origin, outline, body, (box, _) = _arrow(step.start, step.end)
        masks = _arrow_shape(*_shape_of(step.start, step.end))[4:]

        def draw(
            p: Pen, o: XY = origin, line: Image.Image = outline, b: Image.Image = body
        ) -> None:
            _through(p, o, line, t.arrow_edge)
            _through(p, o, b, colour)

        key = ("arrow", step.start, step.end, colour, t.arrow_edge)
        arrow(c, box, draw, masks, key)


def _through(p: Pen, origin: XY, mask: Image.Image, colour: RGB) -> None:
    """``colour`` pasted through ``mask`` (placed at ``origin``) over the pen's picture, as
    Image.paste(colour, origin, mask) draws it, faster: only the part of the mask over the
    picture (an arrow's edge over a checker is a small part of a long arrow), and a plain
    picture of the colour pasted through it (the same blend; Pillow 13's fill through a
    mask compares mode names at every pixel)."""
    x, y = p.at(origin)
    part = (
        max(0, -x),
        max(0, -y),
        min(mask.width, p.im.width - x),
        min(mask.height, p.im.height - y),
    )
    if part[2] <= part[0] or part[3] <= part[1]:
        return
    w, h = part[2] - part[0], part[3] - part[1]
    fill = _imaging.fill("RGB", (w, h), colour)
    left, top = x + part[0], y + part[1]
    p.im.im.paste(fill, (left, top, left + w, top + h), mask.im.crop(part))


ARROW_WIDTH = 8
Over = tuple[Box, Image.Image | None]
"""Something the last play draws over the pieces: its box, and the mask of the pixels it
covers there (None: all of the box may change)."""


def _arrow(start: XY, end: XY) -> tuple[XY, Image.Image, Image.Image, Over]:
    """An arrow's masks (see :func:`render.arrows.draw_arrow`), where it lies and the pixels
    it covers (read only, shared): those of its shape, moved to its start."""
    sx, sy = start
    shape = _arrow_shape(*_shape_of(start, end))
    (ox, oy), outline, body, (x0, y0, x1, y1), covered = shape[:5]
    return (sx + ox, sy + oy), outline, body, ((sx + x0, sy + y0, sx + x1, sy + y1), covered)


def _shape_of(start: XY, end: XY) -> tuple[XY, bool]:
    return (end[0] - start[0], end[1] - start[1]), _bends_back(start, end)


_SOME = [0] + [255] * 255  # a mask's pixels drawn on at all
_PART = [255] * 255 + [0]  # those not drawn whole


@lru_cache(maxsize=256)
def _arrow_shape(
    d: XY, back: bool
) -> tuple[XY, Image.Image, Image.Image, Box, Image.Image, Image.Image]:
    """The masks of an arrow from (0, 0) to ``d``, its box, the mask of the pixels it covers
    there and of those whose colour depends on what lies under them: covered, but by neither
    mask whole (kept as long as the masks are)."""
    origin, outline, body = _masks(d, back, ARROW_WIDTH)
    x0, y0, x1, y1 = outline.getbbox() or (0, 0, 1, 1)
    line, inside = outline.crop((x0, y0, x1, y1)), body.crop((x0, y0, x1, y1))
    covered = line._new(line.im.point(_SOME, "L"))
    edges = covered.im.chop_multiply(line.im.point(_PART, "L"))
    edges = covered._new(edges.chop_multiply(inside.im.point(_PART, "L")))
    box = (origin[0] + x0, origin[1] + y0, origin[0] + x1, origin[1] + y1)
    return origin, outline, body, box, covered, edges


def _sprite_box(sprite: Image.Image, center: XY) -> Box:
    w, h = sprite.width // 2 + 1, sprite.height // 2 + 1
    return center[0] - w, center[1] - h, center[0] + w, center[1] + h


def _overlays(steps: list[Step], view: BoardView) -> list[Over]:
    """Everything the last play draws over the pieces."""
    ghost = sprites.ghost(view.color_of(view.last_play_by))
    ring = sprites.ring(THEMES[view.theme].hit)
    out = [_arrow(s.start, s.end)[3] for s in steps]
    out += [(_sprite_box(ghost, s.ghost), None) for s in steps if s.ghost is not None]
    return out + [(_sprite_box(ring, s.end), None) for s in steps if s.hit]


def _meets(a: Box, boxes: list[Box]) -> bool:
    return any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for b in boxes)


def _touches(a: Box, over: list[Over]) -> bool:
    """Whether something of the last play covers a pixel of ``a``."""
    for b, covered in over:
        if not _meets(a, [b]):
            continue
        if covered is None:
            return True
        part = (max(a[0], b[0]) - b[0], max(a[1], b[1]) - b[1])
        end = (min(a[2], b[2]) - b[0], min(a[3], b[3]) - b[1])
        if covered.im.crop((*part, *end)).getbbox() is not None:
            return True
    return False


def _sprite_over(c: Canvas, sprite: Image.Image, center: XY, kind: tuple[object, ...]) -> None:
    """``sprite`` (the one ``kind`` names) centred on ``center``, over what lies there."""
    box = _sprite_box(sprite, center)
    overlay(c, box, lambda p: p.paste(sprite, center), key=(*kind, center))


def _redraw_box(centers: list[XY], count: int) -> Box:
    """Where a highlighted stack's top checker and its count are drawn again."""
    top = centers[min(count, g.MAX_STACK) - 1]
    w = g.CHECKER // 2 + sprites.SHADOW + 1
    ys = (top[1], centers[0][1])
    return top[0] - w, min(ys) - w, top[0] + w, max(ys) + w


def _crossed(pos: Position, view: BoardView, over: list[Over]) -> set[int]:
    """The highlighted points whose top checker something of the last play lies over."""
    return {
        point
        for point, centers, count in _top_checkers(pos, view)
        if point in view.highlights and _touches(_redraw_box(centers, count), over)
    }


def _redraw_highlights(
    c: Canvas, pos: Position, view: BoardView, ends: set[XY], crossed: set[int]
) -> None:
    """The checkers the player can move, drawn again over the arrows that cross them (but not
    under an arrow's head: that one shows where a checker arrived, and must stay seen)."""
    t = THEMES[view.theme]
    color = view.color_of("mover")
    sprite = sprites.checker(color, t.highlight)
    for point, centers, count in _top_checkers(pos, view):
        if point not in crossed:
            continue
        top = centers[min(count, g.MAX_STACK) - 1]
        if top in ends:
            continue

        def draw(p: Pen, centers: list[XY] = centers, count: int = count, top: XY = top) -> None:
            p.paste(sprite, top)
            _count(p, tuple(centers), count, color, t.count_at_base)

        key = ("redraw", tuple(centers), count, color, t.highlight)
        overlay(c, _redraw_box(centers, count), draw, key=key)


def _put(c: Canvas, key: tuple[object, ...], box: Box, draw: Draw, over: list[Over]) -> None:
    """A piece, kept (drawn over the bare board), or drawn over the last play when something
    of it lies in the piece's box (``over``: see :func:`_overlays`)."""
    if _touches(box, over):
        overlay(c, box, draw, key=key)
    else:
        piece(c, key, box, draw)


def _tray_counts(c: Canvas, pos: Position, view: BoardView, over: list[Over]) -> None:
    """How many checkers each player has borne off, on a chip at the end of his tray."""
    t = THEMES[view.theme]
    for side, count in _borne_off(pos):
        if not count:
            continue
        x, y = g.tray_count_center(side == view.bottom_side, view.mirrored)

        def draw(p: Pen, x: int = x, y: int = y, count: int = count) -> None:
            p.d.rounded_rectangle(p.box((x - 24, y - 16, x + 24, y + 16)), radius=8, fill=t.tray)
            p.d.text(p.at((x, y)), str(count), font=bold(24), fill=t.number, anchor="mm")

        _put(c, ("tray count", x, y, count), _around((x, y), 26), draw, over)


def _cube(c: Canvas, view: BoardView, over: list[Over]) -> None:
    where = g.cube_center(view.cube_owner_side(), view.bottom_side, view.mirrored)
    sprite = sprites.cube(view.context.cube_value)
    key = ("cube", where, view.context.cube_value)
    _put(c, key, _around(where, sprite.width // 2 + 2), lambda p: p.paste(sprite, where), over)


def _dice(c: Canvas, view: BoardView, over: list[Over]) -> None:
    """The mover's dice, high first as players read them: those he can still play bright (the
    one he chose outlined in the highlight colour and raised), the others faded."""
    faces = view.faces()
    if not faces:
        return
    t = THEMES[view.theme]
    live = list(view.playable())
    selected = view.selected_die
    centers = g.dice_centers(len(faces), view.bottom_side == "mover")
    color = view.color_of("mover")
    # Of equal dice, the ones played are the first ones: the row is played left to right.
    playable = [False] * len(faces)
    for i in reversed(range(len(faces))):
        if faces[i] in live:
            live.remove(faces[i])
            playable[i] = True
    for face, can, (x, y) in zip(faces, playable, centers, strict=True):
        chosen = can and face == selected
        if chosen:
            selected = None  # one die only, the first of its value
            y -= g.DIE_LIFT

        def draw(
            p: Pen, xy: XY = (x, y), face: int = face, can: bool = can, chosen: bool = chosen
        ) -> None:
            if chosen:
                r = g.DIE // 2 + 5
                box = (xy[0] - r, xy[1] - r, xy[0] + r, xy[1] + r)
                p.d.rounded_rectangle(p.box(box), radius=13, fill=t.highlight)
            p.paste(sprites.die(face, color, not can), xy)

        key = ("die", (x, y), face, color, can, chosen)
        _put(c, key, _around((x, y), g.DIE // 2 + 7), draw, over)


def _strip(c: Canvas, pips: int, view: BoardView, side: Side) -> None:
    """A player's strip in pieces, each kept by everything it shows: at the left his colour,
    name and whether the decision is his (and in the top strip the match), the same all game;
    at the right his pip count, the word "pips" and his score, each kept apart: the count
    changes at every turn, the others seldom."""
    bottom = side == view.bottom_side
    left, top, right, bottom_y = g.strip_box(bottom)
    t = THEMES[view.theme]
    decision = view.decision() if view.turn_marker else None
    deciding = decision is not None and decision[0] == side
    stats_x, match_end = stats_left(pips, view, side)
    split = stats_x - 12  # the name ends 40 pixels before the pips, the match line before it
    if match_end > split - 4:
        split = left  # one piece: the match line reaches the pips
    name = _name_key(view, side, bottom, split, deciding, decision)
    for key, part, (x0, x1) in _stats_pieces(pips, view, side, (split, right), name):

        def draw(p: Pen, part: StripPart = part) -> None:
            draw_strip(p.im, pips, view, t, side, top, dx=p.ox, part=part)

        piece(c, (*key, bottom, deciding), (x0, top, x1, bottom_y), draw)
    if split == left:
        return
    piece(
        c,
        name,
        (left, top, split, bottom_y),
        lambda p: draw_strip(p.im, pips, view, t, side, top, dx=left, part="name"),
    )


def _stats_pieces(
    pips: int, view: BoardView, side: Side, span: tuple[int, int], name: tuple[object, ...]
) -> list[tuple[tuple[object, ...], StripPart, tuple[int, int]]]:
    """The keys and spans of a strip's right pieces: the pip count (to 2 pixels past its end,
    short of the word's space), the word (to halfway to the score's chip), the score. One
    piece from the left edge (``name``: what it shows there) when the match line reaches the
    pips."""
    split, right = span
    count_end, word_end, word = stats_marks(pips, view, side)
    ctx = view.context
    score = ctx.score[0 if side == "mover" else 1] if ctx.match_length else None
    if split == g.strip_box(side == view.bottom_side)[0]:
        return [(("strip all", *name, pips, score), "all", (split, right))]
    cut = word_end + 11 if score is not None else right
    pieces: list[tuple[tuple[object, ...], StripPart, tuple[int, int]]] = [
        (("strip pips", split, count_end, pips), "count", (split, count_end + 2)),
        (("strip word", count_end, word_end, word), "word", (count_end + 2, cut)),
        (("strip score", word_end, score), "score", (cut, right)),
    ]
    return pieces[: 3 if score is not None else 2]


def _name_key(
    view: BoardView,
    side: Side,
    bottom: bool,
    split: int,
    deciding: bool,
    decision: tuple[Side, str] | None,
) -> tuple[object, ...]:
    """What the left part of a strip shows: the name, its colour, the match, the marker."""
    ctx = view.context
    return (
        "strip name",
        side,
        bottom,
        split,
        view.lang,
        view.name_of(side),
        view.color_of(side),
        ctx.match_length,
        view.is_crawford_game(),
        deciding,
        decision,
    )


def _band(c: Canvas, view: BoardView, height: int) -> None:
    """The offer, result or caption in a band below the board."""
    t = THEMES[view.theme]
    im = Image.new("RGB", (g.WIDTH, height), t.banner)
    draw_band(im, view, t, top=0)
    c.im.paste(to_palette(im, view.theme), (0, g.HEIGHT))

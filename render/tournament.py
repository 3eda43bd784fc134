"""Tournament pictures: a knockout bracket and a standings table, as PNG bytes.

The renderer knows nothing of tournaments' rules: the caller (the bot) turns its brackets and
standings into the plain values below (:class:`BracketPicture`, :class:`StandingsTable`) and
gets a picture back, in the viewer's language.

Names are fitted by design: a long name first gets a smaller type, then two lines, and only a
name too long even for that ends with an ellipsis (between letters, never through one).

>>> final = BracketGame(Entrant("Ann", seed=1, score=5), Entrant("Bob", seed=2, score=3), winner=0)
>>> png = render_bracket(BracketPicture(rounds=((final,),), champion="Ann"))
>>> png[:4]
b'\\x89PNG'
>>> row = StandingsRow(1, "Ann", ("2", "4", "3", "2"))
>>> render_standings(StandingsTable("swiss", (row,), lang="fr"))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import math
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from render.fonts import bold, clean_name, fit, regular, text_width
from render.tournament_labels import round_name, tlabel

__all__ = [
    "COLUMNS",
    "BracketGame",
    "BracketPicture",
    "Entrant",
    "FittedName",
    "StandingsRow",
    "StandingsTable",
    "TableFormat",
    "fit_name",
    "render_bracket",
    "render_standings",
]

RGB = tuple[int, int, int]
_BG: RGB = (36, 39, 46)
_BOX: RGB = (54, 58, 69)
_STRIPE: RGB = (43, 46, 55)
_WIN_ROW: RGB = (82, 70, 36)  # a winner's row: gold on the dark background
_TEXT: RGB = (236, 238, 243)
_DIM: RGB = (142, 148, 162)
_LINE: RGB = (96, 102, 118)
_GOLD: RGB = (255, 196, 61)
_FIRE: RGB = (255, 128, 54)
_MINE: RGB = (40, 72, 112)  # the viewer's own row

_MARGIN = 24
_PNG_LEVEL = 3  # as the board: flat colours, a palette, level 3 (see render/board.py)

Font = ImageFont.FreeTypeFont

# -- inputs -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entrant:
    """One side of a bracket match: a player, or ``None`` while not known (or for a bye)."""

    name: str | None = None
    seed: int | None = None
    score: int | None = None
    """His match score, shown once the match has started or ended."""


@dataclass(frozen=True, slots=True)
class BracketGame:
    """One match of the bracket.

    :param winner: 0 when ``top`` won, 1 when ``bottom`` did, ``None`` before the end.
    :param bye: the side without a name is a bye (first round only).
    """

    top: Entrant
    bottom: Entrant
    winner: Literal[0, 1] | None = None
    bye: bool = False


@dataclass(frozen=True, slots=True)
class BracketPicture:
    """A whole knockout: the matches of each round, top to bottom, the first round first.

    :raises ValueError: unless each round has half the matches of the one before and the last
        has one.
    """

    rounds: tuple[tuple[BracketGame, ...], ...]
    title: str = ""
    subtitle: str = ""
    champion: str | None = None
    lang: str = "en"
    first_round: int = 0
    """The round ``rounds[0]`` is in the whole knockout (0, the first, unless the picture
    leaves out the early rounds, as a big bracket may once they are over)."""

    def __post_init__(self) -> None:
        sizes = [len(r) for r in self.rounds]
        if not sizes or sizes[-1] != 1 or any(a != 2 * b for a, b in pairwise(sizes)):
            raise ValueError(f"a bracket halves each round down to one final, not {sizes}")


TableFormat = Literal["round_robin", "swiss", "arena"]

COLUMNS: dict[TableFormat, tuple[str, ...]] = {
    "round_robin": ("played", "wins", "losses", "difference"),
    "swiss": ("score", "buchholz", "sonneborn_berger", "played"),
    "arena": ("points", "played", "wins", "best_streak", "performance"),
}
"""The columns of each table after the rank and the name: the label keys of
:mod:`render.tournament_labels`, in the order of :attr:`StandingsRow.values`."""


@dataclass(frozen=True, slots=True)
class StandingsRow:
    """One row: the rank, the name and the format's :data:`COLUMNS`, already written out.

    :param on_fire: marks an arena player whose next win counts double.
    :param highlight: marks the viewer's own row.
    """

    rank: int
    name: str
    values: tuple[str, ...]
    on_fire: bool = False
    highlight: bool = False


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """A standings table, or one page of it (then ``total`` is the whole table's length).

    :raises ValueError: when a row has not one value per column of its format.
    """

    format: TableFormat
    rows: tuple[StandingsRow, ...]
    title: str = ""
    subtitle: str = ""
    lang: str = "en"
    total: int | None = None

    def __post_init__(self) -> None:
        want = len(COLUMNS[self.format])
        for row in self.rows:
            if len(row.values) != want:
                raise ValueError(
                    f"a {self.format} row has {want} values ({', '.join(COLUMNS[self.format])})"
                    f", not {len(row.values)}: {row.values}"
                )


# -- names ------------------------------------------------------------------------------------

_ONE_LINE = (16, 14, 13)
_TWO_LINES = (12, 11)


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
    """How to draw ``name`` within ``width`` pixels, by preference: on one line at 16, 14 or 13
    pixels (in bold when ``strong``, while that fits); on two lines cut between words (at a
    space, after a hyphen or an underscore) at 12 or 11; on two lines cut between letters; and
    only when even that fails, two lines ending with an ellipsis. The two-line forms are never
    bold: the weight would cost the room they need.

    >>> fit_name("Ann", 200)
    FittedName(lines=('Ann',), size=16, strong=False)
    >>> fit_name("Maximilian Alexander von Hohenzollern-Sigmaringen", 170).lines
    ('Maximilian Alexander von', 'Hohenzollern-Sigmaringen')
    >>> fit_name("xX_BackgammonDestroyer_2000_Xx", 160).lines
    ('xX_BackgammonDestroyer_', '2000_Xx')
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


def _draw_name(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    name: str,
    width: int,
    fill: RGB,
    strong: bool = False,
) -> FittedName:
    """``name`` fitted into ``width``, its lines centred vertically on ``xy[1]``."""
    fitted = fit_name(name, width, strong)
    font = fitted.font
    x, y = xy
    if len(fitted.lines) == 1:
        draw.text((x, y), fitted.lines[0], fill=fill, font=font, anchor="lm")
        return fitted
    step = fitted.size + 2
    draw.text((x, y - step // 2), fitted.lines[0], fill=fill, font=font, anchor="lm")
    draw.text((x, y + step // 2 + 1), fitted.lines[1], fill=fill, font=font, anchor="lm")
    return fitted


# -- bracket ----------------------------------------------------------------------------------

_ROW = 32  # one player's row in a match box
_BOX_W = 250
_SEED_W = 30
_SCORE_W = 30
_GAP = 14  # between two first-round matches
_COL_GAP = 36
_HEAD_H = 30  # the round names


def render_bracket(picture: BracketPicture) -> bytes:
    """The bracket as PNG bytes: a column per round, the champion last, winners in gold.

    About 240 pixels wide per round and 80 high per first-round match (a 32-player bracket
    is about 1600 x 1400).
    """
    rounds = picture.rounds
    first = len(rounds[0])
    pitch = 2 * _ROW + _GAP
    top = _MARGIN + _title_height(picture.title, picture.subtitle) + _HEAD_H
    columns = len(rounds) + 1
    width = 2 * _MARGIN + columns * _BOX_W + (columns - 1) * _COL_GAP
    height = top + first * pitch + _MARGIN
    im = Image.new("RGB", (width, height), _BG)
    draw = ImageDraw.Draw(im)
    _draw_title(draw, picture.title, picture.subtitle, width)
    centres: list[list[int]] = [[top + i * pitch + _ROW for i in range(first)]]
    for r in range(1, len(rounds)):
        prev = centres[-1]
        centres.append([(prev[2 * i] + prev[2 * i + 1]) // 2 for i in range(len(rounds[r]))])
    for r, games in enumerate(rounds):
        x = _MARGIN + r * (_BOX_W + _COL_GAP)
        total = picture.first_round + len(rounds)
        name = round_name(picture.lang, rounds=total, index=picture.first_round + r)
        draw.text((x + 4, top - 12), name, fill=_DIM, font=bold(14), anchor="lm")
        for i, game in enumerate(games):
            _draw_game(draw, x, centres[r][i] - _ROW, game, picture.lang)
            _draw_link(draw, x + _BOX_W, centres[r], i, r + 1 < len(rounds), game)
    _draw_champion(draw, picture, _MARGIN + len(rounds) * (_BOX_W + _COL_GAP), centres[-1][0], top)
    return _png(im)


def _title_height(title: str, subtitle: str) -> int:
    """The room the title and the subtitle take above the picture (none without them)."""
    return (40 if title else 0) + (32 if subtitle else 0)


def _draw_title(draw: ImageDraw.ImageDraw, title: str, subtitle: str, width: int) -> None:
    room = width - 2 * _MARGIN
    if title:
        text = fit(bold(26), clean_name(title), room)
        draw.text((_MARGIN, _MARGIN + 14), text, fill=_TEXT, font=bold(26), anchor="lm")
    if subtitle:
        text = fit(regular(16), subtitle, room)
        y = _MARGIN + (46 if title else 10)
        draw.text((_MARGIN, y), text, fill=_DIM, font=regular(16), anchor="lm")


def _draw_game(draw: ImageDraw.ImageDraw, x: int, y: int, game: BracketGame, lang: str) -> None:
    draw.rounded_rectangle((x, y, x + _BOX_W, y + 2 * _ROW), radius=6, fill=_BOX)
    for k, entrant in enumerate((game.top, game.bottom)):
        ry = y + k * _ROW
        won = game.winner == k and not game.bye
        lost = game.winner is not None and game.winner != k
        if won:
            corners = (True, True, False, False) if k == 0 else (False, False, True, True)
            draw.rounded_rectangle(
                (x, ry, x + _BOX_W, ry + _ROW), radius=6, fill=_WIN_ROW, corners=corners
            )
            draw.rectangle((x, ry + 3, x + 3, ry + _ROW - 3), fill=_GOLD)
        mid = ry + _ROW // 2
        if entrant.seed is not None:
            draw.text(
                (x + _SEED_W - 6, mid), str(entrant.seed), fill=_DIM, font=regular(12), anchor="rm"
            )
        name_x, name_w = x + _SEED_W, _BOX_W - _SEED_W - _SCORE_W - 6
        if entrant.name is not None:
            colour = _GOLD if won else (_DIM if lost else _TEXT)
            _draw_name(draw, (name_x, mid), clean_name(entrant.name), name_w, colour, won)
        elif game.bye:
            draw.text((name_x, mid), tlabel(lang, "bye"), fill=_DIM, font=regular(14), anchor="lm")
        if entrant.score is not None:
            draw.text(
                (x + _BOX_W - 10, mid),
                str(entrant.score),
                fill=_GOLD if won else _TEXT,
                font=bold(16),
                anchor="rm",
            )
    draw.line((x + 6, y + _ROW, x + _BOX_W - 6, y + _ROW), fill=_BG, width=1)


def _draw_link(
    draw: ImageDraw.ImageDraw, right: int, centres: list[int], i: int, more: bool, game: BracketGame
) -> None:
    """The line from match ``i``'s box towards the next round (gold once someone advanced)."""
    y = centres[i]
    mid = right + _COL_GAP // 2
    colour = _GOLD if game.winner is not None else _LINE
    if not more:  # the final: straight on to the champion
        draw.line((right, y, right + _COL_GAP, y), fill=colour, width=2)
        return
    draw.line((right, y, mid, y), fill=colour, width=2)
    partner = centres[i + 1] if i % 2 == 0 else centres[i - 1]
    target = (y + partner) // 2
    draw.line((mid, y, mid, target), fill=colour, width=2)
    if i % 2 == 0:
        draw.line((mid, target, right + _COL_GAP, target), fill=_LINE, width=2)


def _draw_champion(
    draw: ImageDraw.ImageDraw, picture: BracketPicture, x: int, centre: int, top: int
) -> None:
    draw.text(
        (x + 4, top - 12), tlabel(picture.lang, "champion"), fill=_GOLD, font=bold(14), anchor="lm"
    )
    y0, y1 = centre - _ROW // 2 - 6, centre + _ROW // 2 + 6
    won = picture.champion is not None
    draw.rounded_rectangle(
        (x, y0, x + _BOX_W, y1), radius=8, fill=_WIN_ROW if won else _BOX, outline=_GOLD, width=2
    )
    if picture.champion is not None:
        _star(draw, x + 17, centre, 9)
        name = clean_name(picture.champion)
        _draw_name(draw, (x + 32, centre), name, _BOX_W - 40, _GOLD, strong=True)


def _star(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int) -> None:
    """A five-pointed star (the fonts have no trophy)."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=_GOLD)


# -- standings --------------------------------------------------------------------------------

_T_ROW = 30
_RANK_W = 52
_NAME_W = 330
_FIRE_W = 18


def render_standings(table: StandingsTable) -> bytes:
    """The standings as PNG bytes: rank, name and the format's columns, the leader in gold,
    the viewer's row (``highlight``) in blue, and the tie-break rule written underneath.

    About 700 to 850 pixels wide and 30 high per row.
    """
    lang = table.lang
    keys = COLUMNS[table.format]
    head_font = bold(14)
    heads = [tlabel(lang, k) for k in keys]
    widths = [max(72, text_width(head_font, h) + 22) for h in heads]
    width = 2 * _MARGIN + _RANK_W + _NAME_W + sum(widths)
    rules = textwrap.wrap(tlabel(lang, f"rules_{table.format}"), _wrap_chars(width))
    top = _MARGIN + _title_height(table.title, table.subtitle)
    foot = 14 + 18 * len(rules) + (22 if table.total is not None else 0)
    height = top + _T_ROW * (len(table.rows) + 1) + foot + _MARGIN
    im = Image.new("RGB", (width, height), _BG)
    draw = ImageDraw.Draw(im)
    _draw_title(draw, table.title, table.subtitle, width)
    mid = top + _T_ROW // 2
    x = _MARGIN
    draw.text((x + _RANK_W - 14, mid), tlabel(lang, "rank"), fill=_DIM, font=head_font, anchor="rm")
    draw.text((x + _RANK_W, mid), tlabel(lang, "player"), fill=_DIM, font=head_font, anchor="lm")
    cx = x + _RANK_W + _NAME_W
    for head, w in zip(heads, widths, strict=True):
        draw.text((cx + w // 2, mid), head, fill=_DIM, font=head_font, anchor="mm")
        cx += w
    y = top + _T_ROW
    draw.line((x, y, width - _MARGIN, y), fill=_LINE, width=1)
    for n, row in enumerate(table.rows):
        _draw_row(im, draw, row, y, width, widths, striped=n % 2 == 1)
        y += _T_ROW
    y += 10
    for line in rules:
        draw.text((x, y + 9), line, fill=_DIM, font=regular(13), anchor="lm")
        y += 18
    if table.total is not None and table.rows:
        text = tlabel(
            lang, "rows_of", first=table.rows[0].rank, last=table.rows[-1].rank, total=table.total
        )
        draw.text((x, y + 11), text, fill=_TEXT, font=regular(14), anchor="lm")
    return _png(im)


def _wrap_chars(width: int) -> int:
    """How many characters of the 13-pixel note fit in a line (about 7.3 pixels each)."""
    return max(30, int((width - 2 * _MARGIN) / 7.3))


def _draw_row(
    im: Image.Image,
    draw: ImageDraw.ImageDraw,
    row: StandingsRow,
    y: int,
    width: int,
    widths: list[int],
    *,
    striped: bool,
) -> None:
    x = _MARGIN
    if row.highlight or striped:
        fill = _MINE if row.highlight else _STRIPE
        draw.rectangle((x, y, width - _MARGIN, y + _T_ROW - 1), fill=fill)
    mid = y + _T_ROW // 2
    leader = row.rank == 1
    colour = _GOLD if leader else _TEXT
    _stamp(im, (x + _RANK_W - 14, mid), str(row.rank), colour, strong=True, size=16, anchor="rm")
    name_w = _NAME_W - 12 - (_FIRE_W if row.on_fire else 0)
    name = clean_name(row.name)
    fitted = _draw_name(draw, (x + _RANK_W, mid), name, name_w, colour, strong=leader)
    if row.on_fire:
        used = max(text_width(fitted.font, line) for line in fitted.lines)
        _triangle(draw, x + _RANK_W + used + 6, mid)
    cx = x + _RANK_W + _NAME_W
    for value, w in zip(row.values, widths, strict=True):
        _stamp(im, (cx + w // 2, mid), value, colour, strong=False, size=16, anchor="mm")
        cx += w


@lru_cache(maxsize=4096)
def _stamp_mask(text: str, strong: bool, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """``text`` drawn once as an anti-aliased mask, with its offset from the anchor point: the
    same numbers fill most cells of a table, and stamping a mask costs a tenth of drawing the
    text again (it keeps a 256-row table under 100 ms)."""
    font = (bold if strong else regular)(size)
    left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=font, anchor=anchor)
    return mask, left, top


def _stamp(
    im: Image.Image,
    xy: tuple[int, int],
    text: str,
    fill: RGB,
    *,
    strong: bool,
    size: int,
    anchor: str,
) -> None:
    """Draw ``text`` as :meth:`ImageDraw.text` would, from a cached mask."""
    mask, dx, dy = _stamp_mask(text, strong, size, anchor)
    x, y = xy[0] + dx, xy[1] + dy
    im.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


def _triangle(draw: ImageDraw.ImageDraw, x: int, mid: int) -> None:
    """The on-fire mark, the ▲ of the rule under the table."""
    draw.polygon([(x, mid + 5), (x + 12, mid + 5), (x + 6, mid - 6)], fill=_FIRE)


# -- output -----------------------------------------------------------------------------------


def _png(im: Image.Image) -> bytes:
    small = im.quantize(palette=_palette(), dither=Image.Dither.NONE)
    out = io.BytesIO()
    small.save(out, "PNG", compress_level=_PNG_LEVEL)
    return out.getvalue()


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The 256 colours of the tournament pictures, found once from a strip of every colour and
    the blends of text over each background (the pictures are flat colours and anti-aliasing),
    so that mapping a picture to it is cheap."""
    backgrounds = (_BG, _BOX, _STRIPE, _WIN_ROW, _MINE)
    inks = (_TEXT, _DIM, _GOLD, _LINE, _FIRE, _BG, _BOX, _WIN_ROW)
    im = Image.new("RGB", (32 * len(inks), len(backgrounds)))
    for row, back in enumerate(backgrounds):
        for col, ink in enumerate(inks):
            for k in range(32):
                t = k / 31
                blend = tuple(round(b + (i - b) * t) for b, i in zip(back, ink, strict=True))
                im.putpixel((col * 32 + k, row), (blend[0], blend[1], blend[2]))
    return im.quantize(colors=256, method=Image.Quantize.MEDIANCUT)

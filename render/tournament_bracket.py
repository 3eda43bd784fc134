"""The knockout bracket picture: the rounds one under the other, winners in gold, the champion
beside the final, the viewer in blue; as wide as a phone shows it readably.

>>> final = BracketGame(Entrant("Ann", seed=1, score=5), Entrant("Bob", seed=2, score=3), winner=0)
>>> render_bracket(BracketPicture(rounds=((final,),), champion="Ann"))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from PIL import Image

from render.fonts import clean_name
from render.tournament_draw import (
    BG,
    BOX,
    DIM,
    GOLD,
    LINE,
    MARGIN,
    MINE,
    RGB,
    TEXT,
    WIN_ROW,
    IndexCanvas,
    draw_title,
    title_height,
)
from render.tournament_labels import round_name, tlabel

__all__ = ["PHONE_WIDTH", "BracketGame", "BracketPicture", "Entrant", "render_bracket"]


@dataclass(frozen=True, slots=True)
class Entrant:
    """One side of a bracket match: a player, or ``None`` while not known (or for a bye)."""

    name: str | None = None
    seed: int | None = None
    score: int | None = None
    """His match score, shown once the match has started or ended."""
    mine: bool = False
    """The viewer: his rows are drawn in blue, as his row of a standings table."""


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


_ROW = 40  # one player's row in a match box: a name on two lines of 16 pixels fits
_BOX_W = 272
_SEED_W = 30
_SCORE_W = 34
_GAP = 16  # between the two matches of a row, and under each row
_HEAD_H = 34  # a round's name
PHONE_WIDTH = 2 * MARGIN + 2 * _BOX_W + _GAP
"""The width of every bracket (608 pixels): at a phone's 380 its 16-pixel names are 10 high."""
_BACKS = (BG, BOX, WIN_ROW, MINE)  # what text lies on
_INKS = (TEXT, DIM, GOLD, LINE)  # 4 x 4 x 16 shades: the palette's 256 colours


def render_bracket(picture: BracketPicture) -> bytes:
    """The bracket as PNG bytes: the rounds one under the other, two matches a row (the two
    whose winners meet next), winners in gold, the viewer's rows in blue, the final beside the
    champion.

    :data:`PHONE_WIDTH` wide whatever the number of players, so that it reads on a phone;
    about 100 pixels high per row of two matches (a 32-player bracket is about 1,800 high).
    """
    rounds = picture.rounds
    top = MARGIN + title_height(picture.title, picture.subtitle)
    height = top + sum(_round_height(len(r)) for r in rounds) + MARGIN - _GAP
    canvas = IndexCanvas((PHONE_WIDTH, height), _BACKS, _INKS)
    draw_title(canvas, picture.title, picture.subtitle, PHONE_WIDTH)
    total = picture.first_round + len(rounds)
    y = top
    for r, games in enumerate(rounds):
        name = round_name(picture.lang, rounds=total, index=picture.first_round + r)
        at = (MARGIN + 4, y + _HEAD_H // 2)
        canvas.text(at, name, DIM, BG, strong=True, size=17, anchor="lm")
        y += _HEAD_H
        for i, game in enumerate(games):
            x = MARGIN + (i % 2) * (_BOX_W + _GAP)
            _draw_game(canvas, x, y + (i // 2) * (2 * _ROW + _GAP), game, picture.lang)
        if len(games) == 1:
            _draw_champion(canvas, picture, y - _HEAD_H, y + _ROW, games[0])
        y += _round_height(len(games)) - _HEAD_H
    return canvas.png()


def _round_height(games: int) -> int:
    """A round's height: its name, then a row for each two matches."""
    return _HEAD_H + (games + 1) // 2 * (2 * _ROW + _GAP)


def _draw_game(canvas: IndexCanvas, x: int, y: int, game: BracketGame, lang: str) -> None:
    sides = (game.top, game.bottom)
    states = [(game.winner == k and not game.bye, e.mine) for k, e in enumerate(sides)]
    box = _box(states[0], states[1])
    canvas.im.im.paste(box.im, (x, y, x + box.width, y + box.height))
    for k, entrant in enumerate(sides):
        won, mine = states[k]
        lost = game.winner is not None and game.winner != k
        back = MINE if mine else (WIN_ROW if won else BOX)
        at = (x, y + k * _ROW + _ROW // 2)
        _draw_entrant(canvas, at, entrant, back, (won, lost, game.bye), lang)


@lru_cache(maxsize=16)
def _box(top: tuple[bool, bool], bottom: tuple[bool, bool]) -> Image.Image:
    """A match box without its text, drawn once for each of its rows' states (won, the
    viewer's): the rounded box, a row's gold or blue, the winner's gold bar, the line between
    the rows; its corners show the background it lies on."""
    canvas = IndexCanvas((_BOX_W + 1, 2 * _ROW + 1), _BACKS, _INKS)
    draw = canvas.draw
    draw.rounded_rectangle((0, 0, _BOX_W, 2 * _ROW), radius=6, fill=canvas.colour(BOX))
    for k, (won, mine) in enumerate((top, bottom)):
        ry = k * _ROW
        if won or mine:
            corners = (True, True, False, False) if k == 0 else (False, False, True, True)
            back = canvas.colour(MINE if mine else WIN_ROW)
            draw.rounded_rectangle((0, ry, _BOX_W, ry + _ROW), radius=6, fill=back, corners=corners)
        if won:
            draw.rectangle((0, ry + 3, 3, ry + _ROW - 3), fill=canvas.colour(GOLD))
    draw.line((6, _ROW, _BOX_W - 6, _ROW), fill=canvas.colour(BG), width=1)
    return canvas.im


def _draw_entrant(
    canvas: IndexCanvas,
    at: tuple[int, int],
    entrant: Entrant,
    back: RGB,
    state: tuple[bool, bool, bool],
    lang: str,
) -> None:
    """One side of a match box, on ``back``: seed, name (or *bye*) and score; ``state`` is
    (won, lost, bye)."""
    (x, mid), (won, lost, bye) = at, state
    if entrant.seed is not None:
        seed = str(entrant.seed)
        canvas.text((x + _SEED_W - 6, mid), seed, DIM, back, strong=False, size=13, anchor="rm")
    name_x, name_w = x + _SEED_W, _BOX_W - _SEED_W - _SCORE_W - 6
    if entrant.name is not None:
        colour = GOLD if won else (DIM if lost and not entrant.mine else TEXT)
        canvas.name((name_x, mid), clean_name(entrant.name), name_w, colour, back, won)
    elif bye:
        text = tlabel(lang, "bye")
        canvas.text((name_x, mid), text, DIM, back, strong=False, size=16, anchor="lm")
    if entrant.score is not None:
        ink, score = GOLD if won else TEXT, str(entrant.score)
        canvas.text((x + _BOX_W - 10, mid), score, ink, back, strong=True, size=18, anchor="rm")


def _draw_champion(
    canvas: IndexCanvas, picture: BracketPicture, head: int, centre: int, final: BracketGame
) -> None:
    """The champion's box beside the final, joined to it by a line (gold once it is won)."""
    x = MARGIN + _BOX_W + _GAP
    label = tlabel(picture.lang, "champion")
    canvas.text((x + 4, head + _HEAD_H // 2), label, GOLD, BG, strong=True, size=17, anchor="lm")
    draw = canvas.draw
    colour = canvas.colour(GOLD if final.winner is not None else LINE)
    draw.line((x - _GAP, centre, x, centre), fill=colour, width=2)
    y0, y1 = centre - _ROW // 2 - 6, centre + _ROW // 2 + 6
    back = BOX if picture.champion is None else WIN_ROW
    fill, outline = canvas.colour(back), canvas.colour(GOLD)
    draw.rounded_rectangle((x, y0, x + _BOX_W, y1), radius=8, fill=fill, outline=outline, width=2)
    if picture.champion is not None:
        _star(canvas, x + 17, centre, 9)
        name = clean_name(picture.champion)
        canvas.name((x + 32, centre), name, _BOX_W - 40, GOLD, back, strong=True)


def _star(canvas: IndexCanvas, cx: int, cy: int, r: int) -> None:
    """A five-pointed star (the fonts have no trophy)."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    canvas.draw.polygon(points, fill=canvas.colour(GOLD))

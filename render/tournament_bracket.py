"""The knockout bracket picture: a column per round, winners in gold, the champion last.

>>> final = BracketGame(Entrant("Ann", seed=1, score=5), Entrant("Bob", seed=2, score=3), winner=0)
>>> render_bracket(BracketPicture(rounds=((final,),), champion="Ann"))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

from PIL import Image, ImageDraw

from render.fonts import bold, clean_name, regular
from render.tournament_draw import (
    BG,
    BOX,
    DIM,
    GOLD,
    LINE,
    MARGIN,
    TEXT,
    WIN_ROW,
    draw_name,
    draw_title,
    title_height,
    to_png,
)
from render.tournament_labels import round_name, tlabel

__all__ = ["BracketGame", "BracketPicture", "Entrant", "render_bracket"]


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
    top = MARGIN + title_height(picture.title, picture.subtitle) + _HEAD_H
    columns = len(rounds) + 1
    width = 2 * MARGIN + columns * _BOX_W + (columns - 1) * _COL_GAP
    height = top + first * pitch + MARGIN
    im = Image.new("RGB", (width, height), BG)
    draw = ImageDraw.Draw(im)
    draw_title(draw, picture.title, picture.subtitle, width)
    centres: list[list[int]] = [[top + i * pitch + _ROW for i in range(first)]]
    for r in range(1, len(rounds)):
        prev = centres[-1]
        centres.append([(prev[2 * i] + prev[2 * i + 1]) // 2 for i in range(len(rounds[r]))])
    for r, games in enumerate(rounds):
        x = MARGIN + r * (_BOX_W + _COL_GAP)
        total = picture.first_round + len(rounds)
        name = round_name(picture.lang, rounds=total, index=picture.first_round + r)
        draw.text((x + 4, top - 12), name, fill=DIM, font=bold(14), anchor="lm")
        for i, game in enumerate(games):
            _draw_game(draw, x, centres[r][i] - _ROW, game, picture.lang)
            _draw_link(draw, x + _BOX_W, centres[r], i, r + 1 < len(rounds), game)
    _draw_champion(draw, picture, MARGIN + len(rounds) * (_BOX_W + _COL_GAP), centres[-1][0], top)
    return to_png(im)


def _draw_game(draw: ImageDraw.ImageDraw, x: int, y: int, game: BracketGame, lang: str) -> None:
    draw.rounded_rectangle((x, y, x + _BOX_W, y + 2 * _ROW), radius=6, fill=BOX)
    for k, entrant in enumerate((game.top, game.bottom)):
        ry = y + k * _ROW
        won = game.winner == k and not game.bye
        lost = game.winner is not None and game.winner != k
        if won:
            corners = (True, True, False, False) if k == 0 else (False, False, True, True)
            draw.rounded_rectangle(
                (x, ry, x + _BOX_W, ry + _ROW), radius=6, fill=WIN_ROW, corners=corners
            )
            draw.rectangle((x, ry + 3, x + 3, ry + _ROW - 3), fill=GOLD)
        mid = ry + _ROW // 2
        if entrant.seed is not None:
            draw.text(
                (x + _SEED_W - 6, mid), str(entrant.seed), fill=DIM, font=regular(12), anchor="rm"
            )
        name_x, name_w = x + _SEED_W, _BOX_W - _SEED_W - _SCORE_W - 6
        if entrant.name is not None:
            colour = GOLD if won else (DIM if lost else TEXT)
            draw_name(draw, (name_x, mid), clean_name(entrant.name), name_w, colour, won)
        elif game.bye:
            draw.text((name_x, mid), tlabel(lang, "bye"), fill=DIM, font=regular(14), anchor="lm")
        if entrant.score is not None:
            draw.text(
                (x + _BOX_W - 10, mid),
                str(entrant.score),
                fill=GOLD if won else TEXT,
                font=bold(16),
                anchor="rm",
            )
    draw.line((x + 6, y + _ROW, x + _BOX_W - 6, y + _ROW), fill=BG, width=1)


def _draw_link(
    draw: ImageDraw.ImageDraw, right: int, centres: list[int], i: int, more: bool, game: BracketGame
) -> None:
    """The line from match ``i``'s box towards the next round (gold once someone advanced)."""
    y = centres[i]
    mid = right + _COL_GAP // 2
    colour = GOLD if game.winner is not None else LINE
    if not more:  # the final: straight on to the champion
        draw.line((right, y, right + _COL_GAP, y), fill=colour, width=2)
        return
    draw.line((right, y, mid, y), fill=colour, width=2)
    partner = centres[i + 1] if i % 2 == 0 else centres[i - 1]
    target = (y + partner) // 2
    draw.line((mid, y, mid, target), fill=colour, width=2)
    if i % 2 == 0:
        draw.line((mid, target, right + _COL_GAP, target), fill=LINE, width=2)


def _draw_champion(
    draw: ImageDraw.ImageDraw, picture: BracketPicture, x: int, centre: int, top: int
) -> None:
    draw.text(
        (x + 4, top - 12), tlabel(picture.lang, "champion"), fill=GOLD, font=bold(14), anchor="lm"
    )
    y0, y1 = centre - _ROW // 2 - 6, centre + _ROW // 2 + 6
    won = picture.champion is not None
    draw.rounded_rectangle(
        (x, y0, x + _BOX_W, y1), radius=8, fill=WIN_ROW if won else BOX, outline=GOLD, width=2
    )
    if picture.champion is not None:
        _star(draw, x + 17, centre, 9)
        name = clean_name(picture.champion)
        draw_name(draw, (x + 32, centre), name, _BOX_W - 40, GOLD, strong=True)


def _star(draw: ImageDraw.ImageDraw, cx: int, cy: int, r: int) -> None:
    """A five-pointed star (the fonts have no trophy)."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    draw.polygon(points, fill=GOLD)

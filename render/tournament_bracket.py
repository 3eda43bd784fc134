"""The knockout bracket picture: the rounds one under the other, winners in gold, the champion
beside the final, the viewer in blue; as wide as a phone shows it readably.

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
    MINE,
    TEXT,
    WIN_ROW,
    draw_name,
    draw_title,
    title_height,
    to_png,
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
    im = Image.new("RGB", (PHONE_WIDTH, height), BG)
    draw = ImageDraw.Draw(im)
    draw_title(draw, picture.title, picture.subtitle, PHONE_WIDTH)
    total = picture.first_round + len(rounds)
    y = top
    for r, games in enumerate(rounds):
        name = round_name(picture.lang, rounds=total, index=picture.first_round + r)
        draw.text((MARGIN + 4, y + _HEAD_H // 2), name, fill=DIM, font=bold(17), anchor="lm")
        y += _HEAD_H
        for i, game in enumerate(games):
            x = MARGIN + (i % 2) * (_BOX_W + _GAP)
            _draw_game(draw, x, y + (i // 2) * (2 * _ROW + _GAP), game, picture.lang)
        if len(games) == 1:
            _draw_champion(draw, picture, y - _HEAD_H, y + _ROW, games[0])
        y += _round_height(len(games)) - _HEAD_H
    return to_png(im)


def _round_height(games: int) -> int:
    """A round's height: its name, then a row for each two matches."""
    return _HEAD_H + (games + 1) // 2 * (2 * _ROW + _GAP)


def _draw_game(draw: ImageDraw.ImageDraw, x: int, y: int, game: BracketGame, lang: str) -> None:
    draw.rounded_rectangle((x, y, x + _BOX_W, y + 2 * _ROW), radius=6, fill=BOX)
    for k, entrant in enumerate((game.top, game.bottom)):
        ry = y + k * _ROW
        won = game.winner == k and not game.bye
        lost = game.winner is not None and game.winner != k
        if won or entrant.mine:
            corners = (True, True, False, False) if k == 0 else (False, False, True, True)
            back = MINE if entrant.mine else WIN_ROW
            draw.rounded_rectangle(
                (x, ry, x + _BOX_W, ry + _ROW), radius=6, fill=back, corners=corners
            )
        if won:
            draw.rectangle((x, ry + 3, x + 3, ry + _ROW - 3), fill=GOLD)
        _draw_entrant(draw, x, ry + _ROW // 2, entrant, (won, lost, game.bye), lang)
    draw.line((x + 6, y + _ROW, x + _BOX_W - 6, y + _ROW), fill=BG, width=1)


def _draw_entrant(
    draw: ImageDraw.ImageDraw,
    x: int,
    mid: int,
    entrant: Entrant,
    state: tuple[bool, bool, bool],
    lang: str,
) -> None:
    """One side of a match box: seed, name (or *bye*) and score; ``state`` is (won, lost,
    bye)."""
    won, lost, bye = state
    if entrant.seed is not None:
        draw.text(
            (x + _SEED_W - 6, mid), str(entrant.seed), fill=DIM, font=regular(13), anchor="rm"
        )
    name_x, name_w = x + _SEED_W, _BOX_W - _SEED_W - _SCORE_W - 6
    if entrant.name is not None:
        colour = GOLD if won else (DIM if lost and not entrant.mine else TEXT)
        draw_name(draw, (name_x, mid), clean_name(entrant.name), name_w, colour, won)
    elif bye:
        draw.text((name_x, mid), tlabel(lang, "bye"), fill=DIM, font=regular(16), anchor="lm")
    if entrant.score is not None:
        fill = GOLD if won else TEXT
        draw.text((x + _BOX_W - 10, mid), str(entrant.score), fill=fill, font=bold(18), anchor="rm")


def _draw_champion(
    draw: ImageDraw.ImageDraw, picture: BracketPicture, head: int, centre: int, final: BracketGame
) -> None:
    """The champion's box beside the final, joined to it by a line (gold once it is won)."""
    x = MARGIN + _BOX_W + _GAP
    draw.text(
        (x + 4, head + _HEAD_H // 2),
        tlabel(picture.lang, "champion"),
        fill=GOLD,
        font=bold(17),
        anchor="lm",
    )
    colour = GOLD if final.winner is not None else LINE
    draw.line((x - _GAP, centre, x, centre), fill=colour, width=2)
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

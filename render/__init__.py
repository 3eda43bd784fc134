"""Board rendering: pure functions from engine state to PNG bytes and text.

:func:`render_board` draws a picture (PNG bytes) and :func:`text_board` a monospace board of the
same state; both take an :class:`engine.Position` seen by the player on roll and a
:class:`BoardView` saying what else to show and how.

>>> from engine import Position
>>> view = BoardView(dice=(3, 1), names=("Ann", "Bob"))
>>> render_board(Position.initial(), view=view)[:4]
b'\\x89PNG'
"""

from render.geometry import checker_center
from render.labels import LANGUAGES
from render.picture import render_board
from render.text import text_board
from render.theme import CHECKER_COLORS, THEME_NAMES, THEMES
from render.view import BoardView, GameOver, Resignation, Side

__all__ = [
    "CHECKER_COLORS",
    "LANGUAGES",
    "THEMES",
    "THEME_NAMES",
    "BoardView",
    "GameOver",
    "Resignation",
    "Side",
    "checker_center",
    "render_board",
    "text_board",
]

"""Colours: the board themes and the checker colours a player may choose.

A theme colours everything but the checkers. Its marks (highlights, arrows, hits) are saturated
hues that no board surface or checker uses, so they catch the eye and tests can find them by
colour.

>>> THEME_NAMES, sorted(CHECKER_COLORS)
(('classic', 'ocean', 'redblack'), ['black', 'blue', 'red', 'white'])
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CHECKER_COLORS", "RGB", "THEMES", "THEME_NAMES", "CheckerColor", "Theme"]

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of everything but the checkers."""

    table: RGB  # the player strips above and below the board
    table_active: RGB  # the strip of the player on roll
    text: RGB
    text_dim: RGB
    frame: RGB  # the wooden frame and the bar
    frame_light: RGB  # its lit edge
    frame_dark: RGB  # its shadowed edge
    field: RGB  # the playing surface
    point_a: RGB  # the points alternate between these two
    point_b: RGB
    tray: RGB  # the recessed trays and the cube well
    number: RGB  # point numbers on the frame
    highlight: RGB  # points a checker can move from
    arrow: RGB  # the last play
    arrow_edge: RGB
    hit: RGB  # where the last play hit
    banner: RGB  # behind a message (double offered, game over)
    accent: RGB  # the on-roll marker
    # The other play of a comparison (a mistake card: the play made, beside the better one in
    # ``arrow``): light blue, under a dark edge, apart from the orange on every field.
    arrow_other: RGB = (120, 196, 255)
    # A count of more than five checkers stands at the base of the point (on the checker
    # against the frame) instead of on the fifth checker, toward the middle.
    count_at_base: bool = False
    # The checker colours the theme is meant with, (the player's, his opponent's), if any: the
    # service gives them to a player who chooses this theme.
    checkers: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class CheckerColor:
    """A checker colour: its body, the rim that separates it from any background, the inner
    ring that gives it depth, and the colour of a count drawn on it."""

    body: RGB
    rim: RGB
    ring: RGB
    label: RGB


THEMES: dict[str, Theme] = {
    # Walnut frame and green felt, the look of most desktop programs.
    "classic": Theme(
        table=(35, 37, 43),
        table_active=(52, 56, 66),
        text=(242, 242, 242),
        text_dim=(168, 173, 184),
        frame=(96, 60, 34),
        frame_light=(132, 88, 54),
        frame_dark=(58, 35, 19),
        field=(38, 96, 74),
        point_a=(232, 219, 186),
        point_b=(174, 64, 45),
        tray=(64, 40, 22),
        number=(240, 226, 196),
        highlight=(0, 220, 255),
        arrow=(255, 170, 0),
        arrow_edge=(36, 22, 8),
        hit=(255, 40, 120),
        banner=(22, 24, 30),
        accent=(255, 200, 40),
    ),
    # Slate frame and deep blue field, calmer colours for long sessions.
    "ocean": Theme(
        table=(30, 33, 40),
        table_active=(48, 54, 66),
        text=(242, 242, 242),
        text_dim=(165, 172, 186),
        frame=(54, 62, 76),
        frame_light=(84, 94, 112),
        frame_dark=(30, 35, 44),
        field=(32, 60, 98),
        point_a=(214, 222, 232),
        point_b=(120, 140, 168),
        tray=(36, 42, 54),
        number=(222, 228, 238),
        highlight=(0, 230, 160),
        arrow=(255, 170, 0),
        arrow_edge=(30, 20, 8),
        hit=(255, 40, 120),
        banner=(20, 22, 28),
        accent=(255, 200, 40),
    ),
    # Red against black on an ivory board, true to the French program this bot comes from: the
    # player has the red checkers, and a count at the base of a point says how many stand on it.
    "redblack": Theme(
        table=(28, 28, 30),
        table_active=(58, 40, 40),
        text=(244, 240, 232),
        text_dim=(176, 168, 160),
        frame=(30, 28, 28),
        frame_light=(70, 64, 62),
        frame_dark=(10, 10, 10),
        field=(226, 214, 184),
        point_a=(44, 44, 48),
        point_b=(160, 136, 96),
        tray=(52, 46, 44),
        number=(236, 228, 210),
        highlight=(0, 200, 255),
        arrow=(255, 170, 0),
        arrow_edge=(36, 22, 8),
        hit=(255, 40, 200),
        banner=(24, 22, 22),
        accent=(255, 200, 40),
        count_at_base=True,
        checkers=("red", "black"),
    ),
}

THEME_NAMES: tuple[str, ...] = tuple(THEMES)
"""Every theme's name, the default first: the one list the settings offer."""

CHECKER_COLORS: dict[str, CheckerColor] = {
    "white": CheckerColor(
        body=(246, 242, 232), rim=(92, 86, 78), ring=(212, 204, 188), label=(30, 30, 30)
    ),
    "black": CheckerColor(
        body=(40, 40, 46), rim=(150, 150, 160), ring=(78, 78, 88), label=(250, 250, 250)
    ),
    "red": CheckerColor(
        body=(200, 36, 36), rim=(90, 12, 12), ring=(232, 92, 80), label=(255, 255, 255)
    ),
    "blue": CheckerColor(
        body=(36, 86, 196), rim=(14, 34, 96), ring=(96, 140, 228), label=(255, 255, 255)
    ),
}

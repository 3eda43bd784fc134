"""Where everything goes on the picture, in pixels.

The layout, from top to bottom: the top player's strip (name, pips, score), the frame with the
point numbers, the playing field (two rows of twelve points split by the bar), the frame with the
other numbers, and the bottom player's strip. From left to right: the cube's well, the outer
board, the bar, the home board and the trays (mirrored: trays, home board, bar, outer board, cube).

Inside this module points are numbered from the bottom player's view (*viewer points*: 1..12
along the bottom row, from his home board, and 13..24 along the top). :func:`checker_center` is
the public door in: it takes the mover's numbering and a :class:`~render.view.BoardView`, like
everything else in the API.

>>> WIDTH, HEIGHT
(960, 840)
>>> checker_center(6, 0)  # the mover's 6-point, bottom right, first checker against the frame
(541, 714)
>>> checker_center(6, 0, view=BoardView(mirrored=True))  # home board on the left
(419, 714)
"""

from __future__ import annotations

from render.view import BoardView, Side

__all__ = [
    "CHECKER",
    "HEIGHT",
    "MAX_STACK",
    "WIDTH",
    "bar_center",
    "checker_center",
    "column_x",
    "cube_center",
    "dice_centers",
    "is_top",
    "point_column",
    "point_label",
    "point_triangle",
    "to_viewer",
    "tray_box",
    "tray_center",
    "tray_count_center",
]

Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom excluded)
XY = tuple[int, int]

# -- dimensions -----------------------------------------------------------------------------
# Sized for phones: Discord shows a 960 px picture about 400 px wide there, so a checker is
# still ~23 px across and a point number ~10 px high.

CHECKER = 56  # checker diameter
POINT_W = 58  # width of a point
BAR_W = 64
FRAME = 14  # outer wood, left and right
SIDE = 74  # the cube well and the trays
DIVIDE = 12  # wood between a side panel and the field
GAP = 84  # between the top and bottom rows of checkers, where the dice lie
INFO_H = 64  # a player's strip
NUMBERS_H = 34  # the frame above and below the field, where the point numbers are
MAX_STACK = 5  # checkers drawn on a point before a count is printed instead
SLICE_H = 14  # a borne-off checker seen edge-on in the tray

FIELD_TOP = INFO_H + NUMBERS_H
FIELD_H = 2 * MAX_STACK * CHECKER + GAP
FIELD_BOTTOM = FIELD_TOP + FIELD_H
MID_Y = FIELD_TOP + FIELD_H // 2
HEIGHT = FIELD_BOTTOM + NUMBERS_H + INFO_H
TRIANGLE_H = FIELD_H // 2 - GAP // 2 - CHECKER // 3

LEFT_X = FRAME + SIDE + DIVIDE  # the left half of the field
BAR_X = LEFT_X + 6 * POINT_W
RIGHT_X = BAR_X + BAR_W
FIELD_RIGHT = RIGHT_X + 6 * POINT_W
WIDTH = FIELD_RIGHT + DIVIDE + SIDE + FRAME
BAR_CX = BAR_X + BAR_W // 2


# -- points ---------------------------------------------------------------------------------


def to_viewer(point: int, view: BoardView) -> int:
    """A point in the mover's numbering (1..24) as a viewer point.

    >>> to_viewer(6, BoardView()), to_viewer(6, BoardView(viewpoint="opponent"))
    (6, 19)
    """
    return point if view.viewer_is_mover else 25 - point


def point_label(vpoint: int, for_bottom: bool) -> int:
    """The number printed for a viewer point: his own, or the top player's (``for_bottom``
    False, see :meth:`BoardView.numbers_for_bottom`).

    >>> point_label(1, True), point_label(1, False)
    (1, 24)
    """
    return vpoint if for_bottom else 25 - vpoint


def is_top(vpoint: int) -> bool:
    """Whether a viewer point is in the top row."""
    return vpoint >= 13


def point_column(vpoint: int, mirrored: bool) -> int:
    """The column (0..11, left to right) of a viewer point.

    >>> point_column(1, False), point_column(12, False), point_column(13, False)
    (11, 0, 0)
    >>> point_column(1, True), point_column(24, True)
    (0, 0)
    """
    col = 12 - vpoint if vpoint <= 12 else vpoint - 13
    return 11 - col if mirrored else col


def column_x(col: int) -> int:
    """The x of the centre of a column."""
    left = LEFT_X if col < 6 else RIGHT_X
    return left + (col % 6) * POINT_W + POINT_W // 2


def point_triangle(vpoint: int, mirrored: bool) -> list[XY]:
    """The three corners of a viewer point's triangle: base on the frame, tip toward the middle."""
    x = column_x(point_column(vpoint, mirrored)) - POINT_W // 2
    if is_top(vpoint):
        return [
            (x, FIELD_TOP),
            (x + POINT_W, FIELD_TOP),
            (x + POINT_W // 2, FIELD_TOP + TRIANGLE_H),
        ]
    return [
        (x, FIELD_BOTTOM),
        (x + POINT_W, FIELD_BOTTOM),
        (x + POINT_W // 2, FIELD_BOTTOM - TRIANGLE_H),
    ]


def number_center(vpoint: int, mirrored: bool) -> XY:
    """Where a viewer point's number is printed, on the frame beyond its base."""
    x = column_x(point_column(vpoint, mirrored))
    y = FIELD_TOP - NUMBERS_H // 2 if is_top(vpoint) else FIELD_BOTTOM + NUMBERS_H // 2
    return x, y


def stack_center(vpoint: int, k: int, mirrored: bool) -> XY:
    """The centre of the k-th checker (0 against the frame) on a viewer point."""
    x = column_x(point_column(vpoint, mirrored))
    offset = CHECKER // 2 + min(k, MAX_STACK - 1) * CHECKER
    return x, (FIELD_TOP + offset if is_top(vpoint) else FIELD_BOTTOM - offset)


# -- bar, trays, cube, dice -----------------------------------------------------------------


def bar_center(bottom_player: bool, k: int) -> XY:
    """The k-th checker (0 nearest the middle) on the bar. The bottom player's hit checkers wait
    in the top half, next to the board where they must enter, and the top player's below."""
    offset = CHECKER // 2 + 6 + min(k, MAX_STACK - 1) * CHECKER
    return BAR_CX, (MID_Y - offset if bottom_player else MID_Y + offset)


def _side_x(home: bool, mirrored: bool) -> int:
    """The left edge of the tray panel (``home``) or of the cube well."""
    right_panel = FIELD_RIGHT + DIVIDE
    left_panel = FRAME
    return right_panel if home != mirrored else left_panel


def tray_box(bottom_player: bool, mirrored: bool) -> Box:
    """The recess where a player's borne-off checkers lie: by his home board, on his side."""
    x = _side_x(True, mirrored)
    if bottom_player:
        return x, MID_Y + 4, x + SIDE, FIELD_BOTTOM
    return x, FIELD_TOP, x + SIDE, MID_Y - 4


def tray_center(bottom_player: bool, k: int, mirrored: bool) -> XY:
    """The centre of the k-th borne-off checker (0 against the frame, up to 14)."""
    left, top, right, bottom = tray_box(bottom_player, mirrored)
    offset = 6 + SLICE_H // 2 + k * SLICE_H
    return (left + right) // 2, (bottom - offset if bottom_player else top + offset)


def tray_count_center(bottom_player: bool, mirrored: bool) -> XY:
    """Where the number of a player's borne-off checkers is printed: at the end of his tray
    nearest the middle of the board, beyond the fifteenth checker.

    >>> tray_count_center(True, False)
    (909, 448)
    """
    left, top, right, bottom = tray_box(bottom_player, mirrored)
    return (left + right) // 2, (top + 24 if bottom_player else bottom - 24)


def cube_well(mirrored: bool) -> Box:
    """The recess where the cube lies, on the side away from the home boards."""
    x = _side_x(False, mirrored)
    return x, FIELD_TOP, x + SIDE, FIELD_BOTTOM


def cube_center(owner: Side | None, bottom: Side, mirrored: bool) -> XY:
    """The cube: in the middle of its well while centred, else at its owner's end."""
    x = _side_x(False, mirrored) + SIDE // 2
    if owner is None:
        return x, MID_Y
    y = FIELD_BOTTOM - 10 - CHECKER // 2 if owner == bottom else FIELD_TOP + 10 + CHECKER // 2
    return x, y


DIE = 52  # side of a die
DIE_LIFT = 6  # how far the die the player chose is raised above the others


def dice_centers(count: int, bottom_player: bool) -> list[XY]:
    """Where the mover's ``count`` dice (2, or 4 for doubles) lie: in a row across the half of
    the field to his right, as players roll, so the right half for the bottom player and the
    left half for the top one.

    >>> dice_centers(2, True)
    [(654, 420), (718, 420)]
    """
    cx = (RIGHT_X + FIELD_RIGHT) // 2 if bottom_player else (LEFT_X + BAR_X) // 2
    step = DIE + 12
    x0 = cx - (count - 1) * step // 2
    return [(x0 + i * step, MID_Y) for i in range(count)]


def strip_box(bottom_player: bool) -> Box:
    """A player's strip: name, pips and score."""
    return (0, HEIGHT - INFO_H, WIDTH, HEIGHT) if bottom_player else (0, 0, WIDTH, INFO_H)


# -- the public door ------------------------------------------------------------------------


def checker_center(
    point: int, k: int, *, view: BoardView | None = None, side: Side = "mover"
) -> tuple[int, int]:
    """The pixel at the centre of the k-th checker drawn on ``point`` (mover's numbering).

    ``k`` counts from the frame (0) toward the middle; at most five checkers are drawn on a point
    and more are shown by a count on the fifth. ``point`` 25 is the bar and 0 the tray of
    ``side`` (for the tray, ``k`` runs up to 14: borne-off checkers lie edge-on, each
    :data:`SLICE_H` pixels thick). Tests sample the picture here.

    >>> checker_center(24, 0)  # the mover's back checkers, top right
    (831, 126)
    >>> checker_center(25, 0)  # the mover's first checker on the bar, above the middle
    (480, 386)

    :raises ValueError: for a point outside 0..25 or a k that is never drawn.
    """
    view = view or BoardView()
    bottom = side == view.bottom_side
    if point == 25:
        _check_k(k, MAX_STACK)
        return bar_center(bottom, k)
    if point == 0:
        _check_k(k, 15)
        return tray_center(bottom, k, view.mirrored)
    if not 1 <= point <= 24:
        raise ValueError(f"no point {point}: use 1..24, 25 for the bar or 0 for the tray")
    _check_k(k, MAX_STACK)
    return stack_center(to_viewer(point, view), k, view.mirrored)


def _check_k(k: int, limit: int) -> None:
    if not 0 <= k < limit:
        raise ValueError(f"checker index {k} is not drawn: use 0..{limit - 1}")

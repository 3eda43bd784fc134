"""The text board: the same state as the picture, in monospace, for screen readers and logs.

The layout is GNU Backgammon's ``show board``: the bottom player is ``X`` and the top player
``O``, one three-character column per point, five rows of checkers per half (a count replaces
the fifth checker when more stand there), the bar in the middle column, and each player's name,
pips, borne-off checkers and score on his side, with the cube at its owner's end.

>>> from engine import Position
>>> print(text_board(Position.initial(), view=BoardView(names=("Ann", "Bob"), dice=(3, 1))))
Position ID: 4HPwATDgc/ABMA
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O: Bob
 | X           O    |   | O              X |     167 pips · 0 off
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
 |                  |BAR|                  |     cube 1 · money game
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |
 | O           X    |   | X              O |     167 pips · 0 off
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: Ann (to play)
rolled 3-1
"""

from __future__ import annotations

from engine import Play, Position
from render.geometry import is_top, point_column, point_label, to_viewer
from render.labels import counted, label, points_text, result_text
from render.view import BoardView, Side

__all__ = ["text_board"]

ROWS = 5  # checker rows per half, as in the picture


def text_board(
    position: Position, *, view: BoardView | None = None, position_id: bool = True
) -> str:
    """The board as monospace text (GNU Backgammon's layout), in ``view.lang``.

    Takes the same arguments as :func:`render.render_board` and shows the same things, except
    the colours, the highlights and the arrows (the last play is written in standard notation
    instead). ``position_id``: the line of the Position ID above the board, which a message
    that gives the IDs already leaves out.

    >>> text_board(Position.initial(), position_id=False).splitlines()[0]
    ' +13-14-15-16-17-18------19-20-21-22-23-24-+     O: opponent'

    >>> from engine import Position
    >>> text_board(Position.initial(), view=BoardView(lang="fr")).splitlines()[-1].strip()
    '+12-11-10--9--8--7-------6--5--4--3--2--1-+     X : joueur (à jouer)'
    """
    view = view or BoardView()
    cells = _cells(position, view)
    board = _grid(cells, view)
    info = _info(position, view)
    colon = label(view.lang, "colon")
    # In the middle of a move the position drawn is the one so far: its ID says so.
    name = label(view.lang, "position_id_so_far" if view.moving() else "position_id")
    lines = [f"{name}{colon}{position.position_id()}"] if position_id else []
    for row, text in enumerate(board):
        extra = info.get(row, "")
        lines.append(f"{text}     {extra}".rstrip() if extra else text)
    lines.extend(_footer(view))
    return "\n".join(lines)


def _symbol(side: Side, view: BoardView) -> str:
    return "X" if side == view.bottom_side else "O"


def _cells(position: Position, view: BoardView) -> dict[int, tuple[str, int]]:
    """``{viewer point: (symbol, count)}`` for every occupied point, and the bars as 25 (the
    bottom player's) and 0 (the top player's)."""
    board = position.board
    out: dict[int, tuple[str, int]] = {}
    for point in range(1, 25):
        n = board[point]
        if n:
            side: Side = "mover" if n > 0 else "opponent"
            vpoint = to_viewer(point, view)
            out[vpoint] = (_symbol(side, view), abs(n))
    mine, theirs = position.bar()
    bars: tuple[tuple[Side, int], ...] = (("mover", mine), ("opponent", theirs))
    for side, count in bars:
        if count:
            out[25 if side == view.bottom_side else 0] = (_symbol(side, view), count)
    return out


def _cell(entry: tuple[str, int] | None, k: int) -> str:
    """Row ``k`` (0 against the frame) of a point's column."""
    if entry is None:
        return "   "
    symbol, count = entry
    if k == ROWS - 1 and count > ROWS:
        return f"{count:^3}"
    return f" {symbol} " if count > k else "   "


def _grid(cells: dict[int, tuple[str, int]], view: BoardView) -> list[str]:
    mirrored = view.mirrored
    by_column: dict[tuple[bool, int], int] = {}
    for vpoint in range(1, 25):
        by_column[(is_top(vpoint), point_column(vpoint, mirrored))] = vpoint

    def number(vpoint: int) -> str:
        return str(point_label(vpoint, view.numbers_for_bottom()))

    def border(top: bool) -> str:
        nums = [number(by_column[(top, col)]).rjust(2, "-") for col in range(12)]
        return " +" + "-".join(nums[:6]) + "-" * 6 + "-".join(nums[6:]) + "-+"

    def row(top: bool, k: int) -> str:
        cols = [_cell(cells.get(by_column[(top, col)]), k) for col in range(12)]
        # The bottom player's hit checkers wait in the top half of the bar, as in the picture.
        bar = _cell(cells.get(25 if top else 0), ROWS - 1 - k)
        return " |" + "".join(cols[:6]) + "|" + bar + "|" + "".join(cols[6:]) + "|"

    top_rows = [row(True, k) for k in range(ROWS)]
    bottom_rows = [row(False, k) for k in reversed(range(ROWS))]
    middle = " |" + " " * 18 + "|BAR|" + " " * 18 + "|"
    return [border(True), *top_rows, middle, *bottom_rows, border(False)]


def _info(position: Position, view: BoardView) -> dict[int, str]:
    """The text beside the board, by row (0 is the top border, 12 the bottom one)."""
    lang = view.lang
    ctx = view.context
    pips, off = position.pip_counts(), position.borne_off()
    info: dict[int, str] = {}
    owner = view.cube_owner_side()
    sides: tuple[tuple[Side, bool], ...] = (("opponent", False), ("mover", True))
    for side, mover in sides:
        top = side != view.bottom_side
        i = 0 if mover else 1
        name = _name(view, side)
        decision = view.decision()
        head = f"{_symbol(side, view)}{label(lang, 'colon')}{name}" + (
            f" ({label(lang, decision[1])})" if decision is not None and decision[0] == side else ""
        )
        pip_word, off_word = counted(lang, "pips", pips[i]), counted(lang, "off", off[i])
        stats = f"{pips[i]} {pip_word} · {off[i]} {off_word}"
        rows = (0, 1, 2, 3) if top else (12, 11, 10, 9)
        info[rows[0]] = head
        info[rows[1]] = stats
        if ctx.match_length:
            info[rows[2]] = f"{label(lang, 'score')} {ctx.score[i]}"
        if owner == side and view.has_cube():
            info[rows[3]] = f"{label(lang, 'cube')} {ctx.cube_value}"
    centred = owner is None and view.has_cube()
    middle = [f"{label(lang, 'cube')} {ctx.cube_value}"] if centred else []
    if ctx.match_length:
        middle.append(counted(lang, "match_to", ctx.match_length))
        if view.is_crawford_game():
            middle.append(label(lang, "crawford"))
    else:
        middle.append(label(lang, "money_game"))
    info[6] = " · ".join(middle)
    return info


def _footer(view: BoardView) -> list[str]:
    """The dice, the last play, any offer or result, and the caption, one line each."""
    lang = view.lang
    colon = label(lang, "colon")
    lines = []
    if view.dice is not None:
        d1, d2 = sorted(view.dice, reverse=True)  # high first, as players read a roll
        text = f"{label(lang, 'rolled')} {d1}-{d2}"
        if d1 == d2:
            text += f" ({label(lang, 'doubles')})"
        if view.dice_left is not None or view.playable_dice is not None:
            # Only the dice a legal play can still use: a die that cannot be played is not "to
            # play", even while the others are.
            left = " ".join(str(d) for d in view.playable())
            if left:
                text += f", {label(lang, 'to_play')}{colon}{left}"
            else:  # a die may be left that no legal play can use
                text += f", {label(lang, 'none_playable' if view.left() else 'all_played')}"
        if view.selected_die is not None:
            text += f", {label(lang, 'chosen_die')}{colon}{view.selected_die}"
        lines.append(text)
    # Two plays compared (a mistake card) are named by the caption: neither led to the position.
    if view.last_play is not None and view.other_play is None:
        play = view.last_play if isinstance(view.last_play, Play) else Play(list(view.last_play))
        lines.append(f"{_name(view, view.last_play_by)}{colon}{play}")
    if view.double_offered_by is not None:
        lines.append(label(lang, "offers_double", name=_name(view, view.double_offered_by)))
    if view.resignation is not None:
        res = view.resignation
        worth = points_text(lang, res.value * view.context.cube_value)
        who = label(lang, "resigns", name=_name(view, res.by))
        lines.append(f"{who}{colon}{result_text(lang, res.value)} · {worth}")
    if view.game_over is not None:
        over = view.game_over
        who = label(lang, "wins", name=_name(view, over.winner))
        detail = f"{result_text(lang, over.value)} · {points_text(lang, over.points)}"
        lines.append(f"{label(lang, 'game_over')}{colon}{who}, {detail}")
    lines.extend(view.caption)  # the picture writes it under the board; so does the text
    return lines


def _name(view: BoardView, side: Side) -> str:
    return view.name_of(side) or view.default_name(side)

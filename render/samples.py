"""The sample scenes: the README's pictures (``python -m render.write_samples docs/`` draws
them) and the source of every picture's colour palette (:func:`render.board.palette`).

Each sample is a position and a view built from real engine plays, one per state the eye must
catch (the start, checkers on the bar, a bear-off, a double offered, the end of a game, a move
half played in the Crawford game), plus a French, a mirrored and a red-and-black one. Tests
render them all, so they also guard the budgets. Scenes only: this module draws nothing, so the
renderer can use it without an import cycle.

>>> sorted(SAMPLES)[:3]
['bar', 'bearoff', 'crawford']
"""

from __future__ import annotations

from collections.abc import Callable

from engine import Move, Play, Position, legal_plays, parse_play
from engine.context import MatchContext
from render.view import BoardView, GameOver, Resignation

__all__ = ["SAMPLES", "movable_points"]

Sample = tuple[Position, BoardView]


def movable_points(position: Position, dice: tuple[int, int]) -> set[int]:
    """The points holding a checker that some legal play of ``dice`` moves (only the bar while
    checkers wait there): what to highlight before the first checker moves. Good enough for the
    samples; it assumes any step of a play may come first, which the bot should ask the engine
    to confirm.

    >>> sorted(movable_points(Position.initial(), (3, 1)))
    [6, 8, 13, 24]
    """
    board = position.board
    out = set()
    for play in legal_plays(position, dice):
        for m in play.moves:
            if board[m.src] > 0 and (m.src == 25 or not board[25]):
                out.add(m.src)
    return out


def _sides(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from ``{point: count}`` for the player on roll and for his opponent, each in
    his own numbering (25 = bar)."""
    a, b = [0] * 25, [0] * 25
    for p, n in mine.items():
        a[p - 1] = n
    for p, n in theirs.items():
        b[p - 1] = n
    return Position.from_sides(a, b)


def _after(before: Position, notation: str, dice: tuple[int, int]) -> tuple[Play, Position]:
    """The play written ``notation`` and the position after it (seen by the other player)."""
    play = parse_play(notation, before, dice)
    return play, before.apply(play)


def start() -> Sample:
    pos = Position.initial()
    view = BoardView(names=("Alice", "Bob"), dice=(3, 1), highlights=movable_points(pos, (3, 1)))
    return pos, view


def bar() -> Sample:
    # Bob rolls 4-2 and hits two of Alice's blots with one checker; she has two on the bar.
    bob = _sides(
        {6: 4, 8: 3, 13: 4, 9: 2, 7: 1, 24: 1}, {6: 4, 8: 2, 13: 4, 24: 2, 20: 1, 22: 1, 11: 1}
    )
    play, alice = _after(bob, "9/5*/3*", (4, 2))
    view = BoardView(
        names=("Alice", "Bob"),
        dice=(6, 4),
        highlights=movable_points(alice, (6, 4)),
        last_play=play,
        context=MatchContext(match_length=7, score=(2, 4), cube_value=2, cube_owner=1),
    )
    return alice, view


def bearoff() -> Sample:
    # Bob bears off two checkers; Alice rolled 5-5 and has played two of them already.
    bob = _sides({1: 2, 2: 2, 3: 1, 4: 1, 5: 1, 6: 1}, {6: 7, 5: 2, 1: 2})
    play, alice = _after(bob, "6/off 5/off", (6, 5))
    view = BoardView(
        names=("Alice", "Bob"),
        dice=(5, 5),
        dice_left=(5, 5),
        highlights=movable_points(alice, (5, 5)),
        last_play=play,
        context=MatchContext(cube_value=2, cube_owner=0),
    )
    return alice, view


def double() -> Sample:
    # The computer, on roll, doubles; the picture is for Bob, who must answer: he sits at the
    # bottom, with a checker on the bar that the offer must not hide, and a long name to fit.
    alice = _sides({6: 3, 5: 3, 4: 2, 8: 2, 13: 3, 7: 2}, {25: 1, 24: 2, 13: 4, 6: 4, 8: 2, 3: 2})
    view = BoardView(
        viewpoint="opponent",
        names=("Computer (intermediate)", "Bob"),
        double_offered_by="mover",
        context=MatchContext(match_length=5, score=(3, 1)),
    )
    return alice, view


def game_over() -> Sample:
    # Alice bears off her last two checkers; Bob, now on roll, has none off: a gammon, cube 2.
    alice = _sides({2: 1, 1: 1}, {6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 1: 2, 8: 1})
    play, bob = _after(alice, "2/off 1/off", (6, 3))
    view = BoardView(
        viewpoint="opponent",
        names=("Bob", "Alice"),
        colors=("black", "white"),
        last_play=play,
        context=MatchContext(cube_value=2, cube_owner=0),
        game_over=GameOver(winner="opponent", value=bob.result_value(), points=4),
    )
    return bob, view


def _midgame() -> tuple[Play, Position]:
    bob = _sides(
        {6: 4, 8: 2, 13: 5, 4: 1, 24: 2, 22: 1}, {6: 4, 8: 3, 13: 3, 5: 2, 24: 1, 20: 1, 11: 1}
    )
    return _after(bob, "13/4", (5, 4))


def french() -> Sample:
    play, alice = _midgame()
    view = BoardView(
        lang="fr",
        names=("Amélie", "François"),
        dice=(5, 2),
        highlights=movable_points(alice, (5, 2)),
        last_play=play,
        context=MatchContext(match_length=7, score=(6, 3), crawford=True),
    )
    return alice, view


def mirrored() -> Sample:
    play, alice = _midgame()
    view = BoardView(
        mirrored=True,
        theme="ocean",
        names=("Alice", "Bob"),
        colors=("red", "white"),
        last_play=play,
        resignation=Resignation(by="opponent", value=1),
        context=MatchContext(cube_value=2, cube_owner=1),
    )
    return alice, view


def crawford() -> Sample:
    # The Crawford game (no cube to draw); Alice has played the 4 of her 4-1 and chosen the 1.
    alice = _sides({24: 2, 13: 4, 9: 1, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    play = [Move(13, 9, 4)]  # half a play: still Alice's turn
    board = alice.board
    ones = {p for p in range(2, 25) if board[p] > 0 and board[p - 1] >= -1}  # a 1 moves them
    view = BoardView(
        names=("Alice", "Computer (expert)"),
        dice=(1, 4),
        dice_left=(1,),
        selected_die=1,
        highlights=ones,
        last_play=play,
        last_play_by="mover",
        context=MatchContext(match_length=5, score=(2, 4), crawford=True),
    )
    return alice, view


def redblack() -> Sample:
    # The red-and-black theme: counts at the base of the points, and a caption under the board.
    play, alice = _after(
        _sides({6: 7, 8: 3, 13: 4, 24: 1}, {6: 6, 8: 3, 13: 4, 24: 2}), "24/18 13/10", (6, 3)
    )
    view = BoardView(
        theme="redblack",
        colors=("red", "black"),
        names=("Alice", "Bob"),
        last_play=play,
        caption=("Bob rolled 6-3 and played 24/18 13/10",),
    )
    return alice, view


def mistake() -> Sample:
    # A review's mistake card: the play made (light blue) and the better one (orange), both
    # drawn from the position before them; the caption, in the arrows' colours, is the legend.
    before = Position.from_position_id("4HPwATDgc/ABMA")
    view = BoardView(
        names=("Bob", "Alice"),
        dice=(4, 1),
        dice_left=(),
        last_play=parse_play("13/9 6/5", before, (4, 1)),
        last_play_by="mover",
        other_play=parse_play("24/23 13/9", before, (4, 1)),
        caption=(
            "Game 2, move 12: Bob rolled 4-1",
            "Played: 24/23 13/9",
            "Better: 13/9 6/5 · equity lost: 69.8 millipoints",
        ),
        caption_colors=("text", "arrow_other", "arrow"),
        turn_marker=False,
    )
    return before, view


SAMPLES: dict[str, Callable[[], Sample]] = {
    "start": start,
    "bar": bar,
    "bearoff": bearoff,
    "double": double,
    "gameover": game_over,
    "french": french,
    "mirrored": mirrored,
    "crawford": crawford,
    "redblack": redblack,
    "mistake": mistake,
}

"""What a player may still offer to resign: only what his opponent could still win.

A gammon is lost only by a player who has borne off no checker; a backgammon only by one who,
on top of that, still has a checker on the bar or in the winner's home board, or could still
be hit and sent back there (contact is not over). Offering more than that would concede
points the opponent can no longer win, so the menu leaves those values out and the command
refuses them, saying why.
"""

from __future__ import annotations

from bot.service.refusal import Refusal
from engine import Game, Position

__all__ = ["check_possible", "possible_values"]


def possible_values(game: Game, seat: int) -> tuple[int, ...]:
    """The resignations ``seat`` may offer now: 1 (single game), 2 (gammon), 3 (backgammon).

    >>> from engine import Game
    >>> game = Game()
    >>> possible_values(game, 0)
    (1, 2, 3)
    """
    mine = game.position_for(seat)
    if mine.borne_off()[0]:
        return (1,)
    if not _backgammon_possible(mine):
        return (1, 2)
    return (1, 2, 3)


def _backgammon_possible(mine: Position) -> bool:
    """Seen by the resigner (``mine``): a checker of his on the bar or in the opponent's home
    board (his points 19 to 24), or contact left (a checker of his could still be hit)."""
    board = mine.board
    if board[25] > 0 or any(board[p] > 0 for p in range(19, 25)):
        return True
    return not mine.is_race()


def check_possible(game: Game, seat: int, value: int) -> None:
    """Refuse an offer of more than the opponent could still win, with the reason."""
    if value in possible_values(game, seat):
        return
    if value >= 2 and game.position_for(seat).borne_off()[0]:
        raise Refusal("error.resign_no_gammon")
    raise Refusal("error.resign_no_backgammon")

"""What a player may still offer to resign: only what his opponent could still win.

A gammon is lost only by a player who has borne off no checker; a backgammon only by one who,
on top of that, still has a checker on the bar or in the winner's home board, or could still
be hit and sent back there (contact is not over). Offering more than that would concede
points the opponent can no longer win, so the menu leaves those values out and the command
refuses them, saying why. Nor does it offer a level that changes nothing: in a match, when a
single game (or a gammon) at the cube's stake already gives the opponent the match, and in a
money game under the Jacoby rule while the cube has not been turned.
"""

from __future__ import annotations

from bot.i18n import Text
from bot.service.model import RESIGN_NAMES
from bot.service.refusal import Refusal, int_arg
from engine import Game, Position
from engine.context import MatchContext

__all__ = [
    "check_possible",
    "menu_owner",
    "menu_seat",
    "possible_values",
    "resign_arg",
    "resign_choice",
]


def possible_values(game: Game, seat: int) -> tuple[int, ...]:
    """The resignations ``seat`` may offer now: 1 (single game), 2 (gammon), 3 (backgammon).

    >>> from engine import Game
    >>> game = Game()
    >>> possible_values(game, 0)
    (1, 2, 3)
    """
    mine = game.position_for(seat)
    if mine.borne_off()[0]:
        return tuple(range(1, min(1, _counting(game, seat)) + 1))
    if not _backgammon_possible(mine):
        return tuple(range(1, min(2, _counting(game, seat)) + 1))
    return tuple(range(1, _counting(game, seat) + 1))


def _counting(game: Game, seat: int) -> int:
    """The highest level that still changes the result for ``seat``'s opponent: 1 when a
    single game at the cube's stake already wins him the match (or gammons do not count, the
    Jacoby rule with the cube centred), 2 when a gammon does, else 3.

    >>> from engine import Match
    >>> game = Match(length=3).game
    >>> game.score = (0, 2)
    >>> _counting(game, 0), _counting(game, 1)
    (1, 3)
    """
    ctx = game.context(seat)
    if _jacoby_holds(ctx):
        return 1
    need = ctx.away()[1]
    if not need:
        return 3
    return next((v for v in (1, 2) if v * ctx.cube_value >= need), 3)


def _jacoby_holds(ctx: MatchContext) -> bool:
    """Whether the Jacoby rule makes gammons count as single games now: a money game
    played with it, the cube never turned."""
    return ctx.jacoby and ctx.cube_owner is None and ctx.cube_value == 1


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
    most = _counting(game, seat)
    if value > most:
        # Why, in its own words: a match's score, or a money game's Jacoby rule.
        why = "jacoby" if _jacoby_holds(game.context(seat)) else "score"
        text = Text(f"resign.offer_{RESIGN_NAMES[most]}")  # with its article: "une partie"
        raise Refusal(f"error.resign_counts_no_more_{why}", most=text)
    if value >= 2 and game.position_for(seat).borne_off()[0]:
        raise Refusal("error.resign_no_gammon")
    raise Refusal("error.resign_no_backgammon")


def resign_arg(value: int, seat: int | None) -> str:
    """The argument of a resign menu's button: the value offered, and the seat of the menu
    when it is not the player to act's (one who asked to resign out of turn).

    >>> resign_arg(2, None), resign_arg(2, 1)
    ('2', '2-1')
    """
    return str(value) if seat is None else f"{value}-{seat}"


def resign_choice(arg: str | None) -> tuple[int, int | None]:
    """The value and the seat (None: the player to act) of a resign button's argument;
    refused as a bad button if it is not one :func:`resign_arg` writes.

    >>> resign_choice("3"), resign_choice("1-0")
    ((3, None), (1, 0))
    """
    value, _, seat = (arg or "").partition("-")
    return int_arg(value, (1, 2, 3), "error.bad_button"), menu_seat(seat)


def menu_owner(game: Game, seat: int) -> int | None:
    """What a resign menu's buttons carry of ``seat``, whose menu it is: None when he is the
    player to act (the Resign button's menu), else his seat (``/resign`` out of turn)."""
    return None if seat == game.turn else seat


def menu_seat(arg: str | None) -> int | None:
    """The seat a resign menu's button carries (:func:`menu_owner`), None when none; refused
    as a bad button if it is not a seat.

    >>> menu_seat(""), menu_seat("1")
    (None, 1)
    """
    return int_arg(arg, (0, 1), "error.bad_button") if arg else None

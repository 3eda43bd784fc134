"""A game as one action sees it (:class:`Table`), what the message shows beyond the game state
(:class:`UiState`) and what happened during the action (:class:`Notes`). A leaf module: the
presentation, the button table and the use cases all read these."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.i18n import Text
from engine import Event, Game, Match

__all__ = ["RESIGN_NAMES", "WON", "Notes", "Seat", "Shot", "Table", "UiState", "high_first"]

RESIGN_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}  # resign.offer_<name>


def high_first(dice: tuple[int, int]) -> dict[str, int]:
    """A roll's ``d1``, ``d2`` message parameters, the higher die first as players read them
    (``5-3``, never ``3-5``); the engine keeps the order they were rolled in.

    >>> high_first((3, 5))
    {'d1': 5, 'd2': 3}
    """
    return {"d1": max(dice), "d2": min(dice)}


WON = {1: "game.won_single", 2: "game.won_gammon", 3: "game.won_backgammon"}  # by value


@dataclass(frozen=True)
class Seat:
    """One side of a game: a person (``user_id``) or the computer (``level``)."""

    name: str
    user_id: int | None = None
    level: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


@dataclass
class Table:
    """A game as loaded for one action: its row's identity and its engine match."""

    game_id: int
    version: int
    seats: tuple[Seat, Seat]
    match: Match
    rated: bool = False
    commitment: str | None = None
    revealed_seed: str | None = None
    out_of_time: bool = False  # the player to act let the move timer run out: claim possible
    tournament: bool = False  # a tournament's match: no rematch (the tournament pairs on)

    @property
    def game(self) -> Game:
        return self.match.game

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    @property
    def against_computer(self) -> bool:
        return any(s.is_computer for s in self.seats)

    def human_seat(self) -> int:
        return 0 if not self.seats[0].is_computer else 1


@dataclass(frozen=True)
class UiState:
    """What the message shows beyond the game state: the die picked for the next checker
    move, or the resign menu opened instead of the usual buttons, with the seat it is for
    (``resigner``; None: the player to act). A player may offer to resign out of turn too."""

    die: int | None = None
    resign_menu: bool = False
    resigner: int | None = None

    def menu_seat(self, turn: int) -> int:
        """The seat the resign menu is for: who asked, or the player to act (``turn``).

        >>> UiState(resign_menu=True).menu_seat(1)
        1
        >>> UiState(resign_menu=True, resigner=0).menu_seat(1)
        0
        """
        return turn if self.resigner is None else self.resigner


@dataclass(frozen=True)
class Shot:
    """A play nobody chose on this screen (the computer's, a forced move played by itself):
    the game right after it, to draw it as arrows before the player decides anything."""

    game: Game  # a copy, as the play left it
    event: Event  # the play, as the game logged it
    forced: bool  # a forced move the bot played for its player

    @classmethod
    def of(cls, game: Game, *, forced: bool = False) -> Shot:
        return cls(Game.from_dict(game.to_dict()), game.events[-1], forced)


@dataclass
class Notes:
    """What happened during the action, told above the board; the plays made by themselves."""

    lines: list[Text] = field(default_factory=list)
    plays: list[Shot] = field(default_factory=list)

    def add(self, key: str, /, **params: object) -> None:
        self.lines.append(Text(key, **params))

    def played(self, game: Game, *, forced: bool = False) -> None:
        """``game``'s last event is a play its player did not choose on screen: draw it."""
        self.plays.append(Shot.of(game, forced=forced))

"""The buttons of a game message, in one table: for each :class:`~bot.service.customid.Press`,
what it does to the game, how its button looks, who may press it and what is saved after.
:mod:`bot.service.present` draws the buttons from it, :mod:`bot.service.buttons` dispatches the
presses through it; a new button is one entry here plus its messages."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from bot.service.customid import Press
from bot.service.model import Notes, Table, UiState
from bot.service.refusal import Refusal, int_arg, point_arg
from bot.service.replies import Style
from bot.service.resigning import check_possible, menu_seat, resign_choice
from bot.service.turns import resign_offer, roll_and_say
from engine import Game, Phase

__all__ = ["ACTIONS", "Action", "Pressed", "Then"]


@dataclass
class Pressed:
    """One press, inside its unit of work: the game, who pressed (his seat and name), the
    button's argument, the value chosen in a select menu, and what happened so far."""

    table: Table
    seat: int
    name: str
    names: tuple[str, str]  # both seats, in the message's language
    arg: str | None
    value: str | None
    notes: Notes
    roll: Callable[[], tuple[int, int]]  # the game's own dice

    @property
    def game(self) -> Game:
        return self.table.game


class Then(Enum):
    """What happens after the action: play on to the next human decision and save (ADVANCE),
    save only (STEP: a checker step leaves the turn to its player), nothing (SHOW: only the
    message changes), a new game in a unit of work of its own (NEW_GAME), or the board drawn
    again for whoever asks, player or spectator, whatever the version (VIEW)."""

    ADVANCE = "advance"
    STEP = "step"
    SHOW = "show"
    NEW_GAME = "new_game"
    VIEW = "view"


@dataclass(frozen=True)
class Action:
    """A button: what it does, its label (a catalog key; None when it depends on the
    argument) and style, and whether either player may press it (else only the one to act)."""

    run: Callable[[Pressed], UiState]
    label: str | None
    style: Style
    then: Then
    anyone: bool = False


def _roll(p: Pressed) -> UiState:
    roll_and_say(p.game, p.roll, p.notes, p.name, p.names)
    return UiState()


def _double(p: Pressed) -> UiState:
    p.game.double()
    p.notes.add("note.doubles", name=p.name, value=p.game.cube_value * 2)
    return UiState()


def _take(p: Pressed) -> UiState:
    p.game.take()
    p.notes.add("note.takes", name=p.name, value=p.game.cube_value)
    return UiState()


def _drop(p: Pressed) -> UiState:
    p.game.drop()
    p.notes.add("note.drops", name=p.name)
    return UiState()


def _accept(p: Pressed) -> UiState:
    p.game.accept_resignation()
    p.notes.add("note.accepts_resignation", name=p.name)
    return UiState()


def _reject(p: Pressed) -> UiState:
    p.game.reject_resignation()
    p.notes.add("note.rejects_resignation", name=p.name)
    return UiState()


def _resign(p: Pressed) -> UiState:
    value, menu_seat = resign_choice(p.arg)
    _menu_owner_only(p, menu_seat)
    check_possible(p.game, p.seat, value)
    p.game.resign(p.seat, value)
    p.notes.add("note.resigns", name=p.name, offer=resign_offer(value))
    return UiState()


def _resign_menu(p: Pressed) -> UiState:
    if p.game.phase not in (Phase.ROLL, Phase.MOVE):
        raise Refusal("error.cannot_resign_now")
    return UiState(resign_menu=True)


def _cancel(p: Pressed) -> UiState:
    # Closes the resign menu (the board drawn again as it is): only for whom it was opened,
    # the player to act, or the seat its button carries (a menu asked for out of turn).
    _menu_owner_only(p, menu_seat(p.arg))
    return UiState()


def _menu_owner_only(p: Pressed, menu_seat: int | None) -> None:
    """Refuse a press on a resign menu by anyone but its owner: the player to act (the Resign
    button's menu), or ``menu_seat``, who asked for it out of turn (/resign without a value)."""
    owner = p.game.turn if menu_seat is None else menu_seat
    if p.seat != owner:
        if menu_seat is None:
            raise Refusal("error.not_your_turn")
        raise Refusal("error.others_resign_menu", name=p.names[menu_seat])


def _die(p: Pressed) -> UiState:
    die = int_arg(p.arg, (1, 2, 3, 4, 5, 6), "error.bad_button")
    if die not in p.game.partial.playable_dice():
        raise Refusal("error.die_not_playable", die=die)
    return UiState(die=die)


def _point(p: Pressed) -> UiState:
    src, die = point_arg(p.arg)
    p.game.step(src, die)
    return UiState(die=die)


def _undo(p: Pressed) -> UiState:
    taken_back = p.game.undo()
    return UiState(die=taken_back.die)  # the die it used is the one picked again


def _confirm(p: Pressed) -> UiState:
    play = p.game.confirm()
    p.notes.add("note.played_you", name=p.name, play=str(play))
    return UiState()


def _play(p: Pressed) -> UiState:
    if p.value is None:
        raise Refusal("error.bad_button")
    play = p.game.play_text(p.value)
    p.notes.add("note.played_you", name=p.name, play=str(play))
    return UiState()


def _claim(p: Pressed) -> UiState:
    """The waiting player claims a game whose move timer ran out: the player who let the
    time run out abandons it, the game in progress scored as a single game resigned (times
    the cube). In a match he abandons the match: a player who vanished is not waited for
    game after game."""
    loser = p.game.turn
    if p.game.phase is Phase.RESIGNED:
        # Nobody wins on time while a resignation waits for its answer: the offerer cannot
        # (he is waiting on his own offer), and an unanswered offer is accepted at the deadline.
        raise Refusal("error.claim_during_offer")
    if not p.table.out_of_time or loser is None or loser == p.seat:
        raise Refusal("error.cannot_claim")
    p.table.match.forfeit(loser)
    p.notes.add("note.claimed", name=p.names[p.seat], loser=p.names[loser])
    return UiState()


def _rematch(p: Pressed) -> UiState:  # pragma: no cover - Then.NEW_GAME: see buttons.rematch
    raise Refusal("error.unknown_button")


def _refresh(p: Pressed) -> UiState:  # pragma: no cover - Then.VIEW: see watch.Watching.refresh
    raise Refusal("error.unknown_button")


ACTIONS: dict[Press, Action] = {
    Press.ROLL: Action(_roll, "button.roll", "primary", Then.ADVANCE),
    Press.DOUBLE: Action(_double, "button.double", "success", Then.ADVANCE),
    Press.TAKE: Action(_take, "button.take", "success", Then.ADVANCE),
    Press.DROP: Action(_drop, "button.drop", "danger", Then.ADVANCE),
    Press.ACCEPT: Action(_accept, "button.accept", "success", Then.ADVANCE),
    Press.REJECT: Action(_reject, "button.reject", "danger", Then.ADVANCE),
    Press.RESIGN: Action(_resign, None, "danger", Then.ADVANCE, anyone=True),  # checks its seat
    Press.RESIGN_MENU: Action(_resign_menu, "button.resign", "danger", Then.SHOW),
    Press.CANCEL: Action(_cancel, "button.cancel", "secondary", Then.SHOW, anyone=True),
    Press.DIE: Action(_die, None, "secondary", Then.SHOW),
    Press.POINT: Action(_point, None, "primary", Then.STEP),
    Press.UNDO: Action(_undo, "button.undo", "secondary", Then.STEP),
    Press.CONFIRM: Action(_confirm, "button.confirm", "success", Then.ADVANCE),
    Press.PLAY: Action(_play, "select.whole_play", "secondary", Then.ADVANCE),
    Press.CLAIM: Action(_claim, "button.claim", "danger", Then.ADVANCE, anyone=True),
    Press.REMATCH: Action(_rematch, "button.rematch", "primary", Then.NEW_GAME, anyone=True),
    Press.REFRESH: Action(_refresh, "button.refresh", "secondary", Then.VIEW, anyone=True),
}
assert set(ACTIONS) == set(Press), "every button has its entry"

"""The computer's side of a game: every decision it has to make, through ``engine.bots``.

The engine stays the authority: a play the computer chooses is one of ``game.legal_plays()``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache

from bot import heavy
from bot.service.model import Notes, high_first
from engine import Game, Phase
from engine.bots import ComputerPlayer, get_bot

__all__ = ["computer_acts", "computer_for"]

log = logging.getLogger(__name__)


@lru_cache(maxsize=16)
def computer_for(level: str) -> ComputerPlayer:
    """One computer player per level, shared (the players are thread-safe)."""
    return get_bot(level)


def computer_acts(
    game: Game,
    seat: int,
    level: str,
    roll: Callable[[], tuple[int, int]],
    notes: Notes,
    name: str,
) -> None:
    """Make the one decision the game waits for from the computer (``seat``)."""
    bot = computer_for(level)
    if game.phase is Phase.ROLL:
        if game.can_double() and bot.should_double(game.position, game.context(seat)):
            game.double()
            notes.add("note.doubles", name=name, value=game.cube_value * 2)
            return
        dice = roll()
        game.roll(dice)
        _after_roll(game, seat, bot, notes, name, dice)
    elif game.phase is Phase.MOVE:  # the computer won the opening roll: its dice are set
        _play(game, seat, bot, notes, name)
    elif game.phase is Phase.DOUBLED:
        # Seen by the doubler, who is on roll, with the cube before the double.
        doubler = game.on_roll
        if bot.should_take(game.position, game.context(doubler)):
            game.take()
            notes.add("note.takes", name=name, value=game.cube_value)
        else:
            game.drop()
            notes.add("note.drops", name=name)
    elif game.phase is Phase.RESIGNED:
        _answer_resignation(game, 1 - seat, bot, notes, name)
    else:  # pragma: no cover - the service only calls this when the computer must act
        raise RuntimeError(f"the computer has nothing to do in phase {game.phase}")


def _answer_resignation(
    game: Game, resigner: int, bot: ComputerPlayer, notes: Notes, name: str
) -> None:
    if bot.accept_resignation(
        game.position_for(resigner),
        game.resign_value,
        game.context(resigner),
        resigner_on_roll=resigner == game.on_roll,
    ):
        game.accept_resignation()
        notes.add("note.accepts_resignation", name=name)
    else:
        game.reject_resignation()
        notes.add("note.rejects_resignation", name=name)


def _after_roll(
    game: Game, seat: int, bot: ComputerPlayer, notes: Notes, name: str, dice: tuple[int, int]
) -> None:
    if game.phase is Phase.MOVE:
        _play(game, seat, bot, notes, name)
    else:  # no legal play: the engine passed the turn
        notes.add("note.cannot_move", name=name, **high_first(dice))


def _play(game: Game, seat: int, bot: ComputerPlayer, notes: Notes, name: str) -> None:
    dice = game.partial.dice
    # On the bounded search threads: a stream of world-class moves cannot take every core.
    play = heavy.compute(lambda: bot.choose_play(game.position, dice, game.context(seat)))
    if play is None:  # cannot happen: the engine passes by itself when no play exists
        raise RuntimeError("the computer found no play where the engine has one")
    game.play(play)
    notes.played(game)
    notes.add("note.played", name=name, **high_first(dice), play=str(play))

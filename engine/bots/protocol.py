"""What every computer player does, and from which side it sees each decision.

All four decisions take a :class:`~engine.position.Position` and a
:class:`~engine.context.MatchContext` seen from the *same* side, and that side is always the
player on roll at that moment:

* :meth:`ComputerPlayer.choose_play`: the bot is on roll and has rolled ``dice``;
* :meth:`ComputerPlayer.should_double`: the bot is on roll, before rolling (player 0 of ``ctx``);
* :meth:`ComputerPlayer.should_take`: the *opponent* is on roll and has just doubled; position
  and ``ctx`` are the doubler's (player 0 of ``ctx`` is the doubler, the bot is player 1, and
  ``ctx.cube_value`` is the value before the double);
* :meth:`ComputerPlayer.accept_resignation`: position and ``ctx`` are seen by the opponent who
  offers to resign; he is normally on roll (``resigner_on_roll=True``), and when the offer comes
  during the bot's own turn, pass ``resigner_on_roll=False`` (the board is still the resigner's
  view, but the bot is the one about to roll).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from engine.context import MatchContext
from engine.movegen import Dice, Play
from engine.position import Position

__all__ = ["RESIGNATION_VALUES", "ComputerPlayer", "PlayChooser"]

RESIGNATION_VALUES = (1, 2, 3)
"""A resignation gives up a single game, a gammon or a backgammon (times the cube)."""


@runtime_checkable
class PlayChooser(Protocol):
    """Anything that picks a play: what the arena needs from both sides."""

    def choose_play(
        self, position: Position, dice: Dice, ctx: MatchContext | None = None
    ) -> Play | None:
        """One element of ``legal_plays(position, dice)``, or None when that list is empty.

        ``ctx`` None means a cubeless money game (the benchmark arena); with a context the play
        takes the cube and the match score into account.
        """
        ...


@runtime_checkable
class ComputerPlayer(PlayChooser, Protocol):
    """A computer opponent: checker play, cube decisions and answers to resignations.

    ``level`` is its level name (one of :data:`engine.bots.LEVELS`). Calls are blocking (from a
    fraction of a millisecond to a few hundred); players are safe to call from several threads.
    """

    @property
    def level(self) -> str:
        """The level name, for example ``"expert"``."""
        ...

    def should_double(self, position: Position, ctx: MatchContext) -> bool:
        """Whether to double (or redouble) now, before rolling; position and ``ctx`` are the
        bot's, the bot is on roll. Always False when ``ctx.may_double(0)`` is False."""
        ...

    def should_take(self, position: Position, ctx: MatchContext) -> bool:
        """Whether to take the opponent's double. Position and ``ctx`` are seen by the doubler
        (on roll, player 0); the bot is player 1. False means pass (drop)."""
        ...

    def accept_resignation(
        self,
        position: Position,
        value: int,
        ctx: MatchContext,
        *,
        resigner_on_roll: bool = True,
    ) -> bool:
        """Whether to accept the opponent's offer to resign ``value`` (1 single, 2 gammon,
        3 backgammon) times the cube. Position and ``ctx`` are seen by the resigner; the bot
        accepts when the offer is worth at least what it expects from playing on."""
        ...

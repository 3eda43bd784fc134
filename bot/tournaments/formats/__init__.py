"""The tournament formats: one module each, one object implementing
:class:`~bot.tournaments.formats.base.TournamentFormat`, registered when its module is
imported. Every module of this package is imported here, so a new format is one new file (plus
its name in the message catalogs, ``tournament.format.<name>``): the command's choices, the
creation's check and every rule follow from the registry.

>>> [f.name for f in formats()]
['knockout', 'round_robin', 'swiss', 'arena']
>>> format_of("swiss").table
'swiss'
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from datetime import datetime

from bot.tournaments.formats.base import TournamentFormat, register, registered
from bot.tournaments.pictures import Standing
from bot.tournaments.plan import Pairing, State

__all__ = [
    "TournamentFormat",
    "champion",
    "finished",
    "format_names",
    "format_of",
    "formats",
    "next_pairings",
    "register",
    "standings",
]

for _module in pkgutil.iter_modules(__path__):
    if _module.name != "base":
        importlib.import_module(f"{__name__}.{_module.name}")


def formats() -> Sequence[TournamentFormat]:
    """Every format, in the order the command offers them."""
    return registered()


def format_names() -> tuple[str, ...]:
    """The formats' names (stored in ``tournaments.format``), in alphabetical order, as the
    refusal of an unknown one lists them."""
    return tuple(sorted(f.name for f in registered()))


def format_of(state_or_name: State | str) -> TournamentFormat:
    """The format of a tournament (or of that name).

    :raises KeyError: for a name no format has.
    """
    name = state_or_name if isinstance(state_or_name, str) else state_or_name.tournament.format
    found = {f.name: f for f in registered()}
    return found[name]


def next_pairings(state: State, now: datetime) -> list[Pairing]:
    """The matches to start now, by the tournament's format."""
    return format_of(state).next_pairings(state, now)


def standings(state: State) -> list[Standing]:
    """The table, in the format's order."""
    return format_of(state).standings(state)


def finished(state: State, now: datetime) -> bool:
    """Whether the tournament is over: nothing is being played, nothing more will be, and its
    format says so (a knockout has its champion, an arena's window has closed)."""
    fmt = format_of(state)
    if state.playing or fmt.next_pairings(state, now):
        return False
    return fmt.over(state, now)


def champion(state: State) -> int | None:
    """The winner, by the tournament's format."""
    return format_of(state).champion(state)

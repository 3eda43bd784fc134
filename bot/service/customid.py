"""Component ids: what a button or a select menu sends back when pressed.

Game components carry the game and the version of its state they were drawn for, so that a
press on a stale message (an earlier state) is refused, never applied twice::

    bg:<game>:<version>:<action>[:<argument>]      e.g. bg:42:17:pt:13-6
    ch:<challenge>:<answer>                         e.g. ch:7:accept
    gl:<page>                                       e.g. gl:2 (a page of /games)

Both stay far below Discord's 100-character limit. An id no row can have (negative, or past
the 32-bit id columns: :func:`row_id`) still parses, so that it is answered as an unknown one
(no such game, challenge, tournament or puzzle), but its action is not :attr:`~GameAction.known`
and the service refuses it without asking the database. The actions are typed (:class:`Press`,
:class:`Answer`); what each does, and how its button looks, is in :mod:`bot.service.actions`.

>>> GameAction.parse("bg:42:17:pt:13-6")
GameAction(game_id=42, version=17, action=<Press.POINT: 'pt'>, arg='13-6')
>>> GameAction(42, 17, Press.ROLL).custom_id
'bg:42:17:roll'
>>> GameAction.parse("bg:42:17:fly") is None  # not an action: refused as an unknown button
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "CHALLENGE_ID_RE",
    "GAME_ID_RE",
    "MAX_ROW_ID",
    "PAGE_ID_RE",
    "PUZZLE_ID_RE",
    "TOURNAMENT_ID_RE",
    "Answer",
    "ChallengeAction",
    "GameAction",
    "PageAction",
    "Press",
    "PuzzleAction",
    "row_id",
]

MAX_ROW_ID = 2**31 - 1
"""The largest id of a game, challenge, tournament, puzzle or position of the day: their id
columns are 32-bit INTEGERs (``db.models``)."""


def row_id(value: object) -> int | None:
    """An id from outside (a command option, a component id) if a row can have it: a whole
    number from 1 to :data:`MAX_ROW_ID`. None for any other: no row has it, and on PostgreSQL
    a wider number would fail the whole query (DataError) instead of finding nothing.

    >>> row_id(2**31 - 1), row_id(2**31), row_id(0), row_id(-1), row_id(True), row_id("7")
    (2147483647, None, None, None, None, None)
    """
    if type(value) is not int or not 1 <= value <= MAX_ROW_ID:
        return None
    return value


class Press(StrEnum):
    """What a button (or the select menu) of a game message does."""

    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    ACCEPT = "accept"  # a resignation
    REJECT = "reject"
    RESIGN = "resign"  # argument: 1, 2 or 3
    RESIGN_MENU = "resign_menu"
    CANCEL = "cancel"  # closes the resign menu
    DIE = "die"  # argument: the die to move next
    POINT = "pt"  # argument: <point>-<die>
    UNDO = "undo"
    CONFIRM = "confirm"
    PLAY = "play"  # the select menu of whole plays: the value is the play
    CLAIM = "claim"
    REMATCH = "rematch"
    REFRESH = "refresh"  # a spectator's board (/watch) drawn again


class Answer(StrEnum):
    """What a button of a challenge does."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"


# Any action word matches, so that a press on an unknown action is answered (refused), not
# ignored by the adapter; any id too (_ID, with a sign), so that an id no row can have is
# answered as an unknown one.
_ID = r"-?\d{1,20}"
GAME_ID_RE = (
    rf"bg:(?P<game>{_ID}):" + r"(?P<version>\d{1,9}):(?P<action>[a-z_]{1,16})"
    r"(?::(?P<arg>[\w\-/*() ]{1,60}))?"
)
CHALLENGE_ID_RE = rf"ch:(?P<challenge>{_ID}):(?P<action>" + "|".join(Answer) + ")"
# A tournament's buttons (bot.service.tournaments): any action word, refused there if unknown.
TOURNAMENT_ID_RE = rf"tn:(?P<tournament>{_ID}):" + r"(?P<action>[a-z_]{1,16})"

PAGE_ID_RE = r"gl:(?P<page>\d{1,4})"

# A puzzle's answer (pz:<puzzle>:<choice>) or a position of the day's (pd:<post>:<choice>); the
# choice is the answer's index in the puzzle's candidates, or "m" for the menu (its value).
PUZZLE_ID_RE = rf"(?P<kind>pz|pd):(?P<id>{_ID}):" + r"(?P<arg>\d{1,2}|m)"

_GAME = re.compile(GAME_ID_RE)
_PAGE = re.compile(PAGE_ID_RE)
_PUZZLE = re.compile(PUZZLE_ID_RE)
_CHALLENGE = re.compile(CHALLENGE_ID_RE)
_PRESSES = {p.value: p for p in Press}


@dataclass(frozen=True)
class GameAction:
    game_id: int
    version: int
    action: Press
    arg: str | None = None

    @property
    def known(self) -> bool:
        """Whether a game can have its id (else it is answered as an unknown game's)."""
        return row_id(self.game_id) is not None

    @property
    def custom_id(self) -> str:
        base = f"bg:{self.game_id}:{self.version}:{self.action}"
        return base if self.arg is None else f"{base}:{self.arg}"

    @classmethod
    def parse(cls, custom_id: str) -> GameAction | None:
        m = _GAME.fullmatch(custom_id)
        if m is None or m["action"] not in _PRESSES:
            return None
        return cls(int(m["game"]), int(m["version"]), _PRESSES[m["action"]], m["arg"])


@dataclass(frozen=True)
class ChallengeAction:
    challenge_id: int
    action: Answer

    @property
    def known(self) -> bool:
        return row_id(self.challenge_id) is not None

    @property
    def custom_id(self) -> str:
        return f"ch:{self.challenge_id}:{self.action}"

    @classmethod
    def parse(cls, custom_id: str) -> ChallengeAction | None:
        m = _CHALLENGE.fullmatch(custom_id)
        if m is None:
            return None
        return cls(int(m["challenge"]), Answer(m["action"]))


@dataclass(frozen=True)
class PageAction:
    """Previous / Next under ``/games``: the page to show (of the presser's own games).

    >>> PageAction.parse("gl:2")
    PageAction(page=2)
    """

    page: int

    @property
    def custom_id(self) -> str:
        return f"gl:{self.page}"

    @classmethod
    def parse(cls, custom_id: str) -> PageAction | None:
        m = _PAGE.fullmatch(custom_id)
        return cls(int(m["page"])) if m else None


@dataclass(frozen=True)
class PuzzleAction:
    """An answer to a puzzle (``daily`` False: ``/puzzle``) or to a position of the day.

    >>> PuzzleAction.parse("pd:7:1")
    PuzzleAction(id=7, arg='1', daily=True)
    >>> PuzzleAction(3, "m").custom_id
    'pz:3:m'
    """

    id: int
    arg: str
    daily: bool = False

    @property
    def known(self) -> bool:
        return row_id(self.id) is not None

    @property
    def custom_id(self) -> str:
        return f"{'pd' if self.daily else 'pz'}:{self.id}:{self.arg}"

    @classmethod
    def parse(cls, custom_id: str) -> PuzzleAction | None:
        m = _PUZZLE.fullmatch(custom_id)
        if m is None:
            return None
        return cls(int(m["id"]), m["arg"], m["kind"] == "pd")

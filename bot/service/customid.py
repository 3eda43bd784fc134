"""Component ids: what a button or a select menu sends back when pressed. This module is the
only one that writes or reads them: the adapters and the terminal ask it. Their text is a stored
contract (the buttons of a message posted long ago must keep working after a restart), so an
id's text never changes.

Game components carry the game and the version of its state they were drawn for, so that a
press on a stale message (an earlier state) is refused, never applied twice::

    bg:<game>:<version>:<action>[:<argument>]      e.g. bg:42:17:pt:13-6
    ch:<challenge>:<answer>                         e.g. ch:7:accept
    tn:<tournament>:<action>                        e.g. tn:7:join
    gl:<page>                                       e.g. gl:2 (a page of /games)
    pz:<puzzle>:<choice>, pd:<post>:<choice>        e.g. pz:3:m, pd:7:1
    dr:<drill card>:<choice>                        e.g. dr:12:m

One class per kind of component (:data:`KINDS`) holds its prefix and its fields: ``TEMPLATE``, the
regular expression of every id of the kind that is answered (refused, if need be: Discord's
adapter registers it), :attr:`custom_id` (build) and :meth:`parse`. :func:`kind_of` tells an
id's kind by its prefix alone, :func:`parse` reads any id, :func:`action_word` names its action.

Both stay far below Discord's 100-character limit. An id no row can have (negative, or past
the 32-bit id columns: :func:`row_id`) still parses, so that it is answered as an unknown one
(no such game, challenge, tournament or puzzle), but it is not :attr:`~GameAction.known` and
the service refuses it without asking the database. The actions are typed (:class:`Press`,
:class:`Answer`, :class:`TournamentPress`); what a game's does, and how its button looks, is in
:mod:`bot.service.actions`.

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
from typing import ClassVar, TypeAlias

__all__ = [
    "KINDS",
    "MAX_ROW_ID",
    "Answer",
    "ChallengeAction",
    "ComponentId",
    "GameAction",
    "LadderAction",
    "LadderPress",
    "PageAction",
    "Press",
    "PuzzleAction",
    "TournamentAction",
    "TournamentPress",
    "action_word",
    "kind_of",
    "parse",
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


class TournamentPress(StrEnum):
    """What a button of a tournament's message does (:mod:`bot.service.tournaments`)."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    STANDINGS = "standings"
    WITHDRAW = "withdraw"  # the confirmation of a withdrawal that forfeits a match in progress


class LadderPress(StrEnum):
    """What a button of a ladder's message does (:mod:`bot.ladders.running`)."""

    JOIN = "join"
    LEAVE = "leave"
    SHOW = "show"


# A game's or a tournament's template matches any action word, so that a press on an unknown
# action reaches the service and is answered (refused), not ignored by the adapter; and every
# template any id (_ID, with a sign), so that an id no row can have is answered as an unknown one.
_ID = r"-?\d{1,20}"
_WORD = r"[a-z_]{1,16}"


@dataclass(frozen=True)
class GameAction:
    """A button or the select menu of a game message (a player's, or a spectator's Refresh)."""

    PREFIX: ClassVar[str] = "bg"
    TEMPLATE: ClassVar[str] = (
        rf"{PREFIX}:(?P<game>{_ID}):(?P<version>\d{{1,9}}):(?P<action>{_WORD})"
        r"(?::(?P<arg>[\w\-/*() ]{1,60}))?"
    )
    _RE: ClassVar[re.Pattern[str]] = re.compile(TEMPLATE)

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
        base = f"{self.PREFIX}:{self.game_id}:{self.version}:{self.action}"
        return base if self.arg is None else f"{base}:{self.arg}"

    @classmethod
    def parse(cls, custom_id: str) -> GameAction | None:
        m = cls._RE.fullmatch(custom_id)
        if m is None or m["action"] not in _PRESSES:
            return None
        return cls(int(m["game"]), int(m["version"]), _PRESSES[m["action"]], m["arg"])


@dataclass(frozen=True)
class ChallengeAction:
    """Accept / Decline / Cancel on a challenge."""

    PREFIX: ClassVar[str] = "ch"
    TEMPLATE: ClassVar[str] = rf"{PREFIX}:(?P<challenge>{_ID}):(?P<action>{'|'.join(Answer)})"
    _RE: ClassVar[re.Pattern[str]] = re.compile(TEMPLATE)

    challenge_id: int
    action: Answer

    @property
    def known(self) -> bool:
        return row_id(self.challenge_id) is not None

    @property
    def custom_id(self) -> str:
        return f"{self.PREFIX}:{self.challenge_id}:{self.action}"

    @classmethod
    def parse(cls, custom_id: str) -> ChallengeAction | None:
        m = cls._RE.fullmatch(custom_id)
        if m is None:
            return None
        return cls(int(m["challenge"]), Answer(m["action"]))


@dataclass(frozen=True)
class TournamentAction:
    """Join / Leave / Start / Standings (and Withdraw) on a tournament's message.

    >>> TournamentAction.parse("tn:7:join")
    TournamentAction(tournament_id=7, action=<TournamentPress.JOIN: 'join'>)
    >>> TournamentAction(7, TournamentPress.STANDINGS).custom_id
    'tn:7:standings'
    """

    PREFIX: ClassVar[str] = "tn"
    TEMPLATE: ClassVar[str] = rf"{PREFIX}:(?P<tournament>{_ID}):(?P<action>{_WORD})"
    _RE: ClassVar[re.Pattern[str]] = re.compile(TEMPLATE)

    tournament_id: int
    action: TournamentPress

    @property
    def known(self) -> bool:
        return row_id(self.tournament_id) is not None

    @property
    def custom_id(self) -> str:
        return f"{self.PREFIX}:{self.tournament_id}:{self.action}"

    @classmethod
    def parse(cls, custom_id: str) -> TournamentAction | None:
        m = cls._RE.fullmatch(custom_id)
        if m is None or m["action"] not in _TOURNAMENT_PRESSES:
            return None
        return cls(int(m["tournament"]), TournamentPress(m["action"]))


@dataclass(frozen=True)
class LadderAction:
    """Join / Leave / Show on a ladder's message.

    >>> LadderAction.parse("ld:7:join")
    LadderAction(ladder_id=7, action=<LadderPress.JOIN: 'join'>)
    >>> LadderAction(7, LadderPress.SHOW).custom_id
    'ld:7:show'
    """

    PREFIX: ClassVar[str] = "ld"
    TEMPLATE: ClassVar[str] = rf"{PREFIX}:(?P<ladder>{_ID}):(?P<action>{_WORD})"
    _RE: ClassVar[re.Pattern[str]] = re.compile(TEMPLATE)

    ladder_id: int
    action: LadderPress

    @property
    def known(self) -> bool:
        return row_id(self.ladder_id) is not None

    @property
    def custom_id(self) -> str:
        return f"{self.PREFIX}:{self.ladder_id}:{self.action}"

    @classmethod
    def parse(cls, custom_id: str) -> LadderAction | None:
        m = cls._RE.fullmatch(custom_id)
        if m is None or m["action"] not in _LADDER_PRESSES:
            return None
        return cls(int(m["ladder"]), LadderPress(m["action"]))


@dataclass(frozen=True)
class PageAction:
    """Previous / Next under ``/games``: the page to show (of the presser's own games).

    >>> PageAction.parse("gl:2")
    PageAction(page=2)
    """

    PREFIX: ClassVar[str] = "gl"
    TEMPLATE: ClassVar[str] = rf"{PREFIX}:(?P<page>\d{{1,4}})"
    _RE: ClassVar[re.Pattern[str]] = re.compile(TEMPLATE)

    page: int

    @property
    def custom_id(self) -> str:
        return f"{self.PREFIX}:{self.page}"

    @classmethod
    def parse(cls, custom_id: str) -> PageAction | None:
        m = cls._RE.fullmatch(custom_id)
        return cls(int(m["page"])) if m else None


@dataclass(frozen=True)
class PuzzleAction:
    """An answer to a puzzle (``daily`` False: ``/puzzle``), to a position of the day, or to a
    drill of one's own blunders (``drill``: the id is the drill card's): the answer's index in
    the puzzle's candidates, or ``m`` for the menu (its value); a drill's ``n`` asks for the
    next drill of the day (the Next button under an answer), which no other kind has.

    >>> PuzzleAction.parse("pd:7:1")
    PuzzleAction(id=7, arg='1', daily=True, drill=False)
    >>> PuzzleAction(3, "m").custom_id, PuzzleAction(12, "m", drill=True).custom_id
    ('pz:3:m', 'dr:12:m')
    >>> PuzzleAction.parse("dr:12:n").arg, PuzzleAction.parse("pz:3:n")
    ('n', None)
    """

    PREFIX: ClassVar[str] = "pz"
    DAILY_PREFIX: ClassVar[str] = "pd"  # a position of the day's
    DRILL_PREFIX: ClassVar[str] = "dr"  # a drill's (issue 32)
    NEXT: ClassVar[str] = "n"  # a drill's Next button
    TEMPLATE: ClassVar[str] = (
        rf"(?P<kind>{PREFIX}|{DAILY_PREFIX}|{DRILL_PREFIX}):(?P<id>{_ID}):(?P<arg>\d{{1,2}}|m|n)"
    )
    _RE: ClassVar[re.Pattern[str]] = re.compile(TEMPLATE)

    id: int
    arg: str
    daily: bool = False
    drill: bool = False

    @property
    def known(self) -> bool:
        return row_id(self.id) is not None

    @property
    def custom_id(self) -> str:
        prefix = self.DRILL_PREFIX if self.drill else self.PREFIX
        return f"{self.DAILY_PREFIX if self.daily else prefix}:{self.id}:{self.arg}"

    @classmethod
    def parse(cls, custom_id: str) -> PuzzleAction | None:
        m = cls._RE.fullmatch(custom_id)
        if m is None:
            return None
        kind = m["kind"]
        if m["arg"] == cls.NEXT and kind != cls.DRILL_PREFIX:
            return None  # only a drill has a Next button
        return cls(int(m["id"]), m["arg"], kind == cls.DAILY_PREFIX, kind == cls.DRILL_PREFIX)


ComponentId: TypeAlias = (
    GameAction | ChallengeAction | TournamentAction | LadderAction | PageAction | PuzzleAction
)
KINDS: tuple[type[ComponentId], ...] = (
    GameAction,
    ChallengeAction,
    TournamentAction,
    LadderAction,
    PageAction,
    PuzzleAction,
)
"""Every kind of component id, each with its own prefix."""

_PRESSES = {p.value: p for p in Press}
_TOURNAMENT_PRESSES = frozenset(TournamentPress)
_LADDER_PRESSES = frozenset(LadderPress)
_KIND_BY_PREFIX: dict[str, type[ComponentId]] = {k.PREFIX: k for k in KINDS}
_KIND_BY_PREFIX[PuzzleAction.DAILY_PREFIX] = PuzzleAction
_KIND_BY_PREFIX[PuzzleAction.DRILL_PREFIX] = PuzzleAction


def kind_of(custom_id: str) -> type[ComponentId] | None:
    """The kind of component ``custom_id`` belongs to, by its prefix alone: a malformed id of
    a kind is still of it (Discord's adapter wraps the component in that kind's class).

    >>> kind_of("tn:7:join").__name__, kind_of("pd:7:1").__name__, kind_of("xx:1")
    ('TournamentAction', 'PuzzleAction', None)
    """
    prefix, colon, _ = custom_id.partition(":")
    return _KIND_BY_PREFIX.get(prefix) if colon else None


def parse(custom_id: str) -> ComponentId | None:
    """The component ``custom_id`` names, of whatever kind; None when it is of no kind or
    malformed (it is refused as an unknown button).

    >>> parse("ch:7:accept")
    ChallengeAction(challenge_id=7, action=<Answer.ACCEPT: 'accept'>)
    """
    kind = kind_of(custom_id)
    return kind.parse(custom_id) if kind is not None else None


def action_word(custom_id: str) -> str | None:
    """The action ``custom_id`` names (a game's press, a challenge's answer, a tournament's
    button); None when it names none (a page, a puzzle's answer) or is no component's id.

    >>> action_word("bg:3:7:die:2"), action_word("ch:7:decline"), action_word("pz:3:0")
    ('die', 'decline', None)
    """
    found = parse(custom_id)
    if isinstance(found, (GameAction, ChallengeAction, TournamentAction, LadderAction)):
        return found.action.value
    return None

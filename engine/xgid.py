"""eXtreme Gammon's position ID, the XGID: read and write it, and convert it to and from the
engine's state (a :class:`~engine.position.Position` and GNU Backgammon's
:class:`~engine.ids.MatchKey`, hence a :class:`~engine.match.Match`).

An XGID is ten fields separated by colons, usually after ``XGID=``::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10

1. the checkers, 26 characters, always from the side of the player called X (the one at the
   bottom, who moves from his 24-point to his 1-point), whoever is on roll: character 0 is O's
   bar, 1..24 are the points in X's numbering, 25 is X's bar; ``-`` is an empty point, ``A``..
   ``O`` one to fifteen checkers of X, ``a``..``o`` of O. Checkers missing are borne off;
2. the cube: the base-2 logarithm of its value (before the double, when one is on offer);
3. its owner: ``1`` X, ``-1`` O, ``0`` centred;
4. the turn: ``1`` X, ``-1`` O: the player on roll, or the doubler while a double is offered;
5. the dice: two digits once rolled (in the order rolled; either order is read), ``00``
   before the roll, ``D`` while a double is offered and the other player must take or pass;
6. and 7. X's score and O's score;
8. the rules: in a match, ``1`` for the Crawford game, else ``0``; in a money game, ``1`` for the
   Jacoby rule plus ``2`` for beavers;
9. the match length (``0`` for a money game);
10. the largest cube allowed, as a base-2 logarithm (XG writes ``10``; the engine's cube stops at
    64, so IDs it writes say ``6``).

The correspondence with GNU Backgammon is the one its ``set xgid`` command uses (``SetXGID`` in
its ``set.c``): X is GNU Backgammon's player 1 (the user, at the bottom) and O its player 0, so
X's score is ``score[1]`` of the :class:`MatchKey`; the Position ID is seen by the player on roll
(the doubler while a double is on offer), as everywhere in the engine.

>>> x = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
>>> x.position == Position.initial(), x.dice, x.jacoby, x.beavers, x.max_cube
(True, (5, 2), True, True, 1024)
>>> str(x)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10'
>>> x.position_id(), x.match_id()
('4HPwATDgc/ABMA', 'cIkKAAAAAAAA')
>>> str(Xgid.from_ids("4HPwATDgc/ABMA", "cIkKAAAAAAAA"))
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:1:0:6'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.context import MAX_CUBE, MatchContext
from engine.errors import BackgammonError
from engine.ids import GameState, MatchKey, decode_match_id, encode_match_id
from engine.position import CHECKERS, Position

if TYPE_CHECKING:
    from engine.game import Game
    from engine.match import Match

__all__ = ["InvalidXgidError", "Xgid", "is_xgid", "parse_xgid"]

_INT = re.compile(r"-?[0-9]+")
_X = "ABCDEFGHIJKLMNO"  # one to fifteen checkers of X
_O = _X.lower()


class InvalidXgidError(BackgammonError):
    """Text that is not a valid XGID; ``code`` says which part is wrong (``xgid.syntax``,
    ``xgid.position``, ``xgid.field`` with the field's name in ``params["field"]`` and its place
    (1 to 10) in ``params["number"]``, ``xgid.unsupported`` for beavers and raccoons on offer,
    which the engine does not play, ``xgid.finished`` for a game that is over)."""

    code = "xgid.invalid"


@dataclass(frozen=True, slots=True)
class Xgid:
    """The ten fields of an XGID (see the module docstring), decoded.

    :ivar board: the checkers seen by X (X's checkers positive), in the engine's layout.
    :ivar cube_value: the cube's value (before the double while one is on offer).
    :ivar cube_owner: ``1`` X, ``-1`` O, ``0`` centred.
    :ivar turn: ``1`` X, ``-1`` O: the player on roll (the doubler while a double is offered).
    :ivar dice: the dice in the order written, ``(0, 0)`` before the roll.
    :ivar doubled: whether a double is on offer (the dice field ``D``).
    :ivar score: X's score, then O's.
    :ivar crawford: in a match, whether this is the Crawford game.
    :ivar jacoby: in a money game, whether the Jacoby rule is on.
    :ivar beavers: in a money game, whether beavers are allowed.
    :ivar match_length: 0 for a money game.
    :ivar max_cube: the largest cube value allowed.
    """

    board: Position
    cube_value: int = 1
    cube_owner: int = 0
    turn: int = 1
    dice: tuple[int, int] = (0, 0)
    doubled: bool = False
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    match_length: int = 0
    max_cube: int = MAX_CUBE

    # -- text -------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Xgid:
        """Read an XGID, with or without ``XGID=`` in front.

        >>> Xgid.parse("-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:9:10").doubled
        True
        >>> Xgid.parse("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3")
        Traceback (most recent call last):
        ...
        engine.xgid.InvalidXgidError: an XGID has 10 fields separated by ':', not 8

        :raises InvalidXgidError: with a message naming the wrong part.
        """
        fields = _fields(text)
        board = _board(fields[0])
        cube_log = _int(fields[1], "cube", 0, 15)
        owner = _int(fields[2], "cube owner", -1, 1)
        turn = _int(fields[3], "turn", -1, 1)
        if turn == 0:
            raise _field("turn", fields[3], "1 for X or -1 for O")
        dice, doubled = _dice(fields[4])
        score = (_int(fields[5], "X's score", 0, 32767), _int(fields[6], "O's score", 0, 32767))
        rules = _int(fields[7], "rules", 0, 3)
        length = _int(fields[8], "match length", 0, 32767)
        max_log = _int(fields[9], "maximum cube", 0, 15)
        if length:
            _check_match(fields[7], rules, score, length)
        return cls(
            board=board,
            cube_value=1 << cube_log,
            cube_owner=owner,
            turn=turn,
            dice=dice,
            doubled=doubled,
            score=score,
            crawford=bool(length) and rules == 1,
            jacoby=not length and bool(rules & 1),
            beavers=not length and bool(rules & 2),
            match_length=length,
            max_cube=1 << max_log,
        )

    def __str__(self) -> str:
        """The XGID with ``XGID=`` in front (XG's "XGID to clipboard")."""
        cells = []
        b = self.board.board
        for i in range(26):
            n = b[i]
            cells.append("-" if n == 0 else (_X[n - 1] if n > 0 else _O[-n - 1]))
        dice = "D" if self.doubled else f"{self.dice[0]}{self.dice[1]}"
        rules = int(self.crawford) if self.match_length else self.jacoby + 2 * self.beavers
        fields = [
            "".join(cells),
            str(self.cube_value.bit_length() - 1),
            str(self.cube_owner),
            str(self.turn),
            dice,
            str(self.score[0]),
            str(self.score[1]),
            str(rules),
            str(self.match_length),
            str(self.max_cube.bit_length() - 1),
        ]
        return "XGID=" + ":".join(fields)

    # -- the engine's view ------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The position seen by the player on roll (the doubler while a double is offered).

        >>> x = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10")
        >>> x.position == x.board.swap_players()
        True
        """
        return self.board if self.turn == 1 else self.board.swap_players()

    def match_key(self) -> MatchKey:
        """GNU Backgammon's view of the same moment: X is its player 1, O its player 0.

        >>> k = Xgid.parse("-b----E-C---eE---c-e----B-:1:-1:1:D:2:4:0:9:10").match_key()
        >>> k.player_on_roll, k.turn, k.double_offered, k.cube_owner, k.score
        (1, 0, True, 0, (4, 2))
        """
        on_roll = 1 if self.turn == 1 else 0
        return MatchKey(
            cube_value=self.cube_value,
            cube_owner=None if self.cube_owner == 0 else (1 if self.cube_owner == 1 else 0),
            player_on_roll=on_roll,
            crawford=self.crawford,
            game_state=GameState.PLAYING,
            turn=1 - on_roll if self.doubled else on_roll,
            double_offered=self.doubled,
            dice=self.dice,
            match_length=self.match_length,
            score=(self.score[1], self.score[0]),
            jacoby=self.jacoby,
        )

    def position_id(self) -> str:
        """GNU Backgammon's Position ID of :attr:`position`."""
        return self.position.position_id()

    def match_id(self) -> str:
        """GNU Backgammon's Match ID of :meth:`match_key`."""
        return encode_match_id(self.match_key())

    def context(self) -> MatchContext:
        """Cube and score seen by the player on roll (player 0 of the context), for hints.

        >>> Xgid.parse("-b----E-C---eE---c-e----B-:1:-1:-1:00:2:4:0:9:10").context().score
        (4, 2)
        """
        mine = 1 if self.turn == 1 else -1
        owner = None if self.cube_owner == 0 else (0 if self.cube_owner == mine else 1)
        score = self.score if self.turn == 1 else (self.score[1], self.score[0])
        return MatchContext(
            self.cube_value, owner, self.match_length, score, self.crawford, self.jacoby
        )

    def to_match(self, *, cube: bool = True) -> Match:
        """A match whose current game stands where this XGID says (see
        :meth:`engine.match.Match.from_ids`). Beavers and the maximum cube are not kept: the
        engine plays without beavers, its cube stops at 64. The game holds the dice larger
        first, as when it is taken up from GNU Backgammon's IDs.

        >>> m = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10").to_match()
        >>> m.length, m.score, m.game.on_roll, m.game.cube_value, m.game.cube_owner
        (7, (1, 3), 1, 2, 1)

        :raises GameStateError: when the cube is above 64.
        """
        from engine.match import Match

        return Match.from_ids(self.position_id(), self.match_id(), cube=cube)

    @classmethod
    def from_game(cls, game: Game) -> Xgid:
        """The XGID of the present moment of ``game`` (see :meth:`from_key`).

        >>> from engine.game import Game
        >>> g = Game(match_length=5)
        >>> g.opening_roll(3, 1)
        >>> str(Xgid.from_game(g))
        'XGID=-b----E-C---eE---c-e----B-:0:0:-1:31:0:0:0:5:6'

        :raises InvalidXgidError: once the game is over.
        """
        x = cls.from_key(game.position, game.match_key())
        if game.dice is not None and not x.doubled:
            return replace(x, dice=(game.dice[0], game.dice[1]))
        return x

    @classmethod
    def from_key(cls, position: Position, key: MatchKey, *, max_cube: int = MAX_CUBE) -> Xgid:
        """The XGID of ``position`` (seen by the player on roll) and GNU Backgammon's state.

        Dice are written larger first (GNU Backgammon's Match ID does not keep the order they were
        rolled in; :meth:`from_game` does). An offered resignation is
        left out (an XGID cannot hold one).

        :raises InvalidXgidError: when the key describes no game under way (a finished game).
        """
        if key.game_state not in (GameState.PLAYING, GameState.NONE):
            raise InvalidXgidError(
                "an XGID describes a game under way, not a finished one", code="xgid.finished"
            )
        x_on_roll = key.player_on_roll == 1
        owner = 0 if key.cube_owner is None else (1 if key.cube_owner == 1 else -1)
        return cls(
            board=position if x_on_roll else position.swap_players(),
            cube_value=key.cube_value,
            cube_owner=owner,
            turn=1 if x_on_roll else -1,
            dice=(0, 0) if key.double_offered else (max(key.dice), min(key.dice)),
            doubled=key.double_offered,
            score=(key.score[1], key.score[0]),
            crawford=bool(key.match_length) and key.crawford,
            jacoby=not key.match_length and key.jacoby,
            match_length=key.match_length,
            max_cube=max_cube,
        )

    @classmethod
    def from_ids(cls, position_id: str, match_id: str | None = None) -> Xgid:
        """The XGID of GNU Backgammon's IDs (without a Match ID: money, player 0 to roll).

        >>> str(Xgid.from_ids("4HPwATDgc/ABMA"))
        'XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:6'

        :raises InvalidPositionIdError, InvalidMatchIdError: on a bad ID.
        :raises InvalidXgidError: for a finished game.
        """
        key = decode_match_id(match_id) if match_id else MatchKey(jacoby=False)
        return cls.from_key(Position.from_position_id(position_id), key)


def parse_xgid(text: str) -> Xgid:
    """:meth:`Xgid.parse`.

    >>> parse_xgid("XGID=--A-bBBBB--BbB-----dbbc-B-:0:0:1:31:6:4:1:7:10").crawford
    True
    """
    return Xgid.parse(text)


def is_xgid(text: str) -> bool:
    """Whether ``text`` is meant as an XGID rather than GNU Backgammon's IDs (it need not be a
    valid one: :func:`parse_xgid` says what is wrong): ``XGID=`` in front, or colons between
    fields where GNU Backgammon's IDs have at most one.

    >>> is_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
    True
    >>> is_xgid("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
    True
    >>> is_xgid("4HPwATDgc/ABMA:cIkKAAAAAAAA"), is_xgid("4HPwATDgc/ABMA")
    (False, False)
    """
    body = text.strip()
    return body[:5].upper() == "XGID=" or body.count(":") >= 2


_NUMBERS = {
    "cube": 2,
    "cube owner": 3,
    "turn": 4,
    "dice": 5,
    "X's score": 6,
    "O's score": 7,
    "score": 6,
    "rules": 8,
    "match length": 9,
    "maximum cube": 10,
}


def _field(name: str, value: str, expected: str) -> InvalidXgidError:
    # ``number`` (the field's place, 1 to 10) lets a translation name the field.
    return InvalidXgidError(
        f"the XGID's {name} is {value!r}; expected {expected}",
        code="xgid.field",
        field=name,
        number=_NUMBERS[name],
        value=value,
    )


def _int(text: str, name: str, low: int, high: int) -> int:
    if not _INT.fullmatch(text) or not low <= int(text) <= high:
        raise _field(name, text, f"a whole number from {low} to {high}")
    return int(text)


def _dice(text: str) -> tuple[tuple[int, int], bool]:
    if text == "D":
        return (0, 0), True
    if text in ("B", "R"):
        raise InvalidXgidError(
            "the XGID has a beaver or a raccoon on offer, which this game does not play",
            code="xgid.unsupported",
        )
    if text == "00":
        return (0, 0), False
    if len(text) == 2 and all(c in "123456" for c in text):
        return (int(text[0]), int(text[1])), False
    raise _field("dice", text, "two dice from 1 to 6, 00 before the roll, or D after a double")


def _fields(text: str) -> list[str]:
    """The ten fields of an XGID, ``XGID=`` in front or not."""
    if not isinstance(text, str):
        raise InvalidXgidError(f"an XGID is text, not {type(text).__name__}", code="xgid.syntax")
    body = text.strip()
    if body[:5].upper() == "XGID=":
        body = body[5:]
    fields = body.split(":")
    if len(fields) != 10:
        raise InvalidXgidError(
            f"an XGID has 10 fields separated by ':', not {len(fields)}",
            code="xgid.syntax",
            count=len(fields),
        )
    return fields


def _check_match(rules_field: str, rules: int, score: tuple[int, int], length: int) -> None:
    """A match's rules (only the Crawford flag) and score (below its length)."""
    if rules > 1:
        raise _field("rules", rules_field, "0, or 1 for the Crawford game, in a match")
    if max(score) >= length:
        raise _field("score", f"{score[0]}-{score[1]}", f"below the match length {length}")


def _board(text: str) -> Position:
    if len(text) != 26:
        raise InvalidXgidError(
            f"an XGID's position has 26 characters, not {len(text)}",
            code="xgid.position",
            length=len(text),
        )
    board = [0] * 26
    for i, c in enumerate(text):
        if c == "-":
            continue
        if c in _X and i != 0:
            board[i] = _X.index(c) + 1
        elif c in _O and i != 25:
            board[i] = -(_O.index(c) + 1)
        else:
            where = {0: "O's bar", 25: "X's bar"}.get(i, f"point {i}")
            raise InvalidXgidError(
                f"the XGID's position has {c!r} on {where}",
                code="xgid.position",
                char=c,
                index=i,
            )
    for who, sign in (("X", 1), ("O", -1)):
        count = sum(n * sign for n in board if n * sign > 0)
        if count > CHECKERS:
            raise InvalidXgidError(
                f"the XGID gives {who} {count} checkers; a side has at most {CHECKERS}",
                code="xgid.position",
                player=who,
                count=count,
            )
    return Position(board)

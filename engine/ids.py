"""GNU Backgammon Position ID and Match ID codecs.

Both IDs are little-endian bit strings written in base64 without padding, as GNU Backgammon's
``positionid.c`` and ``matchid.c`` define them:

* the Position ID (14 characters, 80 bits) lists, for the opponent and then for the player on roll,
  the checkers on each of his points 1..24 and his bar as runs of 1 bits, each run closed by a 0;
* the Match ID (12 characters, 67 bits used) packs the cube, its owner, the player on roll, the
  Crawford flag, the game state, whose decision it is, a pending double or resignation, the dice
  (the larger first), the match length, both scores and, in bit 66, whether the Jacoby rule is
  *off* (GNU Backgammon 1.07 stores ``!fJacoby`` there, so its match IDs end in ``E``, while IDs
  of older versions, which left the bit clear, decode as Jacoby on).

>>> decode_match_id("QYkqASAAIAAA").dice
(5, 2)
>>> encode_match_id(decode_match_id("QYkqASAAIAAA"))
'QYkqASAAIAAA'
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import IntEnum

from engine.errors import InvalidMatchIdError, InvalidPositionIdError

__all__ = [
    "GameState",
    "MatchKey",
    "board_from_sides",
    "decode_match_id",
    "decode_position_id",
    "encode_match_id",
    "encode_position_id",
]

_B64 = re.compile(r"[A-Za-z0-9+/]*")


def _decode_b64(text: str, length: int, nbytes: int, what: str, error: type[ValueError]) -> int:
    if not isinstance(text, str):
        raise error(f"a {what} is a string, not {type(text).__name__}")
    text = text.strip()
    if len(text) != length or not _B64.fullmatch(text):
        raise error(f"{text!r} is not a {what}: expected {length} base64 characters")
    try:
        raw = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except binascii.Error as exc:  # pragma: no cover - the regex above already rules this out
        raise error(f"{text!r} is not a {what}: {exc}") from None
    return int.from_bytes(raw[:nbytes], "little")


def _encode_b64(value: int, nbytes: int, length: int) -> str:
    return base64.b64encode(value.to_bytes(nbytes, "little")).decode("ascii")[:length]


# -- Position ID ----------------------------------------------------------------------------


def encode_position_id(board: tuple[int, ...] | list[int]) -> str:
    """The Position ID of a 26-int board seen by the player on roll (see :mod:`engine.position`).

    >>> from engine.position import Position
    >>> encode_position_id(Position.initial().board)
    '4HPwATDgc/ABMA'
    """
    key = 0
    nbit = 0
    # Opponent first, from his own view: his point i is our point 25 - i, his bar is board[0].
    for i in range(1, 25):
        n = -board[25 - i] if board[25 - i] < 0 else 0
        key |= ((1 << n) - 1) << nbit
        nbit += n + 1
    n = -board[0]
    key |= ((1 << n) - 1) << nbit
    nbit += n + 1
    for i in range(1, 26):
        n = board[i] if board[i] > 0 else 0
        key |= ((1 << n) - 1) << nbit
        nbit += n + 1
    return _encode_b64(key, 10, 14)


def decode_position_id(position_id: str, checkers: int = 15) -> tuple[int, ...]:
    """The 26-int board of a Position ID (which carries any number of checkers up to 15).

    >>> decode_position_id("4HPwATDgc/ABMA")[24]
    2

    :raises InvalidPositionIdError: when the text is not 14 base64 characters, does not describe
        two sides of at most ``checkers`` checkers each, or puts both sides on one point.
    """
    key = _decode_b64(position_id, 14, 10, "Position ID", InvalidPositionIdError)
    theirs, mine = _checker_counts(key, position_id)
    for who, counts in (("the player on roll", mine), ("his opponent", theirs)):
        if sum(counts) > checkers:
            raise InvalidPositionIdError(
                f"{position_id!r} gives {who} {sum(counts)} checkers; "
                f"a side has at most {checkers}",
                code="position_id.checkers",
                count=sum(counts),
                limit=checkers,
            )
    return board_from_sides(
        mine,
        theirs,
        lambda point: InvalidPositionIdError(
            f"{position_id!r} puts checkers of both players on point {point}"
        ),
    )


def _checker_counts(key: int, position_id: str) -> tuple[list[int], list[int]]:
    """The checkers on each of the 25 spots of each side (the opponent's first), read from the
    key's bits: a 1 for each checker, a 0 to end the spot."""
    sides: list[list[int]] = [[0] * 25, [0] * 25]
    side = spot = 0
    nbit = 0
    while side < 2:
        if nbit >= 80:
            raise InvalidPositionIdError(f"{position_id!r} is not a Position ID: it is truncated")
        if key >> nbit & 1:
            sides[side][spot] += 1
        else:
            spot += 1
            if spot == 25:
                side, spot = side + 1, 0
        nbit += 1
    if key >> nbit:
        raise InvalidPositionIdError(
            f"{position_id!r} is not a Position ID: more than 30 checkers are encoded"
        )
    return sides[0], sides[1]


def board_from_sides(
    mine: Sequence[int], theirs: Sequence[int], clash: Callable[[int], Exception]
) -> tuple[int, ...]:
    """The 26-int board of the two sides' counts, each from its owner's view (index 24 = his
    bar); ``clash(point)`` is raised when both sides hold ``point``, so that each caller says it
    in his own words (a Position ID's, a position's).

    >>> board_from_sides([0] * 5 + [2] + [0] * 19, [1] + [0] * 24, ValueError)[1:7]
    (0, 0, 0, 0, 0, 2)
    >>> board_from_sides([0] * 23 + [1, 0], [1] + [0] * 24, ValueError)
    Traceback (most recent call last):
    ...
    ValueError: 24
    """
    board = [0] * 26
    board[25] = mine[24]
    board[0] = -theirs[24]
    for point in range(1, 25):
        own, opp = mine[point - 1], theirs[24 - point]
        if own and opp:
            raise clash(point)
        board[point] = own - opp
    return tuple(board)


# -- Match ID -------------------------------------------------------------------------------


class GameState(IntEnum):
    """Bits 9-11 of the Match ID."""

    NONE = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True, slots=True)
class MatchKey:
    """Everything a GNU Backgammon Match ID holds. Players are 0 and 1 as GNU Backgammon numbers
    them (0 is its first player, by default the computer "gnubg"; 1 the second, the user);
    ``cube_owner`` is None while the cube is centred; ``dice`` is ``(0, 0)`` before the roll (in
    either order; the ID holds the larger first); ``match_length`` 0 means a money game; ``jacoby``
    is whether the Jacoby rule is in use."""

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        problems = _match_key_problems(self)
        if problems:
            raise InvalidMatchIdError("invalid match state: " + "; ".join(problems))

    def swap_players(self) -> MatchKey:
        """The same moment with players 0 and 1 numbered the other way round: who is on roll,
        whose decision it is, the cube's owner and the score follow the players. The Position
        ID, seen by the player on roll, stays as it is.

        >>> k = MatchKey(cube_value=2, cube_owner=0, player_on_roll=1, turn=1, dice=(5, 2),
        ...              match_length=7, score=(1, 4))
        >>> s = k.swap_players()
        >>> s.player_on_roll, s.turn, s.cube_owner, s.score, s.dice
        (0, 0, 1, (4, 1), (5, 2))
        >>> s.swap_players() == k
        True
        """
        return replace(
            self,
            cube_owner=None if self.cube_owner is None else 1 - self.cube_owner,
            player_on_roll=1 - self.player_on_roll,
            turn=1 - self.turn,
            score=(self.score[1], self.score[0]),
        )


def _match_key_problems(k: MatchKey) -> list[str]:
    out = []
    if k.cube_value < 1 or k.cube_value & (k.cube_value - 1) or k.cube_value > 1 << 15:
        out.append(f"the cube value {k.cube_value} is not a power of two up to 32768")
    if k.cube_owner not in (None, 0, 1):
        out.append(f"the cube owner {k.cube_owner} is not 0, 1 or centred")
    if k.player_on_roll not in (0, 1) or k.turn not in (0, 1):
        out.append("players are numbered 0 and 1")
    if not 0 <= k.resignation <= 3:
        out.append(f"the resignation value {k.resignation} is not 0-3")
    d1, d2 = k.dice
    if (d1 == 0) != (d2 == 0) or not (0 <= d1 <= 6 and 0 <= d2 <= 6):
        out.append(f"the dice {k.dice} are not two values 1-6 (or none)")
    if not 0 <= k.match_length < 1 << 15:
        out.append(f"the match length {k.match_length} is out of range")
    if any(not 0 <= s < 1 << 15 for s in k.score):
        out.append(f"the score {k.score} is out of range")
    return out


_FIELDS = (  # (attribute, bit width) in the order of the Match ID, from bit 1.
    ("cube", 4),
    ("owner", 2),
    ("player_on_roll", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


def encode_match_id(key: MatchKey) -> str:
    """The 12-character Match ID of ``key``, as GNU Backgammon 1.07 writes it.

    >>> encode_match_id(MatchKey(game_state=GameState.NONE))
    'MAAAAAAAAAAE'
    >>> encode_match_id(MatchKey(dice=(2, 4))) == encode_match_id(MatchKey(dice=(4, 2)))
    True
    """
    high, low = max(key.dice), min(key.dice)  # gnubg's MatchID() writes the larger die first
    values = {
        "cube": key.cube_value.bit_length() - 1,
        "owner": 3 if key.cube_owner is None else key.cube_owner,
        "player_on_roll": key.player_on_roll,
        "crawford": int(key.crawford),
        "game_state": int(key.game_state),
        "turn": key.turn,
        "double_offered": int(key.double_offered),
        "resignation": key.resignation,
        "die1": high,
        "die2": low,
        "match_length": key.match_length,
        "score0": key.score[0],
        "score1": key.score[1],
        "no_jacoby": int(not key.jacoby),
    }
    bits = 0
    shift = 0
    for name, width in _FIELDS:
        bits |= values[name] << shift
        shift += width
    return _encode_b64(bits, 9, 12)


def decode_match_id(match_id: str) -> MatchKey:
    """The :class:`MatchKey` of a Match ID.

    >>> k = decode_match_id("QYkqASAAIAAA")
    >>> k.cube_value, k.cube_owner, k.match_length, k.score
    (2, 0, 9, (2, 4))

    :raises InvalidMatchIdError: when the text is not 12 base64 characters or holds impossible
        values (a cube owner of 2, a die of 7, a game state above 4, ...).
    """
    bits = _decode_b64(match_id, 12, 9, "Match ID", InvalidMatchIdError)
    v: dict[str, int] = {}
    for name, width in _FIELDS:
        v[name] = bits & ((1 << width) - 1)
        bits >>= width
    if v["owner"] == 2:
        raise InvalidMatchIdError(f"{match_id!r} is not a Match ID: cube owner bits are 10")
    if v["game_state"] > 4:
        raise InvalidMatchIdError(f"{match_id!r} is not a Match ID: game state {v['game_state']}")
    try:
        return MatchKey(
            cube_value=1 << v["cube"],
            cube_owner=None if v["owner"] == 3 else v["owner"],
            player_on_roll=v["player_on_roll"],
            crawford=bool(v["crawford"]),
            game_state=GameState(v["game_state"]),
            turn=v["turn"],
            double_offered=bool(v["double_offered"]),
            resignation=v["resignation"],
            dice=(v["die1"], v["die2"]),
            match_length=v["match_length"],
            score=(v["score0"], v["score1"]),
            jacoby=not v["no_jacoby"],
        )
    except InvalidMatchIdError as exc:
        raise InvalidMatchIdError(f"{match_id!r} is not a valid Match ID: {exc}") from None

"""The backgammon rules engine: positions, legal plays, notation, GNU Backgammon IDs, games and
matches. Pure standard-library Python, no I/O; dice always come from the caller.

>>> from engine import Position, legal_plays, parse_play
>>> pos = Position.initial()
>>> play = parse_play("8/5 6/5", pos, (3, 1))
>>> play in legal_plays(pos, (3, 1))
True
>>> pos.apply(play).position_id()
'sGfwATDgc/ABMA'
"""

from engine.context import MAX_CUBE, MatchContext
from engine.errors import (
    AmbiguousPlayError,
    BackgammonError,
    GameStateError,
    IllegalPlayError,
    InvalidMatchIdError,
    InvalidPositionError,
    InvalidPositionIdError,
    PlaySyntaxError,
)
from engine.game import Event, EventKind, Game, GameResult, Phase, ResultReason
from engine.ids import GameState, MatchKey, decode_match_id, encode_match_id
from engine.match import Match
from engine.matfile import MatFileError, read_mat, write_mat
from engine.movegen import Dice, Move, Play, legal_plays, validate_dice
from engine.notation import format_play, parse_play
from engine.position import BAR, OFF, Point, Position
from engine.turn import Turn
from engine.variant import UnknownVariantError, Variant

__all__ = [
    "BAR",
    "MAX_CUBE",
    "OFF",
    "AmbiguousPlayError",
    "BackgammonError",
    "Dice",
    "Event",
    "EventKind",
    "Game",
    "GameResult",
    "GameState",
    "GameStateError",
    "IllegalPlayError",
    "InvalidMatchIdError",
    "InvalidPositionError",
    "InvalidPositionIdError",
    "MatFileError",
    "Match",
    "MatchContext",
    "MatchKey",
    "Move",
    "Phase",
    "Play",
    "PlaySyntaxError",
    "Point",
    "Position",
    "ResultReason",
    "Turn",
    "UnknownVariantError",
    "Variant",
    "decode_match_id",
    "encode_match_id",
    "format_play",
    "legal_plays",
    "parse_play",
    "read_mat",
    "validate_dice",
    "write_mat",
]

"""Small builders shared by the database tests."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from db.games import NewGame
from db.gamestate import create_match_game
from db.models import Game
from db.players import ensure_player
from engine import Match
from tests.db.conftest import NOW

ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}


def add_players(s: Session, *ids: int) -> None:
    for pid in ids or tuple(NAMES):
        ensure_player(s, pid, NAMES.get(pid, f"p{pid}"), now=NOW)


def opened_match(length: int = 0, *, cube: bool = True) -> Match:
    """A match whose first game is past the opening roll: player 0 to play 3-1."""
    m = Match(length=length, cube=cube)
    m.game.opening_roll(3, 1)
    return m


def new_game(
    s: Session,
    p0: int | None = ALICE,
    p1: int | None = BOB,
    *,
    match: Match | None = None,
    **kwargs: Any,
) -> Game:
    m = match or opened_match(kwargs.pop("length", 0))
    return create_match_game(s, m, NewGame(player0_id=p0, player1_id=p1, **kwargs), now=NOW)

"""Loading a game for an action (bot.service.tables): whether it is a tournament's match is asked
of the database once per game, not at every press (issue 19: it was a tenth of a press's time)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import pytest
from sqlalchemy import Engine, event
from sqlalchemy.orm import Session, sessionmaker

import db.tournaments
from bot.service import Service, Where
from bot.service import tables as tables_module
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, labels, press


def _asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    asked: list[int] = []
    real = db.tournaments.match_of_game

    def counting(session, game_id):  # type: ignore[no-untyped-def]
        asked.append(game_id)
        return real(session, game_id)

    monkeypatch.setattr(db.tournaments, "match_of_game", counting)
    return asked


def _game(service: Service, script: deque[int]):  # type: ignore[no-untyped-def]
    script.extend([3, 1])  # the opening roll: Alice (the challenger's seat) starts with 3-1
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    return press(service, BOB, made, "Accept")


def test_tournament_membership_is_asked_once_per_game(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    asked = _asked(monkeypatch)
    board = _game(service, script)
    assert board.game_id is not None
    for _ in range(3):  # choose a die, then a checker... whatever the board offers
        mover = ALICE if board.mentions and board.mentions[0] == ALICE.id else BOB
        wanted = next(n for n in labels(board) if n != "Resign")
        board = press(service, mover, board, wanted)
        assert not board.ephemeral, board.text
    assert asked.count(board.game_id) == 1


def test_the_memory_of_games_is_bounded(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tables_module, "KNOWN_GAMES", 1)
    asked = _asked(monkeypatch)
    first = _game(service, script)
    other = Where(channel_id=CHANNEL.channel_id + 1, guild_id=CHANNEL.guild_id)
    script.extend([3, 1])
    made = service.challenge(CAROL, other, BOB, rated=False)
    assert made.buttons, made.text
    second = press(service, BOB, made, "Accept", other)
    service.board(ALICE, CHANNEL)
    service.board(CAROL, other)
    known = service.deps.tournament_games
    assert list(known) == [second.game_id] and known[second.game_id] is False
    service.board(ALICE, CHANNEL)  # forgotten: asked again
    assert asked.count(first.game_id) == 2 and asked.count(second.game_id) == 1


def _selects(engine: Engine) -> tuple[list[str], Callable[[], None]]:
    """The tables each SELECT reads, recorded until the returned function is called."""
    seen: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        words = sql.split()
        if words[0].upper() == "SELECT":
            seen.append(words[words.index("FROM") + 1])

    event.listen(engine, "before_cursor_execute", record)
    return seen, lambda: event.remove(engine, "before_cursor_execute", record)


def test_a_press_reads_the_game_and_its_players_once(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    """Who acts, the seats' names and both players' settings: one query for the players, however
    many times the action asks (each ask was a query of its own: up to six a press)."""
    board = _game(service, script)  # Alice to play 3-1
    script.extend([6, 5])  # Bob's roll after Alice's play
    seen, stop = _selects(factory.kw["bind"])
    try:
        for _ in range(3):  # a die or a checker, then Confirm: it ends the turn and rolls
            wanted = "Confirm" if "Confirm" in labels(board) else labels(board)[0]
            seen.clear()
            board = press(service, ALICE, board, wanted)
            assert not board.ephemeral, board.text
            assert seen.count("players") == 1, (wanted, seen)
            assert seen.count("games") == 1, (wanted, seen)
    finally:
        stop()
    assert "Confirm" not in labels(board)  # the last press did end the turn

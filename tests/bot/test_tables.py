"""Loading a game for an action (bot.service.tables): whether it is a tournament's match is asked
of the database once per game, not at every press (issue 19: it was a tenth of a press's time)."""

from __future__ import annotations

from collections import deque

import pytest

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

"""One player in two tournaments of one channel, both started at the same moment (issue 27,
item 4): both start. A player may be in two tournaments; one active game per player and
channel puts his second match outside the channel, as for a player busy there with a casual
game. On PostgreSQL both starts checked the channel before either stored its game, and the
second one's game was refused by the one-game-per-seat index, which refused the whole start:
that tournament stayed in registration.

On SQLite and on PostgreSQL (``TEST_POSTGRES_URL``), with the fuzzing tests' database fixture.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import bot.tournaments.running.run as tournament_run
from bot.service import Actor, Reply, Service
from db import tournaments as repo
from db.models import Game as GameRow
from db.models import TournamentStatus
from tests.bot.conftest import Clock
from tests.bot.test_fuzz_service import factory  # noqa: F401 (SQLite and PostgreSQL)
from tests.bot.test_tournaments import HERE
from tests.bot.tournament_players import ORGANIZER
from tests.db.test_concurrency import race

BOTH = Actor(1001, "Pat", locale="en-US")  # in both tournaments
ANN, BEN = Actor(1002, "Ann", locale="en-US"), Actor(1003, "Ben", locale="en-US")


def _registered(service: Service, name: str, other: Actor) -> int:
    created = service.tournament(ORGANIZER, HERE, "create", name=name)
    assert not created.ephemeral, created.text
    tid = int(created.buttons[0].custom_id.split(":")[1])
    for player in (BOTH, other):
        joined = service.tournament(player, HERE, "join", tournament=tid)
        assert not joined.ephemeral, joined.text
    return tid


def _checks_meet(monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL: each start waits, once it has checked the channel for its players' games,
    until the other has checked too, so that neither sees the other's game (the race, every
    time). SQLite runs one write transaction at a time: the second start would wait for the
    first to commit before it could check, so the barrier would never be met there."""
    real = tournament_run.active_game_in_channel
    met = threading.Barrier(2)
    waited: set[int] = set()

    def checked(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        if threading.get_ident() not in waited:
            waited.add(threading.get_ident())
            met.wait()
        return found

    monkeypatch.setattr(tournament_run, "active_game_in_channel", checked)


def test_one_player_in_two_tournaments_started_at_once_plays_in_both(
    factory: sessionmaker[Session],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    service = Service(factory, clock=Clock())
    tids = [_registered(service, "Monday", ANN), _registered(service, "Tuesday", BEN)]
    if factory.kw["bind"].dialect.name == "postgresql":
        _checks_meet(monkeypatch)
    replies: list[Reply] = []

    def start(tid: int) -> Any:
        def action(barrier: threading.Barrier) -> str:
            barrier.wait()
            replies.append(service.tournament(ORGANIZER, HERE, "start", tournament=tid))
            return "started"

        return action

    assert race(start(tids[0]), start(tids[1])) == ["started", "started"]
    assert [r.text for r in replies if r.ephemeral] == []
    with factory() as s:
        assert [repo.get_tournament(s, t).status for t in tids] == [TournamentStatus.RUNNING] * 2
        games = s.scalars(select(GameRow)).all()
        channels = sorted(
            g.channel_id or 0 for g in games if BOTH.id in (g.player0_id, g.player1_id)
        )
    assert channels == [0, HERE.channel_id]  # one match in the channel, the other outside

"""The service when the database fails it (issue 20, items 4 and 12): a specific, translated
reply that changed nothing, and the timer sweep against a move that commits under its feet."""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session, sessionmaker

import db.connection
import db.games
from bot.i18n import t
from bot.service import Actor, Reply, Service, Settings
from bot.service.deps import Deps, answers
from db import players as player_repo
from db.connection import make_engine, make_session_factory
from db.errors import DatabaseUnavailable
from db.migrate import upgrade
from db.models import Game as GameRow
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, Clock, ScriptedDice, press
from tests.db.conftest import NOW

HOURS = 4


def service_on(factory: sessionmaker[Session], script: deque[int], clock: Clock) -> Service:
    return Service(
        factory,
        settings=Settings(move_timeout=timedelta(hours=HOURS)),
        clock=clock,
        new_dice=lambda: ScriptedDice(script, bytes(range(32))),
        dice_for=lambda seed, counter: ScriptedDice(script, seed, counter),
    )


def version(factory: sessionmaker[Session], game_id: int) -> int:
    with factory() as s:
        row = s.get(GameRow, game_id)
        assert row is not None
        return row.version


# -- item 12 ----------------------------------------------------------------------------------


@pytest.fixture
def impatient(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    """A SQLite database whose writers give up after 0.1 s instead of 5 s."""
    monkeypatch.setattr(db.connection, "BUSY_TIMEOUT_MS", 100)
    engine = make_engine(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.mark.parametrize("locale", ["en-US", "fr"])
def test_a_locked_database_gets_a_specific_translated_reply_and_nothing_changes(
    impatient: Engine, script: deque[int], clock: Clock, locale: str
) -> None:
    factory = make_session_factory(impatient)
    service = service_on(factory, script, clock)
    alice = Actor(ALICE.id, ALICE.name, locale=locale)
    script.extend([5, 2])
    board = service.play(alice, DM, level="beginner")
    assert board.game_id is not None and not board.ephemeral
    before = version(factory, board.game_id)
    other_process = sqlite3.connect(str(impatient.url.database), isolation_level=None)
    try:
        other_process.execute("BEGIN IMMEDIATE")  # holds the write lock past the busy timeout
        reply = service.move(alice, DM, "13/8 13/11")
        lang = "fr" if locale == "fr" else "en"
        assert reply.ephemeral and reply.text == t("error.database_unavailable", lang)
        other_process.execute("ROLLBACK")
    finally:
        other_process.close()
    assert version(factory, board.game_id) == before  # nothing half-applied
    assert not service.move(alice, DM, "13/8 13/11").ephemeral  # and it works again
    assert version(factory, board.game_id) > before


def test_the_message_reads_as_a_player_would_expect() -> None:
    assert t("error.database_unavailable", "en") == (
        "The database is unavailable right now, so nothing was done: try again in a moment."
    )
    assert "base de données est indisponible" in t("error.database_unavailable", "fr")


# -- item 4 -----------------------------------------------------------------------------------


def test_the_sweep_sends_no_claim_offer_when_the_late_player_moved_meanwhile(
    factory: sessionmaker[Session],
    script: deque[int],
    clock: Clock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Forced interleaving: the sweep has read the game (Alice out of time), then her move
    commits, then the sweep records its notice: it must not, and must send nothing."""
    timed = service_on(factory, script, clock)
    made = timed.challenge(ALICE, CHANNEL, BOB, rated=False)
    script.extend([5, 2])
    board = press(timed, BOB, made, "Accept")  # Alice to play 5-2
    clock.advance(hours=HOURS, minutes=1)  # past her deadline: a claim offer is due
    real = db.games.advance_timer_stage
    moved: list[bool] = []

    def move_first(*args: Any, **kwargs: Any) -> bool:
        moved.append(not timed.move(ALICE, CHANNEL, "13/8 13/11").ephemeral)
        return real(*args, **kwargs)

    monkeypatch.setattr(db.games, "advance_timer_stage", move_first)
    assert timed.sweep() == []
    assert moved == [True]
    monkeypatch.setattr(db.games, "advance_timer_stage", real)
    with factory() as s:
        row = s.get(GameRow, board.game_id)
        assert row is not None and row.turn == 1 and row.timer_stage == 0
    # Bob's fresh deadline gets its own notices, from the start.
    clock.advance(hours=HOURS - 1, minutes=1)
    (reminder,) = timed.sweep()
    assert reminder.reply.mentions == (BOB.id,) and "minutes left" in reminder.reply.text


class _Outage:
    """A use case whose unit of work fails on the database, before or after reading its actor."""

    def __init__(self, deps: Deps, *, read_actor_first: bool) -> None:
        self.deps, self.read_actor_first, self.asked = deps, read_actor_first, 0
        real = deps.language_of

        def counted(actor: Actor) -> str:
            self.asked += 1
            return real(actor)

        deps.language_of = counted  # type: ignore[method-assign]

    @answers
    def act(self, actor: Actor) -> Reply:
        with self.deps.unit() as s:
            if self.read_actor_first:
                self.deps.who(s, actor)
            raise DatabaseUnavailable("the server went away")


def test_an_outage_is_refused_in_the_language_known_without_a_second_session(
    factory: sessionmaker[Session],
) -> None:
    """The one refusal mapping (``@answers``): the actor's own language when the action had read
    it, else his client's; never a second trip to the database that just failed."""
    with factory.begin() as s:
        player_repo.ensure_player(s, ALICE.id, ALICE.name, now=NOW)
        player_repo.set_preferences(s, ALICE.id, lang="fr")
    english_client = Actor(ALICE.id, ALICE.name, locale="en-US")
    read = _Outage(Deps(factory), read_actor_first=True)
    assert read.act(english_client).text == t("error.database_unavailable", "fr")
    early = _Outage(Deps(factory), read_actor_first=False)
    reply = early.act(english_client)
    assert reply.ephemeral and reply.text == t("error.database_unavailable", "en")
    assert read.asked == early.asked == 0

"""The database misbehaving (issue 20, items 3, 8, 9 and 12): every action fails fast with
:class:`~db.errors.DatabaseUnavailable`, writes nothing, and the next one works once the
database is back, with no restart."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import URL, Engine, event, func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

import db.connection
from db import challenges, games, players, puzzles, tournaments
from db.connection import make_engine, make_session_factory
from db.errors import ChallengeClosed, DatabaseUnavailable, GameNotFound
from db.gamestate import load_match, save_match
from db.models import ChallengeStatus, GameEvent
from db.resilience import (
    IDLE_IN_TRANSACTION_TIMEOUT_MS,
    REPLY_TIMEOUT_S,
    STATEMENT_TIMEOUT_MS,
    limits,
)
from tests.db.helpers import ALICE, BOB, add_players, new_game

ROOT = Path(__file__).resolve().parents[2]
Factory = sessionmaker[Session]


def play(factory: Factory, game_id: int) -> str:
    """One action on the game: the next roll and the first legal play, in one unit of work."""
    with factory.begin() as s:
        row = games.get_game(s, game_id)
        m = load_match(row)
        if m.game.phase.name == "ROLL":
            m.game.roll((6, 5))
        plays = m.game.legal_plays()
        if plays:
            m.game.play(plays[0])
        save_match(s, row, m)
    return "ok"


def outcome_within(fn: Callable[[], str], limit: float = 120.0) -> tuple[str, float]:
    """``fn``'s result or exception class name, and how long it took; a hang past ``limit``
    (the defect) fails the test instead of hanging the suite."""
    box: list[str] = []
    start = time.monotonic()

    def run() -> None:
        try:
            box.append(fn())
        except Exception as exc:
            box.append(type(exc).__name__)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(limit)
    assert box, f"the action still had not returned after {limit} s"
    return box[0], time.monotonic() - start


# -- item 3: a PostgreSQL that stops answering ---------------------------------------------


class SilenceableProxy:
    """A TCP proxy on 127.0.0.1 to the database that can go silent: it then keeps every
    connection open and accepts new ones, but forwards nothing (a frozen host, a partition
    where the kernel still acknowledges the packets)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.flowing = threading.Event()
        self.flowing.set()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
                upstream = socket.create_connection(self.target)
            except OSError:
                return
            self.sockets += [client, upstream]
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                self.flowing.wait()  # silent: hold the bytes, close nothing
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.flowing.set()
        self.listener.close()
        for sock in self.sockets:
            sock.close()


@pytest.fixture
def proxy(db_kind: str, url: URL) -> Iterator[SilenceableProxy]:
    if db_kind != "postgres":
        pytest.skip("a network between the bot and the database: PostgreSQL only")
    p = SilenceableProxy(url.host or "127.0.0.1", url.port or 5432)
    yield p
    p.close()


def test_a_silent_postgres_fails_actions_fast_and_they_work_again_when_it_answers(
    factory: Factory, url: URL, proxy: SilenceableProxy
) -> None:
    via_proxy = url.set(host="127.0.0.1", port=proxy.port).update_query_dict(
        {"connect_timeout": "2"}
    )
    engine = make_engine(via_proxy, reply_timeout=1.0)
    try:
        through = make_session_factory(engine)
        with factory.begin() as s:
            add_players(s)
            game_id = new_game(s).id
        assert play(through, game_id) == "ok"  # a pooled connection exists now
        proxy.flowing.clear()
        # First on the pooled connection (the ping, then the reconnection), then on a new one.
        for _ in range(2):
            outcome, took = outcome_within(lambda: play(through, game_id))
            assert outcome == "DatabaseUnavailable"
            assert took < 30, took  # seconds (connect 2 s + reply 1 s), not minutes
        with factory() as s:
            assert games.get_game(s, game_id).version == 2  # nothing half-applied
        proxy.flowing.set()
        assert outcome_within(lambda: play(through, game_id))[0] == "ok"
        with factory() as s:
            assert games.get_game(s, game_id).version == 3
    finally:
        engine.dispose()


def test_postgres_sessions_carry_the_time_limits(db_kind: str, engine: Engine) -> None:
    if db_kind != "postgres":
        pytest.skip("PostgreSQL settings")
    with engine.connect() as conn:
        # pg_settings gives milliseconds, where SHOW picks a unit ("5s", "1min").
        ms = "SELECT setting FROM pg_settings WHERE name = %s"
        shown = conn.exec_driver_sql(ms, ("statement_timeout",)).scalar_one()
        idle = conn.exec_driver_sql(ms, ("idle_in_transaction_session_timeout",)).scalar_one()
        params = conn.connection.dbapi_connection.info.get_parameters()  # type: ignore[union-attr]
    assert shown == str(limits()[1])  # the suite's own, see tests/conftest.py
    assert idle == str(IDLE_IN_TRANSACTION_TIMEOUT_MS)
    assert params["keepalives"] == "1" and params["connect_timeout"] == "4"
    assert params["tcp_user_timeout"] == "15000"


def test_the_time_limits_come_from_the_environment_when_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DATABASE_REPLY_TIMEOUT", raising=False)
    monkeypatch.delenv("DATABASE_STATEMENT_TIMEOUT_MS", raising=False)
    assert limits() == (REPLY_TIMEOUT_S, STATEMENT_TIMEOUT_MS)
    monkeypatch.setenv("DATABASE_STATEMENT_TIMEOUT_MS", "20000")
    assert limits() == (22.0, 20000)  # the client waits longer than the server
    monkeypatch.setenv("DATABASE_REPLY_TIMEOUT", "30")
    assert limits() == (30.0, 20000)


def test_a_statement_stuck_on_a_lock_fails_with_database_unavailable(
    db_kind: str, url: URL, factory: Factory
) -> None:
    """A transaction that holds the game's row and never ends (a frozen bot process)."""
    if db_kind != "postgres":
        pytest.skip("row locks and statement_timeout: PostgreSQL")
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    quick = make_engine(url, statement_timeout_ms=300)
    try:
        with factory.begin() as holder:
            games.cache_review(holder, game_id, {"held": True})  # locks the row until the end
            outcome, _ = outcome_within(lambda: play(make_session_factory(quick), game_id))
        assert outcome == "DatabaseUnavailable"
        assert play(make_session_factory(quick), game_id) == "ok"
    finally:
        quick.dispose()


def test_a_connection_dropped_mid_action_writes_nothing(
    db_kind: str, engine: Engine, factory: Factory
) -> None:
    if db_kind != "postgres":
        pytest.skip("a server that drops the connection: PostgreSQL")
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    with pytest.raises(DatabaseUnavailable), factory.begin() as s:
        pid = s.execute(text("SELECT pg_backend_pid()")).scalar_one()
        row = games.get_game(s, game_id)
        m = load_match(row)
        m.game.play(m.game.legal_plays()[0])
        save_match(s, row, m)  # flushed, not committed
        with engine.connect() as admin:
            admin.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    with factory() as s:
        row = games.get_game(s, game_id)
        logged = s.scalar(select(func.count()).where(GameEvent.game_id == game_id))
        assert (row.version, row.event_count, logged) == (1, 1, 1)
    assert play(factory, game_id) == "ok"  # the pool replaced the dead connection


def test_a_server_that_refuses_connections_is_database_unavailable(db_kind: str) -> None:
    if db_kind != "postgres":
        pytest.skip("a server that is down: PostgreSQL")
    with socket.create_server(("127.0.0.1", 0)) as free:
        port = free.getsockname()[1]  # closed again below: nobody listens there
    engine = make_engine(f"postgresql+psycopg://postgres@127.0.0.1:{port}/test")
    try:
        with pytest.raises(DatabaseUnavailable), make_session_factory(engine)() as s:
            players.get_player(s, ALICE)
    finally:
        engine.dispose()


# -- items 9 and 12 on SQLite ----------------------------------------------------------------


def test_sqlite_locked_past_the_busy_timeout_is_database_unavailable(
    db_kind: str, url: URL, factory: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    if db_kind != "sqlite":
        pytest.skip("SQLite's write lock")
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    monkeypatch.setattr(db.connection, "BUSY_TIMEOUT_MS", 100)
    impatient = make_engine(url)
    blocker = sqlite3.connect(str(url.database), isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        outcome, _ = outcome_within(lambda: play(make_session_factory(impatient), game_id))
        assert outcome == "DatabaseUnavailable"
        blocker.execute("ROLLBACK")
        with factory() as s:
            assert games.get_game(s, game_id).version == 1
        assert play(make_session_factory(impatient), game_id) == "ok"
    finally:
        blocker.close()
        impatient.dispose()


def test_a_sqlite_file_that_was_read_only_for_a_while_works_again(tmp_path: Path) -> None:
    outcomes = _read_only_for_a_while(_file_modes_bind(), tmp_path / "bot.sqlite3")
    assert outcomes == ["DatabaseUnavailable", "ok", "ok", "ok"]


def _file_modes_bind() -> list[str]:
    """The command prefix under which a file's mode binds the worker. Root writes a read-only
    file through CAP_DAC_OVERRIDE: he stays root (the checkout and the venv are his to read,
    wherever they live, even under a 0700 directory) but without that capability, so 0444
    stops him as it stops the file's owner; an ordinary user needs nothing."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only file cannot be made")
    return [setpriv, "--bounding-set=-dac_override", "--"]


def _read_only_for_a_while(as_user: list[str], path: Path) -> list[str]:
    worker = subprocess.Popen(
        [*as_user, sys.executable, "-m", "tests.db.readonly_worker", str(path)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert worker.stdin is not None and worker.stdout is not None
    try:
        assert worker.stdout.readline().strip() == "created"
        other = sqlite3.connect(path)  # another bot process: the WAL files stay
        other.execute("SELECT count(*) FROM presses").fetchone()
        worker.stdin.write("go\n")
        worker.stdin.flush()
        outcomes = json.loads(worker.stdout.readline())
        other.close()
    finally:
        worker.kill()
        worker.wait()
    assert isinstance(outcomes, list)
    return outcomes


@pytest.mark.parametrize("stop", [KeyboardInterrupt, SystemExit])
def test_ctrl_c_during_a_statement_is_no_outage(stop: type[BaseException]) -> None:
    """Ctrl-C landing while a statement runs stays a KeyboardInterrupt: told as "database
    unavailable", the terminal answered it as a refusal and never left."""
    engine = make_engine("sqlite://")

    def interrupted(*args: object) -> bool:
        raise stop

    event.listen(engine.dialect, "do_execute", interrupted)
    with pytest.raises(stop), engine.connect() as connection:
        connection.execute(text("select 1"))
    event.remove(engine.dialect, "do_execute", interrupted)
    with engine.connect() as connection:  # the connection it spoilt was dropped: works again
        assert connection.execute(text("select 1")).scalar() == 1


def test_constraint_violations_are_not_outages(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
    with pytest.raises(IntegrityError), factory.begin() as s:
        new_game(s, ALICE, 999)  # no such player: a foreign key, a bug, not an outage


def test_a_database_file_that_cannot_be_opened_is_database_unavailable(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'missing' / 'dir' / 'bot.sqlite3'}")
    try:
        with pytest.raises(DatabaseUnavailable), make_session_factory(engine)() as s:
            players.get_player(s, ALICE)
    finally:
        engine.dispose()


# -- item 8: ids wider than the id columns -------------------------------------------------


@pytest.mark.parametrize("wide", [2**31, -(2**31) - 1, 2**53 - 1, 10**12 - 1, 2**63])
def test_an_id_past_the_columns_range_is_simply_not_found(factory: Factory, wide: int) -> None:
    with factory.begin() as s:
        add_players(s)
    with factory.begin() as s:
        with pytest.raises(GameNotFound):
            games.get_game(s, wide)
        assert challenges.get_challenge(s, wide) is None
        assert games.game_events(s, wide) == []
        with pytest.raises(ChallengeClosed):
            challenges.answer_challenge(s, wide, ChallengeStatus.ACCEPTED)
        assert tournaments.get_tournament(s, wide) is None
        assert tournaments.lock(s, wide) is None
        assert puzzles.get_puzzle(s, wide) is None
        assert puzzles.get_post(s, wide) is None
        assert players.get_player(s, BOB) is not None  # the session still works


def test_a_migration_waiting_for_another_process_is_not_cut_by_the_time_limits(
    db_kind: str, empty_url: URL
) -> None:
    """The second bot process to start waits for the first one's migration, however long."""
    if db_kind != "postgres":
        pytest.skip("statement_timeout and the reply bound: PostgreSQL")
    from db.migrate import _PG_LOCK, current_revision, head_revision, upgrade

    strict = make_engine(empty_url, statement_timeout_ms=100, reply_timeout=0.3)
    holder = make_engine(empty_url)
    try:
        with holder.connect() as first:  # "the first process", migrating
            first.exec_driver_sql(f"SELECT pg_advisory_lock({_PG_LOCK})")
            result: list[str] = []
            second = threading.Thread(
                target=lambda: result.append(outcome_within(lambda: upgrade(strict) or "ok")[0])
            )
            second.start()
            waiting = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
            while first.exec_driver_sql(waiting).scalar_one() == 0:
                time.sleep(0.05)
            time.sleep(1.0)  # well past both limits of the waiting process
            first.exec_driver_sql(f"SELECT pg_advisory_unlock({_PG_LOCK})")
            second.join(120)
        assert result == ["ok"]
        assert current_revision(strict) == head_revision()
        with strict.connect() as conn:  # the limits are back for ordinary work
            assert conn.exec_driver_sql("SHOW statement_timeout").scalar_one() == "100ms"
    finally:
        strict.dispose()
        holder.dispose()

"""URLs and connection settings."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, text

from db.connection import BUSY_TIMEOUT_MS, DEFAULT_URL, database_url, make_engine, normalise_url


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (
            "postgres://u:p%40ss@db.example:5433/bg",
            "postgresql+psycopg://u:p%40ss@db.example:5433/bg",
        ),
        ("postgresql://u@h/bg?sslmode=require", "postgresql+psycopg://u@h/bg?sslmode=require"),
        ("postgresql+psycopg://u@h/bg", "postgresql+psycopg://u@h/bg"),
        ("sqlite:////var/lib/bg.sqlite3", "sqlite:////var/lib/bg.sqlite3"),
        ("mysql+pymysql://u@h/bg", "mysql+pymysql://u@h/bg"),
    ],
)
def test_urls_are_normalised_for_psycopg_3(given: str, expected: str) -> None:
    assert normalise_url(given).render_as_string(hide_password=False) == expected


def test_database_url_defaults_to_a_file_in_the_working_directory() -> None:
    assert database_url({}) == normalise_url(DEFAULT_URL)
    assert database_url({"DATABASE_URL": ""}) == normalise_url(DEFAULT_URL)
    assert database_url({"DATABASE_URL": "postgres://h/x"}).drivername == "postgresql+psycopg"


def test_the_default_database_is_created_where_the_bot_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    engine = make_engine()
    with engine.connect() as conn:
        conn.execute(text("CREATE TABLE t (x INTEGER)"))
    engine.dispose()
    assert (tmp_path / "backgammon.sqlite3").is_file()


def test_sqlite_connections_get_wal_full_sync_foreign_keys_and_a_busy_timeout(
    tmp_path: Path,
) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with engine.connect() as conn:
        pragma = {
            name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")
        }
    engine.dispose()
    assert pragma == {
        "journal_mode": "wal",
        "synchronous": 2,  # FULL
        "foreign_keys": 1,
        "busy_timeout": BUSY_TIMEOUT_MS,
    }


def test_a_connection_waits_for_another_holding_a_new_file_before_its_switch_to_wal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Processes starting together on a new file: SQLite refuses the switch to WAL at once
    ("database is locked", without its busy wait) while another connection holds a write lock
    on the file in its old journal mode. The new connection tries again instead of failing."""
    # However slowly this thread gets back to release the file on a busy machine.
    monkeypatch.setattr("db.connection.BUSY_TIMEOUT_MS", 600_000)
    path = tmp_path / "new.sqlite3"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TABLE t (x INTEGER)")  # the old journal mode ('delete')
    other.execute("BEGIN IMMEDIATE")
    engine = make_engine(f"sqlite:///{path}")
    tried = threading.Event()

    def watch(dbapi_connection: Any, _record: Any) -> None:
        def trace(statement: str) -> None:
            if "journal_mode" in statement:
                tried.set()

        dbapi_connection.set_trace_callback(trace)

    event.listen(engine, "connect", watch, insert=True)  # before the engine's own set-up
    modes: list[object] = []
    errors: list[BaseException] = []

    def connect() -> None:
        try:
            with engine.connect() as conn:
                modes.append(conn.exec_driver_sql("PRAGMA journal_mode").scalar())
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=connect)
    thread.start()
    try:
        assert tried.wait(60), "the new connection never tried to switch"
        assert thread.is_alive()  # refused, and still trying rather than failed
    finally:
        other.execute("COMMIT")
        other.close()
        thread.join(60)
        engine.dispose()
    assert errors == [] and modes == ["wal"]


def test_postgresql_urls_build_a_psycopg_engine() -> None:
    engine = make_engine("postgres://nobody@127.0.0.1:1/none")  # no connection is made
    assert engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg"
    assert engine.pool._pre_ping  # type: ignore[attr-defined]
    engine.dispose()


def test_synchronous_normal_can_be_chosen(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'n.sqlite3'}", sqlite_synchronous="NORMAL")
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1
    engine.dispose()
    with pytest.raises(ValueError, match="FULL or NORMAL"):
        make_engine(f"sqlite:///{tmp_path / 'o.sqlite3'}", sqlite_synchronous="OFF")  # type: ignore[arg-type]


def _no_busy_wait(engine: Engine) -> None:
    """SQLite's own wait off: a write that meets another's lock fails at once ("database is
    locked") unless the engine's writers queue before they reach SQLite."""

    def connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.execute("PRAGMA busy_timeout = 0")

    event.listen(engine, "connect", connect)


def test_writers_of_one_process_take_turns_before_sqlite_sees_them(tmp_path: Path) -> None:
    """Issue 30: a writer meeting SQLite's lock slept in its busy handler (1, 2, 5... up to
    100 ms a try) however soon the lock was free; the engine's writers queue in the process
    instead, each woken when the one before has committed. With SQLite's wait off, the second
    writer would fail at once without the queue."""
    engine = make_engine(f"sqlite:///{tmp_path / 'turns.sqlite3'}")
    _no_busy_wait(engine)
    with engine.begin() as c:
        c.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT)"))
    trying, errors = threading.Event(), list[BaseException]()

    def second() -> None:
        trying.set()
        try:
            with engine.begin() as c:
                c.execute(text("INSERT INTO t (who) VALUES ('second')"))
        except BaseException as error:
            errors.append(error)

    with engine.begin() as c:
        c.execute(text("INSERT INTO t (who) VALUES ('first')"))  # holds the write lock
        thread = threading.Thread(target=second)
        thread.start()
        trying.wait()
        thread.join(0.3)  # the second writer meanwhile: waiting for its turn, not failed
        assert not errors, errors
        assert thread.is_alive()
    thread.join()
    assert not errors, errors
    with engine.connect() as c:
        assert c.execute(text("SELECT who FROM t ORDER BY id")).scalars().all() == [
            "first",
            "second",
        ]
    engine.dispose()


def test_a_failed_unit_of_work_gives_its_turn_back(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'turns.sqlite3'}")
    _no_busy_wait(engine)
    with engine.begin() as c:
        c.execute(text("CREATE TABLE t (id INTEGER PRIMARY KEY)"))
    with pytest.raises(ZeroDivisionError), engine.begin() as c:
        c.execute(text("INSERT INTO t (id) VALUES (1)"))
        _ = 1 / 0
    done = threading.Event()

    def write() -> None:
        with engine.begin() as c:
            c.execute(text("INSERT INTO t (id) VALUES (2)"))
        done.set()

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    assert done.wait(60), "the failed unit of work kept the turn to write"
    engine.dispose()

"""Database URLs, engines and session factories.

SQLite is the default (a file in the working directory, so ``backgammon-bot`` works with no
set-up); ``DATABASE_URL`` selects any SQLAlchemy URL, PostgreSQL included when several bot
processes share one database.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Mapping
from functools import partial
from typing import Any, Literal

from sqlalchemy import URL, Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

from db.resilience import harden, postgres_connect_args

__all__ = [
    "BUSY_TIMEOUT_MS",
    "DEFAULT_URL",
    "database_url",
    "make_engine",
    "make_session_factory",
    "normalise_url",
]

DEFAULT_URL = "sqlite:///backgammon.sqlite3"
"""A file in the working directory: relative ``sqlite:///`` paths resolve against it."""

BUSY_TIMEOUT_MS = 5000
"""How long a SQLite writer waits for another writer's commit before giving up. Our write
transactions last about a millisecond, so five seconds only runs out when something is stuck."""


def normalise_url(url: str | URL) -> URL:
    """``url`` with PostgreSQL spelled for the psycopg 3 driver.

    Hosting platforms hand out ``postgres://`` (which SQLAlchemy rejects) or ``postgresql://``
    (which SQLAlchemy maps to psycopg2, which we do not ship).

    >>> normalise_url("postgres://u:p@h/db").render_as_string(hide_password=False)
    'postgresql+psycopg://u:p@h/db'
    >>> normalise_url("sqlite:///x.sqlite3").drivername
    'sqlite'
    """
    parsed = make_url(url)
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed


def database_url(environ: Mapping[str, str] | None = None) -> URL:
    """The URL the bot uses: ``DATABASE_URL`` when set and not empty, else :data:`DEFAULT_URL`."""
    env = os.environ if environ is None else environ
    return normalise_url(env.get("DATABASE_URL") or DEFAULT_URL)


def make_engine(
    url: str | URL | None = None,
    *,
    sqlite_synchronous: Literal["FULL", "NORMAL"] = "FULL",
    **kwargs: Any,
) -> Engine:
    """An engine for ``url`` (default :func:`database_url`), set up for the bot's workload.

    On SQLite every connection gets WAL (readers never block the writer), foreign keys (off by
    default in SQLite), a busy timeout (writers queue instead of failing at once) and
    ``synchronous=FULL``: each commit reaches the disk before the bot acknowledges the action,
    so an acknowledged move survives a power cut, not only a crash of the bot. That costs one
    fsync per action (about 0.2 ms on an idle disk, several ms on a busy one). ``NORMAL`` skips
    it: still safe against a killed process, but the last moves may be lost on a power cut.

    Every engine turns database outages into :class:`~db.errors.DatabaseUnavailable` and
    recovers from them by itself; PostgreSQL gets time limits (see :mod:`db.resilience`, whose
    ``reply_timeout`` and ``statement_timeout_ms`` may be given here).
    """
    target = database_url() if url is None else normalise_url(url)
    hardening = {k: kwargs.pop(k) for k in ("reply_timeout", "statement_timeout_ms") if k in kwargs}
    if target.get_backend_name() == "postgresql":
        kwargs.setdefault("pool_pre_ping", True)  # survive a server restart between interactions
        # Time limits and keepalives: a silent server fails an action in seconds (db.resilience).
        kwargs["connect_args"] = postgres_connect_args(
            target.query, dict(kwargs.get("connect_args") or {})
        )
    queue = _writer_queue(target, kwargs)
    engine = create_engine(target, **kwargs)
    harden(engine, **hardening)
    if engine.dialect.name == "sqlite":
        if sqlite_synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"sqlite_synchronous is FULL or NORMAL, not {sqlite_synchronous!r}")
        event.listen(engine, "connect", partial(_sqlite_on_connect, sqlite_synchronous))
    if queue is not None:
        queue.attach(engine)
    return engine


def _writer_queue(target: URL, kwargs: dict[str, Any]) -> WriterQueue | None:
    """A :class:`WriterQueue` for a SQLite engine (its connections' class put in ``kwargs``'
    ``connect_args``), None for any other."""
    if target.get_backend_name() != "sqlite" or target.get_driver_name() != "pysqlite":
        return None
    queue = WriterQueue()
    connect_args = dict(kwargs.get("connect_args") or {})
    connect_args.setdefault("factory", queue.connection_class())
    kwargs["connect_args"] = connect_args
    return queue


def _sqlite_on_connect(synchronous: str, dbapi_connection: Any, _record: Any) -> None:
    # pysqlite keeps its default transaction handling: it opens a transaction at the first
    # INSERT/UPDATE/DELETE. A unit of work therefore reads outside any transaction and writes in
    # one; the version-checked UPDATE of the game (see db.games) is what makes a stale read
    # harmless, and writers never fail with SQLITE_BUSY_SNAPSHOT the way a deferred
    # read-then-write transaction does when another writer commits in between.
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        _use_wal(cursor)
        cursor.execute(f"PRAGMA synchronous = {synchronous}")
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _use_wal(cursor: sqlite3.Cursor) -> None:
    """Switch the file to write-ahead logging ('memory' for an in-memory database).

    The switch needs the file to itself. When another connection holds a write lock on a file
    still in the old journal mode (processes starting together on a new file), SQLite answers
    "database is locked" at once, without waiting the busy timeout: try again until it has
    waited that long. The other connection's own switch usually settles it within
    milliseconds, and the file is then found in WAL mode already."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY  # extended codes too
            if not busy or time.monotonic() > deadline:
                raise
        time.sleep(0.005)


log = logging.getLogger(__name__)

_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


class WriterQueue:
    """The writers of one SQLite engine take turns in this process, in Python.

    SQLite lets one connection write at a time. A writer that finds the lock taken is told
    "busy" and its busy handler sleeps, 1, 2, 5, 10, 15, 20, 25... up to 100 ms, before each
    new try, however soon the lock is free again: with a few press threads writing at once a
    write of a millisecond made another wait tens of milliseconds (4 threads committing in a
    loop: p95 64 ms, max 547 ms, against 10 ms for one thread), and the more presses in
    flight, the longer. Here a connection's first write of a transaction waits for this lock
    instead, and gives it back as its commit or rollback returns (its connections are of a
    class of their own, :meth:`connection_class`), which wakes the next writer at once. Other
    processes on the same file still meet SQLite's own wait; a lock not obtained within the busy
    timeout is not waited for any longer (SQLite's wait then decides, as without this queue)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def connection_class(self) -> type[sqlite3.Connection]:
        """The class of this engine's connections (``sqlite3.connect(factory=...)``): they give
        the turn back when their transaction ends."""
        queue = self

        class TurnTaking(sqlite3.Connection):
            holds_turn = False

            def commit(self) -> None:
                try:
                    super().commit()
                finally:
                    queue.give_back(self)

            def rollback(self) -> None:
                try:
                    super().rollback()
                finally:
                    queue.give_back(self)

            def close(self) -> None:
                try:
                    super().close()
                finally:
                    queue.give_back(self)

        return TurnTaking

    def attach(self, engine: Engine) -> None:
        event.listen(engine, "before_cursor_execute", self._before)

    def _before(self, conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        raw = conn.connection.driver_connection
        if getattr(raw, "holds_turn", True) or not _writes(statement):
            return  # not one of ours (holds_turn unknown), or already its turn
        if self._lock.acquire(timeout=BUSY_TIMEOUT_MS / 1000):
            raw.holds_turn = True
        else:
            log.warning("no turn to write after %d ms: writing all the same", BUSY_TIMEOUT_MS)

    def give_back(self, raw: Any) -> None:
        if raw.holds_turn:
            raw.holds_turn = False
            self._lock.release()


def _writes(statement: str) -> bool:
    return statement.lstrip()[:7].upper().startswith(_WRITES)


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    """Sessions for units of work: ``with factory.begin() as s: ...`` commits on success and rolls
    back on any exception. Objects stay readable after the commit (``expire_on_commit=False``), so
    the bot can render the new state without another query, from any thread."""
    return sessionmaker(engine, expire_on_commit=False)

"""What the engine does when the database misbehaves: time limits, recovery, one error class.

- **A silent PostgreSQL** (a network partition, a frozen host: the server stops answering
  without closing anything) must not hang an action. libpq's ``connect_timeout`` bounds a new
  connection; TCP keepalives and ``tcp_user_timeout`` let the kernel notice a dead peer;
  ``statement_timeout`` makes the server give up on a statement (a lock held by a stuck
  transaction); ``idle_in_transaction_session_timeout`` frees the locks of a client that froze
  mid-action. None of those helps when the peer's kernel still acknowledges our packets (a
  stopped server process, a proxy that stopped forwarding), so every wait for the server's
  reply is also bounded on the client side (:data:`REPLY_TIMEOUT_S`): past it the connection
  is closed, the pool drops it, and the action fails with :class:`~db.errors.DatabaseUnavailable`.
- **A SQLite file that was read-only for a while**: connections opened meanwhile stay
  read-only for good, so "attempt to write a readonly database" invalidates the pool; the next
  action opens fresh connections and works once the file is writable again.
- **Every "operational" failure** (server down, connection dropped mid-action, disk full,
  "database is locked" past the busy timeout, a timeout above) reaches the caller as
  :class:`~db.errors.DatabaseUnavailable`, which the bot answers with a specific message.
  Programming errors and constraint violations are left alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import InterfaceError, OperationalError

from db.errors import DatabaseUnavailable

__all__ = [
    "CONNECT_TIMEOUT_S",
    "IDLE_IN_TRANSACTION_TIMEOUT_MS",
    "REPLY_TIMEOUT_S",
    "STATEMENT_TIMEOUT_MS",
    "TCP_OPTIONS",
    "harden",
    "limits",
    "postgres_connect_args",
    "without_time_limits",
]

CONNECT_TIMEOUT_S = 4
"""A new PostgreSQL connection (TCP, TLS, authentication) gives up after this long."""

STATEMENT_TIMEOUT_MS = 5000
"""The server cancels a statement after this long: our statements take milliseconds, so only a
lock held by something stuck gets there (the same bound as SQLite's busy timeout)."""

REPLY_TIMEOUT_S = 7.0
"""The client stops waiting for one reply of the server after this long (longer than
:data:`STATEMENT_TIMEOUT_MS`, so that a slow statement gets the server's own clean error
first); the connection is then closed, as its state is unknown."""

IDLE_IN_TRANSACTION_TIMEOUT_MS = 30000
"""A bot process frozen in the middle of an action loses its transaction (and its row locks)."""

TCP_OPTIONS: dict[str, int] = {
    "keepalives": 1,
    "keepalives_idle": 10,  # seconds of silence before the first probe
    "keepalives_interval": 3,
    "keepalives_count": 3,  # a dead peer is noticed after about 20 s of an idle connection
    "tcp_user_timeout": 15000,  # ms: unacknowledged data aborts the connection
}


def postgres_connect_args(url_query: Any, connect_args: dict[str, Any]) -> dict[str, Any]:
    """``connect_args`` with our timeouts and keepalives added, except those the URL's query
    or the caller already sets (a deployment may know better)."""
    wanted: dict[str, Any] = {"connect_timeout": CONNECT_TIMEOUT_S, **TCP_OPTIONS}
    return {
        **{k: v for k, v in wanted.items() if k not in url_query},
        **connect_args,
    }


def limits() -> tuple[float, int]:
    """The reply timeout (s) and statement timeout (ms) an engine gets when its caller names
    none: :data:`REPLY_TIMEOUT_S` and :data:`STATEMENT_TIMEOUT_MS`, unless the environment's
    ``DATABASE_REPLY_TIMEOUT`` or ``DATABASE_STATEMENT_TIMEOUT_MS`` says otherwise (a database
    far away, or a test suite on a machine so busy that a lock is held for seconds).
    """
    reply = float(os.environ.get("DATABASE_REPLY_TIMEOUT") or REPLY_TIMEOUT_S)
    statement = int(os.environ.get("DATABASE_STATEMENT_TIMEOUT_MS") or STATEMENT_TIMEOUT_MS)
    # The client must wait longer than the server, so that a slow statement gets its clean error.
    return max(reply, statement / 1000 + 2), statement


def harden(
    engine: Engine,
    *,
    reply_timeout: float | None = None,
    statement_timeout_ms: int | None = None,
) -> None:
    """Install the error translation on any engine, and the PostgreSQL time limits (by default
    those of :func:`limits`)."""
    default_reply, default_statement = limits()
    reply_timeout = default_reply if reply_timeout is None else reply_timeout
    if statement_timeout_ms is None:
        statement_timeout_ms = default_statement
    event.listen(engine, "handle_error", _on_error)
    if engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg":
        import psycopg

        # Connection.wait(timeout=...) and its _WaitTimeout: psycopg 3.3 (pinned); an older
        # one keeps the other limits only.
        if hasattr(psycopg.errors, "_WaitTimeout"):
            event.listen(engine, "do_connect", _connect_with_reply_timeout(reply_timeout))
        event.listen(engine, "connect", _set_session_timeouts(statement_timeout_ms))


def _on_error(ctx: ExceptionContext) -> BaseException | None:
    if ctx.is_pre_ping:
        return None  # the pool handles a failed ping itself: it reconnects
    original = ctx.original_exception
    if not isinstance(original, Exception):
        # Ctrl-C (KeyboardInterrupt) or an exit landing during a statement: SQLAlchemy counts
        # it as a disconnection (the connection's state is unknown), but it is no database
        # failure. Told as "database unavailable", it was swallowed and the terminal, its
        # SIGINT handler spent, never left.
        return None
    if ctx.dialect.name == "sqlite" and "readonly database" in str(original):
        # A connection opened while the file was read-only stays so even once the file is
        # writable again: drop the whole pool, the next checkout opens new connections.
        ctx.is_disconnect = True
        ctx.invalidate_pool_on_disconnect = True
    wrapped = ctx.sqlalchemy_exception
    if ctx.is_disconnect or isinstance(wrapped, OperationalError | InterfaceError):
        return DatabaseUnavailable(_first_line(original))
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _connect_with_reply_timeout(reply_timeout: float) -> Any:
    import psycopg

    class ReplyTimeoutConnection(psycopg.Connection[Any]):
        """Every wait for the server is bounded; past the bound the connection is closed (a
        query may be in flight: the connection's state is unknown), which the pool sees as a
        disconnection."""

        reply_timeout: float | None = None  # set per connection below; None: no bound

        def wait(self, gen: Any, interval: float = 0.1, timeout: float | None = None) -> Any:
            bound = self.reply_timeout if timeout is None else timeout
            try:
                return super().wait(gen, interval=interval, timeout=bound)
            except psycopg.errors._WaitTimeout:
                self.pgconn.finish()
                raise psycopg.OperationalError(
                    f"the database server did not answer within {bound:g} s"
                ) from None

    def do_connect(_dialect: Any, _record: Any, cargs: Any, cparams: Any) -> Any:
        connection = ReplyTimeoutConnection.connect(*cargs, **cparams)
        connection.reply_timeout = reply_timeout
        return connection

    return do_connect


def _set_session_timeouts(statement_timeout_ms: int) -> Any:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # SET rather than the ``options`` startup parameter: connection poolers (PgBouncer)
        # refuse unknown startup parameters. Committed, so it outlives this first transaction.
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET statement_timeout = {int(statement_timeout_ms)}")
            cursor.execute(
                f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_TIMEOUT_MS}"
            )
        dbapi_connection.commit()

    return on_connect


@contextmanager
def without_time_limits(conn: Connection) -> Iterator[None]:
    """Lift the time limits of a PostgreSQL connection inside its current transaction, for work
    that is long on purpose: a migration rewriting a big table, or waiting for another process's
    migration. (``SET LOCAL``: the server's limit comes back with the transaction's end; the
    client's bound comes back when the block ends.) Does nothing on SQLite."""
    if conn.dialect.name != "postgresql":
        yield
        return
    conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
    raw = conn.connection.driver_connection
    bounded = hasattr(raw, "reply_timeout")
    previous = getattr(raw, "reply_timeout", None)
    if bounded:
        raw.reply_timeout = None  # type: ignore[union-attr]
    try:
        yield
    finally:
        if bounded:
            raw.reply_timeout = previous  # type: ignore[union-attr]

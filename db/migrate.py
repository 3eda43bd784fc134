"""Schema migrations: the bot calls :func:`upgrade` on start.

Revisions live in ``db/migrations/versions`` (one file each, never edited once released). To add
one after changing :mod:`db.models`::

    .venv/bin/python -m db.migrate revision "add the thing"   # autogenerate, then read it over
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import URL, Connection, Engine

from db.connection import make_engine
from db.resilience import without_time_limits

__all__ = ["MIGRATIONS", "alembic_config", "current_revision", "head_revision", "upgrade"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config(engine: Engine | None = None, *, script_location: Path | None = None) -> Config:
    """An Alembic configuration for our migrations, without an ``alembic.ini`` file."""
    config = Config()
    config.set_main_option("script_location", str(script_location or MIGRATIONS))
    # Revision files sort by their numeric prefix (0001_..., 0002_...).
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if engine is not None:
        config.attributes["engine"] = engine
    return config


# Any constant will do: it names the lock that start-ups of the bot take on PostgreSQL.
_PG_LOCK = 0x6267_6D69_6772  # "bgmigr"


def _run(engine: Engine, fn_name: str, revision: str, config: Config | None = None) -> None:
    """Run an Alembic command in one transaction that holds the database against other bot
    processes starting at the same moment: the first migrates, the others then find nothing to
    do. A failure leaves the schema as it was."""
    config = config or alembic_config(engine)
    with engine.connect() as conn:
        config.attributes["connection"] = conn
        if conn.dialect.name == "sqlite":
            _run_sqlite(conn, lambda: getattr(command, fn_name)(config, revision))
            return
        # A migration may rewrite a big table, or wait for another process's: no time limits.
        with conn.begin(), without_time_limits(conn):
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_PG_LOCK})")
            getattr(command, fn_name)(config, revision)


MIGRATION_WAIT_MS = 10 * 60 * 1000  # how long a starting process waits for another's migration


def _run_sqlite(conn: Connection, migrate: Callable[[], None]) -> None:
    # pysqlite opens a transaction only before INSERT/UPDATE/DELETE, so DDL would be committed
    # statement by statement. The driver is switched to autocommit and the whole run goes in our
    # own BEGIN IMMEDIATE (which also makes a second process wait) ... COMMIT. Foreign keys are
    # off meanwhile (the pragma is ignored inside a transaction): batch mode rebuilds a table by
    # copy, DROP and RENAME, and a DROP with foreign keys on would delete, by cascade, every row
    # that references the table. They are checked all at once before the commit.
    raw = conn.connection.driver_connection
    assert raw is not None
    try:
        raw.isolation_level = None
        conn.exec_driver_sql("PRAGMA foreign_keys = OFF")
        # Another process's migration may take longer than a press's busy timeout (5 s) on a
        # slow or busy machine: wait for it, as PostgreSQL's advisory lock does, not fail.
        conn.exec_driver_sql(f"PRAGMA busy_timeout = {MIGRATION_WAIT_MS}")
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        try:
            migrate()
            broken = conn.exec_driver_sql("PRAGMA foreign_key_check").all()
            if broken:
                raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
            conn.exec_driver_sql("COMMIT")
        except BaseException:
            conn.exec_driver_sql("ROLLBACK")
            raise
    finally:
        conn.invalidate()  # its settings were changed: the pool must not hand it out again


def upgrade(target: str | URL | Engine | None = None, revision: str = "head") -> None:
    """Bring the database at ``target`` (an engine, a URL, or ``DATABASE_URL``/the default file)
    up to ``revision``. Safe to call on every start: it does nothing when already there, and
    processes starting together wait for each other."""
    if isinstance(target, Engine):
        _run(target, "upgrade", revision)
        return
    engine = make_engine(target)
    try:
        _run(engine, "upgrade", revision)
    finally:
        engine.dispose()


def downgrade(engine: Engine, revision: str) -> None:
    """Take the database back to ``revision`` (tests and emergencies only: data in dropped
    columns is lost)."""
    _run(engine, "downgrade", revision)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, None for an empty database."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, "no migrations found"
    return head


def revisions() -> list[str]:
    """Every revision id, oldest first."""
    script = ScriptDirectory.from_config(alembic_config())
    return [s.revision for s in reversed(list(script.walk_revisions()))]


def main(argv: list[str]) -> int:
    """``python -m db.migrate upgrade|current|revision MESSAGE`` on ``DATABASE_URL``."""
    if not argv or argv[0] not in ("upgrade", "current", "revision"):
        print(main.__doc__, file=sys.stderr)
        return 2
    engine = make_engine()
    try:
        if argv[0] == "upgrade":
            upgrade(engine)
        elif argv[0] == "current":
            print(current_revision(engine))
        else:
            config = alembic_config(engine)
            with engine.connect() as conn:
                config.attributes["connection"] = conn
                rev_id = f"{len(revisions()) + 1:04d}"
                command.revision(
                    config, message=" ".join(argv[1:]), autogenerate=True, rev_id=rev_id
                )
    finally:
        engine.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Schema migrations: the bot calls :func:`upgrade` on start.

Revisions live in ``db/migrations/versions`` (one file each, never edited once released). To add
one after changing :mod:`db.models`::

    .venv/bin/python -m db.migrate revision "add the thing"   # autogenerate, then read it over
"""

from __future__ import annotations

import sys
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import URL, Engine

from db.engine import make_engine

__all__ = ["MIGRATIONS", "alembic_config", "current_revision", "head_revision", "upgrade"]

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_MIGRATION_LOCK = 0x6267_6D69_6772  # "bgmigr": any constant shared by every bot process


def alembic_config(engine: Engine | None = None) -> Config:
    """An Alembic configuration for our migrations, without an ``alembic.ini`` file."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # Revision files sort by their numeric prefix (0001_..., 0002_...).
    config.set_main_option("file_template", "%%(rev)s_%%(slug)s")
    if engine is not None:
        config.attributes["engine"] = engine
    return config


def _run(engine: Engine, fn_name: str, revision: str) -> None:
    config = alembic_config(engine)
    # One transaction for all the revisions applied (transactional DDL on PostgreSQL and SQLite):
    # a failed upgrade leaves the schema where it was.
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # Several bot processes may start at once on an empty database, where Alembic's
            # version table does not exist yet to serialise them: take a lock of our own,
            # released with the transaction.
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
        config.attributes["connection"] = conn
        getattr(command, fn_name)(config, revision)


def upgrade(target: str | URL | Engine | None = None, revision: str = "head") -> None:
    """Bring the database at ``target`` (an engine, a URL, or ``DATABASE_URL``/the default file)
    up to ``revision``. Safe to call on every start: it does nothing when already there, and
    processes starting together on PostgreSQL serialise on an advisory lock."""
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

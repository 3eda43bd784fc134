"""Alembic's entry point: run the migrations on the connection :func:`db.migrate.upgrade` passes
(or on ``DATABASE_URL`` when the ``alembic`` command line is used)."""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from sqlalchemy.engine import Connection

from db.connection import make_engine
from db.models import Base
from db.types import UTCDateTime


def _render_item(kind: str, obj: Any, _autogen_context: Any) -> str | Literal[False]:
    # Revisions must not import the application's code (it changes, they must not): our UTC
    # wrapper is stored as a plain timezone-aware DateTime.
    if kind == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite cannot ALTER most things: batch mode rebuilds the table (copy, drop, rename).
        render_as_batch=True,
        compare_type=True,
        render_item=_render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url") or None
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            _run(conn)
    finally:
        engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline (--sql) migrations are not supported: run them on a database")
main()

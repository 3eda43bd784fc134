"""Dialect-specific statements the repositories share."""

from __future__ import annotations

from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

__all__ = ["insert_for"]


def insert_for(session: Session, model: type[Any]) -> Any:
    """An ``INSERT`` with ``on_conflict_do_nothing``/``on_conflict_do_update`` for the session's
    database. Upserts, unlike "SELECT then INSERT", stay correct when two processes create the
    same row at once (a player's first two clicks, a rating row)."""
    name = session.get_bind().dialect.name
    if name == "postgresql":
        return postgresql.insert(model)
    if name == "sqlite":
        return sqlite.insert(model)
    raise NotImplementedError(f"upserts are written for SQLite and PostgreSQL, not {name}")

"""Taking one row for a unit of work: the tournament's and the ladder's way of settling races.

Every change to a tournament or a ladder first bumps its row's ``version``: the UPDATE takes the
row's write lock (on PostgreSQL; the database's on SQLite) until the unit of work ends, so two
actions on one tournament or ladder run one after the other, each reading what the other wrote.
"""

from __future__ import annotations

from typing import Any, TypeVar

from sqlalchemy import update
from sqlalchemy.orm import Session

from db.ids import in_range
from db.models import Base

__all__ = ["lock_row"]


V = TypeVar("V", bound=Base)


def lock_row(session: Session, model: type[V], row_id: int) -> V | None:
    """Take the row ``row_id`` of ``model`` for this unit of work and read it fresh; None when
    there is none. ``model`` has an integer ``id`` and ``version``."""
    columns: Any = model  # (the columns are not on Base: its subclasses declare them)
    if not in_range(row_id):
        return None
    result = session.execute(
        update(model)
        .where(columns.id == row_id)
        .values(version=columns.version + 1)
        .execution_options(synchronize_session=False)
    )
    if getattr(result, "rowcount", 0) != 1:
        return None
    return session.get(model, row_id, populate_existing=True)

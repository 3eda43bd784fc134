"""Column types shared by the models."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import DateTime, Dialect
from sqlalchemy.types import TypeDecorator

__all__ = ["UTCDateTime", "utcnow"]


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC (the only kind of datetime the database holds)."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend.

    SQLite has no time zones: it stores the text and hands back naive datetimes, which would then
    fail to compare with aware ones (deadlines against ``utcnow()``). We convert to UTC on the way
    in and label the value as UTC on the way out.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value!r}: pass an aware UTC datetime")
        value = value.astimezone(UTC)
        # SQLite compares the stored text, so every value must be written the same way (naive,
        # UTC) for "deadline <= now" to order correctly.
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def copy(self, **kw: Any) -> UTCDateTime:
        return UTCDateTime()

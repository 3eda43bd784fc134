"""Database fixtures: every test here runs on SQLite and on PostgreSQL.

SQLite is a file (not ``:memory:``): the concurrency and crash tests need several connections and
processes on one database, as the bot has. PostgreSQL is used when ``TEST_POSTGRES_URL`` is set,
in a schema of its own per test run (two CI runs may share the server), dropped at the end. The
schema comes from the migrations, not ``create_all``, so every test also exercises them. Rows are
deleted after each test.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import URL, Engine, delete, make_url
from sqlalchemy.orm import Session, sessionmaker

from db.connection import make_engine, make_session_factory
from db.migrate import upgrade
from db.models import Base
from tests.pg import postgres_schema

NOW = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture(scope="session")
def pg_schema_url() -> Iterator[URL]:
    """A PostgreSQL URL whose connections work in a fresh schema of their own."""
    with postgres_schema("test") as url:
        yield url


@pytest.fixture(
    scope="session", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def db_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="session")
def db_engine(db_kind: str, request: pytest.FixtureRequest) -> Iterator[Engine]:
    """The test run's database, migrated to the head revision."""
    if db_kind == "sqlite":
        tmp: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
        url = make_url(f"sqlite:///{tmp.mktemp('db') / 'test.sqlite3'}")
    else:
        url = request.getfixturevalue("pg_schema_url")
    engine = make_engine(url)
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def empty_url(db_kind: str, request: pytest.FixtureRequest) -> Iterator[URL]:
    """An empty database of the same kind for one test: a new file, or a new schema."""
    if db_kind == "sqlite":
        tmp_path = request.getfixturevalue("tmp_path")
        yield make_url(f"sqlite:///{tmp_path / 'empty.sqlite3'}")
        return
    base: URL = request.getfixturevalue("pg_schema_url")
    with postgres_schema("empty", base) as url:
        yield url


@pytest.fixture
def engine(db_engine: Engine) -> Iterator[Engine]:
    """The migrated test database, emptied after the test."""
    yield db_engine
    with db_engine.begin() as conn:
        for table in reversed(Base.metadata.sorted_tables):
            conn.execute(delete(table))


@pytest.fixture
def factory(engine: Engine) -> sessionmaker[Session]:
    return make_session_factory(engine)


@pytest.fixture
def url(engine: Engine) -> URL:
    """The URL of the test database, for a second engine (another "process")."""
    return engine.url


def later(seconds: float) -> datetime:
    return NOW + timedelta(seconds=seconds)

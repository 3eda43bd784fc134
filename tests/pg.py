"""A fresh PostgreSQL schema for a test, on ``TEST_POSTGRES_URL``: every test that needs the
server gets its connections there, and the test is skipped where the server is absent."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import URL, make_url
from sqlalchemy.orm import Session, sessionmaker

from db.connection import make_engine, make_session_factory
from db.migrate import upgrade


@contextmanager
def postgres_schema(prefix: str, base: URL | None = None) -> Iterator[URL]:
    """A URL whose connections work in a new schema named ``prefix`` and a random tail,
    dropped afterwards; skips the test when ``TEST_POSTGRES_URL`` is unset or does not answer.
    ``base`` (a URL already in a schema of its own) is used instead of the variable."""
    if base is None:
        raw = os.environ.get("TEST_POSTGRES_URL")
        if not raw:
            pytest.skip("TEST_POSTGRES_URL is not set")
        base = make_url(raw)
    schema = f"{prefix}_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    admin = make_engine(base)
    try:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    except Exception as exc:  # a server that does not answer
        admin.dispose()
        pytest.skip(f"PostgreSQL does not answer: {type(exc).__name__}")
    try:
        yield base.update_query_dict({"options": f"-csearch_path={schema}"})
    finally:
        with admin.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


@contextmanager
def two_processes(url: str | URL) -> Iterator[tuple[sessionmaker[Session], sessionmaker[Session]]]:
    """Two processes' session factories (two engines) on the database at ``url``, migrated
    first; the engines disposed afterwards."""
    engines = [make_engine(url) for _ in range(2)]
    try:
        upgrade(engines[0])
        yield make_session_factory(engines[0]), make_session_factory(engines[1])
    finally:
        for engine in engines:
            engine.dispose()

"""Shared fixtures. PostgreSQL tests read TEST_POSTGRES_URL (.ci/run sets it when a server
answers on 127.0.0.1:5432)."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

# Property tests must not depend on the machine's speed: no deadline per example (Hypothesis's
# default is 200 ms) and no "too slow" health check (a busy machine generates data slowly; that
# is no failure). Every test's own settings start from this profile.
settings.register_profile(
    "any-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("any-machine")

# PostgreSQL's time limits (db.resilience) bound a stuck action to seconds in production; on a
# machine busy enough, two test processes contending for one tournament's lock can wait longer
# than that without anything being stuck. The tests that check the limits name their own.
# (The environment, so that the worker processes some tests start have the same.)
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", "60000")
os.environ.setdefault("DATABASE_REPLY_TIMEOUT", "90")


def load_corpus() -> list[dict[str, object]]:
    with open(DATA / "legal-plays.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_jsonl_gz(name: str) -> list[dict[str, Any]]:
    """A gzip-compressed JSON-lines file of tests/data (the data recorded from gnubg)."""
    with gzip.open(DATA / name, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(autouse=True)
def fresh_pools(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Every test gets its own :data:`bot.heavy.POOLS`. The pools count what is in flight on
    the event loop that submitted it; a job still running when its test's loop closes is never
    released, and with one per core left over every later interaction in the process counts as
    crowded and is deferred at once (a test on a 2-core machine expecting an ephemeral refusal
    then got a deferral, depending on which tests ran before it in the same worker)."""
    from bot import heavy

    pools = heavy.Pools()
    monkeypatch.setattr(heavy, "POOLS", pools)
    yield pools
    pools.ordinary.shutdown(wait=False, cancel_futures=True)
    pools.searches.shutdown(wait=False, cancel_futures=True)
    pools.analysis.shutdown()
    pools.hints.shutdown()
    pools.use_processes(0)


@pytest.fixture(scope="session")
def corpus() -> list[dict[str, object]]:
    return load_corpus()

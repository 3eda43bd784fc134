"""Shared fixtures. PostgreSQL tests read TEST_POSTGRES_URL (.ci/run sets it when a server
answers on 127.0.0.1:5432)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


def load_corpus() -> list[dict[str, object]]:
    with open(DATA / "legal-plays.jsonl", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def corpus() -> list[dict[str, object]]:
    return load_corpus()

"""Two bot processes on one PostgreSQL database drive one game: one acts for each player, as two
shards would. No state lives in a process: the game ends exactly as a one-process game with the
same dice seed, and nothing is lost or applied twice."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.crash import _consistent, _events, _row
from tests.pg import postgres_schema

ROOT = Path(__file__).resolve().parents[2]
HANG = 1800  # seconds: a guard against a hung worker only, however busy the machine


@pytest.fixture
def pg_url() -> Iterator[str]:
    with postgres_schema("shards") as url:
        yield url.render_as_string(hide_password=False)


def worker(db: str, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bench.crash_worker", "--db", db, "--channel", "42", *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "LOG_LEVEL": "WARNING"},
    )


@pytest.mark.slow
@pytest.mark.postgres
def test_two_processes_play_one_game(pg_url: str, tmp_path: Path) -> None:
    ann = worker(pg_url, "--only", "Ann")
    ben = worker(pg_url, "--only", "Ben")
    out_ann, err_ann = ann.communicate(timeout=HANG)
    out_ben, err_ben = ben.communicate(timeout=HANG)
    assert ann.returncode == 0, err_ann[-2000:]
    assert ben.returncode == 0, err_ben[-2000:]
    assert out_ann.count("\n") > 5 and out_ben.count("\n") > 5  # both processes acted
    final = _row(pg_url, 42)
    assert final is not None and final.status.value == "finished"
    assert _consistent(pg_url, final)
    reference_db = f"sqlite:///{tmp_path / 'ref.sqlite3'}"
    ref = worker(reference_db, "--seed", final.dice_seed or "")
    ref.communicate(timeout=HANG)
    reference = _row(reference_db, 42)
    assert reference is not None and _events(reference) == _events(final)

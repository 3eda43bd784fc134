"""kill -9 at a random moment loses no acknowledged action and leaves nothing half-applied.

A worker process plays scripted matches, printing an ``ack`` after each commit; the test kills
it with SIGKILL at a random moment, three times on one database (each run continues the games
the last one left), and after each kill checks that every acknowledged action is stored and that
every game's state, IDs and move log agree with each other.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import URL, select

from db.connection import make_engine, make_session_factory
from db.games import game_events
from db.gamestate import load_match, match_events
from db.models import Game, GameStatus

ROOT = Path(__file__).resolve().parents[2]
KILLS = 3

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX"),
    pytest.mark.slow,
]


def run_and_kill(url: URL, seed: int, rng: random.Random) -> list[list[str]]:
    """Start the worker, let it play a random number of actions, SIGKILL it; return its ack
    lines. The moment goes by progress, not by the clock (a busy machine only slows the worker
    down): after the k-th ack, plus a random part of the time that action took, so the kill
    falls anywhere in the next one, its commit included."""
    wanted, fraction = rng.randint(2, 30), rng.random()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.db.crash_worker", url.render_as_string(False), str(seed)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        seen: list[str] = []
        last = gap = 0.0
        while len(seen) < wanted:
            line = proc.stdout.readline()
            if not line.endswith("\n"):
                break  # the worker died: the returncode check below says so
            now = time.monotonic()
            gap, last = now - last, now
            seen.append(line)
        if len(seen) == wanted:  # (gap is the time of the last of at least two actions)
            time.sleep(fraction * gap)
        proc.send_signal(signal.SIGKILL)
        out = "".join(seen) + proc.stdout.read()
    finally:
        proc.kill()
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL, "the worker died before it was killed"
    # A line cut by the kill was never acknowledged: only whole lines count.
    lines = out.split("\n")[:-1] if not out.endswith("\n") else out.splitlines()
    return [line.split() for line in lines if line.startswith("ack ")]


def test_kill_9_loses_nothing_acknowledged(empty_url: URL) -> None:
    rng = random.Random()
    engine = make_engine(empty_url)
    factory = make_session_factory(engine)
    total = 0
    try:
        for round_no in range(KILLS):
            acks = run_and_kill(empty_url, rng.randrange(10**6), rng)
            assert len(acks) >= 2, "the worker was killed before its second ack"
            total += len(acks)
            with factory() as s:
                for _, game_id, count, position_id, match_id in acks:
                    log = game_events(s, int(game_id))
                    assert len(log) >= int(count), f"round {round_no}: lost game {game_id} rows"
                    last = log[int(count) - 1]
                    assert (last.position_id, last.match_id) == (position_id, match_id)
                for row in s.scalars(select(Game)):
                    _assert_whole(s, row)
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    finally:
        engine.dispose()
    assert total >= 2 * KILLS  # the kills landed in the middle of play


def _assert_whole(s: object, row: Game) -> None:
    """The row, its engine state and its move log describe one and the same moment."""
    log = game_events(s, row.id)  # type: ignore[arg-type]
    m = load_match(row)
    assert row.event_count == len(log)
    assert [(e.kind, e.game_no, e.play) for e in match_events(m)] == [
        (e.kind, e.game_no, e.play) for e in log
    ]
    assert (m.game.position_id(), m.game.match_id()) == (row.position_id, row.match_id)
    assert (row.status is GameStatus.ACTIVE) == (not m.is_over)
    if m.is_over:
        assert row.winner == m.winner and row.finished_at is not None

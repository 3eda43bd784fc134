"""Kill -9 at a random moment, restart, and check that nothing acknowledged was lost, nothing
was half-applied, and the game ends exactly as an uninterrupted game with the same seed.

The moment is chosen by progress, not by the clock: after a random number of acknowledged
actions, plus a random part of the time the last one took (so the kill falls anywhere inside the
next action, its commit included). A slow or busy machine only slows the game down; the kill
still lands mid-game.

Used by ``bench/bench_crash.py`` (50 games) and ``tests/bot/test_crash.py`` (a few)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import inspect, select

from db.connection import make_engine, make_session_factory
from db.gamestate import load_match, match_events
from db.models import Game as GameRow

ROOT = Path(__file__).resolve().parent.parent
_HANG = 1800  # seconds: only a hung worker takes this long, however busy the machine


@dataclass
class CrashResult:
    channel: int
    acknowledged: int  # actions printed before the kill
    killed_at: float  # seconds after start
    mid_game: bool  # the SIGKILL ended the worker while the game was in progress
    lost: bool  # an acknowledged action is missing from the database
    half_applied: bool  # the stored state and the move log disagree
    diverged: bool  # the resumed game differs from an uninterrupted one with the same seed
    finished: bool


def _worker(db_url: str, channel: int, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "LOG_LEVEL": "WARNING"}
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bench.crash_worker",
            "--db",
            db_url,
            "--channel",
            str(channel),
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )


def _row(db_url: str, channel: int) -> GameRow | None:
    """The channel's newest game, or None when there is none yet (a database whose migrations
    have not run yet, because the worker was still starting, has none either)."""
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            if not inspect(conn).has_table(GameRow.__tablename__):
                return None
        with make_session_factory(engine)() as s:
            row = s.scalars(
                select(GameRow).where(GameRow.channel_id == channel).order_by(GameRow.id.desc())
            ).first()
            if row is not None:
                s.expunge(row)
            return row
    finally:
        engine.dispose()


def _events(row: GameRow) -> list[tuple[Any, ...]]:
    match = load_match(row)
    return [(e.kind, e.player, e.dice, e.play, e.points, e.cube_value) for e in match_events(match)]


def _consistent(db_url: str, row: GameRow) -> bool:
    """The state, its IDs and the move log agree (a half-applied action would break this)."""
    match = load_match(row)
    if match.game.position_id() != row.position_id or match.game.match_id() != row.match_id:
        return False
    if len(match_events(match)) != row.event_count:
        return False
    from db.models import GameEvent

    engine = make_engine(db_url)
    try:
        with make_session_factory(engine)() as s:
            logged = s.scalar(
                select(GameEvent.seq)
                .where(GameEvent.game_id == row.id)
                .order_by(GameEvent.seq.desc())
                .limit(1)
            )
    finally:
        engine.dispose()
    return (logged is None and row.event_count == 0) or logged == row.event_count - 1


def crash_one(
    db_url: str,
    reference_url: str,
    channel: int,
    rng: random.Random,
    *,
    kill_after: tuple[int, int] = (2, 40),
) -> CrashResult:
    """Kill the worker after k acknowledged actions (k drawn from ``kill_after``, well below the
    hundred-odd actions of a game) plus a random part of the time the k-th one took, check the
    database, resume the game to its end and replay it without a kill from the same dice seed."""
    start_at, end_at = kill_after
    assert start_at >= 2, "the first action's time includes the start-up: kill after the second"
    wanted = rng.randint(start_at, end_at)
    fraction = rng.random()
    started = time.monotonic()
    proc = _worker(db_url, channel)
    assert proc.stdout is not None
    lines: list[str] = []
    last = gap = 0.0
    while len(lines) < wanted:
        line = proc.stdout.readline()
        if not line.endswith("\n"):  # the worker ended (or died) before the kill
            break
        now = time.monotonic()
        gap, last = now - last, now
        lines.append(line)
    if len(lines) == wanted:
        time.sleep(fraction * gap)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed_at = time.monotonic() - started
    # A line cut by the kill was never acknowledged: only whole lines count.
    lines += (proc.stdout.read() or "").splitlines(keepends=True)
    acked = [json.loads(ln) for ln in lines if ln.endswith("\n") and ln.strip()]
    row = _row(db_url, channel)
    mid_game = (
        proc.returncode == -signal.SIGKILL and row is not None and row.status.value == "active"
    )
    lost = bool(acked) and (row is None or row.version < acked[-1]["version"])
    half = row is not None and not _consistent(db_url, row)
    # Resume to the end in a new process, then replay the game without a kill, same seed.
    resumed = _worker(db_url, channel)
    resumed.communicate(timeout=_HANG)
    final = _row(db_url, channel)
    finished = final is not None and final.status.value != "active"
    diverged = True
    if final is not None and final.dice_seed:
        ref = _worker(reference_url, channel, "--seed", final.dice_seed)
        ref.communicate(timeout=_HANG)
        reference = _row(reference_url, channel)
        diverged = reference is None or _events(reference) != _events(final)
    return CrashResult(channel, len(acked), killed_at, mid_game, lost, half, diverged, finished)

"""Ladder races settled by the database, on SQLite and (when ``TEST_POSTGRES_URL`` answers) on
PostgreSQL with two bot instances, each with its own Service and connection pool as two
processes would have: challenges for the same rung at the same instant (one is made), two
results arriving together (both count, in the order they committed), and two sweeps of a
challenge past its deadline (forfeited once)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.ladders.rules import after_result
from bot.service import Service
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade
from db.models import ChallengeState
from tests.bot.conftest import Clock
from tests.bot.ladder_players import challenges, in_play, lose, rungs
from tests.bot.test_ladders import HERE, open_ladder, people
from tests.bot.test_tournaments_pg import (
    HANG,
    ROOT,
    pg_url,  # noqa: F401 - the fixture
)

T = TypeVar("T")


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'race.sqlite3'}"
    found: str = request.getfixturevalue("pg_url")
    return found


@pytest.fixture
def two(url: str) -> Iterator[tuple[sessionmaker[Session], sessionmaker[Session]]]:
    engines = [make_engine(url, pool_size=2) if "postgresql" in url else make_engine(url)]
    upgrade(engines[0])
    engines.append(make_engine(url, pool_size=2) if "postgresql" in url else make_engine(url))
    yield make_session_factory(engines[0]), make_session_factory(engines[1])
    for engine in engines:
        engine.dispose()


def together(calls: list[Callable[[], T]]) -> list[T]:
    """Run the calls at the same instant, one thread each; their results in order."""
    barrier = threading.Barrier(len(calls))
    results: list[T | None] = [None] * len(calls)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            results[i] = calls[i]()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    assert not errors, errors
    return [r for r in results if r is not None]


def test_challenges_for_the_same_rung_from_two_instances(
    two: tuple[sessionmaker[Session], sessionmaker[Session]],
) -> None:
    clock = Clock()
    first, second = (Service(f, clock=clock) for f in two)
    players = people(6)
    lid = open_ladder(first, players, reach=5)
    top = players[0]
    calls = [
        lambda p=p, s=s: s.ladder(p, HERE, "challenge", player=top)
        for p, s in zip(players[1:], (first, second) * 3, strict=False)
    ]
    replies = together(calls)
    assert sum(not r.ephemeral for r in replies) == 1
    assert all("already playing" in r.text for r in replies if r.ephemeral)
    assert len(challenges(two[0], lid)) == 1 and len(in_play(two[0], lid)) == 1


def test_two_results_arriving_together_both_count(
    two: tuple[sessionmaker[Session], sessionmaker[Session]],
) -> None:
    clock = Clock()
    first, second = (Service(f, clock=clock) for f in two)
    a, b, _, d, e = players = people(5)
    lid = open_ladder(first, players, points=1, reach=3)
    assert not first.ladder(e, HERE, "challenge", player=b).ephemeral
    assert not second.ladder(d, HERE, "challenge", player=a).ephemeral
    before = tuple(rungs(two[0], lid))
    together([lambda: lose(first, b, e, HERE), lambda: lose(second, a, d, HERE)])
    done = sorted(challenges(two[0], lid), key=lambda c: c.result_no or 0)
    assert [c.state for c in done] == [ChallengeState.FINISHED] * 2
    assert sorted(c.result_no or 0 for c in done) == [1, 2]
    expected = before
    for challenge in done:  # in the order the results committed
        assert challenge.winner_id is not None
        expected = after_result(expected, challenge.winner_id, challenge.other(challenge.winner_id))
    assert tuple(rungs(two[0], lid)) == expected


def test_two_sweeps_forfeit_a_late_challenge_once(
    two: tuple[sessionmaker[Session], sessionmaker[Session]],
) -> None:
    clock = Clock()
    first, second = (Service(f, clock=clock) for f in two)
    players = people(3)
    lid = open_ladder(first, players, hours=1)
    first.ladder(players[2], HERE, "challenge", player=players[1])
    clock.advance(hours=2)
    notices = together([first.ladder_sweep, second.ladder_sweep])
    said = [n.reply.text for batch in notices for n in batch]
    assert sum("not played by its deadline" in x for x in said) == 1
    (challenge,) = challenges(two[0], lid)
    assert challenge.state is ChallengeState.FINISHED and challenge.forfeit


@pytest.mark.postgres
@pytest.mark.slow
def test_two_processes_play_one_ladder(pg_url: str) -> None:  # noqa: F811 - the fixture
    """Two bot processes, each challenging and playing with its half of the members, until the
    ladder holds 30 results: every result is counted once, in one order, and the rungs are what
    that order of results makes of the starting rungs."""
    count, goal = 10, 30
    engine = make_engine(pg_url)
    upgrade(engine)
    factory = make_session_factory(engine)
    players = people(count)
    lid = open_ladder(Service(factory), players, reach=3)
    start = tuple(rungs(factory, lid))
    workers = [ladder_worker(pg_url, lid, half, count, goal) for half in (0, 1)]
    for process in workers:
        _, err = process.communicate(timeout=HANG)
        assert process.returncode == 0, err[-2000:]
    done = [c for c in challenges(factory, lid) if c.state is ChallengeState.FINISHED]
    assert len(done) >= goal and in_play(factory, lid) == []
    assert {c.challenger_id % 2 for c in done} == {0, 1}, "both processes made results"
    assert sorted(c.result_no or 0 for c in done) == list(range(1, len(done) + 1))
    expected = start
    for challenge in sorted(done, key=lambda c: c.result_no or 0):
        assert challenge.winner_id is not None and not challenge.forfeit
        expected = after_result(expected, challenge.winner_id, challenge.other(challenge.winner_id))
    assert tuple(rungs(factory, lid)) == expected
    engine.dispose()


def ladder_worker(url: str, lid: int, half: int, count: int, goal: int) -> subprocess.Popen[str]:
    """A bot process playing with one half of the members (``tests/bot/ladder_worker.py``)."""
    command = [sys.executable, "-m", "tests.bot.ladder_worker", "--db", url, "--ladder", str(lid)]
    command += ["--half", str(half), "--players", str(count), "--results", str(goal)]
    env = {**os.environ, "LOG_LEVEL": "WARNING"}
    return subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True, env=env)

"""Two bot instances on one PostgreSQL database run one tournament together: each has its own
Service and connection pool (as two processes would) and plays the games of its half (by game
id) at the same time as the other, so results of one tournament reach the database at once
from both. The tournament row's lock decides: nobody is paired twice, every result is counted
once, the champion is the same as the standings say."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Service
from db import tournaments as repo
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade
from db.models import TournamentStatus
from tests.bot.conftest import Clock
from tests.bot.test_tournaments import HERE, check_consistent, open_tournament
from tests.bot.tournament_players import people, playing, resign_one, tournament_of
from tests.pg import postgres_schema

ROOT = Path(__file__).resolve().parents[2]
HANG = 1800  # seconds: a guard against a hung worker only
GUARD = 20_000  # actions at most per instance: a guard against a hang only


@pytest.fixture
def pg_url() -> Iterator[str]:
    with postgres_schema("tourney") as url:
        yield url.render_as_string(hide_password=False)


def instance(url: str, clock: Clock) -> tuple[Service, sessionmaker[Session]]:
    factory = make_session_factory(make_engine(url, pool_size=2))
    return Service(factory, clock=clock), factory


def drive(
    service: Service,
    factory: sessionmaker[Session],
    tid: int,
    half: int,
    by_id: dict[int, Actor],
    failures: list[BaseException],
) -> None:
    """Play the games of one half until the tournament is over."""
    rng = random.Random(half)
    try:
        for _ in range(GUARD):
            if tournament_of(factory, tid).status is TournamentStatus.FINISHED:
                return
            mine = [g for g in playing(factory, tid) if g[0] % 2 == half]
            if mine:
                resign_one(service, by_id, HERE, rng.choice(mine), rng.choice((1, 1, 2)))
            else:
                threading.Event().wait(0.005)  # the other half is playing: look again
        raise AssertionError("the tournament did not finish")
    except BaseException as error:
        failures.append(error)


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("fmt", "count", "options", "results"),
    [
        ("knockout", 16, {}, 15),
        ("round_robin", 8, {}, 28),
        ("swiss", 20, {"rounds": 5}, 50),
        ("arena", 12, {"minutes": 30}, None),
    ],
)
def test_two_instances_run_one_tournament(
    pg_url: str, fmt: str, count: int, options: dict[str, object], results: int | None
) -> None:
    upgrade(make_engine(pg_url))
    clock = Clock()
    (one, f1), (two, f2) = instance(pg_url, clock), instance(pg_url, clock)
    players = people(count)
    tid, _ = open_tournament(one, players, format=fmt, **options)
    by_id = {p.id: p for p in players}
    failures: list[BaseException] = []
    threads = [
        threading.Thread(target=drive, args=(svc, f, tid, half, by_id, failures))
        for half, (svc, f) in enumerate(((one, f1), (two, f2)))
    ]
    for th in threads:
        th.start()
    if fmt == "arena":  # let the arena run a while, then its time is up
        while tournament_of(f1, tid).results < 30 and not failures:
            threading.Event().wait(0.01)
        clock.advance(minutes=31)
    for th in threads:
        th.join()
    assert not failures, failures
    tour = tournament_of(f1, tid)
    assert tour.status is TournamentStatus.FINISHED and tour.champion_id is not None
    if results is not None:
        assert tour.results == results
    check_consistent(f1, tid)
    with f1() as s:
        matches = repo.matches(s, tid)
    if fmt != "arena":
        pairs = Counter(frozenset((m.player0_id, m.player1_id)) for m in matches)
        assert max(pairs.values()) == 1, "a pairing stored twice"
    assert playing(f1, tid) == []


def worker(url: str, tid: int, half: int, count: int) -> subprocess.Popen[str]:
    """A bot process playing the games of one half (``tests/bot/tournament_worker.py``)."""
    command = [sys.executable, "-m", "tests.bot.tournament_worker", "--db", url]
    command += ["--tournament", str(tid), "--half", str(half), "--players", str(count)]
    env = {**os.environ, "LOG_LEVEL": "WARNING"}
    return subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True, env=env)


@pytest.mark.postgres
@pytest.mark.slow
@pytest.mark.parametrize(
    ("fmt", "count", "options", "results"),
    [("knockout", 16, {}, 15), ("swiss", 20, {"rounds": 5}, 50)],
)
def test_two_processes_run_one_tournament(
    pg_url: str, fmt: str, count: int, options: dict[str, object], results: int
) -> None:
    upgrade(make_engine(pg_url))
    factory = make_session_factory(make_engine(pg_url))
    players = people(count)
    tid, _ = open_tournament(Service(factory), players, format=fmt, **options)
    workers = [worker(pg_url, tid, half, count) for half in (0, 1)]
    for process in workers:
        _, err = process.communicate(timeout=HANG)
        assert process.returncode == 0, err[-2000:]
    tour = tournament_of(factory, tid)
    assert tour.status is TournamentStatus.FINISHED and tour.results == results
    check_consistent(factory, tid)
    with factory() as s:
        pairs = Counter(frozenset((m.player0_id, m.player1_id)) for m in repo.matches(s, tid))
    assert max(pairs.values()) == 1

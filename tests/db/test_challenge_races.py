"""Challenge limits under real concurrency (issue 20, item 10), on SQLite and PostgreSQL:
threads with sessions of their own, released together by a barrier, some through a second
engine (another bot process). Whatever the interleaving, one pending challenge per pair, at
most the cap per person, one challenge per cooldown."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import URL, Engine, func, select
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Reply, Service, Settings, Where
from db import challenges
from db.connection import make_engine, make_session_factory
from db.errors import ChallengePending
from db.models import Challenge, ChallengeStatus, Player
from db.types import utcnow
from tests.db.helpers import ALICE, BOB, add_players

Factory = sessionmaker[Session]
ROUNDS = 15
THREADS = 8
CHANNEL = Where(channel_id=77, guild_id=7)


@pytest.fixture
def other_factory(url: URL) -> Iterator[Factory]:
    """Sessions from a second engine: another bot process."""
    engine: Engine = make_engine(url)
    yield make_session_factory(engine)
    engine.dispose()


def at_once(actions: list[Callable[[], str]]) -> list[str]:
    """Run the actions in threads released together; each returns an outcome."""
    barrier = threading.Barrier(len(actions), timeout=30)
    outcomes = [""] * len(actions)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            outcomes[i] = actions[i]()
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    if errors:
        raise errors[0]
    return outcomes


def pending_rows(factory: Factory) -> list[Challenge]:
    with factory() as s:
        stmt = select(Challenge).where(Challenge.status == ChallengeStatus.PENDING)
        return list(s.scalars(stmt))


def clear(factory: Factory) -> None:
    with factory.begin() as s:
        s.query(Challenge).delete()
        s.query(Player).update({"challenged_at": None})


def test_the_database_keeps_one_pending_challenge_per_pair(
    factory: Factory, other_factory: Factory
) -> None:
    # Below the service: the unique index alone, both directions racing.
    with factory.begin() as s:
        add_players(s)

    def make(f: Factory, a: int, b: int) -> Callable[[], str]:
        def go() -> str:
            try:
                with f.begin() as s:
                    now = utcnow()
                    challenges.create_challenge(
                        s, challenger_id=a, challenged_id=b, expires_at=now + timedelta(minutes=5)
                    )
                return "made"
            except ChallengePending as refused:
                assert refused.challenge_id is None or refused.challenge_id > 0
                return "refused"

        return go

    for _ in range(ROUNDS):
        clear(factory)
        actions = [
            make(factory if i % 2 else other_factory, *((ALICE, BOB) if i % 3 else (BOB, ALICE)))
            for i in range(THREADS)
        ]
        outcomes = at_once(actions)
        assert outcomes.count("made") == 1, outcomes
        assert len(pending_rows(factory)) == 1


def service_for(f: Factory, clock: Callable[[], datetime] = utcnow, **settings: object) -> Service:
    return Service(f, settings=Settings(**settings), clock=clock)  # type: ignore[arg-type]


def outcome(reply: Reply) -> str:
    return ("refused:" + reply.text) if reply.ephemeral else "made"


def test_racing_challenges_to_one_person_make_one(factory: Factory, other_factory: Factory) -> None:
    # The flood of the attack, at once: many requests from one person to another.
    services = [service_for(factory), service_for(other_factory)]
    alice, bob = Actor(ALICE, "alice"), Actor(BOB, "bob")
    for _ in range(ROUNDS):
        clear(factory)
        actions = [
            (lambda svc=services[i % 2]: outcome(svc.challenge(alice, CHANNEL, bob)))
            for i in range(THREADS)
        ]
        outcomes = at_once(actions)
        assert outcomes.count("made") == 1, outcomes
        assert len(pending_rows(factory)) == 1


def test_racing_challenges_respect_the_cap(factory: Factory, other_factory: Factory) -> None:
    # Without the cooldown (and one moment for all: no request is "before" another), eight
    # challenges at once to eight people: five, not one more.
    moment = utcnow()
    services = [
        service_for(f, lambda: moment, challenge_cooldown=timedelta(0))
        for f in (factory, other_factory)
    ]
    alice = Actor(ALICE, "alice")
    for _ in range(ROUNDS):
        clear(factory)
        actions = [
            (
                lambda svc=services[i % 2], i=i: outcome(
                    svc.challenge(alice, CHANNEL, Actor(5000 + i, f"p{i}"))
                )
            )
            for i in range(THREADS)
        ]
        outcomes = at_once(actions)
        assert outcomes.count("made") == 5, outcomes
        assert len(pending_rows(factory)) == 5


def test_racing_challenges_respect_the_cooldown(factory: Factory, other_factory: Factory) -> None:
    services = [service_for(f) for f in (factory, other_factory)]
    alice = Actor(ALICE, "alice")
    for _ in range(ROUNDS):
        clear(factory)
        actions = [
            (
                lambda svc=services[i % 2], i=i: outcome(
                    svc.challenge(alice, CHANNEL, Actor(5000 + i, f"p{i}"))
                )
            )
            for i in range(THREADS)
        ]
        outcomes = at_once(actions)
        assert outcomes.count("made") == 1, outcomes
        with factory() as s:
            count = s.scalar(select(func.count()).select_from(Challenge))
        assert count == 1

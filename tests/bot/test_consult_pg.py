# ruff: noqa: F811 - the fixtures of test_ladders_pg are imported, and named as parameters
"""Consultation races settled by the database, on SQLite and (when ``TEST_POSTGRES_URL``
answers) on PostgreSQL with two bot instances, each with its own Service and connection pool as
two processes would have: two sweeps of a vote past its time and a late vote, all at the same
instant (the vote is closed once; the late vote is refused as closed, or counts on the next
vote, never on the closed one); two votes of two people at once (both
count)."""

from __future__ import annotations

from collections import deque

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Service, Where
from db.models import Consultation, ConsultVote
from tests.bot.conftest import Clock, ScriptedDice
from tests.bot.test_ladders_pg import (  # noqa: F401 - fixtures
    pg_url,
    together,
    two,
    url,
)

HERE = Where(channel_id=8300, guild_id=9600, guild_locale="en-US")
ANN, BOB, CYD = Actor(401, "Ann"), Actor(402, "Bob"), Actor(403, "Cyd")


def services(
    two: tuple[sessionmaker[Session], sessionmaker[Session]], clock: Clock, script: deque[int]
) -> list[Service]:
    return [
        Service(
            factory,
            clock=clock,
            new_dice=lambda: ScriptedDice(script, bytes(range(32))),
            dice_for=lambda seed, counter: ScriptedDice(script, seed, counter),
        )
        for factory in two
    ]


def state(factory: sessionmaker[Session]) -> tuple[int, list[tuple[int, int, int]]]:
    with factory() as s:
        cons = s.scalars(select(Consultation)).one()
        votes = s.scalars(select(ConsultVote).order_by(ConsultVote.player_id))
        return cons.decision, [(v.decision, v.player_id, v.choice) for v in votes]


def test_two_sweeps_and_a_late_vote_at_once(
    two: tuple[sessionmaker[Session], sessionmaker[Session]],
) -> None:
    clock, script = Clock(), deque([5, 2])
    first, second = services(two, clock, script)
    started = first.consult(ANN, HERE, level="expert", minutes=2)
    assert started.poll is not None, started.text
    assert not first.vote(BOB, HERE, choice=1).text.startswith("That")
    clock.advance(minutes=2)
    swept_a, swept_b, late = together(
        [first.consult_sweep, second.consult_sweep, lambda: second.vote(CYD, HERE, choice=2)]
    )
    assert len(swept_a) + len(swept_b) == 1  # closed once
    (closed,) = swept_a + swept_b
    assert "with 1 of 1 vote" in closed.reply.text  # the late vote is not in vote 1
    decision, votes = state(two[0])
    assert decision == 2
    # The late vote came before the closing (refused: closed) or after it (a vote on vote 2,
    # which its answer names): never on vote 1.
    if "That vote is closed" in late.text:
        assert votes == [(1, BOB.id, 0)]
    else:
        assert "Your vote on vote 2" in late.text and votes == [(1, BOB.id, 0), (2, CYD.id, 1)]


def test_two_votes_at_once_both_count(
    two: tuple[sessionmaker[Session], sessionmaker[Session]],
) -> None:
    clock, script = Clock(), deque([5, 2])
    first, second = services(two, clock, script)
    first.consult(ANN, HERE, level="expert", minutes=2)
    a, b = together(
        [lambda: first.vote(BOB, HERE, choice=1), lambda: second.vote(CYD, HERE, choice=2)]
    )
    assert "Your vote" in a.text and "Your vote" in b.text
    assert state(two[0]) == (1, [(1, BOB.id, 0), (1, CYD.id, 1)])

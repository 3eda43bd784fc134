"""One bot process playing a ladder with the members of its half (for the PostgreSQL test):
``python -m tests.bot.ladder_worker --db URL --ladder ID --half 0|1 --players N --results K``.

Each turn a member of this half (by player id) who has no challenge in play challenges a
member above him within reach, and the game is played to its end at once (one of the two,
chosen at random, resigns); the other process does the same with its half at the same time,
so challenges for the same rung and results arrive together from two processes. It stops when
the ladder holds ``K`` results, whoever made them."""

from __future__ import annotations

import argparse
import random
import sys
import threading

from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Service
from db.connection import make_engine, make_session_factory
from db.models import ChallengeState
from tests.bot.ladder_players import challenges, lose, rungs
from tests.bot.test_ladders import HERE, people

GUARD = 5_000  # turns at most: a guard against a hang only
REACH = 3
# The refusals a race may bring: he (or I) got a challenge first, or a result moved a rung.
RACES = ("already playing", "is below you", "above you:", "top rung")


def finished(factory: sessionmaker[Session], lid: int) -> int:
    return sum(c.state is ChallengeState.FINISHED for c in challenges(factory, lid))


def play(
    service: Service, factory: sessionmaker[Session], lid: int, half: int, count: int, goal: int
) -> None:
    """Challenge and play until the ladder holds ``goal`` results."""
    rng = random.Random(half)
    by_id = {p.id: p for p in people(count)}
    mine = [p for p in by_id.values() if p.id % 2 == half]
    for _ in range(GUARD):
        if finished(factory, lid) >= goal:
            return
        order = rungs(factory, lid)
        busy = {
            pid
            for c in challenges(factory, lid)
            if c.state is ChallengeState.PLAYING
            for pid in (c.challenger_id, c.defender_id)
        }
        free = [p for p in mine if p.id not in busy and order.index(p.id) > 0]
        if not free:
            threading.Event().wait(0.005)  # the other half is playing: look again
            continue
        me = rng.choice(free)
        rung = order.index(me.id)
        target: Actor = by_id[order[rng.randrange(max(0, rung - REACH), rung)]]
        made = service.ladder(me, HERE, "challenge", player=target)
        if made.ephemeral:  # the other process was first, or moved the rungs since they were read
            assert any(words in made.text for words in RACES), made.text
            continue
        loser, winner = (me, target) if rng.random() < 0.5 else (target, me)
        lose(service, loser, winner, HERE)
    raise AssertionError("the ladder did not reach its results")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--ladder", type=int, required=True)
    parser.add_argument("--half", type=int, required=True)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--results", type=int, required=True)
    args = parser.parse_args(argv)
    factory = make_session_factory(make_engine(args.db, pool_size=2))
    try:
        play(Service(factory), factory, args.ladder, args.half, args.players, args.results)
    except BaseException as failure:
        print(repr(failure), file=sys.stderr)
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Real concurrency: threads with their own sessions, and a second engine standing for a second
bot process, on the same database (a SQLite file, or PostgreSQL)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from sqlalchemy import URL, Engine, select
from sqlalchemy.orm import Session, sessionmaker

from db import challenges, games, players
from db.connection import make_engine, make_session_factory
from db.errors import ChallengeClosed, GameMovedOn
from db.gamestate import load_match, save_match
from db.models import (
    ChallengeStatus,
    Game,
    GameEvent,
    GameStatus,
    Rating,
    RatingHistory,
    ResultKind,
)
from db.types import utcnow
from tests.db.helpers import ALICE, BOB, CAROL, DAVE, add_players, new_game

Factory = sessionmaker[Session]
ROUNDS = 8
# Threads wait for each other (a barrier) and for the other's transaction (the database's lock):
# those waits end when the other thread gets there. The limits below only turn a deadlock into a
# failure instead of a hung run, however busy the machine.
HANG = 600.0  # seconds


@pytest.fixture
def other_factory(url: URL) -> Iterator[Factory]:
    """Sessions from a second engine (its own pool of connections): another bot process."""
    engine: Engine = make_engine(url)
    yield make_session_factory(engine)
    engine.dispose()


def race(*actions: Callable[[threading.Barrier], str]) -> list[str]:
    """Run the actions in threads at once; each returns an outcome or raises."""
    barrier = threading.Barrier(len(actions), timeout=HANG)
    outcomes: list[str] = [""] * len(actions)
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            outcomes[i] = actions[i](barrier)
        except BaseException as exc:  # surfaced below, with its traceback
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(actions))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(HANG)
    assert not any(t.is_alive() for t in threads), "a thread is stuck (deadlock?)"
    if errors:
        raise errors[0]
    return outcomes


def play_action(factory: Factory, game_id: int, text: str, hold: float) -> Callable[..., str]:
    """Load the game, play ``text``, wait for the other thread, save, hold the transaction
    open for ``hold`` seconds (so the other writer has to wait for it), commit."""

    def action(barrier: threading.Barrier) -> str:
        try:
            with factory.begin() as s:
                row = games.get_game(s, game_id)
                m = load_match(row)
                m.game.play_text(text)
                barrier.wait()  # both have read the same version
                save_match(s, row, m)
                time.sleep(hold)
        except GameMovedOn:
            return "moved on"
        return text

    return action


def test_two_simultaneous_actions_on_one_game_never_both_apply(
    factory: Factory, other_factory: Factory
) -> None:
    with factory.begin() as s:
        add_players(s)
        game_ids = [new_game(s).id for _ in range(ROUNDS)]
    rng = random.Random(5)
    for game_id in game_ids:
        holds = [0.0, 0.05]
        rng.shuffle(holds)
        outcomes = race(
            play_action(factory, game_id, "8/5 6/5", holds[0]),
            play_action(other_factory, game_id, "24/23 13/10", holds[1]),
        )
        assert sorted(outcomes, key=lambda o: o == "moved on")[1] == "moved on", outcomes
        winner = next(o for o in outcomes if o != "moved on")
        with factory() as s:
            row = games.get_game(s, game_id)
            plays = s.scalars(
                select(GameEvent.play).where(GameEvent.game_id == game_id, GameEvent.kind == "move")
            ).all()
            assert plays == [winner] and row.version == 2 and row.event_count == 2
            assert load_match(row).game.events[-1].play == winner


def test_actions_on_different_games_do_not_conflict(
    factory: Factory, other_factory: Factory
) -> None:
    """Only the same game conflicts: busy writers queue, they never fail."""
    with factory.begin() as s:
        add_players(s)
        first, second = new_game(s).id, new_game(s, CAROL, DAVE).id

    def play_a_game(f: Factory, game_id: int) -> Callable[..., str]:
        def action(barrier: threading.Barrier) -> str:
            barrier.wait()
            dice = [(6, 4), (5, 2), (3, 3), (6, 1), (4, 2), (5, 5)] * 3
            with f.begin() as s:
                row = games.get_game(s, game_id)
                m = load_match(row)
                m.game.play_text("8/5 6/5")
                save_match(s, row, m)
            for roll in dice:
                with f.begin() as s:
                    row = games.get_game(s, game_id)
                    m = load_match(row)
                    m.game.roll(roll)
                    if m.game.legal_plays():
                        m.game.play(m.game.legal_plays()[0])
                    save_match(s, row, m)
            return "done"

        return action

    assert race(play_a_game(factory, first), play_a_game(other_factory, second)) == ["done"] * 2
    with factory() as s:
        assert games.get_game(s, first).version == games.get_game(s, second).version == 20


def test_two_clicks_on_accept_start_one_game(factory: Factory, other_factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)

    def make() -> int:  # one pending challenge per pair at a time: the next after the race
        with factory.begin() as s:
            return challenges.create_challenge(
                s, challenger_id=ALICE, challenged_id=BOB, expires_at=utcnow() + timedelta(hours=1)
            ).id

    def accept(f: Factory, challenge_id: int) -> Callable[..., str]:
        def action(barrier: threading.Barrier) -> str:
            barrier.wait()
            try:
                with f.begin() as s:
                    challenges.answer_challenge(s, challenge_id, ChallengeStatus.ACCEPTED)
                    game = new_game(s)
                    ch = challenges.get_challenge(s, challenge_id)
                    assert ch is not None
                    ch.game_id = game.id
                    time.sleep(0.02)
            except ChallengeClosed as exc:
                return f"closed {exc.status}"
            return "accepted"

        return action

    for _ in range(ROUNDS):
        challenge_id = make()
        outcomes = race(accept(factory, challenge_id), accept(other_factory, challenge_id))
        assert sorted(outcomes) == ["accepted", "closed accepted"]
    with factory() as s:
        mine = (Game.player0_id == ALICE) | (Game.player1_id == ALICE)
        active = s.scalars(select(Game.id).where(mine, Game.status == GameStatus.ACTIVE)).all()
        assert len(active) == ROUNDS


def test_two_matches_of_one_player_ending_at_once_both_count(
    factory: Factory, other_factory: Factory
) -> None:
    """Alice's rating is read and written by both: neither update may be lost."""
    with factory.begin() as s:
        add_players(s)
        # Rating rows that already exist: creating them would serialise the two by itself.
        for opponent in (BOB, CAROL):
            earlier = new_game(s, ALICE, opponent, rated=True)
            games.finish_game(s, earlier, winner=1, points=1, kind=ResultKind.SINGLE)
        vs_bob, vs_carol = new_game(s, rated=True).id, new_game(s, ALICE, CAROL, rated=True).id

    def finish(f: Factory, game_id: int) -> Callable[..., str]:
        def action(barrier: threading.Barrier) -> str:
            with f.begin() as s:
                row = games.get_game(s, game_id)
                barrier.wait()
                games.finish_game(s, row, winner=0, points=1, kind=ResultKind.SINGLE)
                time.sleep(0.02)
            return "finished"

        return action

    race(finish(factory, vs_bob), finish(other_factory, vs_carol))
    with factory() as s:
        alice = s.get(Rating, ALICE)
        assert alice is not None and (alice.experience, alice.wins) == (4, 2)
        *_, before, first, second = s.scalars(
            select(RatingHistory).where(RatingHistory.player_id == ALICE).order_by(RatingHistory.id)
        ).all()
        assert first.rating_before == before.rating_after
        assert second.rating_before == first.rating_after  # the second saw the first's result
        assert alice.rating == second.rating_after


def test_a_new_player_clicking_twice_at_once_is_created_once(
    factory: Factory, other_factory: Factory
) -> None:
    def first_sight(f: Factory, pid: int, name: str) -> Callable[..., str]:
        def action(barrier: threading.Barrier) -> str:
            barrier.wait()
            with f.begin() as s:
                return players.ensure_player(s, pid, name).display_name

        return action

    for pid in range(9000, 9000 + ROUNDS):
        outcomes = race(first_sight(factory, pid, "a"), first_sight(other_factory, pid, "b"))
        assert sorted(outcomes) in (["a", "b"], ["a", "a"], ["b", "b"])
        with factory() as s:
            p = players.get_player(s, pid)
            assert p is not None and p.display_name in outcomes

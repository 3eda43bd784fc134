"""Races the database settles by itself (issue 20, items 4, 5 and 11), with real concurrent
sessions from two engines (two bot processes) and forced interleavings, on SQLite and
PostgreSQL. Each race is run many times: one lost round is a failure."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import URL, Engine, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from db import games, players
from db.gamestate import load_match, save_match
from db.migrate import revisions, upgrade
from db.models import ActiveSeat, Game, GameStatus, ResultKind
from tests.db.conftest import NOW
from tests.db.helpers import ALICE, BOB, CAROL, DAVE, add_players, new_game
from tests.db.test_concurrency import race

Factory = sessionmaker[Session]
ROUNDS = 12
CHANNEL = 70


@pytest.fixture
def other_factory(url: URL) -> Iterator[Factory]:
    """Sessions from a second engine (its own pool of connections): another bot process."""
    from db.connection import make_engine, make_session_factory

    engine: Engine = make_engine(url)
    yield make_session_factory(engine)
    engine.dispose()


# -- item 4: the timer sweep against a move ------------------------------------------------


def test_a_notice_is_not_claimed_for_a_game_that_moved_since_the_sweep_read_it(
    factory: Factory, other_factory: Factory
) -> None:
    """Forced interleaving: the sweep reads the game (stage 0), the late player's move commits
    (new deadline, stage back to 0, version + 1), then the sweep's update must not match."""
    with factory.begin() as s:
        add_players(s)
        ids = [new_game(s, deadline=NOW).id for _ in range(ROUNDS)]
    for game_id in ids:
        with factory.begin() as sweep:
            seen = games.get_game(sweep, game_id)
            version, stage = seen.version, seen.timer_stage
            with other_factory.begin() as move:  # the move commits in between
                row = games.get_game(move, game_id)
                m = load_match(row)
                m.game.play_text("8/5 6/5")
                row.timer_stage = 0
                save_match(move, row, m)
            claimed = games.advance_timer_stage(
                sweep, game_id, version=version, seen=stage, stage=2
            )
        assert claimed is False
        with factory() as s:
            row = games.get_game(s, game_id)
            assert (row.timer_stage, row.version) == (0, version + 1)


def test_a_notice_is_claimed_once_by_two_sweeps_at_once(
    factory: Factory, other_factory: Factory
) -> None:
    with factory.begin() as s:
        add_players(s)
        ids = [new_game(s, deadline=NOW).id for _ in range(ROUNDS)]

    def sweep(f: Factory, game_id: int) -> Callable[[threading.Barrier], str]:
        def action(barrier: threading.Barrier) -> str:
            with f.begin() as s:
                row = games.get_game(s, game_id)
                version, stage = row.version, row.timer_stage
                barrier.wait()  # both read stage 0 at the same version
                won = games.advance_timer_stage(s, game_id, version=version, seen=stage, stage=1)
                time.sleep(0.02)
            return "sent" if won else "skipped"

        return action

    for game_id in ids:
        assert sorted(race(sweep(factory, game_id), sweep(other_factory, game_id))) == [
            "sent",
            "skipped",
        ]
    with factory() as s:
        rows = s.scalars(select(Game).where(Game.id.in_(ids))).all()
        assert {(r.timer_stage, r.version) for r in rows} == {(1, 1)}


def test_the_stage_only_goes_forward(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        game = new_game(s)
        with pytest.raises(ValueError):
            games.advance_timer_stage(s, game.id, version=game.version, seen=1, stage=1)
        assert games.advance_timer_stage(s, game.id, version=game.version, seen=0, stage=1)
        assert not games.advance_timer_stage(s, game.id, version=game.version, seen=0, stage=2)


# -- item 5: one active game per person and channel, whatever the seat -----------------------


def test_a_player_cannot_sit_in_two_active_games_of_a_channel_in_either_seat(
    factory: Factory,
) -> None:
    with factory.begin() as s:
        add_players(s)
        first = new_game(s, ALICE, BOB, channel_id=CHANNEL)
    for p0, p1 in ((CAROL, ALICE), (BOB, DAVE), (ALICE, None), (None, BOB)):
        with pytest.raises(IntegrityError), factory.begin() as s:
            kwargs = {"computer_level": "expert"} if None in (p0, p1) else {}
            new_game(s, p0, p1, channel_id=CHANNEL, **kwargs)
    with factory.begin() as s:  # elsewhere, or other people: fine
        new_game(s, CAROL, ALICE, channel_id=CHANNEL + 1)
        new_game(s, CAROL, DAVE, channel_id=CHANNEL)
    with factory.begin() as s:  # once the game is over, the seats are free again
        row = games.get_game(s, first.id)
        games.finish_game(s, row, winner=0, points=1, kind=ResultKind.SINGLE)
    with factory.begin() as s:
        again = new_game(s, BOB, ALICE, channel_id=CHANNEL)
        games.expire_game(s, again)
    with factory.begin() as s:
        new_game(s, ALICE, None, computer_level="expert", channel_id=CHANNEL)
    with factory() as s:
        seats = s.execute(select(ActiveSeat.channel_id, ActiveSeat.player_id)).all()
        elsewhere = [(CHANNEL + 1, CAROL), (CHANNEL + 1, ALICE)]
        here = [(CHANNEL, CAROL), (CHANNEL, DAVE), (CHANNEL, ALICE)]  # Alice: the computer game
        assert sorted(seats) == sorted(elsewhere + here)


def test_two_games_started_at_once_with_a_player_in_crossed_seats_make_one(
    factory: Factory, other_factory: Factory
) -> None:
    """A /play (Alice in seat 0) racing an Accept (Alice in seat 1), in one channel."""
    with factory.begin() as s:
        add_players(s)

    def start(f: Factory, p0: int, p1: int, channel: int) -> Callable[[threading.Barrier], str]:
        def action(barrier: threading.Barrier) -> str:
            try:
                with f.begin() as s:
                    barrier.wait()
                    new_game(s, p0, p1, channel_id=channel)
                    time.sleep(0.02)  # hold the transaction: the other must wait for it
            except IntegrityError:
                return "refused"
            return "started"

        return action

    for round_no in range(ROUNDS):
        channel = 1000 + round_no
        outcomes = race(
            start(factory, ALICE, BOB, channel), start(other_factory, CAROL, ALICE, channel)
        )
        assert sorted(outcomes) == ["refused", "started"], (round_no, outcomes)
    with factory() as s:
        per_channel = s.execute(
            select(Game.channel_id, func.count())
            .where(Game.status == GameStatus.ACTIVE)
            .group_by(Game.channel_id)
        ).all()
        assert sorted(n for _, n in per_channel) == [1] * ROUNDS


# Revision 0006 copies the active games in: from every earlier revision, on existing data.

EARLIER = revisions()[: revisions().index("0006")]


@pytest.mark.parametrize("start", EARLIER)
def test_the_upgrade_fills_active_seats_from_every_earlier_revision(
    empty_url: URL, start: str
) -> None:
    from db.connection import make_engine, make_session_factory

    engine = make_engine(empty_url)
    try:
        upgrade(engine, start)
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO players (id, display_name, preferences, created_at, seen_at)"
                " VALUES (1, 'a', '{}', '2026-01-01', '2026-01-01'),"
                " (2, 'b', '{}', '2026-01-01', '2026-01-01'),"
                " (3, 'c', '{}', '2026-01-01', '2026-01-01')"
            )
            for gid, p0, p1, status in (
                # (ids past the sequence's first values: PostgreSQL does not advance it here)
                (901, 1, 2, "active"),  # Alice and Bob play in channel 70
                (902, 3, 1, "finished"),  # an old game: no seat
                (903, 3, None, "active"),  # Carol against the computer
            ):
                conn.exec_driver_sql(
                    "INSERT INTO games (id, player0_id, player1_id, computer_level, channel_id,"
                    " match_length, cube, rated, position_id, match_id, state, event_count,"
                    " version, status, created_at, updated_at, dice_counter) VALUES"
                    f" ({gid}, {p0}, {'NULL' if p1 is None else p1},"
                    f" {'NULL' if p1 else repr('expert')}, 70, 0, true, false, 'x', 'y', '{{}}',"
                    f" 0, 1, '{status}', '2026-01-01', '2026-01-01', 0)"
                )
        upgrade(engine)
        f = make_session_factory(engine)
        with f() as s:
            seats = s.execute(select(ActiveSeat.player_id, ActiveSeat.game_id)).all()
            assert sorted(seats) == [(1, 901), (2, 901), (3, 903)]
        with pytest.raises(IntegrityError), f.begin() as s:
            new_game(s, 2, 3, channel_id=70)  # Bob, seated 1 there, now in seat 0
        with f.begin() as s:
            row = games.get_game(s, 901)
            games.finish_game(s, row, winner=0, points=1, kind=ResultKind.SINGLE)
        with f.begin() as s:
            new_game(s, 2, 1, channel_id=70)
    finally:
        engine.dispose()


# -- item 11: two settings changed at once -------------------------------------------------


def test_two_settings_changed_at_once_both_stay(factory: Factory, other_factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)

    def change(f: Factory, **prefs: object) -> Callable[[threading.Barrier], str]:
        def action(barrier: threading.Barrier) -> str:
            with f.begin() as s:
                players.ensure_player(s, ALICE, "alice", now=NOW)  # as the bot does first
                barrier.wait()
                players.set_preferences(s, ALICE, **prefs)
                time.sleep(0.02)  # still uncommitted while the other one runs
            return "done"

        return action

    for round_no in range(ROUNDS):
        race(
            change(factory, language=f"l{round_no}"),
            change(other_factory, auto_play_forced=round_no),
        )
        with factory() as s:
            player = players.get_player(s, ALICE)
            assert player is not None
            assert player.preferences == {"language": f"l{round_no}", "auto_play_forced": round_no}
        with factory.begin() as s:
            players.set_preferences(s, ALICE, language=None, auto_play_forced=None)


# A downgrade that rebuilds ``games`` (SQLite drops its triggers then) must keep the rule too.

LATER = revisions()[revisions().index("0006") : -1]


@pytest.mark.parametrize("target", LATER)
def test_a_downgrade_keeps_one_active_game_per_person_and_channel(
    empty_url: URL, target: str
) -> None:
    from db.connection import make_engine
    from db.migrate import downgrade

    engine = make_engine(empty_url)
    try:
        upgrade(engine)
        downgrade(engine, target)
        with engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO players (id, display_name, preferences, created_at, seen_at)"
                " VALUES (1, 'a', '{}', '2026-01-01', '2026-01-01'),"
                " (2, 'b', '{}', '2026-01-01', '2026-01-01'),"
                " (3, 'c', '{}', '2026-01-01', '2026-01-01')"
            )

        def add(gid: int, p0: int, p1: int) -> None:
            with engine.begin() as conn:
                conn.exec_driver_sql(
                    "INSERT INTO games (id, player0_id, player1_id, channel_id, match_length,"
                    " cube, rated, position_id, match_id, state, event_count, version, status,"
                    f" created_at, updated_at, dice_counter) VALUES ({gid}, {p0}, {p1}, 70, 0,"
                    " true, false, 'x', 'y', '{}', 0, 1, 'active', '2026-01-01', '2026-01-01',"
                    " 0)"
                )

        add(901, 1, 2)
        with pytest.raises(IntegrityError):
            add(902, 3, 1)  # Alice, seated 0 in game 901, now in seat 1 of the same channel
    finally:
        engine.dispose()

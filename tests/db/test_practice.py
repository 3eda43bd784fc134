"""Practice games (issue 20, item 7) in the database, on SQLite and PostgreSQL: a game from a
Position ID counts in no record or rating; revision 0008 finds the older ones (their move log
does not begin with an opening roll) and takes them back out of the records."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import URL, Engine, MetaData, Table, select

from db import games
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade
from db.models import ComputerRecord, Game, Rating, ResultKind
from db.stats import player_stats
from tests.db.helpers import ALICE, BOB, add_players, new_game

T0 = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def test_a_practice_game_counts_in_no_record(engine: Engine) -> None:
    factory = make_session_factory(engine)
    with factory.begin() as s:
        add_players(s)
        vs_computer = new_game(s, ALICE, None, computer_level="expert", practice=True)
        between = new_game(s, ALICE, BOB, rated=True, practice=True)
        games.finish_game(s, vs_computer, winner=0, points=3, kind=ResultKind.BACKGAMMON)
        games.finish_game(s, between, winner=0, points=1, kind=ResultKind.SINGLE)
    with factory() as s:
        assert s.get(ComputerRecord, (ALICE, "expert")) is None
        assert s.scalars(select(Rating)).all() == []
        st = player_stats(s, ALICE)
        assert (st.wins_vs_people, st.losses_vs_people, st.computer) == (0, 0, {})
        assert st.practice_games == 2


@pytest.fixture
def old_engine(empty_url: URL) -> Iterator[Engine]:
    engine = make_engine(empty_url)
    yield engine
    engine.dispose()


def test_revision_0008_takes_old_practice_games_out_of_the_records(old_engine: Engine) -> None:
    upgrade(old_engine, "0005")
    meta = MetaData()
    meta.reflect(old_engine)
    t: dict[str, Table] = dict(meta.tables)
    with old_engine.begin() as conn:
        conn.execute(
            t["players"].insert(),
            [
                {
                    "id": ALICE,
                    "display_name": "a",
                    "preferences": {},
                    "created_at": T0,
                    "seen_at": T0,
                }
            ],
        )
        base = {
            "player0_id": ALICE,
            "player1_id": None,
            "computer_level": "world class",
            "match_length": 0,
            "cube": True,
            "rated": False,
            "position_id": "4HPwATDgc/ABMA",
            "match_id": "cAkAAAAAAAAA",
            "state": {},
            "turn": None,
            "event_count": 1,
            "version": 2,
            "status": "finished",
            "winner": 0,
            "created_at": T0,
            "updated_at": T0,
            "dice_counter": 0,
        }
        conn.execute(
            t["games"].insert(),
            [  # two practice wins (3 and 2 points), an ordinary win (1) and loss (2)
                {**base, "id": 1, "points": 3},
                {**base, "id": 2, "points": 2},
                {**base, "id": 3, "points": 1},
                {**base, "id": 4, "points": 2, "winner": 1},
            ],
        )
        first = {"seq": 0, "game_no": 1, "position_id": "x", "match_id": "y", "created_at": T0}
        conn.execute(
            t["game_events"].insert(),
            [
                {**first, "game_id": 1, "kind": "roll"},
                {**first, "game_id": 2, "kind": "move"},
                {**first, "game_id": 3, "kind": "opening"},
                {**first, "game_id": 4, "kind": "opening"},
            ],
        )
        conn.execute(
            t["computer_records"].insert(),
            [
                {
                    "player_id": ALICE,
                    "level": "world class",
                    "wins": 3,
                    "losses": 1,
                    "points_won": 6,
                    "points_lost": 2,
                    "updated_at": T0,
                }
            ],
        )
    upgrade(old_engine)
    with make_session_factory(old_engine)() as s:
        practice = dict(s.execute(select(Game.id, Game.practice)).tuples().all())
        assert practice == {1: True, 2: True, 3: False, 4: False}
        record = s.get(ComputerRecord, (ALICE, "world class"))
        assert record is not None
        assert (record.wins, record.losses, record.points_won, record.points_lost) == (1, 1, 1, 2)
        assert player_stats(s, ALICE).practice_games == 2

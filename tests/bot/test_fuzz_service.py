"""Fuzzing every command option and every component id: the service answers everything with a
reply (never an exception), and a refused input changes nothing in the database.

On SQLite and on PostgreSQL (``TEST_POSTGRES_URL``): ids typed or forged past the 32-bit id
columns fail differently there (issue 20, item 8)."""

from __future__ import annotations

import os
import shutil
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Reply, Service
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade
from db.models import Challenge, GameEvent
from db.models import Game as GameRow
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, press
from tests.pg import postgres_schema

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

texts = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from(list("0123456789/ *()-bar off")), max_size=20).map("".join),
)
ints = st.one_of(st.integers(-10, 100), st.integers(-(2**63), 2**63))
custom_ids = st.one_of(
    st.text(max_size=80),
    st.builds(
        lambda g, v, a, arg: f"bg:{g}:{v}:{a}" + (f":{arg}" if arg else ""),
        st.integers(0, 10**13),
        st.integers(0, 10**10),
        st.sampled_from(
            [
                "roll",
                "double",
                "take",
                "drop",
                "accept",
                "reject",
                "resign",
                "resign_menu",
                "cancel",
                "die",
                "pt",
                "undo",
                "confirm",
                "play",
                "rematch",
                "x",
            ]
        ),
        st.one_of(st.none(), st.text(alphabet="0123456789-/ ", max_size=8)),
    ),
    st.builds(
        lambda c, a: f"ch:{c}:{a}",
        st.integers(0, 10**13),
        st.sampled_from(["accept", "decline", "cancel", "steal"]),
    ),
    # Tournaments, puzzles and positions of the day: ids of any width (issue 27, item 2).
    st.builds(
        lambda kind, i, a: f"{kind}:{i}:{a}",
        st.sampled_from(["tn", "pz", "pd"]),
        st.one_of(
            st.integers(-2, 2), st.integers(2**31 - 2, 2**31 + 2), st.integers(-(2**63), 2**64)
        ),
        st.sampled_from(["join", "leave", "start", "standings", "withdraw", "0", "1", "m", "x"]),
    ),
)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def factory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[sessionmaker[Session]]:
    """The service's database: a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":  # a copy of the migrated file (tests/bot/conftest.py)
        shutil.copyfile(request.getfixturevalue("migrated_sqlite"), tmp_path / "bot.sqlite3")
        engine = make_engine(f"sqlite:///{tmp_path / 'bot.sqlite3'}")
        yield make_session_factory(engine)
        engine.dispose()
        return
    with postgres_schema("fuzz") as url:
        engine = make_engine(url)
        try:
            upgrade(engine)
            yield make_session_factory(engine)
        finally:
            engine.dispose()


def snapshot(factory: sessionmaker[Session]) -> tuple[object, ...]:
    with factory() as s:
        games = tuple(
            s.execute(
                select(GameRow.id, GameRow.version, GameRow.status).order_by(GameRow.id)
            ).all()
        )
        events = s.scalar(select(func.count()).select_from(GameEvent))
        challenges = tuple(s.execute(select(Challenge.id, Challenge.status)).all())
    return games, events, challenges


def a_game(service: Service, script: deque[int]) -> Reply:
    script.extend([5, 2])
    return service.play(ALICE, DM, level="beginner")


def refused(reply: Reply) -> bool:
    assert isinstance(reply, Reply) and reply.text
    return reply.ephemeral


@FUZZ
@given(level=texts, points=ints, cube=st.booleans())
def test_play_options(
    service: Service, factory: sessionmaker[Session], level: str, points: int, cube: bool
) -> None:
    before = snapshot(factory)
    reply = service.play(BOB, CHANNEL, level=level, points=points, cube=cube)
    if refused(reply):
        assert snapshot(factory) == before
    else:
        assert reply.image is not None
        service.resign(BOB, CHANNEL, 3)  # clear the channel for the next example


@FUZZ
@given(notation=texts)
def test_move_text(
    service: Service, script: deque[int], factory: sessionmaker[Session], notation: str
) -> None:
    if not snapshot(factory)[0]:
        a_game(service, script)
    before = snapshot(factory)
    reply = service.move(ALICE, DM, notation)
    if refused(reply):
        assert snapshot(factory) == before


@FUZZ
@given(custom_id=custom_ids, value=st.one_of(st.none(), texts))
def test_component_ids(
    service: Service,
    script: deque[int],
    factory: sessionmaker[Session],
    custom_id: str,
    value: str | None,
) -> None:
    if not snapshot(factory)[0]:
        a_game(service, script)
    before = snapshot(factory)
    reply = service.press(BOB, CHANNEL, custom_id, value)  # Bob has no game: all refused
    assert refused(reply)
    assert snapshot(factory) == before


@FUZZ
@given(points=ints, value=ints, game=ints, language=texts, scope=texts)
def test_other_options(
    service: Service,
    factory: sessionmaker[Session],
    points: int,
    value: int,
    game: int,
    language: str,
    scope: str,
) -> None:
    before = snapshot(factory)
    for reply in (
        service.challenge(ALICE, CHANNEL, BOB, points=points),
        service.resign(ALICE, CHANNEL, value),
        service.verify(ALICE, CHANNEL, game),
        service.board(ALICE, CHANNEL, game_id=game),
        service.watch(ALICE, CHANNEL, game_id=game),
        service.tournament(ALICE, CHANNEL, "join", tournament=game),
        service.settings_command(ALICE, CHANNEL, language=language),
        service.leaderboard(ALICE, CHANNEL, scope),  # type: ignore[arg-type]
    ):
        assert isinstance(reply, Reply) and reply.text
    made = service.challenge(ALICE, CHANNEL, BOB, points=points)
    if not made.ephemeral:
        press(service, ALICE, made, "Cancel")
    del before


@FUZZ
@given(typed=texts)
def test_autocomplete_never_fails(
    service: Service, script: deque[int], factory: sessionmaker[Session], typed: str
) -> None:
    if not snapshot(factory)[0]:
        a_game(service, script)
    choices = service.autocomplete_moves(ALICE, DM, typed)
    assert len(choices) <= 25 and all(len(c) <= 100 for c in choices)

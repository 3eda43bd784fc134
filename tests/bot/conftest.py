"""Fixtures for the service and adapters: a migrated SQLite file, scripted dice, people."""

from __future__ import annotations

import shutil
from collections import deque
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event
from sqlalchemy.orm import Session, sessionmaker

from bot.dice import GameDice
from bot.service import Actor, Button, Reply, Select, Service, Where
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade

ALICE = Actor(101, "Alice", locale="en-US")
BOB = Actor(202, "Bob", locale="en-US")
CAROL = Actor(303, "Carol", locale="en-US")  # a spectator
ROBOT = Actor(404, "Robo", is_bot=True)
CHANNEL = Where(channel_id=5000, guild_id=9000, guild_locale="en-US")
DM = Where(channel_id=6000)


class ScriptedDice(GameDice):
    """Dice that come from a script while it lasts, then from the seed as usual."""

    def __init__(self, script: deque[int], seed: bytes, counter: int = 0) -> None:
        super().__init__(seed, counter)
        self.script = script

    def die(self) -> int:
        if self.script:
            self.counter += 1
            return self.script.popleft()
        return super().die()


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kwargs: float) -> None:
        self.now += timedelta(**kwargs)


def open_transactions(engine: Engine) -> list[int]:
    """A one-item list holding how many transactions are open on ``engine`` now (kept up to
    date from its events): a test reads it where a picture is drawn."""
    count = [0]

    def began(conn: object) -> None:
        count[0] += 1

    def ended(conn: object) -> None:
        count[0] -= 1

    event.listen(engine, "begin", began)
    event.listen(engine, "commit", ended)
    event.listen(engine, "rollback", ended)
    return count


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated to the head revision, once per test process: each test's
    database is a copy of it (a copy takes milliseconds, the migrations most of a second)."""
    path = tmp_path_factory.mktemp("migrated") / "bot.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    engine.dispose()  # the last connection closed: the WAL is folded into the file
    leftovers = [p.name for p in path.parent.iterdir() if p != path]
    assert not leftovers, f"the migrated database is not one file: {leftovers}"
    return path


@pytest.fixture
def factory(tmp_path: Path, migrated_sqlite: Path) -> Iterator[sessionmaker[Session]]:
    """A migrated SQLite database of the test's own (a copy of :func:`migrated_sqlite`)."""
    path = tmp_path / "bot.sqlite3"
    shutil.copyfile(migrated_sqlite, path)
    engine = make_engine(f"sqlite:///{path}")
    yield make_session_factory(engine)
    engine.dispose()


@pytest.fixture
def script() -> deque[int]:
    """Dice to come, one value per die, in the order they are drawn."""
    return deque()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def service(factory: sessionmaker[Session], script: deque[int], clock: Clock) -> Service:
    return Service(
        factory,
        clock=clock,
        new_dice=lambda: ScriptedDice(script, bytes(range(32))),
        dice_for=lambda seed, counter: ScriptedDice(script, seed, counter),
    )


def within_discord_limits(reply: Reply) -> Reply:
    """Discord refuses (or mangles) messages past these limits: check every reply."""
    assert len(reply.text) <= 2000, len(reply.text)
    assert len(reply.rows) <= 5
    for row in reply.rows:
        selects = [c for c in row if isinstance(c, Select)]
        assert len(row) <= 5 and (not selects or len(row) == 1), row
        for c in row:
            assert len(c.custom_id) <= 100
            if isinstance(c, Button):
                assert 1 <= len(c.label) <= 80
            else:
                assert 1 <= len(c.choices) <= 25 and len(c.placeholder) <= 150
                assert all(len(ch.label) <= 100 and len(ch.value) <= 100 for ch in c.choices)
    ids = [c.custom_id for row in reply.rows for c in row]
    assert len(ids) == len(set(ids)), "custom ids must be unique in a message"
    return reply


def press(
    service: Service,
    actor: Actor,
    reply: Reply,
    label: str,
    where: Where = CHANNEL,
    value: str | None = None,
) -> Reply:
    """Press the button labelled ``label`` on ``reply`` as ``actor`` (both messages checked
    against Discord's limits)."""
    within_discord_limits(reply)
    for button in reply.buttons:
        if button.label == label:
            assert not button.disabled, f"{label} is disabled"
            return within_discord_limits(service.press(actor, where, button.custom_id, value))
    if value is not None:
        for select in reply.selects:
            return within_discord_limits(service.press(actor, where, select.custom_id, value))
    raise AssertionError(f"no button {label!r} in {[b.label for b in reply.buttons]}")


def labels(reply: Reply) -> list[str]:
    return [b.label for b in reply.buttons if not b.disabled]


def play_out(service: Service, actor: Actor, where: Where, reply: Reply, limit: int = 600) -> Reply:
    """Press buttons as a simple player would until the game (or match) is over."""
    for _ in range(limit):
        names = labels(reply)
        if "Rematch" in names or not reply.rows:
            return reply
        for wanted in ("Confirm", "Take", "Roll", "Reject"):
            if wanted in names:
                reply = press(service, actor, reply, wanted, where)
                break
        else:
            points = [n for n in names if n.isdigit() or n == "Bar"]
            assert points, names
            reply = press(service, actor, reply, points[0], where)
        assert not reply.ephemeral, reply.text
    raise AssertionError("the game did not end")


@pytest.fixture(autouse=True)
def steady_computer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The computer's levels add random noise to their choices (the beginner doubles after
    the opening about one time in a hundred): seed it, so that tests that expect a roll do
    not fail now and then."""
    from functools import lru_cache

    import bot.service.computer as computer
    from engine.bots import ComputerPlayer, get_bot

    @lru_cache(maxsize=16)
    def seeded(level: str) -> ComputerPlayer:
        return get_bot(level, rng=1)

    monkeypatch.setattr(computer, "computer_for", seeded)


# The bot's /review looks 3 plies deep (bot.service.analysis.REVIEW_PLIES: GNU Backgammon's
# 2-ply), about 3.4 times the work of 2 plies for a whole game, and a finished game's review
# confirms its blunders as puzzles at 3 plies too (bot.service.puzzles.CONFIRM_PLIES). The tests
# of what a review says, draws, caches and harvests hold at any depth: they work at 2 plies (the
# depth reviews had before). A test of the depth itself is marked ``review_depth`` and keeps
# the bot's.
TEST_REVIEW_PLIES = 2


@pytest.fixture(autouse=True)
def shallower_reviews(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.service.analysis as analysis
    import bot.service.puzzles as puzzles

    if request.node.get_closest_marker("review_depth") is None:
        monkeypatch.setattr(analysis, "REVIEW_PLIES", min(analysis.REVIEW_PLIES, TEST_REVIEW_PLIES))
        monkeypatch.setattr(puzzles, "CONFIRM_PLIES", min(puzzles.CONFIRM_PLIES, TEST_REVIEW_PLIES))


@pytest.fixture
def quick_reviews(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviews at the shallowest depth (1 ply, against the 2 above): for the tests of where a
    review shows, what files it writes or how its numbers read, which hold at any depth and
    review whole games, the most costly part of them."""
    import bot.service.analysis as analysis

    monkeypatch.setattr(analysis, "REVIEW_PLIES", 1)


def accepted_challenge(service: Service, script: deque[int], **options: object) -> Reply:
    """Alice challenges Bob here (``options``: the challenge's), Bob accepts: Alice opens with
    5-2 (her turn to move). The opening of the web tests' games between people."""
    made = service.challenge(ALICE, CHANNEL, BOB, **options)  # type: ignore[arg-type]
    assert not made.ephemeral, made.text
    script.extend([5, 2])
    return press(service, BOB, made, "Accept")


@pytest.fixture
async def client(service: Service, links: Any) -> AsyncIterator[Any]:
    """The web board of ``service`` on aiohttp's test client (each module gives its ``links``)."""
    from aiohttp.test_utils import TestClient, TestServer

    from bot.web.server import WebServer

    server = WebServer(service, links, "127.0.0.1", 0)
    web = TestClient(TestServer(server.app()))
    await web.start_server()
    yield web
    await web.close()


def play_args(tmp_path: Path, *extra: str) -> list[str]:
    """``python -m bot play``'s arguments for a terminal test run in a subprocess: its own
    SQLite file and pictures folder under ``tmp_path``, as Ann; ``extra`` after them."""
    db = f"sqlite:///{tmp_path / 't.sqlite3'}"
    return [
        "-m",
        "bot",
        "play",
        "--db",
        db,
        "--images",
        str(tmp_path / "boards"),
        "--user",
        "Ann",
        *extra,
    ]

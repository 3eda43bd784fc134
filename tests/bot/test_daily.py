"""The position of the day (issue 18): posted once per server and day, whatever sweeps: the
same process again, a restarted one, two at once (SQLite here, PostgreSQL with
TEST_POSTGRES_URL); at the hour of the server's time zone; the next post reveals the answer and
how the server voted."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Service, Where
from bot.service.timers import Notice
from db.connection import make_engine, make_session_factory
from db.models import DailyPost, Puzzle
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, Clock, within_discord_limits
from tests.pg import postgres_schema, two_processes

OTHER = Where(channel_id=7000, guild_id=9100, guild_locale="fr", manager=True)
MANAGED = replace(CHANNEL, manager=True)  # where the person may manage the server


def daily(notices: list[Notice]) -> list[Notice]:
    return [n for n in notices if n.game_id is None]


def test_admin_sets_channel_hour_and_time_zone(service: Service, clock: Clock) -> None:
    reply = service.daily(ALICE, MANAGED, hour=9, timezone="europe/paris")
    assert "09:00 (Europe/Paris)" in reply.text
    assert service.daily(ALICE, MANAGED, hour=24).ephemeral
    assert "Mars/Olympus" in service.daily(ALICE, MANAGED, timezone="Mars/Olympus").text
    assert service.daily(ALICE, Where(channel_id=1), hour=9).ephemeral  # a DM: no server
    refused = service.daily(BOB, CHANNEL, hour=9)  # Bob may not manage the server
    assert refused.ephemeral and "manage this server" in refused.text
    clock.now = datetime(2026, 11, 30, 7, 59, tzinfo=UTC)  # 08:59 in Paris
    assert daily(service.sweep()) == []
    clock.now = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)  # 09:00 in Paris
    posted = daily(service.sweep())
    assert [(n.channel_id, n.guild_id) for n in posted] == [(5000, 9000)]
    within_discord_limits(posted[0].reply)
    assert posted[0].reply.image and "Position of the day" in posted[0].reply.text


def test_once_a_day_across_restarts_and_the_next_post_reveals_the_votes(
    factory: sessionmaker[Session], clock: Clock
) -> None:
    first = Service(factory, clock=clock)
    first.daily(ALICE, MANAGED, hour=0, timezone="UTC")
    post = daily(first.sweep())
    assert len(post) == 1
    assert daily(first.sweep()) == []  # the same process, a minute later
    restarted = Service(factory, clock=clock)
    assert daily(restarted.sweep()) == []  # after a restart
    reply = post[0].reply
    # Members answer privately; the first answer counts.
    with factory() as s:
        row = s.scalars(select(DailyPost)).one()
        puzzle = s.get(Puzzle, row.puzzle_id)
        assert puzzle is not None
        best = puzzle.choices["choices"][0]["answer"]
        worst = puzzle.choices["choices"][-1]["answer"]
    for who, answer in ((BOB, best), (CAROL, worst), (ALICE, best)):
        voted = _vote(restarted, who, reply, answer)
        assert voted.ephemeral and "is in" in voted.text
    assert "already" in _vote(restarted, BOB, reply, worst).text
    clock.advance(days=1)
    nxt = daily(restarted.sweep())
    assert len(nxt) == 1
    text = nxt[0].reply.text
    assert "Yesterday's position" in text and "3 members answered" in text
    assert "(67 %)" in text and "(33 %)" in text
    with factory() as s:
        assert len(s.scalars(select(DailyPost)).all()) == 2
        assert len({p.puzzle_id for p in s.scalars(select(DailyPost))}) == 2  # a new puzzle


def _vote(service: Service, who: object, reply: object, answer: str) -> object:
    from bot.service import Reply

    assert isinstance(reply, Reply)
    if reply.selects:
        return service.press(who, CHANNEL, reply.selects[0].custom_id, answer)  # type: ignore[arg-type]
    button = next(b for b in reply.buttons if b.label.lower().startswith(answer.split()[0][:4]))
    return service.press(who, CHANNEL, button.custom_id)  # type: ignore[arg-type]


def _race(services: list[Service]) -> list[Notice]:
    """Every service sweeps at the same moment, each in its own thread."""
    barrier = threading.Barrier(len(services))
    found: list[list[Notice]] = [[] for _ in services]
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            barrier.wait(timeout=600)
            found[k] = daily(services[k].sweep())
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(services))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=1200)
    assert not errors, errors
    return [n for notices in found for n in notices]


def _two_processes_post_once(factory: sessionmaker[Session], other: sessionmaker[Session]) -> None:
    clock = Clock()
    one, two = Service(factory, clock=clock), Service(other, clock=clock)
    one.daily(ALICE, MANAGED, hour=6, timezone="America/New_York")
    two.daily(BOB, OTHER, hour=12, timezone="Europe/Paris")
    for day in range(3):
        posted = _race([one, two])
        assert sorted(n.guild_id for n in posted) == [9000, 9100], day  # each server once
        assert _race([one, two]) == []
        clock.advance(days=1)
    with factory() as s:
        assert len(s.scalars(select(DailyPost)).all()) == 6


def test_two_services_on_one_sqlite_file(factory: sessionmaker[Session], tmp_path: object) -> None:
    engine = factory.kw["bind"]
    _two_processes_post_once(factory, make_session_factory(make_engine(str(engine.url))))


@pytest.fixture
def pg_factories() -> Iterator[tuple[sessionmaker[Session], sessionmaker[Session]]]:
    with postgres_schema("daily") as url, two_processes(url) as factories:
        yield factories


@pytest.mark.postgres
def test_two_services_on_postgresql(
    pg_factories: tuple[sessionmaker[Session], sessionmaker[Session]],
) -> None:
    _two_processes_post_once(*pg_factories)


def test_the_day_is_the_servers(factory: sessionmaker[Session]) -> None:
    """Just after midnight in Tokyo it is still yesterday in UTC: Tokyo's next day starts."""
    clock = Clock()
    clock.now = datetime(2026, 11, 30, 14, 30, tzinfo=UTC)  # 23:30 in Tokyo
    service = Service(factory, clock=clock)
    service.daily(ALICE, MANAGED, hour=23, timezone="Asia/Tokyo")
    assert len(daily(service.sweep())) == 1
    clock.now += timedelta(minutes=40)  # 00:10 the next day in Tokyo: before 23:00
    assert daily(service.sweep()) == []
    with factory() as s:
        days = [p.day.isoformat() for p in s.scalars(select(DailyPost))]
    assert days == ["2026-11-30"]


def test_a_picture_that_fails_is_logged_and_the_post_goes_without_it(
    service: Service, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Drawn like every other picture once the claim has committed (``Reply.later``): a
    drawing worker that breaks costs the day's post its picture, not the post (the day is
    claimed by then: no later sweep would post it)."""
    import bot.service.puzzleview as puzzleview

    class BrokenDrawer:
        def draw(self, position: object, view: object) -> bytes:
            raise RuntimeError("the drawing worker died")

    monkeypatch.setattr(puzzleview, "DRAWERS", BrokenDrawer())
    service.daily(ALICE, MANAGED, hour=0, timezone="UTC")
    posted = daily(service.sweep())
    assert len(posted) == 1 and "Position of the day" in posted[0].reply.text
    assert posted[0].reply.image is None and posted[0].reply.rows
    assert "drawing a picture after the action failed" in caplog.text
    assert daily(service.sweep()) == []  # claimed: posted once, picture or not


@pytest.mark.parametrize("locale", ["en-US", "fr"])
def test_an_unknown_time_zone_reads_as_in_the_settings(service: Service, locale: str) -> None:
    # /daily said "Unknown time zone “Nowhere”: give one like Europe/Paris, ..." and /settings
    # "“Nowhere” is not a time zone: use a name like `Europe/Paris`, ...": one message for both.
    alice = replace(ALICE, locale=locale)
    daily_refusal = service.daily(alice, MANAGED, hour=3, timezone="Nowhere")
    settings_refusal = service.settings_command(alice, MANAGED, timezone="Nowhere")
    assert daily_refusal.ephemeral and settings_refusal.ephemeral
    assert daily_refusal.text == settings_refusal.text
    assert "Nowhere" in daily_refusal.text and "`Europe/Paris`" in daily_refusal.text

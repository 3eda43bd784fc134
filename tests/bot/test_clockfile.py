"""``CLOCK_FILE``: the bot's time moved by hand from another shell, for trying what the
calendar drives (here a ladder's deadline) without waiting for it."""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clockfile import FileClock
from bot.compose import open_service
from bot.config import Config
from tests.bot.ladder_players import challenges
from tests.bot.test_ladders import HERE, open_ladder, people

START = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)


def write(path: Path, text: str, tick: list[int]) -> None:
    """Write the file with a new modification time (a coarse file system may keep the old)."""
    path.write_text(text, encoding="utf-8")
    tick[0] += 1
    os.utime(path, ns=(tick[0] * 10**9, tick[0] * 10**9))


def test_the_offset_follows_the_file_and_time_never_runs_back(tmp_path: Path) -> None:
    real = [START]
    path, tick = tmp_path / "clock", [0]
    clock = FileClock(path, real=lambda: real[0])
    assert clock() == START  # no file: the real time
    write(path, "+7d", tick)
    assert clock() == START + timedelta(days=7)
    write(path, "+1d 2h 30m", tick)  # made smaller: the time holds where it was
    assert clock() == START + timedelta(days=7)
    real[0] += timedelta(days=6)  # ... until the real time catches up
    assert clock() == START + timedelta(days=7, hours=2, minutes=30)
    write(path, "soon", tick)  # not a duration: the last good offset stays
    assert clock() == START + timedelta(days=7, hours=2, minutes=30)
    write(path, "+8d", tick)
    assert clock() == START + timedelta(days=14)
    path.unlink()  # gone: no offset (and, again, never backwards)
    assert clock() == START + timedelta(days=14)


def test_a_deadline_passes_when_the_file_says_so(tmp_path: Path) -> None:
    path = tmp_path / "clock"
    config = Config(database_url=f"sqlite:///{tmp_path / 'bot.sqlite3'}", clock_file=path)
    assert Config.from_env({"CLOCK_FILE": str(path)}).clock_file == path
    service, engine = open_service(config)
    players = people(3)
    lid = open_ladder(service, players, hours=1)
    made = service.ladder(players[2], HERE, "challenge", player=players[1])
    assert not made.ephemeral, made.text
    assert service.ladder_sweep() == []  # within its hour
    path.write_text("+2h", encoding="utf-8")
    said = [n.reply.text for n in service.ladder_sweep()]
    assert any("not played by its deadline" in x for x in said), said
    (challenge,) = challenges(service.factory, lid)
    assert challenge.forfeit
    engine.dispose()


def test_the_log_tells_a_bad_content_once_and_the_time_really_in_effect(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # "garbage" was logged at every reading of the time (six times for one command), and "+0"
    # after "+1d 4h" logged "the real time + 0:00:00" while the time held where it was.
    real = [START]
    path, tick = tmp_path / "clock", [0]
    clock = FileClock(path, real=lambda: real[0])
    write(path, "+1d 4h", tick)
    clock()
    caplog.clear()
    write(path, "garbage", tick)
    with caplog.at_level(logging.WARNING, logger="bot.clockfile"):
        for _ in range(6):
            clock()
    assert [r.getMessage().count("garbage") for r in caplog.records] == [1]
    caplog.clear()
    write(path, "+0", tick)
    with caplog.at_level(logging.WARNING, logger="bot.clockfile"):
        assert clock() == START + timedelta(days=1, hours=4)
    (said,) = [r.getMessage() for r in caplog.records]
    assert "never runs backwards" in said and "1 day, 4:00:00" in said, said

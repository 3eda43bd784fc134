"""Operations: ``backgammon-bot migrate`` and ``check``, ``/healthz`` and ``/metrics``."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.core import GaugeMetricFamily, Metric
from sqlalchemy.orm import Session, sessionmaker

from bot import heavy
from bot.__main__ import main
from bot.config import Config
from bot.ops import metrics
from bot.ops.checks import run_checks
from bot.ops.server import MetricsServer, database_probes
from bot.service import Service
from tests.bot.conftest import ALICE, DM

# -- commands -----------------------------------------------------------------------------------


def test_check_finds_an_unmigrated_database_and_migrate_fixes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    assert main(["check", "--db", url]) == 1
    out = capsys.readouterr().out
    assert "ok    database: sqlite:///" in out
    assert "FAIL  migrations: at an empty database" in out and "backgammon-bot migrate" in out
    assert main(["migrate", "--db", url]) == 0
    assert "database at revision" in capsys.readouterr().out
    assert main(["check", "--db", url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "ok    configuration",
        "ok    database",
        "ok    migrations",
        "ok    computer",
    ]
    assert "at the latest revision" in lines[2]
    assert "bgsage" in lines[3] or "fallback" in lines[3]


def test_check_reports_a_database_that_does_not_answer(tmp_path: Path) -> None:
    lines: list[str] = []
    url = f"sqlite:///{tmp_path / 'no' / 'such' / 'dir.sqlite3'}"
    assert run_checks(Config(), url, out=lines.append) == 1
    assert lines[1].startswith("FAIL  database:") and "does not answer" in lines[1]
    assert not any("migrations" in line for line in lines)  # nothing to compare


def test_check_reports_shards_outside_the_count(tmp_path: Path) -> None:
    lines: list[str] = []
    config = Config(shard_ids=(0, 2), shard_count=2)
    assert run_checks(config, f"sqlite:///{tmp_path / 'x.sqlite3'}", out=lines.append) == 1
    assert lines[0] == "FAIL  configuration: SHARD_IDS [2] not below SHARD_COUNT"


def test_metrics_port_and_analysis_processes_from_the_environment() -> None:
    config = Config.from_env({"METRICS_PORT": "9108", "ANALYSIS_PROCESSES": "0"})
    assert (config.metrics_port, config.metrics_host, config.analysis_processes) == (
        9108,
        "127.0.0.1",
        0,
    )
    assert Config.from_env({}).metrics_port is None
    with pytest.raises(SystemExit, match="METRICS_PORT is a TCP port"):
        Config.from_env({"METRICS_PORT": "70000"})


# -- endpoints ----------------------------------------------------------------------------------


SAFETY = 60.0  # seconds: only so that a broken build fails instead of hanging


async def _get(port: int, path: str, within: float = SAFETY) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=within)) as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.text()


async def _until(condition: Callable[[], Awaitable[bool]]) -> None:
    """Wait for ``condition`` (asked again and again), failing after SAFETY seconds."""

    async def poll() -> None:
        while not await condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), SAFETY)


async def test_healthz_says_whether_the_database_answers() -> None:
    healthy = True

    def ping() -> None:
        if not healthy:
            raise ConnectionError("no route to host")

    server = MetricsServer(ping, host="127.0.0.1", port=0)
    port = await server.start()
    try:
        assert port > 0
        assert await _get(port, "/healthz") == (200, "ok\n")
        healthy = False
        status, text = await _get(port, "/healthz")
        assert status == 503 and "database unavailable: ConnectionError" in text
    finally:
        await server.stop()


async def test_healthz_answers_503_in_time_when_the_database_hangs() -> None:
    hung = threading.Event()  # the database: never answers until the test lets it
    pings: list[str] = []

    def ping() -> None:
        pings.append("ping")
        assert hung.wait(SAFETY)

    timeout = 0.5
    within = timeout * 20  # far above the timeout (a busy machine), far below the hang
    server = MetricsServer(ping, host="127.0.0.1", port=0, health_timeout=timeout)
    port = await server.start()
    try:
        answers = await asyncio.gather(*(_get(port, "/healthz", within) for _ in range(5)))
        late = "database unavailable: TimeoutError\n"
        assert answers == [(503, late)] * 5
        # The ping is still hung and already late: the next request is answered at once.
        assert await _get(port, "/healthz", within) == (503, late)
        assert pings == ["ping"]  # one ping in flight, shared, never one thread per request
        hung.set()
        await _until(lambda: _answers(port, "/healthz", (200, "ok\n")))
        assert pings == ["ping", "ping"]  # the next request after the hung one came back
    finally:
        hung.set()
        await server.stop()


async def _answers(port: int, path: str, wanted: tuple[int, str]) -> bool:
    return await _get(port, path) == wanted


class BlockingCollector:
    """A metric whose first collection blocks until the test lets it go: a slow build."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.builds = 0
        self.order: list[str] = []  # what happened, in order (appended from both threads)

    async def started(self) -> bool:
        return self.entered.is_set()

    def describe(self) -> list[Metric]:
        return []  # registering must not collect (it would block)

    def collect(self) -> Iterator[Metric]:
        self.builds += 1
        if self.builds == 1:
            self.entered.set()
            assert self.gate.wait(SAFETY)
            self.order.append("built")
        yield GaugeMetricFamily("test_storm_builds", "Builds of the text.", value=self.builds)


async def test_a_storm_of_scrapes_builds_once_off_the_event_loop() -> None:
    slow = BlockingCollector()
    metrics.REGISTRY.register(slow)
    server = MetricsServer(lambda: None, host="127.0.0.1", port=0)
    port = await server.start()
    try:
        scrapes = [asyncio.create_task(_get(port, "/metrics")) for _ in range(50)]
        await _until(slow.started)
        # The build is stuck in its thread: the event loop still serves another request.
        assert await _get(port, "/healthz") == (200, "ok\n")
        slow.order.append("healthz answered")
        assert not any(scrape.done() for scrape in scrapes)
        slow.gate.set()
        answers = await asyncio.wait_for(asyncio.gather(*scrapes), SAFETY)
    finally:
        slow.gate.set()
        await server.stop()
        metrics.REGISTRY.unregister(slow)
    assert slow.order == ["healthz answered", "built"]
    assert slow.builds == 1  # fifty scrapes, one build
    assert {status for status, _ in answers} == {200}
    assert all("test_storm_builds 1.0" in text for _, text in answers)


async def test_metrics_answer_when_counting_the_games_hangs() -> None:
    hung = threading.Event()
    counts: list[str] = []

    def active_games() -> int:
        counts.append("count")
        assert hung.wait(SAFETY)
        return 3

    timeout = 0.5
    server = MetricsServer(
        lambda: None, active_games, port=0, health_timeout=timeout, metrics_fresh=0.0
    )
    port = await server.start()
    try:
        for _ in range(3):  # each builds anew (nothing kept), none waits for the hung count
            status, text = await _get(port, "/metrics", timeout * 20)
            assert status == 200 and "backgammon_active_games" in text
        assert counts == ["count"]  # one count in flight, not one thread per scrape
    finally:
        hung.set()
        await server.stop()


async def test_metrics_count_interactions_and_read_the_gauges(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pools = heavy.Pools(analysis_workers=1, analysis_queue=2)
    monkeypatch.setattr(heavy, "POOLS", pools)
    before = metrics.INTERACTIONS.labels(kind="ordinary", outcome="refused")._value.get()
    metrics.observe("ordinary", 0.02, "refused")
    metrics.error()
    gate = threading.Event()
    running = pools.analysis.submit(lambda: gate.wait(60))
    queued = pools.analysis.submit(lambda: None)
    server = MetricsServer(lambda: None, lambda: 17, host="127.0.0.1", port=0)
    port = await server.start()
    try:
        while pools.analysis.running != 1:  # the first job has reached its worker
            await asyncio.sleep(0.005)
        status, text = await _get(port, "/metrics")
    finally:
        gate.set()
        await running
        await queued
        await server.stop()
    assert status == 200
    values = {
        line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line and not line.startswith("#")
    }
    key = 'backgammon_interactions_total{kind="ordinary",outcome="refused"}'
    assert values[key] == before + 1
    assert values["backgammon_active_games"] == 17
    assert values["backgammon_analysis_queue_length"] == 1
    assert values["backgammon_analysis_running"] == 1
    assert values["backgammon_errors_total"] >= 1
    assert 'backgammon_interaction_seconds_bucket{kind="ordinary",le="0.025"}' in values
    assert "backgammon_event_loop_lag_seconds_count" in values


def test_database_probes_count_the_games_in_progress(
    service: Service, factory: sessionmaker[Session]
) -> None:
    ping, active = database_probes(factory)
    ping()
    assert active() == 0
    service.play(ALICE, DM, level="beginner")
    assert active() == 1

"""One press's unit of work (issue 30 item 2): its SQL statements and its time by stage.

``python -m bench press [--quick]`` plays games between two people through the service
(``Service.press``, as the adapters call it, in one thread: no concurrency) on a fresh SQLite
file and, when ``TEST_POSTGRES_URL`` answers, on a schema of its own in PostgreSQL, and prints per
kind of press (a checker step or a die chosen, Confirm, Roll):

- the statements sent to the database (SQLAlchemy's ``before_cursor_execute``) and commits;
- milliseconds by stage, median and p95: **load** (the game, its players and its tournament
  membership: ``seated``), **save** (the repositories' writes and the flush: ``turns.save``),
  **commit**, **render** (every picture: ``DRAWERS.call``, here drawn in the press's thread as
  the terminal and the tests do), **engine and reply** (the rest: the engine applying the
  action and playing on, the reply's text and buttons) and **total**.

Environment: ``BENCH_PRESS_COUNT`` presses measured per database (default 600; 120 with
``--quick``).
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

from bench.common import Figure, percentile
from bot.service import Actor, Reply, Service, Where
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade

STAGES = ("load", "save", "commit", "render", "engine and reply", "total")
KINDS = ("step", "Confirm", "Roll")


@dataclass
class Press:
    """What one press cost."""

    statements: int = 0
    commits: int = 0
    ms: dict[str, float] = field(default_factory=lambda: defaultdict(float))


class Meter:
    """Stage clocks of the press being measured (one press at a time, in this thread)."""

    def __init__(self) -> None:
        self.current: Press | None = None
        self._commit_started = 0.0
        self._thread = threading.get_ident()

    def mine(self) -> Press | None:
        return self.current if threading.get_ident() == self._thread else None

    def timed(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            press = self.mine()
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                if press is not None:
                    press.ms[stage] += (time.perf_counter() - started) * 1000

        return wrapper

    def listen(self, engine: Any, factory: sessionmaker[Session]) -> None:
        def statement(*_: Any) -> None:
            press = self.mine()
            if press is not None:
                press.statements += 1

        def before_commit(_session: Session) -> None:
            self._commit_started = time.perf_counter()

        def after_commit(_session: Session) -> None:
            press = self.mine()
            if press is not None:
                press.commits += 1
                press.ms["commit"] += (time.perf_counter() - self._commit_started) * 1000

        event.listen(engine, "before_cursor_execute", statement)
        event.listen(factory, "before_commit", before_commit)
        event.listen(factory, "after_commit", after_commit)


@contextmanager
def _instrumented(meter: Meter) -> Iterator[None]:
    """The stages' functions wrapped by ``meter`` (put back afterwards)."""
    import bot.service.buttons as buttons
    import bot.service.turns as turns
    from bot.drawers import DRAWERS

    saved = [(buttons, "seated"), (turns, "save")]
    originals = [getattr(module, name) for module, name in saved]
    buttons.seated = meter.timed("load", buttons.seated)  # type: ignore[attr-defined]
    turns.save = meter.timed("save", turns.save)
    DRAWERS.call = meter.timed("render", DRAWERS.call)  # type: ignore[method-assign]
    try:
        yield
    finally:
        for (module, name), original in zip(saved, originals, strict=True):
            setattr(module, name, original)
        del DRAWERS.call


def _kind(label: str) -> str:
    return label if label in ("Confirm", "Roll") else "step"


def _choose(reply: Reply) -> str | None:
    labels = [b.label for b in reply.buttons if not b.disabled]
    for wanted in ("Confirm", "Roll", "Take", "Accept"):
        if wanted in labels:
            return wanted
    steps = [x for x in labels if x.isdigit() or x == "Bar" or x.startswith("Die")]
    return steps[0] if steps else None


def _measure(url: str, count: int) -> dict[str, list[Press]]:
    engine = make_engine(url)
    upgrade(engine)
    factory = make_session_factory(engine)
    service = Service(factory)
    meter = Meter()
    meter.listen(engine, factory)
    out: dict[str, list[Press]] = {k: [] for k in KINDS}
    ids = iter(range(3_000_000, 4_000_000))
    try:
        with _instrumented(meter):
            while sum(map(len, out.values())) < count:
                _one_game(service, meter, ids, out, count)
    finally:
        engine.dispose()
    return out


def _one_game(
    service: Service, meter: Meter, ids: Iterator[int], out: dict[str, list[Press]], count: int
) -> None:
    """A game between two people (a new channel) played until it ends or ``count`` presses."""
    ann, ben = Actor(next(ids), "Ann"), Actor(next(ids), "Ben")
    where = Where(channel_id=next(ids), guild_id=30)
    made = service.challenge(ann, where, ben, rated=False)
    accept = next(b for b in made.buttons if b.label == "Accept")
    board = service.press(ben, where, accept.custom_id)
    people = {ann.id: ann, ben.id: ben}
    while sum(map(len, out.values())) < count:
        label = _choose(board)
        if label is None or "Rematch" in [b.label for b in board.buttons]:
            return
        actor = people.get(board.mentions[0], ann) if board.mentions else ann
        button = next(b for b in board.buttons if b.label == label and not b.disabled)
        press = meter.current = Press()
        started = time.perf_counter()
        reply = service.press(actor, where, button.custom_id)
        press.ms["total"] = (time.perf_counter() - started) * 1000
        meter.current = None
        if reply.ephemeral:
            board = service.board(actor, where)
            continue
        known = sum(press.ms[s] for s in ("load", "save", "commit", "render"))
        press.ms["engine and reply"] = press.ms["total"] - known
        out.setdefault(_kind(label), []).append(press)
        board = reply


def _figures(db: str, measured: dict[str, list[Press]]) -> list[Figure]:
    figures = []
    for kind, presses in measured.items():
        if not presses:
            continue
        tag = f"{db}, {kind} ({len(presses)} presses)"
        statements = [float(p.statements) for p in presses]
        median = percentile(statements, 50)
        figures.append(Figure("press", f"{tag}: statements, median", median, ""))
        figures.append(Figure("press", f"{tag}: statements, max", max(statements), ""))
        figures.append(Figure("press", f"{tag}: commits, max", max(p.commits for p in presses), ""))
        for stage in STAGES:
            values = [p.ms[stage] for p in presses]
            figures.append(Figure("press", f"{tag}: {stage} p50", percentile(values, 50), "ms"))
            figures.append(Figure("press", f"{tag}: {stage} p95", percentile(values, 95), "ms"))
    return figures


def _postgres() -> tuple[str, Callable[[], None]] | None:
    """A schema of its own on ``TEST_POSTGRES_URL`` and how to drop it, or None."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        return None
    from sqlalchemy import text

    schema = f"bench_press_{os.getpid()}"
    admin = make_engine(url)
    try:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
            c.execute(text(f"CREATE SCHEMA {schema}"))
    except Exception as error:
        print(f"  PostgreSQL not reachable ({error}); skipped")
        admin.dispose()
        return None

    def drop() -> None:
        with admin.begin() as c:
            c.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        admin.dispose()

    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}", drop


def run(quick: bool = False) -> list[Figure]:
    count = int(os.environ.get("BENCH_PRESS_COUNT") or (120 if quick else 600))
    figures = []
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = f"sqlite:///{Path(tmp) / 'press.sqlite3'}"
        figures += _figures("SQLite", _measure(sqlite, count))
    pg = _postgres()
    if pg is not None:
        url, drop = pg
        try:
            figures += _figures("PostgreSQL", _measure(url, count))
        finally:
            drop()
    return figures

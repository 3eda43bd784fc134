"""Board pictures drawn in worker processes (bot.drawers, issue 19): the same PNG as drawn in the
press's thread, drawing errors raised to the caller as before, and a dead worker costing no
picture."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

import bot.drawers
from bot.config import Config
from bot.drawers import Drawers, _ready
from render import BoardView, render_board
from render.chart import line_chart
from render.samples import bar

HANG = 600  # seconds: a guard against a hung worker only, however busy the machine


def _refuse(*_: object, **__: object) -> bytes:
    raise AssertionError("drawn in the calling process")


@pytest.fixture
def drawers() -> Iterator[Drawers]:
    d = Drawers()
    d.start(1)
    yield d
    d.stop()


def _worker_pid(d: Drawers) -> int:
    return int(d.call(_ready))  # type: ignore[arg-type]


def test_a_worker_draws_the_same_picture(drawers: Drawers, monkeypatch: pytest.MonkeyPatch) -> None:
    position, view = bar()  # highlights, arrows, a match score: most of what is drawn
    expected = render_board(position, view=view)
    # Drawing here would fail: the picture can only come from the (spawned) worker.
    monkeypatch.setattr(bot.drawers, "render_board", _refuse)
    assert drawers.draw(position, view) == expected
    assert _worker_pid(drawers) != os.getpid()


def test_any_picture_runs_in_a_worker_and_its_errors_reach_the_caller(drawers: Drawers) -> None:
    """Charts and tournament tables go to the workers too (Drawers.call), as boards do."""
    values = [1500.0, 1512.5, 1490.0, 1530.0]
    assert drawers.call(line_chart, values, title="Rating") == line_chart(values, title="Rating")
    assert drawers.call(os.getpid) not in (os.getpid(), None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        drawers.call(line_chart, [], title="nothing to draw")


def test_without_workers_the_thread_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    d = Drawers()
    d.start(0)
    monkeypatch.setattr(bot.drawers, "render_board", _refuse)
    with pytest.raises(AssertionError, match="calling process"):
        d.draw(*bar())


def test_a_drawing_error_reaches_the_caller(drawers: Drawers) -> None:
    position, _ = bar()
    # A highlight where the mover has no checker contradicts the position: render_board
    # refuses it, and the game message then draws the board without the extras.
    empty = next(p for p in range(1, 25) if position.checkers_at(p) <= 0)
    wrong = BoardView(highlights=frozenset({empty}))
    with pytest.raises(ValueError, match="holds no checker"):
        drawers.draw(position, wrong)


def test_a_dead_worker_costs_no_picture(drawers: Drawers) -> None:
    position, view = bar()
    expected = render_board(position, view=view)
    first = _worker_pid(drawers)
    os.kill(first, signal.SIGKILL)
    assert drawers.draw(position, view) == expected  # drawn here, once the pool saw the death
    assert drawers.draw(position, view) == expected
    second = _worker_pid(drawers)
    assert second not in (first, os.getpid())


def test_a_worker_ignores_ctrl_c(drawers: Drawers) -> None:
    # Ctrl-C in a terminal reaches the workers too (one process group): the parent decides
    # when they stop, so a worker stays, with no traceback.
    first = _worker_pid(drawers)
    handler: object = drawers.call(signal.getsignal, signal.SIGINT)  # type: ignore[arg-type]
    assert handler == signal.SIG_IGN
    os.kill(first, signal.SIGINT)
    assert _worker_pid(drawers) == first


def test_presses_take_turns_with_the_workers() -> None:
    """More presses than workers: each waits for one in turn and gets its own picture."""
    d = Drawers()
    d.start(2)
    try:
        samples = [bar(), bar()]
        expected = [render_board(p, view=v) for p, v in samples]
        with ThreadPoolExecutor(6) as threads:
            drawn = list(threads.map(lambda i: d.draw(*samples[i % 2]), range(24)))
        assert drawn == [expected[i % 2] for i in range(24)]
        assert len({_worker_pid(d) for _ in range(8)} - {os.getpid()}) >= 1
    finally:
        d.stop()


def test_a_restart_costs_no_picture() -> None:
    """The workers replaced (started again): the old one leaves, the new one draws."""
    d = Drawers()
    d.start(1)
    try:
        position, view = bar()
        expected = render_board(position, view=view)
        first = _worker_pid(d)
        d.start(1)
        assert d.draw(position, view) == expected
        assert _worker_pid(d) not in (first, os.getpid())
    finally:
        d.stop()


def test_a_call_that_cannot_be_sent_is_refused_here(drawers: Drawers) -> None:
    with pytest.raises(Exception, match="pickle"):
        drawers.call(lambda: b"")
    assert _worker_pid(drawers) != os.getpid()  # the worker is still there


def test_draw_processes_from_the_environment() -> None:
    assert Config.from_env({"DRAW_PROCESSES": "0"}).draw_processes == 0
    assert Config.from_env({"DRAW_PROCESSES": "3"}).draw_processes == 3
    assert Config.from_env({}).draw_processes == (1 if (os.cpu_count() or 1) >= 2 else 0)


def test_a_stuck_worker_costs_no_picture(drawers: Drawers, monkeypatch: pytest.MonkeyPatch) -> None:
    position, view = bar()
    expected = render_board(position, view=view)
    stuck = _worker_pid(drawers)
    monkeypatch.setattr(bot.drawers, "PATIENCE", 1.0)  # a stopped process never answers
    os.kill(stuck, signal.SIGSTOP)
    try:
        assert drawers.draw(position, view) == expected  # drawn here
    finally:
        with contextlib.suppress(ProcessLookupError):  # killed and reaped by the drawers
            os.kill(stuck, signal.SIGKILL)
    monkeypatch.setattr(bot.drawers, "PATIENCE", HANG)  # the new worker's start-up may be slow
    assert _worker_pid(drawers) not in (stuck, os.getpid())  # a new worker for the next


def test_workers_that_keep_dying_are_given_up(
    drawers: Drawers, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.drawers, "GIVE_UP", 1)
    position, view = bar()
    os.kill(_worker_pid(drawers), signal.SIGKILL)
    assert drawers.draw(position, view) == render_board(position, view=view)
    assert drawers.count == 0 and not drawers._workers  # the threads draw from now on

"""Board pictures drawn in worker processes, off the bot's GIL.

Drawing a board is about a third of an ordinary press's CPU (10 ms of ~30: drawing, mapping to
the palette, PNG encoding), much of it Python that holds the GIL. In the bot's process it
competes with the event loop and the other presses for the one GIL; the load benchmark at 1,000
games showed the process saturated (about 47 presses a second on one core) while the second
core idled. :data:`DRAWERS` sends each picture to a worker process instead, which draws it on a
core of its own while the press's thread waits without the GIL.

The Discord bot asks for workers (``DRAW_PROCESSES``: one by default where there are two cores);
the terminal and the tests draw in the calling thread, as before. A worker that died (killed,
out of memory) costs no picture: that one is drawn in the calling thread and a new worker
starts for the next.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import CancelledError, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.heavy import release_free_memory, worker_processes
from engine import Position
from render import BoardView, render_board

__all__ = ["DRAWERS", "Drawers"]

log = logging.getLogger(__name__)

# A picture takes tens of milliseconds: a worker that has not drawn one in this long is stuck
# (stopped, swapping), and the press must not wait for it.
PATIENCE = 30.0  # seconds
GIVE_UP = 5  # broken pools after which the pictures are drawn in the threads


class Drawers:
    """Where board pictures are drawn: in up to :attr:`count` worker processes, or in the
    calling thread when there are none."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None
        self._failures = 0
        self.count = 0

    def start(self, count: int) -> None:
        """Use ``count`` worker processes from now on (0: draw in the calling thread), and start
        them at once so that the first press does not wait for a worker's start-up (about a
        second: imports and the palette)."""
        with self._lock:
            old, self._pool, self.count = self._pool, None, max(0, count)
            self._failures = 0
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        pool = self._get()
        if pool is not None:
            for _ in range(self.count):  # each warm-up job wakes one worker
                pool.submit(_ready)

    def stop(self) -> None:
        self.start(0)

    def draw(self, position: Position, view: BoardView) -> bytes:
        """The PNG of ``position`` as ``view`` shows it (:func:`render.render_board`): in a worker
        when there are some, else here. Blocking; called from a press's thread. A drawing
        error (a view that contradicts the position) is raised here as if drawn here."""
        return self.call(_draw, position, view)

    def call(self, picture: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        """``picture(*args, **kwargs)``, a module-level function of :mod:`render` (so that a
        worker can import it) that returns PNG bytes: run in a worker when there are some,
        else here. Its errors are raised here, as if it had run here."""
        pool = self._get()
        if pool is not None:
            try:
                return pool.submit(picture, *args, **kwargs).result(timeout=PATIENCE)
            except (BrokenProcessPool, TimeoutError):  # BrokenProcessPool is a RuntimeError
                log.warning("a drawing worker died or hung; drawing this picture here")
                self._drop(pool)
            except (RuntimeError, CancelledError):
                # Another thread left this pool (a dead or stuck worker) since _get() handed it
                # here, or while the picture waited: the picture is still owed.
                pass
        return picture(*args, **kwargs)

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        """Leave a broken pool; a new one starts at the next picture, unless pools keep
        breaking (a worker that cannot start): then the pictures are drawn in the threads."""
        with self._lock:
            if self._pool is not pool:
                return  # another thread already left it
            self._pool = None
            self._failures += 1
            if self._failures >= GIVE_UP:
                log.error("drawing workers failed %d times; drawing in the threads", GIVE_UP)
                self.count = 0
        pool.shutdown(wait=False, cancel_futures=True)

    def _get(self) -> ProcessPoolExecutor | None:
        with self._lock:
            if self._pool is None and self.count:
                self._pool = worker_processes(self.count, _warm_worker)
            return self._pool


def _draw(position: Position, view: BoardView) -> bytes:
    """In a worker: the picture (a function of this module, so that the worker imports it)."""
    return render_board(position, view=view)


def _ready() -> int:
    return os.getpid()


def _warm_worker() -> None:
    """Draw one board: the default theme's layer (its empty board, ~50 ms) and sprites are
    prepared before the first press (the palettes are read from render/palettes.json), then
    give back to the system the memory the drawing freed."""
    render_board(Position.initial())
    release_free_memory()


DRAWERS = Drawers()

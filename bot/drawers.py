"""Board pictures drawn in worker processes, off the bot's GIL.

Drawing a board is about a third of an ordinary press's CPU (drawing, mapping to the palette,
PNG encoding), much of it Python that holds the GIL. In the bot's process it competes with the
event loop and the other presses for the one GIL; the load benchmark at 1,000 games showed the
process saturated (about 47 presses a second on one core) while the second core idled.
:data:`DRAWERS` sends each picture to a worker process instead, which draws it on a core of its
own while the press's thread waits without the GIL.

The press's thread talks to a worker directly, over a pipe of its own: it takes an idle worker,
sends it the call, waits for the PNG and hands the worker back. (It went through a
``ProcessPoolExecutor`` before: each picture then passed through two more threads of the bot's
process, the pool's manager and its queue's feeder, each taking the GIL in turn; with 40 players
pressing at once that was a tenth of the bot's GIL time, and as many more waits for a thread to
be scheduled on a busy machine; ``bench/bench_crowd.py``.)

The Discord bot asks for workers (``DRAW_PROCESSES``: one by default where there are two cores);
the terminal and the tests draw in the calling thread, as before. A worker that died (killed,
out of memory) or hung costs no picture: that one is drawn in the calling thread and a new
worker replaces it.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any, cast

from bot.heavy import release_free_memory, renice_from_parent
from engine import Position
from render import BoardView, render_board

__all__ = ["DRAWERS", "Drawers"]

log = logging.getLogger(__name__)

# A picture takes tens of milliseconds: a worker that has not drawn one in this long is stuck
# (stopped, swapping), and the press must not wait for it.
PATIENCE = 30.0  # seconds
GIVE_UP = 5  # workers lost after which the pictures are drawn in the threads


@dataclass(eq=False)
class _Worker:
    """A drawing process, the bot's end of its pipe, and the calls sent to it and not answered
    yet, in the order sent (the order it answers them): the first one's thread reads the next
    answer, then wakes the second's."""

    process: BaseProcess
    conn: Connection
    line: deque[threading.Event] = field(default_factory=deque)
    lost: bool = False

    def close(self, *, kill: bool = False) -> None:
        """Close the pipe (an idle worker then leaves its loop and exits); kill a worker that
        cannot be trusted to read it (dead, stuck)."""
        with contextlib.suppress(OSError):
            self.conn.close()
        if kill:
            with contextlib.suppress(OSError, ValueError):
                self.process.kill()
            with contextlib.suppress(OSError, ValueError, AssertionError):
                self.process.join(timeout=1.0)


class Drawers:
    """Where pictures are drawn: in up to :attr:`count` worker processes, or in the calling
    thread when there are none."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._workers: list[_Worker] = []
        self._failures = 0
        self.count = 0

    def start(self, count: int) -> None:
        """Use ``count`` worker processes from now on (0: draw in the calling thread), started
        at once so that the first press does not wait for a worker's start-up (about a second:
        imports and the palette). Workers of an earlier start finish the calls sent to them,
        then leave."""
        with self._lock:
            old, self._workers = self._workers, []
            self.count, self._failures = max(0, count), 0
            for _ in range(self.count):
                self._add()
        for worker in old:
            if not worker.line:
                worker.close()  # else its last caller closes it

    def stop(self) -> None:
        self.start(0)

    def draw(self, position: Position, view: BoardView) -> bytes:
        """The PNG of ``position`` as ``view`` shows it (:func:`render.render_board`): in a worker
        when there are some, else here. Blocking; called from a press's thread. A drawing
        error (a view that contradicts the position) is raised here as if drawn here."""
        return self.call(_draw, position, view)

    def call(self, picture: Callable[..., bytes], *args: Any, **kwargs: Any) -> bytes:
        """``picture(*args, **kwargs)``, a module-level function (so that a worker can import
        it) that returns PNG bytes: run in a worker when there are some, else here. Its errors
        are raised here, as if it had run here.

        The call goes to the worker with the fewest calls waiting, at once, even when it is
        drawing: it reads the next as soon as it has sent an answer, without waiting for a
        thread of the bot to be scheduled."""
        call = ForkingPickler.dumps((picture, args, kwargs))  # its errors raised here, now
        sent = self._send(call)
        if sent is None:
            return picture(*args, **kwargs)
        worker, turn = sent
        try:
            drawn, value = self._answer(worker, turn)
        except (OSError, EOFError, TimeoutError):  # dead (a closed pipe) or stuck
            log.warning("a drawing worker died or hung; drawing this picture here")
            self._lose(worker)
            return picture(*args, **kwargs)
        except BaseException:  # interrupted mid-call: its answer would go to the next one
            self._lose(worker)
            raise
        if not drawn:
            raise value
        return cast(bytes, value)

    def _send(self, call: bytes | memoryview) -> tuple[_Worker, threading.Event] | None:
        """Send a pickled call to the least busy worker: (it, the caller's turn to read), or
        None when the pictures are drawn in the threads or the worker died."""
        with self._lock:
            if not self._workers:
                return None
            worker = min(self._workers, key=lambda w: len(w.line))
            turn = threading.Event()
            if not worker.line:
                turn.set()
            try:
                worker.conn.send_bytes(call)  # a few hundred bytes: the pipe holds them
            except OSError:
                sent = False
            else:
                sent = True
                worker.line.append(turn)
        if not sent:
            log.warning("a drawing worker died; drawing this picture here")
            self._lose(worker)
            return None
        return worker, turn

    def _answer(self, worker: _Worker, turn: threading.Event) -> Any:
        """Wait for the earlier calls' answers to be read, then read this one's; hand the next
        reading to the next caller in the line."""
        if not turn.wait(PATIENCE * 2) or worker.lost:
            raise TimeoutError("a worker lost before this call's answer")
        if not worker.conn.poll(PATIENCE):
            raise TimeoutError("no picture")
        answer = worker.conn.recv()
        with self._lock:
            if not worker.line:  # another caller gave up on it meanwhile (lost, line cleared)
                return answer
            worker.line.popleft()
            if worker.line:
                worker.line[0].set()
            elif worker not in self._workers:
                worker.close()  # of an earlier start: its last call answered
        return answer

    def _lose(self, worker: _Worker) -> None:
        """Kill a worker that died or hung (the calls waiting for it are drawn in their
        threads) and start another in its place, unless workers keep failing (one that
        cannot start): then the pictures are drawn in the threads."""
        others: list[_Worker] = []
        with self._lock:
            if worker.lost:
                return
            worker.lost = True
            for waiting in worker.line:
                waiting.set()
            worker.line.clear()
            current = worker in self._workers
            if current:
                self._workers.remove(worker)
                self._failures += 1
                if self._failures < GIVE_UP:
                    self._add()
                else:
                    log.error("drawing workers failed %d times; drawing in the threads", GIVE_UP)
                    self.count, others, self._workers = 0, self._workers, []
        worker.close(kill=True)
        for other in others:
            other.close()

    def _add(self) -> None:
        """Start one more worker (it reads its pipe once warm). Called with the lock held."""
        ours, theirs = multiprocessing.Pipe()
        process = multiprocessing.get_context("spawn").Process(
            target=_serve, args=(theirs, _warm_worker), name="drawer", daemon=True
        )
        process.start()
        theirs.close()  # the worker's end: its death then closes the pipe for us
        self._workers.append(_Worker(process, ours))


def _serve(conn: Connection, warm: Callable[[], None]) -> None:
    """A worker's loop: draw what comes through the pipe, send back ``(True, png)`` or
    ``(False, error)``; leave when the bot closes its end. Ctrl-C in the terminal reaches every
    process of its foreground group, the workers too: they ignore it, the bot stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    renice_from_parent(0)  # at the presses' priority, whichever thread started it
    warm()
    while True:
        try:
            picture, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        except Exception as error:  # a call this worker cannot unpickle
            conn.send((False, error))
            continue
        try:
            reply: tuple[bool, Any] = (True, picture(*args, **kwargs))
        except Exception as error:  # handed to the caller, who reports it
            reply = (False, error)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as error:  # an error that cannot be pickled: its text then
            conn.send((False, RuntimeError(f"{type(error).__name__}: {error}")))


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

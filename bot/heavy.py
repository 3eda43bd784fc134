"""Heavy computation kept apart from ordinary interactions.

An ordinary press takes a few tens of milliseconds of one thread; a review takes a second or more,
a world-class move about 150 ms. Run in the thread pool that serves every interaction, a handful
of reviews fills it and an ordinary press waits for them (issue 20: 87.6 s). So:

- ordinary interactions run in :data:`POOLS.ordinary`, a thread pool of its own, 4 at a time
  (they wait on the database or a search at times; more only add GIL contention, memory and
  SQLite lock waits: with 16, the load benchmark's process grew to 1,028 MB at 1,000 games;
  from 8 to 4, its event-loop lag p99 fell, see the README). A press waiting for the
  computer's search gives its place to the next meanwhile (:meth:`Pools.waiting_for_computer`).
  One person's run one at a time (:class:`Turns`) and he has at most
  :attr:`Pools.ordinary_per_user` in flight; one more is refused at once with
  ``Busy("busy.actions")`` (issue 27: one user firing 256 ``/export`` at once took the other
  players' presses from 38 ms to 4.5 s, his queued ahead of theirs);
- analysis (``/review``; later puzzle analysis) and ``/hint`` go through a :class:`HeavyPool` each
  (:attr:`Pools.analysis`, :attr:`Pools.hints`, so a hint does not wait behind reviews): a few
  workers, a bounded queue, one computation per key (a second request for a game's review waits
  for the first's result instead of computing it again), a per-user limit, and a clear
  :class:`Busy` outcome when full. A job whose caller gave up before it started is skipped;
- the computer's searches go through :func:`compute`, which runs them on at most ``cores``
  threads (:data:`POOLS.searches`), each at niceness :data:`SEARCH_NICENESS` (Linux schedules a
  thread on its own): two world-class searches can fill both cores, and a press's thread, the
  event loop or the drawing worker waking beside them then takes a core at once instead of
  sharing it. The hints' lane searches at that niceness too, and the bot's start-up makes the
  first deep search on a search thread (:meth:`Pools.warm_searches`: bgsage's helper threads
  keep the niceness of the thread that started them);
- :meth:`Pools.patience` and :meth:`HeavyPool.crowded` say how long the adapter may wait for new
  work before it acknowledges the interaction: ``defer_after`` usually, not at all when the work
  must wait for a thread, :data:`CROWDED_PATIENCE` when it starts at once beside as many
  presses as there are cores;
- :func:`tune_process` (called by ``run_bot``) shortens the GIL's switch interval and caps
  glibc's malloc arenas, and :func:`freeze_heap` (at the end of the bot's start-up) moves what
  start-up built out of the garbage collector's sight; review worker processes run at a lower
  priority (niceness 10 above the bot's, whichever thread started them:
  :func:`renice_from_parent`), no more of them than reviews run at once.

Computer searches of checker plays stay in threads: bgsage releases the GIL while it searches
(measured: with four world-class searches in threads, the event loop's longest stall was 13 ms,
its p99 3 ms), and they run inside the game's unit of work, whose database session cannot cross
a process boundary. Its cube searches do not release it while they load their networks (about
40 ms a decision): when the bot asks for it (:meth:`Pools.use_cube_process`), they go to a
worker process of their own, which the press's thread waits for without the GIL.

A review is mostly Python and holds the GIL: its computation (pure and picklable) goes to worker
processes through :meth:`Pools.analyse` when the bot asks for them
(``ANALYSIS_PROCESSES``; the Discord bot does, the terminal and the tests compute in the thread).
Each worker process holds its own copy of the networks (about 100 MB), so there are never more
of them than :attr:`Pools.analysis` runs reviews at once. The board pictures of ordinary presses
are drawn in a worker process of their own (:mod:`bot.drawers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ctypes
import functools
import gc
import multiprocessing
import os
import signal
import sys
import threading
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

__all__ = [
    "POOLS",
    "Busy",
    "Cancelled",
    "HeavyPool",
    "Pools",
    "SingleFlight",
    "compute",
    "freeze_heap",
    "release_free_memory",
    "tune_process",
    "worker_processes",
]

T = TypeVar("T")

CORES = os.cpu_count() or 1


class Busy(Exception):
    """A pool refused a request. ``key`` is the message key of the reply to show:
    ``busy.full`` (every worker busy and the queue full: try again later), ``busy.user``
    (this person already has as many analyses as allowed running or waiting) or
    ``busy.actions`` (this person already has as many ordinary interactions in flight as
    allowed)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class Cancelled(Exception):
    """A queued job was dropped before it ran: its caller no longer wanted it."""


@dataclass
class _Job:
    fn: Callable[[], Any]
    wanted: Callable[[], bool] | None
    future: asyncio.Future[Any]
    user: Hashable | None
    key: Hashable | None


class HeavyPool:
    """A bounded pool for heavy work, used from the event loop.

    :param workers: computations at once (threads of its own executor).
    :param queue: jobs that may wait for a worker; one more is refused with ``Busy("busy.full")``.
    :param per_user: jobs one user may have running or waiting; one more is refused with
        ``Busy("busy.user")``.
    :param executor: where the jobs run (default: a thread pool of ``workers`` threads).
    :param niceness: its own threads' scheduling priority (Linux; 0: the presses' own).
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        queue: int = 8,
        per_user: int = 1,
        executor: Executor | None = None,
        niceness: int = 0,
    ) -> None:
        if workers < 1 or queue < 0 or per_user < 1:
            raise ValueError("workers and per_user must be at least 1, queue at least 0")
        self.workers = workers
        self.capacity = workers + queue
        self.per_user = per_user
        niced = functools.partial(lower_thread_priority, niceness) if niceness else None
        self._executor = executor or ThreadPoolExecutor(workers, "heavy", initializer=niced)
        self._slots = threading.BoundedSemaphore(workers)
        self._jobs = 0  # running or waiting (event loop only)
        self._running = 0
        self._users: Counter[Hashable] = Counter()
        self._flights: dict[Hashable, asyncio.Future[Any]] = {}

    # -- figures (metrics) --------------------------------------------------------------------

    @property
    def running(self) -> int:
        return self._running

    @property
    def waiting(self) -> int:
        """Jobs accepted and not started yet (the queue length)."""
        return self._jobs - self._running

    def crowded(self) -> bool:
        """A job submitted now would wait: every worker has one (running or about to)."""
        return self._jobs >= self.workers

    # -- use ----------------------------------------------------------------------------------

    def submit(
        self,
        fn: Callable[[], T],
        *,
        key: Hashable | None = None,
        user: Hashable | None = None,
        wanted: Callable[[], bool] | None = None,
    ) -> asyncio.Future[T]:
        """Queue ``fn`` (run in a worker with the caller's context variables) and return its
        future at once, or raise :class:`Busy` at once.

        :param key: jobs with the same key share one computation: while one runs or waits, a
            second submit returns the same result instead of queueing another (it is not
            counted against the limits).
        :param user: whose job it is, for the per-user limit.
        :param wanted: checked when a worker picks the job up; if it returns False the job is
            skipped and its future raises :class:`Cancelled` (say, the game moved on).
        """
        loop = asyncio.get_running_loop()
        if key is not None and key in self._flights:
            return _follow(self._flights[key])
        if user is not None and self._users[user] >= self.per_user:
            raise Busy("busy.user")
        if self._jobs >= self.capacity:
            raise Busy("busy.full")
        future: asyncio.Future[T] = loop.create_future()
        job = _Job(_bind(contextvars.copy_context().run, fn), wanted, future, user, key)
        self._jobs += 1
        if user is not None:
            self._users[user] += 1
        if key is not None:
            self._flights[key] = future
        future.add_done_callback(lambda _: self._release(job))
        self._executor.submit(self._work, job, loop)
        return _follow(future) if key is not None else future

    async def run(
        self,
        fn: Callable[[], T],
        *,
        key: Hashable | None = None,
        user: Hashable | None = None,
        wanted: Callable[[], bool] | None = None,
    ) -> T:
        """:meth:`submit` and wait for the result."""
        return await self.submit(fn, key=key, user=user, wanted=wanted)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- inside ---------------------------------------------------------------------------------

    def _work(self, job: _Job, loop: asyncio.AbstractEventLoop) -> None:
        with self._slots:
            if job.future.cancelled():  # the caller gave up while it waited
                return
            if job.wanted is not None and not job.wanted():
                _settle(loop, job.future, error=Cancelled())
                return
            loop.call_soon_threadsafe(self._started)
            try:
                result = job.fn()
            except BaseException as error:  # handed to the caller, who reports it
                _settle(loop, job.future, error=error)
            else:
                _settle(loop, job.future, result=result)
            finally:
                loop.call_soon_threadsafe(self._stopped)

    def _started(self) -> None:
        self._running += 1

    def _stopped(self) -> None:
        self._running = max(0, self._running - 1)

    def _release(self, job: _Job) -> None:
        self._jobs -= 1
        if job.user is not None:
            self._users[job.user] -= 1
            if self._users[job.user] <= 0:
                del self._users[job.user]
        if job.key is not None and self._flights.get(job.key) is job.future:
            del self._flights[job.key]


def _bind(run: Callable[..., Any], fn: Callable[[], Any]) -> Callable[[], Any]:
    return lambda: run(fn)


def _follow(source: asyncio.Future[T]) -> asyncio.Future[T]:
    """A future with the result of ``source``: a follower that gives up does not cancel the
    shared computation (others wait for it too)."""
    follower: asyncio.Future[T] = source.get_loop().create_future()

    def copy(done: asyncio.Future[T]) -> None:
        if follower.done():
            return
        if done.cancelled():
            follower.cancel()
        elif done.exception() is not None:
            follower.set_exception(done.exception())  # type: ignore[arg-type]
        else:
            follower.set_result(done.result())

    source.add_done_callback(copy)
    return follower


def _call_soon(loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any) -> None:
    """``fn(*args)`` on ``loop`` from any thread; nothing when the loop is closed (the process
    is stopping: nobody reads the counts any more)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fn, *args)


def _settle(
    loop: asyncio.AbstractEventLoop,
    future: asyncio.Future[Any],
    *,
    result: Any = None,
    error: BaseException | None = None,
) -> None:
    def apply() -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    loop.call_soon_threadsafe(apply)


class SingleFlight:
    """One computation per key across threads: a second caller with the same key waits for the
    first caller's result instead of computing it again (a review asked twice at once)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: dict[Hashable, Future[Any]] = {}
        self._waiters: Counter[Hashable] = Counter()

    def waiting(self, key: Hashable) -> int:
        """Callers waiting for another's computation of ``key``."""
        with self._lock:
            return self._waiters[key]

    def run(self, key: Hashable, fn: Callable[[], T]) -> T:
        with self._lock:
            call = self._calls.get(key)
            owner = call is None
            if call is None:
                call = self._calls[key] = Future()
            if not owner:
                self._waiters[key] += 1
        if not owner:
            try:
                return call.result()  # type: ignore[no-any-return]
            finally:
                with self._lock:
                    self._waiters[key] -= 1
        try:
            result = fn()
        except BaseException as error:
            call.set_exception(error)
            raise
        else:
            call.set_result(result)
            return result
        finally:
            with self._lock:
                del self._calls[key]


@dataclass
class _Turn:
    """One ordinary interaction of a person, waiting for his earlier ones or running."""

    outer: Future[Any]  # what the caller waits for
    work: Callable[[], Any]
    executor: Executor
    release: Callable[[Hashable], None]
    loop: asyncio.AbstractEventLoop


class Turns:
    """Ordinary interactions of each person one at a time, in the order they came (event loop
    only): a person's next one waits here, without a thread, until his previous one is done.

    With two at once, a person flooding commands kept two threads running Python, and another
    player's press shared the GIL with both (``bench/bench_flood.py``, 12 commands in flight:
    another player's press went from 22 to 85 ms with two of them running at once, from 36 to
    40 ms with one). A person's quick second press is not refused: it waits for the first, as
    it mostly would anyway, behind the game's write.
    """

    def __init__(self) -> None:
        # Each person's interactions not over yet: the first is running, the rest wait. (The
        # release callbacks live in the turns, not here: a Pools holding its own bound method
        # would be a reference cycle, freed only by a full collection.)
        self._queues: dict[Hashable, deque[_Turn]] = {}
        self._entries = 0  # turns in the queues

    def waiting(self) -> int:
        """Turns waiting for their person's previous one (not for a thread): every queue has
        its first turn running. (One given up while it waited counts until its turn comes.)"""
        return self._entries - len(self._queues)

    def submit(
        self,
        executor: Executor,
        work: Callable[[], T],
        user: Hashable,
        release: Callable[[Hashable], None],
    ) -> Future[T]:
        """``work`` on ``executor`` once ``user``'s earlier interactions are over: its future.
        ``release(user)`` is called on the event loop when it is over: done in its thread, or
        given up (its future cancelled) before it started."""
        loop = asyncio.get_running_loop()
        outer: Future[T] = Future()
        outer.add_done_callback(functools.partial(_given_up, loop, release, user))
        queue = self._queues.setdefault(user, deque())
        queue.append(_Turn(outer, work, executor, release, loop))
        self._entries += 1
        if len(queue) == 1:
            self._start(user)
        return outer

    def _start(self, user: Hashable) -> None:
        """Start the person's first interaction still wanted; forget him when none is left."""
        queue = self._queues[user]
        while queue:
            # Once running, it cannot be cancelled; one given up while it waited gave its place
            # back then.
            if queue[0].outer.set_running_or_notify_cancel() and self._launch(queue[0], user):
                return
            queue.popleft()
            self._entries -= 1
        del self._queues[user]

    def _launch(self, turn: _Turn, user: Hashable) -> bool:
        """Hand a turn to a thread; False when the pool is shut down (the process stops)."""
        try:
            ran = turn.executor.submit(_run_into, turn.outer, turn.work)
        except RuntimeError as error:
            turn.outer.set_exception(error)
            turn.release(user)
            return False
        ran.add_done_callback(lambda _: self._over(turn, user))
        return True

    def _over(self, turn: _Turn, user: Hashable) -> None:
        """Its thread is done with a turn (called in any thread)."""
        if not turn.outer.done():  # dropped unrun by a pool shutting down: do not leave it hung
            turn.outer.set_exception(RuntimeError("the pool was shut down"))
        _call_soon(turn.loop, self._finished, turn, user)

    def _finished(self, turn: _Turn, user: Hashable) -> None:
        self._queues[user].popleft()
        self._entries -= 1
        turn.release(user)
        self._start(user)


def _given_up(
    loop: asyncio.AbstractEventLoop,
    release: Callable[[Hashable], None],
    user: Hashable,
    outer: Future[Any],
) -> None:
    """A turn's future is done: when by cancellation (given up before it started, since a
    running one cannot be cancelled), give its place back."""
    if outer.cancelled():
        _call_soon(loop, release, user)


def _run_into(outer: Future[Any], work: Callable[[], Any]) -> None:
    """Run ``work`` (in a worker thread) and settle ``outer`` with its outcome."""
    try:
        result = work()
    except BaseException as error:  # handed to the caller, who reports it
        outer.set_exception(error)
    else:
        outer.set_result(result)


CUBE_PROCESS_LOSSES = 3  # cube processes lost after which cube searches stay in the threads
COMPUTER_WAITERS = 8
"""Presses waiting for the computer's search at once beyond the running ones: threads of the
ordinary pool that hold no place among them (see :meth:`Pools.waiting_for_computer`)."""
CROWDED_PATIENCE = 0.03
"""Seconds an ordinary interaction that starts beside as many others as there are cores may
take before it is acknowledged (see :meth:`Pools.patience`): a press takes a few milliseconds
of the bot's CPU, so most are answered within it, in one round trip to Discord; a slower one
is acknowledged this soon (the first response stays within tens of milliseconds)."""


class Pools:
    """The process's pools (see the module's description)."""

    def __init__(
        self,
        *,
        ordinary_threads: int = 4,
        compute_threads: int = CORES,
        analysis_workers: int = max(1, CORES // 2),
        analysis_queue: int = 8,
        hint_queue: int = 16,
        per_user: int = 1,
        ordinary_per_user: int = 2,
    ) -> None:
        if ordinary_per_user < 1:
            raise ValueError("ordinary_per_user must be at least 1")
        self._slot = threading.local()  # .held: this thread holds one of the slots
        self._aside = 0  # presses waiting for the computer, their slot given back
        self._aside_lock = threading.Lock()
        # A person's ordinary interactions running or waiting (one runs at a time). Two: a
        # press and the next sent before its answer. More is a script: refused, not queued
        # (each waiting costs memory, and all would be refused as out of date or answered late).
        self.ordinary_per_user = ordinary_per_user
        self._ordinary_users: Counter[Hashable] = Counter()  # (event loop only)
        self._turns = Turns()
        self.set_ordinary_threads(ordinary_threads)  # sets crowd: one per core
        self._ordinary_jobs = 0  # ordinary interactions running or waiting (event loop only)
        self._compute_threads: set[int] = set()  # the search threads' idents
        self.searches: Executor = ThreadPoolExecutor(
            compute_threads, "search", initializer=self._search_thread
        )
        self.analysis = HeavyPool(analysis_workers, queue=analysis_queue, per_user=per_user)
        # Hints take tens of milliseconds: not behind the reviews. A hint searches (3 plies),
        # so below the presses' priority, as the computer's searches.
        self.hints = HeavyPool(1, queue=hint_queue, per_user=per_user, niceness=SEARCH_NICENESS)
        self._searches_warm = False  # see warm_searches
        self.flights = SingleFlight()
        self._processes: ProcessPoolExecutor | None = None
        self._process_count = 0
        self._process_lock = threading.Lock()
        self._cube_process: ProcessPoolExecutor | None = None
        self._cube_in_process = False
        self._cube_losses = 0  # cube processes that died

    def set_ordinary_threads(self, threads: int) -> None:
        """Run ordinary interactions ``threads`` at a time (before any is submitted), and up to
        :data:`COMPUTER_WAITERS` more while that many wait for the computer (see
        :meth:`waiting_for_computer`)."""
        self.ordinary: Executor = ThreadPoolExecutor(
            threads + COMPUTER_WAITERS, thread_name_prefix="act"
        )
        self._slots = threading.BoundedSemaphore(threads)
        self.ordinary_threads = threads
        # Ordinary interactions in flight from which a new one is acknowledged at once (see
        # crowded): one per core. Beyond, a press shares the CPU with as many others and
        # takes several times its ~10 ms: it would be seen late, so Discord shows it loading.
        self.crowd = min(CORES, threads)

    @contextlib.contextmanager
    def waiting_for_computer(self) -> Iterator[None]:
        """Meanwhile, the calling press gives its place among the :attr:`ordinary_threads`
        running presses to the next one (a no-op outside an ordinary interaction's thread).

        A press in a game against the computer waits for its search (a world-class move, 0.1
        to 1 s, longer on a busy machine, where the search threads run below the presses'
        priority) without the GIL; it held one of the four places all that time, and with a
        fifth of the games against the computer, the presses of people playing each other
        queued behind those waits (2,000 games, quiet machine, alternating runs: their board's
        p95 60 and 273 ms before, 43 and 119 ms after). It does not take a place again
        afterwards: what is left (its save and its picture) is short, and waiting for a place
        could mean waiting behind presses that wait for its own write turn (SQLite)."""
        if not getattr(self._slot, "held", False):
            yield
            return
        self._slot.held = False
        with self._aside_lock:
            self._aside += 1
        self._slots.release()
        try:
            yield
        finally:
            with self._aside_lock:
                self._aside -= 1

    def _in_slot(self, work: Callable[[], T]) -> Callable[[], T]:
        """``work`` run once one of the running presses' places is free, which it then holds
        (unless it gives it back while it waits for the computer)."""

        def run() -> T:
            self._slots.acquire()
            self._slot.held = True
            try:
                return work()
            finally:
                if self._slot.held:
                    self._slot.held = False
                    self._slots.release()

        return run

    @property
    def process_count(self) -> int:
        """Worker processes :meth:`analyse` may use (0: it computes in the calling thread)."""
        return self._process_count

    def queued(self) -> tuple[int, int]:
        """(waiting, running) over the analysis and hint pools, for the metrics."""
        pools = (self.analysis, self.hints)
        return sum(p.waiting for p in pools), sum(p.running for p in pools)

    def use_processes(self, count: int) -> None:
        """Run :meth:`analyse` computations in up to ``count`` worker processes (0: in the
        calling thread), never more than :attr:`analysis` runs at once (a process more would
        only hold another copy of the networks, about 100 MB: the executor starts one when a
        job arrives before the last one's worker reported idle). The workers start on first
        use, each loading the networks once."""
        count = min(max(0, count), self.analysis.workers)
        with self._process_lock:
            old, self._processes, self._process_count = self._processes, None, count
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)

    def use_cube_process(self, on: bool) -> None:
        """Run the computer's cube searches (:func:`engine.bots.sage.cube_analysis` and
        :func:`~engine.bots.sage.double_analysis`: its cube decisions, the hints' cube advice)
        in a worker process of their own (False: in the calling thread). It starts on first use
        and loads the networks once.

        bgsage's cube decision holds the GIL while it rebuilds its networks from their files,
        about 40 ms of each decision (measured: a thread ticking every millisecond beside one
        stalled 40 to 45 ms per 2-ply decision, 33 ms per 3-ply one); in the bot's process
        that stops the event loop and every press for as long, on every turn of the computer.
        In a process of its own, the bot's threads only wait for the answer, without the GIL.
        Its results are the same: the same call, in another interpreter."""
        from engine.bots import sage

        with self._process_lock:
            old, self._cube_process = self._cube_process, None
            self._cube_in_process = on and sage.available()
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)
        sage.run_cube_with(self.cube_search if self._cube_in_process else None)

    def cube_search(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` (a cube search: pure, picklable) in the cube process when
        :meth:`use_cube_process` asked for it, else in the calling thread. Blocking. A process
        that died (killed, out of memory) costs no decision: this one runs here, and the next
        one starts a new process."""
        with self._process_lock:
            if self._cube_process is None and self._cube_in_process:
                self._cube_process = worker_processes(1, _warm_cube_worker)
            process = self._cube_process
        if process is None:
            return fn(*args)
        try:
            with self.waiting_for_computer():
                return process.submit(fn, *args).result()
        except BrokenProcessPool:
            with self._process_lock:
                if self._cube_process is process:
                    self._cube_process = None
                    self._cube_losses += 1
                    # A process that keeps dying (no memory for it) is not started again.
                    self._cube_in_process = self._cube_losses < CUBE_PROCESS_LOSSES
            return fn(*args)

    def close(self) -> None:
        """The process is leaving (the terminal): every pool stops taking work, drops what
        waits, and wakes its idle threads, which then end; a running job ends first.

        Without it, a Ctrl-C landing in the main thread while a pool's first thread was
        starting (``submit``) left that thread unknown to concurrent.futures' exit hook, which
        wakes only the threads it knows: the thread waited for work forever, and the
        interpreter's exit waited for the thread (the terminal never left)."""
        for executor in (self.ordinary, self.searches):
            executor.shutdown(wait=False, cancel_futures=True)
        self.analysis.shutdown()
        self.hints.shutdown()
        with self._process_lock:
            processes, self._processes, self._process_count = self._processes, None, 0
        if processes is not None:
            processes.shutdown(wait=False, cancel_futures=True)
        if self._cube_in_process:
            self.use_cube_process(False)

    def analyse(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """A pure, picklable computation (a review): in a worker process when
        :meth:`use_processes` asked for them, else in the calling thread. Blocking; called from
        a worker thread of :attr:`analysis`.

        A review is mostly Python: in a thread it holds the GIL for long stretches and the
        event loop stalls (measured up to 195 ms with four reviews); in a process it cannot."""
        with self._process_lock:
            if self._processes is None and self._process_count:
                self._processes = worker_processes(self._process_count, _warm_worker)
            processes = self._processes
        if processes is None:
            return fn(*args, **kwargs)
        return processes.submit(fn, *args, **kwargs).result()

    def ordinary_submit(
        self, fn: Callable[[], T], *, user: Hashable | None = None
    ) -> asyncio.Future[T]:
        """Queue an ordinary interaction on :attr:`ordinary` (run with the caller's context
        variables) and return its future at once, or raise ``Busy("busy.actions")`` at once
        when ``user`` already has :attr:`ordinary_per_user` running or waiting. A person's
        interactions run one at a time (see :class:`Turns`).

        The count is released when the thread is done with the work, not when the future is:
        cancelling the future cannot stop a thread that has started, and a caller cancelling
        and asking again must not get more threads than the limit."""
        loop = asyncio.get_running_loop()
        if user is not None and self._ordinary_users[user] >= self.ordinary_per_user:
            raise Busy("busy.actions")
        work = self._in_slot(_bind(contextvars.copy_context().run, fn))
        self._ordinary_jobs += 1  # counted first: the release may come before submit returns
        if user is None:
            try:
                done: Future[T] = self.ordinary.submit(work)
            except BaseException:
                self._ordinary_jobs -= 1
                raise
            done.add_done_callback(lambda _: _call_soon(loop, self._ordinary_done, None))
        else:
            self._ordinary_users[user] += 1
            done = self._turns.submit(self.ordinary, work, user, self._ordinary_done)
        return asyncio.wrap_future(done, loop=loop)

    async def ordinary_call(self, fn: Callable[[], T], *, user: Hashable | None = None) -> T:
        """Run an ordinary interaction off the event loop (see :meth:`ordinary_submit`)."""
        return await self.ordinary_submit(fn, user=user)

    def _ordinary_done(self, user: Hashable | None) -> None:
        self._ordinary_jobs -= 1
        if user is not None:
            self._ordinary_users[user] -= 1
            if self._ordinary_users[user] <= 0:
                del self._ordinary_users[user]

    def in_flight(self, user: Hashable) -> int:
        """Ordinary interactions of ``user`` running or waiting (event loop only)."""
        return self._ordinary_users[user]

    def crowded(self) -> bool:
        """An ordinary interaction started now would wait for a thread, or share the CPU with
        :attr:`crowd` others (event loop only). A person's interaction waiting for his previous
        one holds no thread: it does not count (a flood would defer everybody's answers)."""
        return self._running_ordinary() >= self.crowd

    def patience(self, default: float) -> float:
        """How long an ordinary interaction submitted now may take before the adapter
        acknowledges it (event loop only): ``default`` (``defer_after``) when the process is
        quiet; none when it must wait for a thread (it will be long: the player sees Discord's
        loading state at once); :data:`CROWDED_PATIENCE` when it starts at once beside
        :attr:`crowd` others. It was none in that case too, and then the board of nearly every
        press of a crowd came after two round trips to Discord (the acknowledgement, then the
        answer in its place) instead of one, although most are done in a few milliseconds."""
        running = self._running_ordinary()
        if running >= self.ordinary_threads:
            return 0.0
        if running >= self.crowd:
            return min(default, CROWDED_PATIENCE)
        return default

    def _running_ordinary(self) -> int:
        # Presses waiting for the computer hold no place: a new one starts beside them at once.
        return self._ordinary_jobs - self._turns.waiting() - self._aside

    def compute(self, fn: Callable[[], T]) -> T:
        """Run a search (blocking, from a worker thread) on the bounded compute threads."""
        if threading.get_ident() in self._compute_threads:
            return fn()  # already on one: no nested submit (it could wait for itself)
        # The place is given back before the search is sent: once it runs, it is free.
        with self.waiting_for_computer():
            return self.searches.submit(fn).result()

    def warm_searches(self) -> None:
        """Play one move of each level that searches (expert, world class) on a search thread,
        once per process (blocking; the bot's start-up calls it).

        bgsage starts a deep search's helper threads at its first search and keeps them, and
        Linux gives a new thread its creator's niceness. Started by a hint's or a press's
        thread, they searched at the presses' priority for the rest of the process, whichever
        thread asked (measured: 44% of a world-class game's search CPU runs in them), and
        which thread searched first depended on the first minutes' presses."""
        if self._searches_warm:
            return
        self._searches_warm = True
        self.compute(_warm_searches)

    def _search_thread(self) -> None:
        """A search thread starting: below the presses' priority, and known (see compute)."""
        lower_thread_priority(SEARCH_NICENESS)
        self._compute_threads.add(threading.get_ident())


def worker_processes(count: int, warm: Callable[[], None]) -> ProcessPoolExecutor:
    """A pool of ``count`` worker processes, each running ``warm`` once when it starts. They
    are spawned (a fresh interpreter), not forked: forking a process with threads can copy a
    lock another thread held, and the child then waits for it forever."""
    return ProcessPoolExecutor(
        count,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(warm,),
    )


def _start_worker(warm: Callable[[], None]) -> None:
    """In a new worker: ignore SIGINT, then ``warm``. Ctrl-C in the terminal reaches every
    process of its foreground group, the workers too; the parent decides when they stop (a
    worker killed mid-start breaks the pool and can hang the parent's exit)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    warm()


WORKER_NICENESS = 10  # the review workers' scheduling priority, below the bot's (0)
SEARCH_NICENESS = 5  # the computer's search threads', below the presses' threads (0)


def lower_thread_priority(niceness: int) -> None:
    """Give the calling thread alone this niceness (Linux schedules each thread on its own;
    elsewhere, or when refused, nothing changes)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), niceness)


def renice_from_parent(by: int) -> None:
    """Give the calling worker process the niceness of the bot's process (its parent's main
    thread) plus ``by``.

    A process inherits the niceness of the thread that started it, and workers start when
    first needed: a review worker started by a thread at the search priority added its own
    10 to that thread's 5 and reviewed at 15 (a busy machine left it a fifteenth of a core). Going
    back up to the target needs the privilege to (root); without it, the worker stays lower."""
    with contextlib.suppress(OSError, AttributeError):  # Unix only
        target = min(19, os.getpriority(os.PRIO_PROCESS, os.getppid()) + by)
        os.setpriority(os.PRIO_PROCESS, 0, target)


def _warm_worker() -> None:
    """Lower the worker process's priority, then load the networks once (the first search
    loads them).

    A review is background work that already made the player wait (the interaction was
    deferred); on a busy machine it must not take the CPU from the bot's process, where
    ordinary presses wait for it: at niceness 10 the kernel gives it about a tenth of a core
    when both want one, and all of an idle one."""
    renice_from_parent(WORKER_NICENESS)
    with contextlib.suppress(Exception):  # a worker without bgsage serves the fallback
        _first_moves("world class")


def _warm_searches() -> None:
    from engine.bots import sage

    if not sage.available():  # the fallback has no helper threads
        return
    with contextlib.suppress(Exception):  # a failure here shows again at the first real search
        _first_moves("expert", "world class")


def _first_moves(*levels: str) -> None:
    """One opening move (3-1) of each level: its networks loaded, bgsage's helper threads
    started."""
    from engine.bots import get_bot
    from engine.position import Position

    for level in levels:
        get_bot(level).choose_play(Position.initial(), (3, 1))


def _warm_cube_worker() -> None:
    """Import bgsage and load what every cube search shares (its bearoff database, the
    networks' list, the screen's strategy) with one screened search, at the search threads'
    priority: a cube decision is part of a press the player waits for. (The search loads the
    networks themselves at each call.)"""
    renice_from_parent(SEARCH_NICENESS)
    with contextlib.suppress(Exception):  # a failure here shows again at the first real call
        from engine.bots import sage
        from engine.context import MatchContext
        from engine.position import Position

        sage.screened_cube(Position.initial(), MatchContext(), sage.SCREEN_PLY + 1)
        sage.search_cube(Position.initial(), MatchContext(), 2)


POOLS = Pools()

SWITCH_INTERVAL = 0.0005  # seconds; Python's default is 0.005
MALLOC_ARENAS = 2  # glibc's default is 8 per core


def tune_process() -> None:
    """Settings of the bot's process for many threads, set once at start.

    - The GIL's switch interval: a thread that wants the GIL (the event loop, to answer
      Discord) waits up to this long for a thread running Python to let it go, once per
      contending thread; at the default 5 ms, eight busy interaction threads stall the loop for
      tens of milliseconds. The load benchmark at 1,000 games (saturated, on a loaded machine:
      the event loop's thread spent 88% of its time in ``epoll``, mostly taking the GIL back)
      gave a lag p99 of 74 to 77 ms at 1 ms and 55 ms at 0.5 ms, with as many presses a second.
    - glibc's malloc arenas (``M_ARENA_MAX``, as the ``MALLOC_ARENA_MAX`` variable would, unless
      that is set): every thread that allocates gets an arena of its own that keeps its freed
      memory; with a dozen threads drawing 2 MB pictures the process grows by hundreds of MB.
    """
    sys.setswitchinterval(SWITCH_INTERVAL)
    if sys.platform.startswith("linux") and "MALLOC_ARENA_MAX" not in os.environ:
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL("libc.so.6")
            libc.mallopt(_M_ARENA_MAX, MALLOC_ARENAS)


_M_ARENA_MAX = -8  # from glibc's malloc.h


def freeze_heap() -> int:
    """Collect, then move every object alive now (modules, classes, the command table, the
    caches start-up filled: about 126,000 objects) to the collector's permanent generation,
    and return how many there are now.

    Called once the bot has started (``run_bot``, not the tests). A full collection walks every
    tracked object while holding the GIL: with these, about 80 ms during which the event loop
    cannot run, a few times a minute under load. Frozen objects are still freed by reference
    counting; they are only left out of the cycle search (which they never need: they live as
    long as the process)."""
    gc.collect()
    gc.freeze()
    release_free_memory()  # what start-up's temporary pictures (the palette) left behind
    return gc.get_freeze_count()


def release_free_memory() -> None:
    """Return the C heap's free memory to the system (glibc's ``malloc_trim``), where there is
    one. After a burst of large temporary pictures (a theme's palette is computed from a sheet
    of 18 boards: about 70 MB), glibc keeps the freed pages and the process stays that much
    larger."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def compute(fn: Callable[[], T]) -> T:
    """A computer search on :data:`POOLS` (see :meth:`Pools.compute`)."""
    return POOLS.compute(fn)

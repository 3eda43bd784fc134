"""Heavy work apart from ordinary interactions (issue 19; issue 20 item 1, the review flood).

Fake analyses block on an :class:`threading.Event`, so nothing here depends on the clock: each
assertion waits for a condition (a worker entered, a reply was shown) and checks the others
while the fakes are still blocked.
"""

from __future__ import annotations

import asyncio
import functools
import os
import sys
import threading
from collections import deque
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, Literal

import pytest

import bot.service.analysis as analysis_module
from bench.bench_load import _BOX, FakeInteraction, RecordingService
from bot import heavy
from bot.config import Config
from bot.discord_app import create_bot
from bot.discord_app.commands import build_commands
from bot.discord_app.components import _press
from bot.discord_app.replies import answer
from bot.i18n import t
from bot.service import Actor, Reply, Service, Settings, Where
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL

SAFETY = 60.0  # seconds: only so that a broken build fails instead of hanging


async def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (polling the event loop), failing after SAFETY seconds."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), SAFETY)


# -- the pool itself ----------------------------------------------------------------------------


class Gate:
    """A fake computation: counts its starts and blocks until opened."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.started = 0
        self._lock = threading.Lock()

    def __call__(self, value: Any = "done") -> Callable[[], Any]:
        def work() -> Any:
            with self._lock:
                self.started += 1
            assert self.open.wait(SAFETY)
            return value

        return work


async def test_a_full_pool_refuses_at_once_and_serves_the_queue_later() -> None:
    pool = heavy.HeavyPool(1, queue=1, per_user=5)
    gate = Gate()
    first = pool.submit(gate("a"), user=1)
    second = pool.submit(gate("b"), user=2)
    await until(lambda: gate.started == 1)
    assert (pool.running, pool.waiting) == (1, 1)
    with pytest.raises(heavy.Busy) as refused:
        pool.submit(gate("c"), user=3)
    assert refused.value.key == "busy.full"
    gate.open.set()
    assert await first == "a" and await second == "b"
    await until(lambda: pool.running == 0)
    assert pool.waiting == 0 and await pool.run(lambda: "again", user=3) == "again"
    pool.shutdown()


async def test_one_request_per_user_at_a_time() -> None:
    pool = heavy.HeavyPool(2, queue=4, per_user=1)
    gate = Gate()
    mine = pool.submit(gate(), user=7)
    with pytest.raises(heavy.Busy) as refused:
        pool.submit(gate(), user=7)
    assert refused.value.key == "busy.user"
    other = pool.submit(gate(), user=8)  # someone else is not held up by my limit
    gate.open.set()
    await mine
    await other
    assert await pool.run(lambda: 1, user=7) == 1  # my turn again once mine is done
    pool.shutdown()


async def test_the_same_key_shares_one_computation() -> None:
    pool = heavy.HeavyPool(2, queue=0, per_user=1)
    gate = Gate()
    first = pool.submit(gate(42), key=("review", 5), user=1)
    second = pool.submit(gate(43), key=("review", 5), user=1)  # no busy.user: it shares
    await until(lambda: gate.started == 1)
    gate.open.set()
    assert (await first, await second) == (42, 42)
    assert gate.started == 1
    pool.shutdown()


async def test_a_job_nobody_wants_any_more_is_skipped() -> None:
    pool = heavy.HeavyPool(1, queue=2)
    gate = Gate()
    ran: list[str] = []
    running = pool.submit(gate())
    moved_on = pool.submit(lambda: ran.append("stale"), wanted=lambda: False)
    abandoned = pool.submit(lambda: ran.append("abandoned"))
    abandoned.cancel()  # the caller gave up while it waited
    gate.open.set()
    await running
    with pytest.raises(heavy.Cancelled):
        await moved_on
    assert await pool.run(lambda: "after") == "after"  # the worker went on
    assert ran == []
    pool.shutdown()


async def test_single_flight_computes_once_for_two_threads() -> None:
    flights = heavy.SingleFlight()
    gate = Gate()
    results: list[Any] = []
    first = threading.Thread(target=lambda: results.append(flights.run("g", gate(1))))
    first.start()
    await until(lambda: gate.started == 1)
    second = threading.Thread(target=lambda: results.append(flights.run("g", gate(2))))
    second.start()
    await until(lambda: flights.waiting("g") == 1)
    gate.open.set()
    first.join(SAFETY)
    second.join(SAFETY)
    assert results == [1, 1] and gate.started == 1


def test_compute_runs_on_the_search_threads() -> None:
    pools = heavy.Pools(compute_threads=1)
    name = pools.compute(lambda: threading.current_thread().name)
    assert name.startswith("search")
    nested = pools.compute(lambda: pools.compute(lambda: threading.current_thread().name))
    assert nested.startswith("search")  # a search inside a search does not wait for itself


async def test_a_press_waiting_for_the_computer_lets_another_press_run() -> None:
    """Issue 30: a press in a game against the computer held one of the running places while
    its search ran (0.1 to 1 s, more on a busy machine), and the presses of people playing each
    other queued behind those waits. With one place: a press waiting for the computer's search
    gives it up, another person's press runs and is answered meanwhile, and a new one is not
    told to wait (no deferral at once)."""
    pools = heavy.Pools(ordinary_threads=1, compute_threads=1)
    search = Gate()  # the computer's search: blocks until opened

    def against_the_computer() -> str:
        return str(pools.compute(search("moved")))

    def between_people() -> str:
        return threading.current_thread().name

    try:
        waiting = pools.ordinary_submit(against_the_computer, user=1)
        await until(lambda: search.started == 1)
        assert pools.patience(SAFETY) == SAFETY and not pools.crowded()  # a place is free
        other = await asyncio.wait_for(pools.ordinary_submit(between_people, user=2), SAFETY)
        assert other.startswith("act") and not waiting.done()  # answered while it waits
        search.open.set()
        assert await asyncio.wait_for(waiting, SAFETY) == "moved"
        await until(lambda: pools.patience(SAFETY) == SAFETY)
    finally:
        search.open.set()
        pools.close()


def test_a_thread_outside_the_presses_waits_for_the_computer_as_before() -> None:
    pools = heavy.Pools(ordinary_threads=1, compute_threads=1)
    with pools.waiting_for_computer():  # holds no place: nothing to give back
        assert pools.compute(lambda: 7) == 7
    assert pools.ordinary.submit(pools._in_slot(lambda: 8)).result(SAFETY) == 8  # still free
    pools.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness: Linux")
def test_searches_run_below_the_presses_priority() -> None:
    """A search thread is niced (the presses' threads and the event loop's are not): with
    both cores searching, a press, the loop and the drawing worker still get a core at once."""

    def niceness() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    pools = heavy.Pools(compute_threads=1)
    mine = niceness()
    searching = pools.compute(niceness)
    assert searching == min(19, mine + heavy.SEARCH_NICENESS)
    assert niceness() == mine  # the calling thread keeps its own
    assert pools.compute(niceness) == searching  # niced once, not again on each search
    pools.close()


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness: Linux")
async def test_hints_search_below_the_presses_priority() -> None:
    pools = heavy.Pools(compute_threads=1)
    searching = pools.compute(_niceness)
    try:
        assert await pools.hints.run(_niceness) == searching != _niceness()
        # The analysis lane only waits for its worker processes: it would start them niced.
        assert await pools.analysis.run(_niceness) == _niceness()
        assert await heavy.HeavyPool(1).run(_niceness) == _niceness()  # by default: unchanged
    finally:
        pools.close()


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.geteuid() != 0,
    reason="per-thread niceness (Linux); a worker goes back up to its target only as root",
)
def test_a_worker_started_by_a_niced_thread_takes_its_niceness_from_the_bot() -> None:
    """A process inherits the niceness of the thread that starts it: a review worker started
    from a search thread (5) would have reviewed at 5 + 10."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pools = heavy.Pools(compute_threads=1)
    workers = ProcessPoolExecutor(
        1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=heavy.renice_from_parent,
        initargs=(10,),
    )
    with workers:  # started by the search thread's submit (spawned when first needed)
        asked = functools.partial(os.getpriority, os.PRIO_PROCESS, 0)
        started = pools.compute(lambda: workers.submit(asked).result(SAFETY))
    pools.close()
    assert started == min(19, _niceness() + 10)


_HELPERS = """
import glob, json, os, sys, threading
from bot import heavy
from engine import Position
from engine.analysis.hints import hint

def threads():
    out = {}
    for path in glob.glob(f"/proc/{os.getpid()}/task/*/stat"):
        fields = open(path).read().rsplit(")", 1)[1].split()
        out[path.split("/")[-2]] = (int(fields[16]), int(fields[11]) + int(fields[12]))
    return out

pools = heavy.Pools(compute_threads=1)
if sys.argv[1] == "warm":
    pools.warm_searches()
searching = pools.compute(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
before = threads()
for dice in ((3, 1), (6, 5), (4, 2), (5, 5)):
    hint(Position.initial(), dice, plies=3)  # in the main thread, at its priority
me = str(threading.get_native_id())
after = threads()
helpers = [n for tid, (n, cpu) in after.items() if tid != me and cpu > before.get(tid, (0, 0))[1]]
print(json.dumps({"searching": searching, "helpers": helpers}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness: Linux")
@pytest.mark.parametrize("warm", [True, False])
def test_a_deep_searchs_helper_threads_run_at_the_search_priority_once_warmed(warm: bool) -> None:
    """bgsage keeps the helper threads of its first deep search, at the niceness of the thread
    that started them: warmed on a search thread, a later hint's search (a thread at the
    presses' priority here) still runs its helpers below the presses; not warmed, above."""
    import json
    import subprocess

    from engine.bots import sage

    if not sage.available():
        pytest.skip("bgsage is not installed: no helper threads")
    mode = "warm" if warm else "cold"
    run = subprocess.run(
        [sys.executable, "-c", _HELPERS, mode], capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.splitlines()[-1])
    if not seen["helpers"]:  # bgsage gives a search no helper on a single core
        pytest.skip("bgsage searched without helper threads here")
    niced = [nice == seen["searching"] for nice in seen["helpers"]]
    assert all(niced) if warm else not any(niced)


def test_no_more_review_processes_than_reviews_run_at_once() -> None:
    pools = heavy.Pools(analysis_workers=2)
    pools.use_processes(8)  # each would hold a copy of the networks, and 6 would stay idle
    assert pools.process_count == 2
    pools.use_processes(1)
    assert pools.process_count == 1
    pools.use_processes(0)
    assert pools.process_count == 0


def _die_unless_in(pid: int) -> int:
    """In a worker process, die as a killed one would; in process ``pid``, say where it ran."""
    if os.getpid() != pid:
        os._exit(1)
    return pid


needs_bgsage = pytest.mark.skipif(
    __import__("engine.bots", fromlist=["backend"]).backend() != "bgsage",
    reason="bgsage is not installed (cube searches then stay in the threads)",
)


@needs_bgsage
def test_cube_searches_run_in_a_process_of_their_own_with_the_same_answers() -> None:
    from engine import Position
    from engine.bots import sage
    from engine.context import MatchContext

    position, ctx = Position.initial(), MatchContext(match_length=5, score=(1, 3))
    here = sage.cube_analysis(position, ctx, 2)
    pools = heavy.Pools()
    pools.use_cube_process(True)
    try:
        assert pools.cube_search(os.getpid) != os.getpid()  # a process of its own
        assert sage.cube_analysis(position, ctx, 2) == here  # sent there: the same answer
    finally:
        pools.close()
    assert pools.cube_search(os.getpid) == os.getpid()  # closed: in the calling thread


@needs_bgsage
def test_a_dead_cube_process_costs_no_decision_and_is_replaced_then_given_up() -> None:
    pools = heavy.Pools()
    pools.use_cube_process(True)
    me = os.getpid()
    try:
        # The process dies: this search runs in the calling thread, the next in a new process.
        assert pools.cube_search(_die_unless_in, me) == me
        assert pools.cube_search(os.getpid) != me
        for _ in range(heavy.CUBE_PROCESS_LOSSES - 1):
            assert pools.cube_search(_die_unless_in, me) == me
        assert pools.cube_search(os.getpid) == me  # one that keeps dying is not started again
    finally:
        pools.close()


def test_freezing_the_heap_leaves_start_up_out_of_full_collections() -> None:
    import gc

    try:
        frozen = heavy.freeze_heap()
        # Then only fewer: a thread of an earlier test still ending frees some of them.
        assert frozen >= gc.get_freeze_count() > 1000  # modules, classes, ...
        assert len(gc.get_objects(generation=2)) < gc.get_freeze_count()
    finally:
        gc.unfreeze()  # the rest of the suite collects as usual


async def test_the_bot_freezes_its_heap_after_start_up_only_when_asked(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen: list[str] = []
    monkeypatch.setattr(heavy, "freeze_heap", lambda: frozen.append("frozen") or 0)
    for asked in (False, True):
        made = create_bot(Config(shard_count=1), service=service)
        made.freeze_heap = asked  # run_bot asks; tests build many bots and do not
        async with made:
            await made.setup_hook()
            assert frozen == (["frozen"] if asked else [])
            assert made.tree.get_command("review") is not None  # after the commands were added


# -- through the adapter --------------------------------------------------------------------


@pytest.mark.parametrize("lane", [None, "hints"])
async def test_work_that_must_wait_for_a_thread_is_acknowledged_at_once(
    lane: Literal["hints"] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    pools = heavy.Pools(ordinary_threads=1)  # the hints lane has one worker too
    monkeypatch.setattr(heavy, "POOLS", pools)
    client = SimpleNamespace(defer_after=SAFETY)  # without a free thread: no deferral for long
    gate = Gate()
    first = FakeInteraction(client, ALICE, CHANNEL, "bg:1:1:roll", None)
    second = FakeInteraction(client, BOB, CHANNEL, "bg:2:1:roll", None)
    one = asyncio.create_task(
        answer(first, gate(Reply("first")), component=True, analysis=lane)  # type: ignore[arg-type]
    )
    await until(lambda: gate.started == 1)
    assert not first.response.is_done()  # it had a thread: it is answered when done, directly
    two = asyncio.create_task(
        answer(second, gate(Reply("second")), component=True, analysis=lane)  # type: ignore[arg-type]
    )
    await until(second.response.is_done)  # the deferral, while its work still waits
    assert gate.started == 1 and second.sent == []  # nothing shown yet
    gate.open.set()
    await asyncio.wait_for(asyncio.gather(one, two), SAFETY)
    assert first.sent == ["first"] and second.sent == ["second"]
    assert first.timing.first == first.timing.final  # no deferral: the answer came first
    assert second.timing.first is not None and second.timing.final is not None
    assert second.timing.first < second.timing.final


async def test_a_fast_press_beside_a_crowd_with_a_free_thread_is_answered_directly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 30: a press starting beside as many others as there are cores, with a thread free,
    was acknowledged at once, so its board came after two round trips to Discord (the
    deferral, then the answer) where one would do: in a crowd, nearly every press. It is given
    a short patience instead; a slow one is still acknowledged, a moment later."""
    pools = heavy.Pools(ordinary_threads=4)
    pools.crowd = 2  # (on any machine) two presses in flight make a crowd
    monkeypatch.setattr(heavy, "POOLS", pools)
    monkeypatch.setattr(heavy, "CROWDED_PATIENCE", SAFETY)  # however slow the machine
    client = SimpleNamespace(defer_after=SAFETY)
    gate = Gate()
    crowd = [
        FakeInteraction(client, Actor(900 + n, f"p{n}"), CHANNEL, None, "stats") for n in (0, 1)
    ]
    busy = [asyncio.create_task(answer(i, gate(Reply("stats")))) for i in crowd]  # type: ignore[arg-type]
    try:
        await until(lambda: gate.started == 2)
        assert pools.crowded() and pools.patience(SAFETY) == SAFETY
        pressed = FakeInteraction(client, BOB, CHANNEL, "bg:1:1:roll", None)
        press = answer(pressed, lambda: Reply("rolled", edit=True), component=True)  # type: ignore[arg-type]
        await asyncio.wait_for(press, SAFETY)
        assert pressed.sent == ["rolled"]
        assert pressed.timing.first == pressed.timing.final  # answered directly, not deferred
        monkeypatch.setattr(heavy, "CROWDED_PATIENCE", 0.0)
        assert pools.patience(SAFETY) == 0.0  # a slow one: acknowledged at once
    finally:
        gate.open.set()
        await asyncio.wait_for(asyncio.gather(*busy), SAFETY)


def _finished_game(service: Service, n: int) -> tuple[Actor, int]:
    """A game against the computer, finished by a resignation accepted at once."""
    actor = Actor(7000 + n, f"reviewer{n}", locale="en-US")
    where = Where(channel_id=8000 + n)
    service.play(actor, where, level="beginner")
    over = service.resign(actor, where, value=3)  # a backgammon: always accepted
    assert over.game_id is not None and "Rematch" in [b.label for b in over.buttons], over.text
    return actor, over.game_id


async def test_slow_reviews_filling_their_pool_do_not_hold_up_a_press(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    pools = heavy.Pools(ordinary_threads=4, analysis_workers=2, analysis_queue=2)
    monkeypatch.setattr(heavy, "POOLS", pools)
    gate = Gate()
    real = analysis_module.review_game  # type: ignore[attr-defined]

    def slow_review(game: Any, *, plies: int, index: int) -> Any:
        gate()()  # blocks until the gate opens
        return real(game, plies=plies, index=index)

    monkeypatch.setattr(analysis_module, "review_game", slow_review)  # a review, game by game
    client = create_bot(Config(shard_count=1), service=RecordingService(service))  # type: ignore[arg-type]
    slash = {
        command.name: command for command in build_commands(Settings())
    }  # from the command table
    games = [_finished_game(service, n) for n in range(5)]

    async def review(actor: Actor, game_id: int) -> FakeInteraction:
        interaction = FakeInteraction(client, actor, Where(channel_id=9000), None, "review")
        await slash["review"].callback(interaction, game=game_id)  # type: ignore[arg-type,call-arg]
        return interaction

    reviews = [asyncio.create_task(review(a, g)) for a, g in games[:4]]  # 2 workers + 2 queued
    await until(lambda: gate.started == 2 and pools.analysis.waiting == 2)
    refused = await review(*games[4])
    assert refused.sent == [t("busy.full", "en")]

    # Meanwhile, in another game: Bob accepts Alice's challenge, Alice opens with 6-5 and
    # presses a point: the adapter answers with the board, checker moved.
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    script.extend([6, 5])
    accept = next(b for b in made.buttons if b.label == "Accept")
    board = service.press(BOB, CHANNEL, accept.custom_id)
    assert board.mentions == (ALICE.id,), board.text
    point = next(b for b in board.buttons if b.label == "24")
    pressed = FakeInteraction(client, ALICE, CHANNEL, point.custom_id, None)
    _BOX.set(pressed.timing)
    await asyncio.wait_for(_press(pressed, point.custom_id), SAFETY)  # type: ignore[arg-type]
    moved = pressed.timing.reply
    assert moved is not None and not moved.ephemeral and "Undo" in [b.label for b in moved.buttons]
    assert pressed.sent == [moved.text]
    asked = FakeInteraction(client, ALICE, CHANNEL, None, "hint")
    await asyncio.wait_for(slash["hint"].callback(asked), SAFETY)  # type: ignore[arg-type,call-arg]
    assert len(asked.sent) == 1 and "Best plays for 6-5" in asked.sent[0]  # not behind reviews
    assert not gate.open.is_set() and gate.started == 2  # the reviews are still stuck
    assert not any(task.done() for task in reviews)

    gate.open.set()
    done = await asyncio.wait_for(asyncio.gather(*reviews), SAFETY)
    for interaction in done:
        assert any("Review of game" in text for text in interaction.sent), interaction.sent
    assert gate.started == 4


# -- one person's flood of ordinary interactions (issue 27 item 1) ------------------------------


async def test_one_persons_flood_is_refused_busy_and_another_press_is_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two threads: were Alice's waiting command to hold one, Bob's press would find none free.
    pools = heavy.Pools(ordinary_threads=2, ordinary_per_user=2)
    pools.crowd = 2  # (on any machine) a press starting beside one other is not deferred
    monkeypatch.setattr(heavy, "POOLS", pools)
    client = SimpleNamespace(defer_after=SAFETY)
    gate = Gate()  # Alice's slow command (an /export of a long history): blocks until opened
    flood = [FakeInteraction(client, ALICE, CHANNEL, None, "export") for _ in range(12)]
    flood[-1].locale = "fr"  # type: ignore[assignment]  # refused in the reader's language
    tasks = [asyncio.create_task(answer(i, gate(Reply("export")))) for i in flood]  # type: ignore[arg-type]
    try:
        await _flood_refused_and_bob_served(client, gate, flood, tasks, pools)
    finally:
        gate.open.set()  # also when an assertion failed: no thread left blocked
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), SAFETY)
    assert [i.sent for i in flood[:2]] == [["export"], ["export"]]
    assert gate.started == 2  # her second after her first; the refused ones never ran
    await until(lambda: pools.in_flight(ALICE.id) == 0)  # her turn again once hers are done
    again = FakeInteraction(client, ALICE, CHANNEL, None, "export")
    await asyncio.wait_for(answer(again, lambda: Reply("again")), SAFETY)  # type: ignore[arg-type]
    assert again.sent == ["again"]


async def _flood_refused_and_bob_served(
    client: Any,
    gate: Gate,
    flood: list[FakeInteraction],
    tasks: list[asyncio.Task[None]],
    pools: heavy.Pools,
) -> None:
    """While Alice's first command holds its thread and her second waits for it (without a
    thread): the rest of her flood was refused "busy" at once, and Bob's press is answered."""
    await until(lambda: gate.started >= 1 and all(i.response.is_done() for i in flood[2:]))
    assert [i.sent for i in flood[2:-1]] == [[t("busy.actions", "en")]] * 9
    assert flood[-1].sent == [t("busy.actions", "fr")] != [t("busy.actions", "en")]
    assert pools.in_flight(ALICE.id) == 2
    # Bob's press takes the free thread, while Alice's first command still holds the other.
    pressed = FakeInteraction(client, BOB, CHANNEL, "bg:1:1:roll", None)
    press = answer(pressed, lambda: Reply("rolled", edit=True), component=True)  # type: ignore[arg-type]
    await asyncio.wait_for(press, SAFETY)
    assert pressed.sent == ["rolled"]
    # Answered directly, not deferred: her waiting command holds no thread, so it does not
    # make the process look crowded (a flood would have everybody's answers deferred).
    assert pressed.timing.first == pressed.timing.final
    assert gate.started == 1 and not any(task.done() for task in tasks[:2])


async def test_a_persons_limit_is_released_after_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    pools = heavy.Pools(ordinary_threads=4, ordinary_per_user=2)
    monkeypatch.setattr(heavy, "POOLS", pools)
    client = SimpleNamespace(defer_after=SAFETY)

    def broken() -> Reply:
        raise RuntimeError("the database went away")

    for _ in range(3):  # more failures than the limit: each gave its place back
        failing = FakeInteraction(client, ALICE, CHANNEL, None, "stats")
        with pytest.raises(RuntimeError):
            await asyncio.wait_for(answer(failing, broken), SAFETY)  # type: ignore[arg-type]
        assert failing.sent == []  # the caller apologizes (report_error), not "busy"
    await until(lambda: pools.in_flight(ALICE.id) == 0)
    fine = FakeInteraction(client, ALICE, CHANNEL, None, "stats")
    await asyncio.wait_for(answer(fine, lambda: Reply("stats")), SAFETY)  # type: ignore[arg-type]
    assert fine.sent == ["stats"]


async def test_a_persons_count_lasts_as_long_as_the_thread_works() -> None:
    pools = heavy.Pools(ordinary_threads=4, ordinary_per_user=2)  # threads to spare
    gate = Gate()
    running = pools.ordinary_submit(gate("first"), user=1)
    await until(lambda: gate.started == 1)
    waiting = pools.ordinary_submit(gate("second"), user=1)  # waits for the first one
    with pytest.raises(heavy.Busy) as refused:
        pools.ordinary_submit(gate(), user=1)
    assert refused.value.key == "busy.actions"
    waiting.cancel()  # given up before a thread took it: its place is free at once
    await until(lambda: pools.in_flight(1) == 1)
    third = pools.ordinary_submit(gate("third"), user=1)
    running.cancel()  # a thread cannot be stopped: it still works, so it still counts
    await asyncio.gather(running, return_exceptions=True)
    assert pools.in_flight(1) == 2
    with pytest.raises(heavy.Busy):
        pools.ordinary_submit(gate(), user=1)
    gate.open.set()
    assert await asyncio.wait_for(third, SAFETY) == "third"
    await until(lambda: pools.in_flight(1) == 0)
    assert gate.started == 2  # the cancelled waiting one never ran
    pools.ordinary.shutdown()


async def test_a_persons_next_interaction_runs_after_his_failed_one() -> None:
    pools = heavy.Pools(ordinary_threads=4, ordinary_per_user=2)
    gate = Gate()

    def broken() -> None:
        gate()()
        raise RuntimeError("the database went away")

    first = pools.ordinary_submit(broken, user=1)
    second = pools.ordinary_submit(gate("second"), user=1)
    await until(lambda: gate.started == 1)
    gate.open.set()
    with pytest.raises(RuntimeError):
        await asyncio.wait_for(first, SAFETY)
    assert await asyncio.wait_for(second, SAFETY) == "second"
    await until(lambda: pools.in_flight(1) == 0)
    pools.ordinary.shutdown()


async def test_a_persons_autocomplete_waits_its_turn_and_is_refused_beyond(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bot.discord_app.commands import _move_autocomplete

    pools = heavy.Pools(ordinary_threads=4, ordinary_per_user=2)
    monkeypatch.setattr(heavy, "POOLS", pools)
    asked: list[str] = []

    def autocomplete_moves(actor: Actor, where: Where, current: str) -> list[str]:
        asked.append(actor.name)
        return ["8/5 6/5"]

    service = SimpleNamespace(
        autocomplete_moves=autocomplete_moves, settings=SimpleNamespace(organizer_role=None)
    )
    client = SimpleNamespace(defer_after=SAFETY, service=service)
    gate = Gate()
    held = [
        asyncio.create_task(
            answer(FakeInteraction(client, ALICE, CHANNEL, None, "export"), gate(Reply("x")))
        )
        for _ in range(2)
    ]  # type: ignore[arg-type]
    try:
        await until(lambda: gate.started == 1 and pools.in_flight(ALICE.id) == 2)
        typed = FakeInteraction(client, ALICE, CHANNEL, None, "move")
        assert await _move_autocomplete(typed, "8/") == []  # type: ignore[arg-type]
        other = FakeInteraction(client, BOB, CHANNEL, None, "move")
        choices = await asyncio.wait_for(_move_autocomplete(other, "8/"), SAFETY)  # type: ignore[arg-type]
        assert [c.value for c in choices] == ["8/5 6/5"] and asked == ["Bob"]
    finally:
        gate.open.set()
        await asyncio.wait_for(asyncio.gather(*held), SAFETY)


async def test_a_rollout_in_progress_does_not_hold_up_another_players_press(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Carol's /hint rollout (its parts blocked) runs in the analysis lane: meanwhile Bob's
    press in another game is answered, and her rollout ends once its parts may go on."""
    from bot.service import rollouts as rollout_module

    pools = heavy.Pools(ordinary_threads=2, analysis_workers=1, analysis_queue=1)
    monkeypatch.setattr(heavy, "POOLS", pools)
    gate = Gate()
    real = rollout_module._plays_part

    def slow_part(*args: Any) -> Any:
        gate()()  # blocks until the gate opens
        return real(*args)

    monkeypatch.setattr(rollout_module, "_plays_part", slow_part)
    client = create_bot(Config(shard_count=1), service=RecordingService(service))  # type: ignore[arg-type]
    slash = {command.name: command for command in build_commands(Settings())}
    carols = Where(channel_id=9100)
    script.extend([3, 1])
    service.play(CAROL, carols, level="expert")
    asked = FakeInteraction(client, CAROL, carols, None, "hint")
    rolling = asyncio.create_task(
        slash["hint"].callback(asked, rollout=4, truncate=1)  # type: ignore[arg-type,call-arg]
    )
    try:
        await until(lambda: gate.started == 1)

        made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
        script.extend([6, 5])
        accept = next(b for b in made.buttons if b.label == "Accept")
        board = service.press(BOB, CHANNEL, accept.custom_id)
        point = next(b for b in board.buttons if b.label == "24")
        pressed = FakeInteraction(client, ALICE, CHANNEL, point.custom_id, None)
        _BOX.set(pressed.timing)
        await asyncio.wait_for(_press(pressed, point.custom_id), SAFETY)  # type: ignore[arg-type]
        moved = pressed.timing.reply
        assert moved is not None and pressed.sent == [moved.text]
        assert not rolling.done() and gate.started == 1  # the rollout is still stuck
    finally:
        gate.open.set()
    await asyncio.wait_for(rolling, SAFETY)
    assert any("Rollout of the best plays for 3-1: 4 trials" in s for s in asked.sent), asked.sent

"""Load (issue 19): many concurrent games in one bot process, through the Discord adapter.

``python -m bench load [--quick]`` builds the real bot (``create_bot``: the slash commands built
from the command table, dynamic components, the adapter's ``answer``/``deliver``) on a fresh
database and drives it with fake interactions in-process: M concurrent games, each in its own
channel. People press buttons at human pace (an exponential think time between presses), a few games
at machine pace; a share of the games is against the computer at world class (each hand-over makes
it think); players ask for ``/hint`` now and then, and four reviewers ask for ``/review`` of long
finished games without a break (the cached review is cleared first, so each one is computed).

SimCord (what ``tests/bot/test_discord_sim.py`` uses) is not used here: each of its interactions
waits until the whole bot is idle ("settles"), so it serializes interactions and cannot model
concurrent games. The fake interaction below implements what the adapter calls (``response``:
``defer``/``send_message``/``edit_message``; ``followup.send``; ``edit_original_response``) and
timestamps it; Discord's own latency is left out (zero).

Figures, for M = 10, 100 and 1,000 concurrent games (the games accumulate: each size adds games
to the last), measured over a window of steady load:

- ordinary actions (presses in games between people): first response (the first callback to
  Discord: the answer or a deferral) and final answer (the message shown), p50/p95/p99/max;
- presses in games against the computer (including its world-class move), reviews and hints;
- actions per second, event-loop lag (a ticker task sleeping 5 ms: longest delay and p99), the
  garbage collector's full passes (how many, the longest), and answers later than Discord's 3
  seconds;
- memory: the total of the bot's process and every process it started (the review workers),
  by PSS (proportional set size: a page shared by several processes, such as a library's code,
  counted once over them, not once in each), compared with the 1 GB target; RSS of each apart;
- how each grows from 10 to 1,000 games.

Then the throughput of ordinary actions at machine pace (no think time, no computer), on SQLite
and, when ``TEST_POSTGRES_URL`` is set, on PostgreSQL with one process and with two processes
(separate interpreters, run with ``python -m bench.bench_load --throughput``).

Environment: ``BENCH_LOAD_SIZES`` (e.g. ``10,100``) and ``BENCH_LOAD_SECONDS`` override the sizes
and the measuring window; ``BENCH_LOAD_SWITCH_INTERVAL`` sets the GIL's switch interval
(``sys.setswitchinterval``; by default what ``run_bot`` sets, :func:`bot.heavy.tune_process`);
``BENCH_LOAD_UNTUNED=1`` leaves the process as Python starts it (switch interval, malloc arenas);
``BENCH_LOAD_CROWD`` sets ``heavy.POOLS.crowd`` (presses in flight from which a new one is
acknowledged at once); ``BENCH_LOAD_THREADS`` the threads of ordinary interactions;
``BENCH_LOAD_NOFREEZE=1`` leaves start-up's objects to the garbage collector (``run_bot``
freezes them, :func:`bot.heavy.freeze_heap`); ``BENCH_LOAD_DRAW_PROCESSES`` the worker processes
drawing the boards (by default what ``run_bot`` starts, :mod:`bot.drawers`; 0 draws in the
press's thread, as before them); ``BENCH_LOAD_REVIEWS=0`` runs without the four reviewers;
``BENCH_LOAD_CUBE_PROCESS=0`` makes the computer's cube searches in the bot's threads (by
default in a process of their own, as ``run_bot`` does with review processes:
:meth:`bot.heavy.Pools.use_cube_process`);
``BENCH_LOAD_THROUGHPUT=0`` skips the throughput figures; ``BENCH_LOAD_PROFILE=FILE`` profiles
the event loop's thread in the last level. ``BENCH_LOAD_SIZES=2000`` is the issue's size (the
targets are checked at the largest size from 1,000 games: first response p95 50 ms, final
answer p95 250 ms and p99 500 ms, lag p99 20 ms, no full collection over 50 ms, 1 GB);
``BENCH_LOAD_SIZES=`` (empty) runs no level.

``BENCH_LOAD_PROCESSES=2`` (with ``TEST_POSTGRES_URL``) then plays the largest size's games
(or ``BENCH_LOAD_PROCESS_GAMES``) at human pace on PostgreSQL in one bot process, then shared
by two bot processes run at once, in the same run, without reviewers, and prints both and
their ratios (presses per second, final answer p95, lag, memory). ``BENCH_LOAD_GAME_MEMORY=0``
skips the memory of a live game (tracemalloc over 200 games opened and played a few presses
each, by the package that allocated it).

The simulated players keep the last reply of their game (to choose the next press) without its
picture: that copy is Discord's, not the bot's, and 1,000 boards of about 60 kB would be counted
in the bot's memory.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import contextvars
import gc
import heapq
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord

from bench.common import Figure, check, percentile, times_ms
from bot.config import Config
from bot.service import Actor, Reply, Service, Where
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade

DISCORD_LIMIT = 3.0  # seconds: Discord drops an interaction not acknowledged by then
COMPUTER_SHARE = 0.2  # games against the computer at world class
MACHINE_GAMES = 3  # games whose players press at machine pace (scripts), whatever the size
HUMAN_THINK = 30.0  # seconds between two presses of a game at human pace (mean)
MACHINE_THINK = 0.2
HINT_SHARE = 0.05  # presses preceded by a /hint
REVIEWERS = 4
LOOK_AGAIN = 0.1  # seconds: how long the players wait at most before looking at stop again

# -- fake Discord --------------------------------------------------------------------------------


@dataclass
class Timing:
    """When the adapter first answered Discord, and when it showed the reply."""

    start: float
    first: float | None = None
    final: float | None = None
    reply: Reply | None = None


_BOX: contextvars.ContextVar[Timing] = contextvars.ContextVar("bench_load_box")


class _User:
    def __init__(self, actor: Actor) -> None:
        self.id = actor.id
        self.display_name = actor.name
        self.bot = False


class _Command:
    def __init__(self, name: str) -> None:
        self.qualified_name = name


LATENCY = [0.0]  # seconds each call to Discord takes (its round trip); 0 by default


async def _round_trip() -> None:
    if LATENCY[0] > 0:
        await asyncio.sleep(LATENCY[0])


class _Response:
    def __init__(self, timing: Timing, sent: list[str]) -> None:
        self._timing = timing
        self._done = False
        self._sent = sent

    def is_done(self) -> bool:
        return self._done

    def _respond(self, final: bool) -> None:
        now = time.perf_counter()
        self._done = True
        if self._timing.first is None:
            self._timing.first = now
        if final and self._timing.final is None:
            self._timing.final = now

    async def defer(self, **_: Any) -> None:
        await _round_trip()
        self._respond(final=False)

    async def send_message(self, content: str = "", **_: Any) -> None:
        self._sent.append(content)
        await _round_trip()
        self._respond(final=True)

    async def edit_message(self, *, content: str = "", **_: Any) -> None:
        self._sent.append(content)
        await _round_trip()
        self._respond(final=True)


class _Followup:
    def __init__(self, timing: Timing, sent: list[str]) -> None:
        self._timing = timing
        self._sent = sent

    async def send(self, content: str = "", **_: Any) -> SimpleNamespace:
        self._sent.append(content)
        await _round_trip()
        if self._timing.final is None:
            self._timing.final = time.perf_counter()
        return SimpleNamespace(id=len(self._sent))  # the message posted (its id)


class FakeInteraction:
    """What :mod:`bot.discord_app.replies` reads and calls on an interaction."""

    _ids = 0

    def __init__(
        self, client: Any, actor: Actor, where: Where, custom_id: str | None, command: str | None
    ) -> None:
        FakeInteraction._ids += 1
        # A snowflake made now, as Discord's are: the adapter answers only an interaction
        # still within Discord's window (its creation time is in its id).
        now = discord.utils.time_snowflake(discord.utils.utcnow())
        self.id = now + FakeInteraction._ids % (1 << 22)
        self.client = client
        self.user = _User(actor)
        self.locale = None
        self.guild_locale = None
        self.channel_id = where.channel_id
        self.guild_id = where.guild_id
        self.command = _Command(command) if command else None
        self.data = {"custom_id": custom_id} if custom_id else {}
        self.timing = Timing(time.perf_counter())
        self.sent: list[str] = []  # the contents shown, in order
        self.response = _Response(self.timing, self.sent)
        self.followup = _Followup(self.timing, self.sent)

    async def edit_original_response(self, *, content: str = "", **_: Any) -> SimpleNamespace:
        self.sent.append(content)
        await _round_trip()
        if self.timing.final is None:
            self.timing.final = time.perf_counter()
        return SimpleNamespace(id=self.id)  # the message edited (its id)

    async def delete_original_response(self) -> None:
        return None

    # A server channel where the bot is installed but opens no thread (the games stay here),
    # pressed by members who manage nothing.
    channel = None
    message = None
    permissions = discord.Permissions.none()
    app_permissions = discord.Permissions.none()

    def is_user_integration(self) -> bool:
        return False

    def is_guild_integration(self) -> bool:
        return True


def slash(bot: Any, name: str) -> Any:
    """The bot's slash command ``name`` (its English name), as built from the command table:
    its ``callback(interaction, **options)`` is what Discord's invocation runs."""
    command = bot.tree.get_command(name)
    if command is None:
        raise LookupError(f"no slash command {name!r}")
    return command


class RecordingService:
    """The service, with each reply also handed to the interaction that asked (to choose the
    next press from the buttons the player would see)."""

    def __init__(self, real: Service) -> None:
        self._real = real

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._real, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            result = attr(*args, **kwargs)
            box = _BOX.get(None)
            if box is not None and isinstance(result, Reply):
                box.reply = result
            return result

        return call


# -- the load ------------------------------------------------------------------------------------


@dataclass
class Samples:
    first: list[float] = field(default_factory=list)
    final: list[float] = field(default_factory=list)

    def add(self, timing: Timing) -> None:
        end = timing.final or time.perf_counter()
        self.first.append(((timing.first or end) - timing.start) * 1000)
        self.final.append((end - timing.start) * 1000)


@dataclass
class Stats:
    ordinary: Samples = field(default_factory=Samples)
    computer: Samples = field(default_factory=Samples)
    review: Samples = field(default_factory=Samples)
    hint: Samples = field(default_factory=Samples)
    lags: list[float] = field(default_factory=list)
    errors: int = 0
    refused: int = 0

    def late(self) -> int:
        everything = [*self.ordinary.final, *self.computer.final, *self.hint.final]
        firsts = [*self.ordinary.first, *self.computer.first, *self.hint.first, *self.review.first]
        return sum(1 for ms in firsts if ms > DISCORD_LIMIT * 1000) + sum(
            1 for ms in everything if ms > 15 * 60 * 1000
        )


@dataclass
class Table:
    """One game as the load sees it."""

    where: Where
    people: dict[int, Actor]
    computer: bool
    think: float
    reply: Screen


class Load:
    """The bot under load: games, reviewers, a ticker."""

    def __init__(self, bot: Any, service: Service) -> None:
        self.bot = bot
        self.service = service
        self.stats = Stats()
        self.tables: list[Table] = []
        self.finished: list[int] = []
        self.stop = asyncio.Event()
        self.rng = random.Random(19)
        self.next_id = 1_000_000

    def _new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    # -- setup (not measured) -----------------------------------------------------------------

    def add_games(self, count: int, *, computer_share: float, machine: int = 0) -> None:
        """Open ``count`` games (each in a channel of its own) through the service, the first
        ``machine`` of them played at machine pace."""
        for n in range(count):
            where = Where(channel_id=self._new_id(), guild_id=7)
            think = MACHINE_THINK if n < machine else HUMAN_THINK
            if self.rng.random() < computer_share:
                ann = Actor(self._new_id(), f"p{self.next_id}")
                reply = self.service.play(ann, where, level="world class")
                self.tables.append(Table(where, {ann.id: ann}, True, think, _seen(reply)))
            else:
                ann = Actor(self._new_id(), f"p{self.next_id}")
                ben = Actor(self._new_id(), f"p{self.next_id}")
                made = self.service.challenge(ann, where, ben, rated=False)
                accept = next(b for b in made.buttons if b.label == "Accept")
                reply = self.service.press(ben, where, accept.custom_id)
                table = Table(where, {ann.id: ann, ben.id: ben}, False, think, _seen(reply))
                self.tables.append(table)

    def finish_games(self, count: int) -> None:
        """Play ``count`` games between people to the end at once, for the reviewers."""
        for _ in range(count):
            ann = Actor(self._new_id(), f"r{self.next_id}")
            ben = Actor(self._new_id(), f"r{self.next_id}")
            where = Where(channel_id=self._new_id(), guild_id=7)
            made = self.service.challenge(ann, where, ben, points=1, rated=False)
            accept = next(b for b in made.buttons if b.label == "Accept")
            board = self.service.press(ben, where, accept.custom_id)
            for _ in range(3000):
                if board.game_id is not None and any(b.label == "Rematch" for b in board.buttons):
                    break
                actor = ann if board.mentions and board.mentions[0] == ann.id else ben
                label = _choose(_seen(board))
                if label is None:
                    board = self.service.board(actor, where)
                    continue
                button = next(b for b in board.buttons if b.label == label and not b.disabled)
                answer = self.service.press(actor, where, button.custom_id)
                board = answer if not answer.ephemeral else self.service.board(actor, where)
            assert board.game_id is not None
            self.finished.append(board.game_id)

    # -- measured work ------------------------------------------------------------------------

    async def _press(self, table: Table, actor: Actor, custom_id: str) -> Timing:
        from bot.discord_app.components import _press

        interaction = FakeInteraction(self.bot, actor, table.where, custom_id, None)
        token = _BOX.set(interaction.timing)
        try:
            await _press(interaction, custom_id)  # type: ignore[arg-type]
        finally:
            _BOX.reset(token)  # else the game's task would keep the last reply, picture and all
        return interaction.timing

    async def _command(self, actor: Actor, where: Where, name: str, **options: Any) -> Timing:
        interaction = FakeInteraction(self.bot, actor, where, None, name)
        token = _BOX.set(interaction.timing)
        try:
            await slash(self.bot, name).callback(interaction, **options)
        except Exception as error:
            self.stats.errors += 1
            if self.stats.errors == 1:  # say what broke, once per level
                print(f"  /{name} failed: {error!r}", file=sys.stderr, flush=True)
        finally:
            _BOX.reset(token)
        interaction.timing.reply = None  # only its times are wanted
        return interaction.timing

    async def players(self, tables: list[Table]) -> None:
        """Press buttons in each game of ``tables`` until told to stop, starting a new game when
        one ends, a think time between presses (none at machine pace), from one list of wake-up
        times: a game between two presses holds no task, coroutine, future or timer of its own.
        With a task a game, 2,000 waiting games were about 20,000 objects that every full pass
        of the collector walked in the bot's process, though a real bot never holds them (its
        players are on their own machines)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        due = [(now + self.rng.uniform(0, t.think), n) for n, t in enumerate(tables)]
        heapq.heapify(due)
        pressing: set[asyncio.Task[None]] = set()
        failed: list[BaseException] = []  # a table whose turn failed stops
        sleep: list[asyncio.Future[None]] = []  # the wait for the next wake-up

        def wake() -> None:  # at the next wake-up, or when a turn ends (its next may be nearer)
            if sleep and not sleep[0].done():
                sleep[0].set_result(None)

        async def turn(n: int) -> None:
            pause = await self._turn(tables[n])
            if pause is not None:
                heapq.heappush(due, (loop.time() + pause, n))
                wake()

        def over(task: asyncio.Task[None]) -> None:
            pressing.discard(task)
            if not task.cancelled() and task.exception() is not None:
                failed.append(task.exception())  # type: ignore[arg-type]

        while not self.stop.is_set():
            while due and due[0][0] <= loop.time():
                task = asyncio.create_task(turn(heapq.heappop(due)[1]))
                pressing.add(task)
                task.add_done_callback(over)
            wait = due[0][0] - loop.time() if due else LOOK_AGAIN
            sleep[:] = [loop.create_future()]
            timer = loop.call_later(min(max(wait, 0.0), LOOK_AGAIN), wake)
            await sleep[0]
            timer.cancel()
        _check_tasks([*failed, *await asyncio.gather(*pressing, return_exceptions=True)])

    async def _turn(self, table: Table) -> float | None:
        """One press in ``table``'s game (or a look at the board when there is nothing to
        press); the think time before the next, or None when the game is gone."""
        reply = table.reply
        if any(b == "Rematch" for b, _ in reply.buttons):
            actor = next(iter(table.people.values()))
            label: str | None = "Rematch"
        else:
            ids = [i for i in reply.mentions if i in table.people]
            actor = table.people[ids[0]] if ids else next(iter(table.people.values()))
            label = _choose(reply)
        if label is None:
            table.reply = _seen(await asyncio.to_thread(self.service.board, actor, table.where))
            return None if table.reply.ephemeral else table.think  # ephemeral: the game is gone
        if not table.computer and self.rng.random() < HINT_SHARE:
            self.stats.hint.add(await self._command(actor, table.where, "hint"))
        custom_id = next(i for b, i in reply.buttons if b == label)
        timing = await self._press(table, actor, custom_id)
        (self.stats.computer if table.computer else self.stats.ordinary).add(timing)
        if timing.reply is None:
            self.stats.errors += 1
        elif timing.reply.ephemeral:
            self.stats.refused += 1
            table.reply = _seen(await asyncio.to_thread(self.service.board, actor, table.where))
        else:
            table.reply = _seen(timing.reply)
        timing.reply = None  # the picture is Discord's now, not the bot's
        if table.think > 0:
            return min(self.rng.expovariate(1 / table.think), table.think * 5)
        return 0.0

    async def review(self, index: int) -> None:
        """One reviewer: /review a long finished game, again and again (cache cleared)."""
        from sqlalchemy import update

        from db.models import Game as GameRow

        reviewer = Actor(self._new_id(), f"reviewer{index}")
        where = Where(channel_id=self._new_id(), guild_id=7)
        n = index
        while not self.stop.is_set():
            game_id = self.finished[n % len(self.finished)]
            n += REVIEWERS

            def clear(game_id: int = game_id) -> None:
                with self.service.factory.begin() as s:
                    s.execute(update(GameRow).where(GameRow.id == game_id).values(review=None))

            await asyncio.to_thread(clear)
            self.stats.review.add(await self._command(reviewer, where, "review", game=game_id))

    async def ticker(self) -> None:
        """The event loop's lag: how late a 5 ms sleep wakes up."""
        step = 0.005
        last = time.perf_counter()
        while not self.stop.is_set():
            await asyncio.sleep(step)
            now = time.perf_counter()
            self.stats.lags.append((now - last - step) * 1000)
            last = now


@dataclass(frozen=True, slots=True)
class Screen:
    """What a simulated player keeps of a reply, as a Discord client shows it: the enabled
    buttons' labels and ids, the mentions, whether it was for them alone. Tuples of strings
    and numbers, which the garbage collector stops tracking: 2,000 players' kept replies (a
    :class:`Reply` with its buttons, choices and menus each) were a quarter of a million
    references that every full collection of the bot's process walked, though a real bot
    never holds them (its players' screens are on their own machines)."""

    buttons: tuple[tuple[str, str], ...]
    mentions: tuple[int, ...]
    ephemeral: bool


def _seen(reply: Reply) -> Screen:
    """A simulated player's :class:`Screen` of ``reply``."""
    buttons = tuple((b.label, b.custom_id) for b in reply.buttons if not b.disabled)
    return Screen(buttons, tuple(reply.mentions), reply.ephemeral)


def _choose(reply: Screen) -> str | None:
    labels = [label for label, _ in reply.buttons]
    for wanted in ("Confirm", "Take", "Roll", "Reject", "Accept"):
        if wanted in labels:
            return wanted
    points = [x for x in labels if x.isdigit() or x == "Bar"]
    return points[0] if points else None


def rss_mb(pid: int | str = "self") -> float:
    """Resident memory of this process, or of process ``pid`` (Linux; 0 elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def workers_rss_mb() -> float:
    """Resident memory of this process's children (the review and drawing worker processes)."""
    return sum(rss_mb(pid) for pid in descendants())


def descendants(pid: int | None = None) -> list[int]:
    """The processes started by process ``pid`` (default this one), and theirs (Linux)."""
    root = pid or os.getpid()
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # "pid (comm) state ppid ...": comm may hold spaces, so split after its ")"
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


def workers_cpu() -> dict[int, float]:
    """CPU seconds used so far by each process this one started (Linux; none elsewhere)."""
    out: dict[int, float] = {}
    for pid in descendants():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[int(pid)] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            continue
    return out


def workers_cpu_since(before: dict[int, float]) -> float:
    """CPU seconds the processes this one started used since ``before``: a process that ended
    meanwhile (a previous run's worker leaving) counts nothing rather than taking its whole
    past CPU off the sum, as a total taken twice did."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in workers_cpu().items())


@dataclass(frozen=True)
class MachineCpu:
    """The whole machine's CPU seconds so far, from ``/proc/stat`` (Linux; zeros elsewhere):
    busy (every program, the kernel included), waiting on the disk, and stolen by the host of
    a virtual machine (time a core was ready to run here but ran another machine)."""

    busy: float = 0.0
    iowait: float = 0.0
    steal: float = 0.0

    @classmethod
    def now(cls) -> MachineCpu:
        try:
            first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        except OSError:
            return cls()
        # cpu user nice system idle iowait irq softirq steal ...
        user, nice, system, _idle, iowait, irq, softirq, steal = (int(x) for x in first[1:9])
        tick = os.sysconf("SC_CLK_TCK")
        return cls((user + nice + system + irq + softirq) / tick, iowait / tick, steal / tick)

    def since(self, before: MachineCpu) -> MachineCpu:
        return MachineCpu(
            self.busy - before.busy, self.iowait - before.iowait, self.steal - before.steal
        )


def pss_mb(pid: int | str = "self") -> float:
    """Proportional set size of a process (Linux; 0 elsewhere): its private pages plus its share
    of each page it shares with other processes, so that the PSS of several processes adds up
    to the memory they take together."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def total_pss_mb() -> tuple[float, int]:
    """PSS of this process and of every process it started, and how many of those there are."""
    others = descendants()
    return pss_mb() + sum(pss_mb(pid) for pid in others), len(others)


# -- runs ----------------------------------------------------------------------------------------


@dataclass
class Level:
    games: int
    seconds: float
    stats: Stats
    rss: float
    workers: float = 0.0  # the review and drawing worker processes' RSS
    cpu: float = 0.0  # CPU seconds of this process (every thread) over the window
    workers_cpu: float = 0.0  # of the worker processes it started
    machine: MachineCpu = field(default_factory=MachineCpu)  # the whole machine's
    pss: float = 0.0  # the bot's process and its worker processes together (PSS)
    processes: int = 0  # worker processes (started by the bot's process)
    gc_passes: list[float] = field(default_factory=list)  # full collections' durations (ms)
    gc_cpu: list[float] = field(default_factory=list)  # their collecting thread's CPU (ms)

    def actions_per_second(self) -> float:
        presses = len(self.stats.ordinary.final) + len(self.stats.computer.final)
        return presses / self.seconds


def _open(db_url: str) -> tuple[Any, Service, Any]:
    from bot.discord_app import create_bot

    try:  # as run_bot does: reviews in worker processes (ANALYSIS_PROCESSES)
        from bot import heavy

        processes = getattr(Config.from_env(), "analysis_processes", 0)
        if not os.environ.get("BENCH_LOAD_UNTUNED"):  # as run_bot does, unless told not to
            heavy.tune_process()
        switch = os.environ.get("BENCH_LOAD_SWITCH_INTERVAL")  # seconds, to try the GIL's
        if switch:
            sys.setswitchinterval(float(switch))
        crowd = os.environ.get("BENCH_LOAD_CROWD")  # presses in flight before deferring at once
        if crowd:
            heavy.POOLS.crowd = int(crowd)
        threads = os.environ.get("BENCH_LOAD_THREADS")  # threads of ordinary interactions
        if threads:
            heavy.POOLS.set_ordinary_threads(int(threads))
        heavy.POOLS.use_processes(processes)
        # as run_bot does: the computer's cube searches in a process of their own
        cube = os.environ.get("BENCH_LOAD_CUBE_PROCESS")
        heavy.POOLS.use_cube_process(bool(int(cube)) if cube else processes > 0)
    except ImportError:  # before the heavy pools existed
        pass
    try:  # as run_bot does: boards drawn in worker processes (DRAW_PROCESSES)
        from bot.drawers import DRAWERS

        draw = os.environ.get("BENCH_LOAD_DRAW_PROCESSES")
        DRAWERS.start(int(draw) if draw else Config.from_env().draw_processes)
    except ImportError:  # before the drawing workers existed
        pass

    engine = make_engine(db_url)
    upgrade(engine)
    service = Service(make_session_factory(engine))
    bot = create_bot(Config(shard_count=1), service=RecordingService(service))  # type: ignore[arg-type]
    # As run_bot does: start-up's objects frozen once the bot started (bot.heavy.freeze_heap).
    untuned = os.environ.get("BENCH_LOAD_UNTUNED") or os.environ.get("BENCH_LOAD_NOFREEZE")
    bot.freeze_heap = not untuned
    return bot, service, engine


async def _start(bot: Any) -> None:
    """What starting the bot does here: cogs, components, warm-up (no timer sweep: it waits
    for a Discord connection)."""
    from discord.ext import tasks

    await bot.setup_hook()
    for cog in bot.cogs.values():  # the timer sweep, the notices: they wait for Discord
        for name, value in vars(type(cog)).items():
            if isinstance(value, tasks.Loop):
                getattr(cog, name).cancel()


@contextlib.contextmanager
def _full_collections() -> Iterator[tuple[list[float], list[float]]]:
    """The durations (ms) of the garbage collector's full passes (generation 2) meanwhile: each
    holds the GIL, so the event loop waits for it; and the CPU time of the collecting thread
    during each (on a loaded machine the wall time is longer: the thread is not always running,
    and finalizers run within the pass may let other threads take the GIL)."""
    passes: list[float] = []
    began = [0.0, 0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            began[:] = time.perf_counter(), time.thread_time()
        else:
            passes.append((time.perf_counter() - began[0]) * 1000)
            cpu.append((time.thread_time() - began[1]) * 1000)
            print(
                f"  full pass {passes[-1]:.1f} ms ({cpu[-1]:.1f} ms CPU) in "
                f"{threading.current_thread().name} at niceness {_niceness()}",
                file=sys.stderr,
            )

    cpu: list[float] = []
    gc.callbacks.append(callback)
    try:
        yield passes, cpu
    finally:
        gc.callbacks.remove(callback)


def _niceness() -> int | str:
    try:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    except (OSError, AttributeError):  # not on Linux
        return "?"


@contextlib.contextmanager
def _profiled(last: bool) -> Iterator[None]:
    """With ``BENCH_LOAD_PROFILE=FILE``, profile what the event loop's thread runs during the
    last level's window (cProfile sees only the thread that enabled it: not the interaction
    threads) and write the statistics to FILE (read them with ``python -m pstats FILE``)."""
    path = os.environ.get("BENCH_LOAD_PROFILE")
    if not (path and last):
        yield
        return
    import cProfile

    profile = cProfile.Profile()
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        profile.dump_stats(path)


def _check_tasks(results: list[Any]) -> None:
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, asyncio.CancelledError):
            print(f"  a load task failed: {result!r}", file=sys.stderr)


async def _levels(
    db_url: str,
    sizes: list[int],
    seconds: float,
    reviews: bool,
    offset: int | None = None,
    machine: int = MACHINE_GAMES,
) -> list[Level]:
    bot, service, engine = _open(db_url)
    await _start(bot)
    load = Load(bot, service)
    if offset is not None:  # ids of their own: another process plays on the same database
        load.next_id = offset
        load.rng = random.Random(offset)
    if reviews:
        await asyncio.to_thread(load.finish_games, REVIEWERS)
    levels = []
    tasks: list[asyncio.Task[None]] = []
    try:
        for size in sizes:
            await asyncio.to_thread(
                load.add_games,
                size - len(load.tables),
                computer_share=COMPUTER_SHARE,
                machine=0 if load.tables else machine,
            )
            gc.collect()
            load.stop.clear()
            load.stats = Stats()
            tasks = [asyncio.create_task(load.players(load.tables))]
            tasks.append(asyncio.create_task(load.ticker()))
            reviewing = [
                asyncio.create_task(load.review(i)) for i in range(REVIEWERS if reviews else 0)
            ]
            tasks += reviewing
            await asyncio.sleep(min(HUMAN_THINK, seconds) / 3)  # ramp up, not measured
            load.stats = Stats()
            # Said, so that a sampler started from outside can cover the window alone.
            print(f"  {size} games: measuring for {seconds:g} s", file=sys.stderr, flush=True)
            started, cpu = time.perf_counter(), time.process_time()
            machine_cpu, workers = MachineCpu.now(), workers_cpu()
            with _full_collections() as (passes, gc_cpu), _profiled(size == sizes[-1]):
                await asyncio.sleep(seconds)
            elapsed = time.perf_counter() - started
            stats = load.stats
            level = Level(size, elapsed, stats, rss_mb(), workers_rss_mb(), gc_passes=passes)
            level.cpu = time.process_time() - cpu
            level.workers_cpu = workers_cpu_since(workers)
            level.machine = MachineCpu.now().since(machine_cpu)
            level.gc_cpu = gc_cpu
            level.pss, level.processes = total_pss_mb()
            levels.append(level)
            load.stop.set()
            if size == sizes[-1]:
                # Measured: a review still running (minutes at niceness 10 on a busy machine)
                # is not waited for.
                for task in reviewing:
                    task.cancel()
            _check_tasks(await asyncio.gather(*tasks, return_exceptions=True))
            print(f"  {size} games: {_summary(levels[-1])}", file=sys.stderr, flush=True)
    finally:
        load.stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.to_thread(engine.dispose)
    return levels


def _summary(level: Level) -> str:
    s = level.stats
    o = s.ordinary.first or [0.0]
    return (
        f"{level.actions_per_second():.1f} actions/s, ordinary first p95 "
        f"{percentile(o, 95):.0f} ms, lag max {max(s.lags or [0]):.0f} ms, "
        f"{len(s.review.final)} reviews, rss {level.rss:.0f} MB, total pss {level.pss:.0f} MB, "
        f"errors {s.errors}"
    )


def _p(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    return max(values) if q >= 100 else percentile(values, q)


def _figures(levels: list[Level]) -> list[Figure]:
    out: list[Figure] = []
    largest = max(level.games for level in levels)
    for level in levels:
        s = level.stats
        tag = f"{level.games} games"
        target = level.games == largest and level.games >= 1000

        def fig(
            name: str,
            value: float,
            unit: str,
            bound: float | None,
            tag: str = tag,
            target: bool = target,
        ) -> None:
            if target and bound is not None:
                out.append(check("load", f"{tag}: {name}", value, unit, at_most=bound))
            else:
                out.append(Figure("load", f"{tag}: {name}", value, unit))

        fig("actions per second (presses)", level.actions_per_second(), "/s", None)
        # What the process used (the bot, the searches and the simulated players; not the
        # review workers): how close it came to the machine's cores.
        fig("CPU of the process (cores)", level.cpu / level.seconds, "", None)
        fig("CPU of its worker processes (cores)", level.workers_cpu / level.seconds, "", None)
        # What else ran on the machine meanwhile: a run that misses its targets on a machine
        # that other programs or the host took from says so (seen: a run right after the test
        # suite used a third more CPU per press than the quiet runs before and after it).
        others = level.machine.busy - level.cpu - level.workers_cpu
        machine = level.machine
        fig("machine: CPU of other programs (cores)", max(others, 0.0) / level.seconds, "", None)
        fig("machine: CPU stolen by the host (cores)", machine.steal / level.seconds, "", None)
        fig("machine: waiting on the disk (cores)", machine.iowait / level.seconds, "", None)
        for q in (50, 95, 99, 100):
            label = "max" if q == 100 else f"p{q}"
            bound = {95: 50.0, 99: 150.0}.get(q)
            fig(f"ordinary first response {label}", _p(s.ordinary.first, q), "ms", bound)
        for q in (50, 95, 99, 100):
            label = "max" if q == 100 else f"p{q}"
            bound = {95: 250.0, 99: 500.0}.get(q)  # the board shown
            fig(f"ordinary final answer {label}", _p(s.ordinary.final, q), "ms", bound)
        fig("vs world class: final answer p95", _p(s.computer.final, 95), "ms", None)
        fig("vs world class: final answer max", _p(s.computer.final, 100), "ms", None)
        fig("vs world class: presses answered", len(s.computer.final), "", None)
        fig("hints: final answer p95", _p(s.hint.final, 95), "ms", None)
        fig("reviews: final answer p50", _p(s.review.final, 50), "ms", None)
        fig("reviews done", len(s.review.final), "", None)
        fig("event-loop lag max", _p(s.lags, 100), "ms", None)
        fig("event-loop lag p99", _p(s.lags, 99), "ms", 20.0)
        fig("garbage collector: full passes", len(level.gc_passes), "", None)
        longest = max(level.gc_passes, default=0.0)
        fig("garbage collector: longest full pass", longest, "ms", 50.0)
        fig("garbage collector: longest full pass, CPU", max(level.gc_cpu, default=0.0), "ms", None)
        fig("memory of the bot's process (RSS)", level.rss, "MB", None)
        fig("memory of the worker processes, review and drawing (RSS)", level.workers, "MB", None)
        fig("processes started by the bot (workers, resource tracker)", level.processes, "", None)
        fig("memory in total, bot + worker processes (PSS)", level.pss, "MB", 1024.0)
        fig("first responses later than 3 s", s.late(), "", 0.0)
        fig("errors", s.errors, "", 0.0)
    if len(levels) >= 2:
        a, b = levels[0], levels[-1]
        grow = f"growth {a.games}->{b.games} games"

        def ratio(x: float, y: float) -> float:
            return y / x if x else 0.0

        out.append(
            Figure(
                "load",
                f"{grow}: ordinary first p95",
                ratio(_p(a.stats.ordinary.first, 95), _p(b.stats.ordinary.first, 95)),
                "x",
            )
        )
        lag = ratio(_p(a.stats.lags, 99), _p(b.stats.lags, 99))
        out.append(Figure("load", f"{grow}: lag p99", lag, "x"))
        out.append(Figure("load", f"{grow}: memory in total (PSS)", b.pss - a.pss, "MB"))
        per_game = (b.pss - a.pss) / (b.games - a.games) * 1024
        out.append(Figure("load", f"{grow}: memory per game", per_game, "kB"))
    return out


# -- throughput (machine pace, people only) ------------------------------------------------------


async def _throughput(db_url: str, games: int, seconds: float, offset: int) -> dict[str, float]:
    bot, service, engine = _open(db_url)
    await _start(bot)
    load = Load(bot, service)
    load.next_id = offset
    load.rng = random.Random(offset)
    try:
        await asyncio.to_thread(load.add_games, games, computer_share=0.0, machine=games)
        for table in load.tables:
            table.think = 0.0
        tasks = [asyncio.create_task(load.players(load.tables))]
        await asyncio.sleep(1.0)
        load.stats = Stats()
        started = time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed = time.perf_counter() - started
        done = len(load.stats.ordinary.final)
        p95 = _p(load.stats.ordinary.final, 95)
        load.stop.set()
        _check_tasks(await asyncio.gather(*tasks, return_exceptions=True))
    finally:
        await asyncio.to_thread(engine.dispose)
    return {"actions": done, "seconds": elapsed, "p95": p95, "errors": load.stats.errors}


def _spawn(db_url: str, games: int, seconds: float, offsets: list[int]) -> float:
    """Actions per second of ordinary presses summed over one process per offset, run at once."""
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.bench_load",
                "--throughput",
                "--db",
                db_url,
                "--games",
                str(games),
                "--seconds",
                str(seconds),
                "--offset",
                str(offset),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for offset in offsets
    ]
    total = 0.0
    for proc in procs:
        out, _ = proc.communicate()
        result = json.loads(out.strip().splitlines()[-1])
        total += result["actions"] / result["seconds"]
    return total


# -- one process against several, at human pace, on one PostgreSQL ---------------------------------


async def _human(db_url: str, games: int, seconds: float, offset: int) -> dict[str, float]:
    """One level at human pace (no reviewers and no game at machine pace: they would run in
    each process), its figures."""
    (level,) = await _levels(db_url, [games], seconds, reviews=False, offset=offset, machine=0)
    s = level.stats
    return {
        "presses": len(s.ordinary.final) + len(s.computer.final),
        "seconds": level.seconds,
        "first_p95": _p(s.ordinary.first, 95),
        "final_p95": _p(s.ordinary.final, 95),
        "final_p99": _p(s.ordinary.final, 99),
        "lag_p99": _p(s.lags, 99),
        "gc_longest": max(level.gc_passes, default=0.0),
        "cpu": level.cpu / level.seconds,
        "pss": level.pss,
        "errors": s.errors,
    }


def _spawn_human(db_url: str, games: int, seconds: float, processes: int) -> dict[str, float]:
    """``games`` live games shared by ``processes`` bot processes run at once on one database:
    presses per second, CPU and memory summed, latencies the worst process's."""
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bench.bench_load",
                "--human",
                "--db",
                db_url,
                "--games",
                str(games // processes),
                "--seconds",
                str(seconds),
                "--offset",
                str(100_000_000 * (k + 1) + 10_000_000 * processes),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in range(processes)
    ]
    results = []
    for proc in procs:
        out, _ = proc.communicate()
        results.append(json.loads(out.strip().splitlines()[-1]))
    summed = ("presses_per_s", "cpu", "pss", "errors")
    total = {key: sum(r[key] for r in results) for key in ("cpu", "pss", "errors")}
    total["presses_per_s"] = sum(r["presses"] / r["seconds"] for r in results)
    worst = {k: max(r[k] for r in results) for k in results[0] if k not in (*summed, "presses")}
    return {**total, **worst}


def _processes(db_url: str, games: int, seconds: float, processes: int) -> list[Figure]:
    """The same live games in one bot process, then in ``processes`` at once, in one run."""
    out: list[Figure] = []
    runs = {1: _spawn_human(db_url, games, seconds, 1)}
    runs[processes] = _spawn_human(db_url, games, seconds, processes)
    for n, r in runs.items():
        tag = f"{games} games in {n} process{'es' if n > 1 else ''}, PostgreSQL"
        out += [
            Figure("load", f"{tag}: presses per second", r["presses_per_s"], "/s"),
            Figure("load", f"{tag}: first response p95 (worst process)", r["first_p95"], "ms"),
            Figure("load", f"{tag}: final answer p95", r["final_p95"], "ms"),
            Figure("load", f"{tag}: final answer p99", r["final_p99"], "ms"),
            Figure("load", f"{tag}: event-loop lag p99", r["lag_p99"], "ms"),
            Figure("load", f"{tag}: longest full GC pass", r["gc_longest"], "ms"),
            Figure("load", f"{tag}: CPU of the bot processes (cores)", r["cpu"], ""),
            Figure("load", f"{tag}: memory in total (PSS)", r["pss"], "MB"),
            Figure("load", f"{tag}: errors", r["errors"], ""),
        ]
    one, many = runs[1], runs[processes]
    ratio = f"{processes} processes / 1"
    for key, name in (
        ("presses_per_s", "presses per second"),
        ("final_p95", "final answer p95"),
        ("lag_p99", "event-loop lag p99"),
        ("pss", "memory (PSS)"),
    ):
        value = many[key] / one[key] if one[key] else 0.0
        out.append(Figure("load", f"{games} games, {ratio}: {name}", value, "x"))
    return out


# -- what a live game costs in memory ------------------------------------------------------------


async def _game_memory(db_url: str, games: int) -> list[Figure]:
    """The memory a live game adds to the bot's process, by tracemalloc: the Python objects
    allocated by opening ``games`` more games and playing a few presses in each, after as
    many were opened and played (so that the bounded caches, the kept pictures and pieces, are
    full before and do not count), grouped by the package that allocated them (the simulated
    players' own, in ``bench``, apart)."""
    import tracemalloc

    bot, service, engine = _open(db_url)
    await _start(bot)
    load = Load(bot, service)
    load.next_id = 900_000_000

    async def batch() -> None:
        first = len(load.tables)
        await asyncio.to_thread(load.add_games, games, computer_share=COMPUTER_SHARE)
        for table in load.tables[first:]:
            table.think = 0.0
        load.stop.clear()
        tasks = [asyncio.create_task(load.players(load.tables[first:]))]
        await asyncio.sleep(3.0)
        load.stop.set()
        _check_tasks(await asyncio.gather(*tasks, return_exceptions=True))
        gc.collect()

    try:
        await batch()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        await batch()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
    finally:
        await asyncio.to_thread(engine.dispose)
    by: dict[str, float] = {}
    if os.environ.get("BENCH_LOAD_GAME_MEMORY") == "lines":  # where, line by line
        for stat in after.compare_to(before, "lineno")[:25]:
            print(f"  {stat.size_diff / 1024 / games:8.2f} kB/game  {stat}", file=sys.stderr)
    for stat in after.compare_to(before, "filename"):
        parts = Path(stat.traceback[0].filename).parts
        where = next((p for p in parts if p in _PACKAGES), "other (Python, libraries)")
        by[where] = by.get(where, 0.0) + stat.size_diff / 1024 / games
    bench = by.pop("bench", 0.0)
    name = "a live game's memory in the bot's process (tracemalloc)"
    out = [Figure("load", f"{name}: {k}", v, "kB") for k, v in sorted(by.items())]
    out.append(Figure("load", f"{name}: total", sum(by.values()), "kB"))
    out.append(Figure("load", "(the simulated players' own, not counted)", bench, "kB"))
    return out


_PACKAGES = ("bot", "db", "engine", "render", "bench", "sqlalchemy", "discord", "PIL")


def _pg_url() -> str | None:
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        return None
    from sqlalchemy import text

    schema = f"bench_load_{os.getpid()}"
    engine = make_engine(url)
    try:
        with engine.begin() as c:
            c.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
            c.execute(text(f"CREATE SCHEMA {schema}"))
    except Exception as error:
        print(f"  PostgreSQL not reachable ({error}); skipped", file=sys.stderr)
        return None
    finally:
        engine.dispose()
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


def _machine_speed(when: str = "") -> Figure:
    """The CPU time of drawing one board now: this machine's speed at the moment of the run.

    A shared machine's cores do not always run at the same speed (seen here: the same drawing
    took 10 ms of CPU one hour and 20 ms the next), and every figure above scales with it, so
    each run says how fast the machine was. The board is drawn the old way (in RGB, then
    mapped to the palette: :func:`render.board.render_reference`), which keeps nothing between
    calls and stays comparable with the figures of earlier runs."""
    from render.board import render_reference
    from render.samples import bar

    position, view = bar()
    render_reference(position, view=view)  # the caches first
    times = times_ms(lambda: render_reference(position, view=view), 30, time.process_time)
    median = percentile(times, 50)
    return Figure("load", _speed_label(when, "one board drawn"), median, "ms")


def _speed_label(when: str, what: str) -> str:
    return f"machine speed{' ' + when if when else ''}: {what} (CPU, median)"


def _search_speed(when: str = "") -> Figure:
    """The CPU time of one world-class search now (bgsage's 3 plies, its threads included):
    the machine's speed for the computer's moves, which the drawing does not measure (a run
    whose searches took twice as long at the same drawing speed was seen)."""
    from engine import Play, Position, legal_plays
    from engine.bots.sage import analyse_plays

    # Mid-game positions (the opening is a book's), others at the end (searched ones are
    # kept by the analyzer), the same every run.
    rng = random.Random(7 if not when else 8)
    position, searches = Position.initial(), list[tuple[Position, tuple[int, int], list[Play]]]()
    while len(searches) < 24:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, dice)
        if len(plays) > 1 and rng.random() < 0.5:
            searches.append((position, dice, plays))
        position = position.apply(rng.choice(plays)).swap_players() if plays else position
        if position.winner() is not None:
            position = Position.initial()
    first, *timed = searches
    analyse_plays(first[0], first[1], first[2], 3)  # the networks loaded
    times = []
    for where, dice, plays in timed:
        started = time.process_time()
        analyse_plays(where, dice, plays, 3)
        times.append(1000 * (time.process_time() - started))
    label = _speed_label(when, "one world-class search")
    return Figure("load", label, percentile(times, 50), "ms")


def run(quick: bool = False) -> list[Figure]:
    sizes_env = os.environ.get("BENCH_LOAD_SIZES")
    if sizes_env is None:
        sizes = [10, 100] if quick else [10, 100, 1000]
    else:
        sizes = [int(x) for x in sizes_env.split(",") if x.strip()]
    seconds = float(os.environ.get("BENCH_LOAD_SECONDS") or (5 if quick else 30))
    throughput = os.environ.get("BENCH_LOAD_THROUGHPUT") != "0"
    games, window = (8, 3.0) if quick else (20, 10.0)
    figures: list[Figure] = [_machine_speed(), _search_speed()]
    # Removed at the interpreter's exit, after its wait for the worker threads: a review still
    # running when the last window ends (not waited for, above) saves its result here when it
    # ends, and a directory removed before that made it fail with a traceback.
    tmp = tempfile.mkdtemp(prefix="bench-load-")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    sqlite = f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
    reviews = os.environ.get("BENCH_LOAD_REVIEWS") != "0"
    if sizes:
        levels = asyncio.run(_levels(sqlite, sizes, seconds, reviews=reviews))
        figures += _figures(levels)
    if throughput:
        one = _spawn(f"sqlite:///{Path(tmp) / 'tp.sqlite3'}", games, window, [50_000_000])
        figures.append(Figure("load", "throughput, machine pace, SQLite, 1 process", one, "/s"))
    if os.environ.get("BENCH_LOAD_GAME_MEMORY") != "0":
        memory = f"sqlite:///{Path(tmp) / 'memory.sqlite3'}"
        figures += asyncio.run(_game_memory(memory, 50 if quick else 200))
    if sizes:
        figures += [_machine_speed("at the end"), _search_speed("at the end")]
    pg = _pg_url()
    if pg is not None and throughput:
        one = _spawn(pg, games, window, [60_000_000])
        two = _spawn(pg, games, window, [70_000_000, 80_000_000])
        figures.append(Figure("load", "throughput, PostgreSQL, 1 process", one, "/s"))
        figures.append(Figure("load", "throughput, PostgreSQL, 2 processes", two, "/s"))
        figures.append(Figure("load", "throughput, PostgreSQL, 2 processes / 1", two / one, "x"))
    processes = int(os.environ.get("BENCH_LOAD_PROCESSES") or 0)
    if pg is not None and processes > 1:
        live = int(os.environ.get("BENCH_LOAD_PROCESS_GAMES") or max(sizes or [1000]))
        figures += _processes(pg, live, seconds, processes)
    return figures


def main(argv: list[str] | None = None) -> int:
    """The worker of the throughput figures (``--throughput``) and of the comparison of
    processes (``--human``): one process, prints a JSON line."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_load")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--throughput", action="store_true")
    mode.add_argument("--human", action="store_true")
    parser.add_argument("--db", required=True)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--offset", type=int, default=50_000_000)
    args = parser.parse_args(argv)
    if args.human:
        result = asyncio.run(_human(args.db, args.games, args.seconds, args.offset))
    else:
        result = asyncio.run(_throughput(args.db, args.games, args.seconds, args.offset))
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Presses Discord will not take an answer to any more (issue 27, item 5): Discord takes the
first response within 3 seconds of the interaction's creation, which its id carries. A press
that reaches the bot too late (a gateway outage) is not acted upon; one whose answer is refused
after it was acted upon has its board message brought up to date through the channel. Neither
is an error in the log, and no apology claims that nothing changed.

Through SimCord, whose clock the interaction ids and discord.py's ``utcnow`` both follow.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Iterator
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from simcord import Env

from bench.bench_load import FakeInteraction
from bot.discord_app import replies
from bot.discord_app.replies import RESPONSE_MARGIN, RESPONSE_WINDOW, answer
from bot.i18n import t
from bot.service import Reply, Service
from db.models import Game as GameRow
from tests.bot.conftest import ALICE, CHANNEL
from tests.bot.test_discord_sim import (  # noqa: F401 (fixtures)
    SETTLE_TIMEOUT,
    env,
    fresh,
    labels,
    locales,
    menu_id,
    response,
    simcord_bot,
)
from tests.bot.test_heavy import SAFETY, Gate, until

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_TIMEOUT)
DISCORD_EPOCH_MS = 1420070400000


@pytest.fixture
def discords_window(simcord_bot: Any) -> None:  # noqa: F811
    """Discord's own window, which the other simulated tests lift."""
    simcord_bot.response_window = RESPONSE_WINDOW


@pytest.fixture
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    with caplog.at_level(logging.WARNING, logger="bot.discord_app"):
        yield caplog


async def _ready_to_roll(env: Env, script: deque[int]) -> tuple[Any, Any]:  # noqa: F811
    """Ann against the computer, her Roll button on the board."""
    ann = env.create_user("ann")
    script.extend([3, 1])  # ann opens with 3-1
    board = response(await ann.slash("play", level="beginner"))
    board = response(await ann.select(board, ["8/5 6/5"], custom_id=menu_id(board)))
    assert labels(board) == ["Roll", "Double", "Resign"]
    return ann, board


def _version(service: Service) -> int:
    with service.factory() as s:
        row = s.query(GameRow).one()
        return row.version


def _made_ago(env: Env, seconds: float) -> Any:  # noqa: F811
    """The next interactions' ids as if Discord had made them ``seconds`` ago (the gateway
    held them back that long): their creation time is in their id."""
    backend = env.backend
    now_ms = int(backend.clock.now().timestamp() * 1000) - DISCORD_EPOCH_MS

    def old_snowflake() -> int:
        # SimCord's own allocator at that millisecond, so that the id is still unique.
        return int(backend._allocate_at(now_ms - int(seconds * 1000)))

    return old_snowflake


@pytest.mark.usefixtures("discords_window")
async def test_a_press_that_arrives_too_late_to_be_answered_is_not_acted_upon(
    env: Env,  # noqa: F811
    script: deque[int],
    service: Service,
    logged: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, board = await _ready_to_roll(env, script)
    before = _version(service)
    script.extend([6, 5])
    late = RESPONSE_WINDOW - RESPONSE_MARGIN + 0.05  # a few milliseconds past the safe window
    with monkeypatch.context() as patched:
        patched.setattr(env.backend, "snowflake", _made_ago(env, late))
        pressed = await ann.click(board, label="Roll")
    assert pressed.response is None and pressed.followups == []  # no answer: Discord says failed
    assert _version(service) == before and list(script) == [6, 5]  # no dice rolled
    assert fresh(env, board).content == board.content
    late_lines = [r for r in logged.records if "too late to be answered" in r.getMessage()]
    assert [r.levelno for r in late_lines] == [logging.WARNING]
    assert not [r for r in logged.records if r.levelno >= logging.ERROR]
    again = response(await ann.click(board, label="Roll"))  # in time: acted upon as usual
    assert "ann rolls 6-5" in again.content and _version(service) > before


@pytest.mark.usefixtures("discords_window")
async def test_a_press_whose_answer_is_refused_after_acting_updates_its_board(
    env: Env,  # noqa: F811
    script: deque[int],
    service: Service,
    logged: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, board = await _ready_to_roll(env, script)
    backend = env.backend
    real = backend.new_interaction

    def closing(*args: Any, **kwargs: Any) -> Any:
        record = real(*args, **kwargs)
        record.initial_response_deadline = backend.now_iso()  # closed when the answer comes
        return record

    script.extend([6, 5])
    with monkeypatch.context() as patched:
        patched.setattr(backend, "new_interaction", closing)
        pressed = await ann.click(board, label="Roll")
    assert pressed.response is None  # Discord refused it: 404, Unknown Interaction (10062)
    now = fresh(env, board)
    assert "ann rolls 6-5" in now.content and "Roll" not in labels(now)  # up to date
    apology = t("discord.apology", "en")
    shown = [m.content for m in pressed.followups] + [now.content]
    assert not [text for text in shown if apology in text]
    refused = [r for r in logged.records if "answered too late" in r.getMessage()]
    assert [r.levelno for r in refused] == [logging.WARNING]
    assert not [r for r in logged.records if r.levelno >= logging.ERROR]
    point = next(label for label in labels(now) if label.isdigit())
    moved = response(await ann.click(now, label=point))  # the updated board's buttons work
    assert not moved.ephemeral and "Undo" in labels(moved), moved.content


async def test_a_press_that_arrives_near_its_deadline_is_deferred_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Deferred within the time left, not after the usual second (by then Discord would refuse
    the deferral, the work being done). The bot's clock is frozen 0.2 s before the safe end of
    the window; the work waits until the test has seen the deferral."""
    client = SimpleNamespace(defer_after=SAFETY)  # far longer than the time left
    pressed = FakeInteraction(client, ALICE, CHANNEL, "bg:1:1:roll", None)
    created = discord.utils.snowflake_time(pressed.id)
    frozen = created + timedelta(seconds=RESPONSE_WINDOW - RESPONSE_MARGIN - 0.2)
    monkeypatch.setattr(discord.utils, "utcnow", lambda: frozen)
    gate = Gate()
    answering = asyncio.create_task(
        answer(pressed, gate(Reply("rolled")), component=True)  # type: ignore[arg-type]
    )
    await until(pressed.response.is_done)  # the deferral, while the work still waits
    assert gate.started == 1 and pressed.sent == []
    gate.open.set()
    await asyncio.wait_for(answering, SAFETY)
    assert pressed.sent == ["rolled"]


def _made(seconds_ago: float) -> Any:
    """An interaction that Discord made ``seconds_ago`` by the bot's clock."""
    made = discord.utils.utcnow() - timedelta(seconds=seconds_ago)
    return SimpleNamespace(id=discord.utils.time_snowflake(made), client=SimpleNamespace())


def test_a_clock_running_ahead_of_discords_still_answers_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bot whose clock is 4 s fast sees every interaction 4 s old: after the first ones, it
    answers them all the same, and still refuses one held back 3 s longer than its fellows."""
    skew = replies.ClockSkew()
    monkeypatch.setattr(replies, "_SKEW", skew)
    assert replies.time_left(_made(4.0)) <= 0  # nothing seen yet: taken at its word
    for _ in range(3):
        skew.observe(4.0)
    assert replies.time_left(_made(4.05)) > RESPONSE_WINDOW - RESPONSE_MARGIN - 0.5
    assert replies.time_left(_made(7.0)) <= 0


def test_a_clock_behind_discords_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    skew = replies.ClockSkew()
    monkeypatch.setattr(replies, "_SKEW", skew)
    skew.observe(-5.0)  # interactions seem to come from the future
    assert skew.ahead() == 0.0
    assert replies.time_left(_made(RESPONSE_WINDOW)) <= 0

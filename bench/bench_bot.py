"""The bot's reaction time (issue: the Discord bot): from a player's action to the reply ready
to send (service + database + picture, SQLite), p95 <= 50 ms; and when the computer answers at
world class, p95 <= 400 ms."""

from __future__ import annotations

import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench.common import Figure, check, percentile
from bench.crash_worker import ANN, BEN, choose
from bot.service import Actor, Reply, Service, Settings, Where
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade

NONE = timedelta(0)


def _timed_press(
    service: Service, actor: Actor, where: Where, reply: Reply, label: str
) -> tuple[float, Reply]:
    button = next((b for b in reply.buttons if b.label == label and not b.disabled), None)
    if button is None:
        raise RuntimeError(f"no {label!r} button in the reply: {reply.text}")
    start = time.perf_counter()
    answer = service.press(actor, where, button.custom_id)
    return (time.perf_counter() - start) * 1000, answer


def _people(service: Service, actions: int) -> list[float]:
    """Two people playing by buttons: every press timed."""
    times: list[float] = []
    channel = 100
    while len(times) < actions:
        channel += 1
        where = Where(channel_id=channel, guild_id=1)
        made = service.challenge(ANN, where, BEN, rated=False)
        _, board = _timed_press(service, BEN, where, made, "Accept")
        while len(times) < actions and board.rows:
            if any(b.label == "Rematch" for b in board.buttons):
                break
            actor = ANN if board.mentions and board.mentions[0] == ANN.id else BEN
            label = choose(board)
            if label is None:
                break
            ms, board = _timed_press(service, actor, where, board, label)
            assert not board.ephemeral, board.text
            times.append(ms)
    return times


def _computer(service: Service, turns: int) -> list[float]:
    """A person against world class: each Confirm (which makes the computer play) timed."""
    times: list[float] = []
    channel = 10_000
    while len(times) < turns:
        channel += 1
        where = Where(channel_id=channel)
        board = service.play(ANN, where, level="world class")
        while len(times) < turns and board.rows:
            if any(b.label == "Rematch" for b in board.buttons):
                break
            label = choose(board)
            if label is None:
                break
            ms, board = _timed_press(service, ANN, where, board, label)
            assert not board.ephemeral, board.text
            if label in ("Confirm", "Roll", "Take"):
                times.append(ms)
    return times


def run(quick: bool = False) -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'bench.sqlite3'}")
        upgrade(engine)
        # One challenger plays game after game, faster than the pause between two challenges
        # that protects people from floods (the full run stopped at its second game).
        service = Service(make_session_factory(engine), settings=Settings(challenge_cooldown=NONE))
        service.play(ANN, Where(channel_id=1))  # warm the caches (pictures, computer players)
        people = _people(service, 60 if quick else 600)
        computer = _computer(service, 10 if quick else 120)
        engine.dispose()
    return [
        check(
            "bot", "action to reply, p95 (people, SQLite)", percentile(people, 95), "ms", at_most=50
        ),
        Figure("bot", "action to reply, median", percentile(people, 50), "ms"),
        check(
            "bot",
            "computer answers at world class, p95",
            percentile(computer, 95),
            "ms",
            at_most=400,
        ),
        Figure("bot", "computer answers at world class, median", percentile(computer, 50), "ms"),
    ]

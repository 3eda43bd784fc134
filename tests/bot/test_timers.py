"""The move timer: reminders, claims and expiry, all from the database (restarts included)."""

from __future__ import annotations

from collections import deque
from datetime import timedelta

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Service, Settings
from db.models import Game as GameRow
from db.models import GameStatus, ResultKind
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, Clock, ScriptedDice, labels, press

HOURS = 4  # reminders come an hour before the deadline (a quarter of it, at most an hour)


@pytest.fixture
def timed(factory: sessionmaker[Session], script: deque[int], clock: Clock) -> Service:
    return Service(
        factory,
        settings=Settings(move_timeout=timedelta(hours=HOURS)),
        clock=clock,
        new_dice=lambda: ScriptedDice(script, bytes(range(32))),
        dice_for=lambda seed, counter: ScriptedDice(script, seed, counter),
    )


def start(service: Service, script: deque[int]):  # type: ignore[no-untyped-def]
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    script.extend([5, 2])
    return press(service, BOB, made, "Accept")  # Alice to play 5-2


def row(factory: sessionmaker[Session], game_id: int) -> GameRow:
    with factory() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        s.expunge(game)
        return game


def test_reminder_then_claim(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    board = start(timed, script)
    assert timed.sweep() == []
    clock.advance(hours=HOURS - 1, minutes=1)
    (reminder,) = timed.sweep()
    assert reminder.channel_id == CHANNEL.channel_id and reminder.reply.mentions == (ALICE.id,)
    assert "<@101>" in reminder.reply.text and "59 minute(s) left" in reminder.reply.text
    assert timed.sweep() == []  # sent once
    # The board's buttons still work: a reminder does not change the game's version. (A view
    # change only: a checker moved would be a new action, and a new deadline.)
    assert not press(timed, ALICE, board, "Die 2").ephemeral
    clock.advance(hours=2)
    (claim,) = timed.sweep()
    assert "ran out of time" in claim.reply.text and claim.reply.mentions == (BOB.id,)
    assert "Claim the game" in labels(claim.reply)
    assert timed.sweep() == []
    assert press(timed, ALICE, claim.reply, "Claim the game").ephemeral  # not hers to claim
    over = press(timed, BOB, claim.reply, "Claim the game")
    assert "Bob claims the game" in over.text and "Bob** wins a single game" in over.text
    stored = row(factory, board.game_id or 0)
    assert stored.status is GameStatus.ABANDONED and stored.result_kind is ResultKind.TIMEOUT


def test_a_move_resets_the_timer(timed: Service, script: deque[int], clock: Clock) -> None:
    start(timed, script)
    clock.advance(hours=HOURS - 1, minutes=5)
    assert len(timed.sweep()) == 1
    timed.move(ALICE, CHANNEL, "13/8 13/11")  # Bob's turn now, with a fresh deadline
    assert timed.sweep() == []
    clock.advance(hours=HOURS - 1, minutes=5)
    (reminder,) = timed.sweep()
    assert reminder.reply.mentions == (BOB.id,)


def test_claim_only_after_the_deadline(timed: Service, script: deque[int], clock: Clock) -> None:
    board = start(timed, script)
    clock.advance(hours=HOURS - 1)
    timed.sweep()
    from bot.service.customid import GameAction

    version = int(board.buttons[0].custom_id.split(":")[2])
    early = GameAction(board.game_id or 0, version, "claim").custom_id
    answer = timed.press(BOB, CHANNEL, early)
    assert answer.ephemeral and "only when your opponent has run out of time" in answer.text


def test_unclaimed_games_expire(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    board = start(timed, script)
    clock.advance(hours=HOURS, minutes=1)
    assert len(timed.sweep()) == 1  # claim offered (the reminder is skipped: already late)
    clock.advance(hours=HOURS)
    (expired,) = timed.sweep()
    assert "expired" in expired.reply.text
    assert row(factory, board.game_id or 0).status is GameStatus.EXPIRED
    assert timed.sweep() == []


def test_games_against_the_computer_wait(timed: Service, script: deque[int], clock: Clock) -> None:
    script.extend([5, 2])
    timed.play(ALICE, DM, level="beginner")
    clock.advance(days=30)
    assert timed.sweep() == []


def test_timers_survive_a_restart(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    start(timed, script)
    clock.advance(hours=HOURS - 1, minutes=1)
    restarted = Service(factory, settings=timed.settings, clock=clock)
    (reminder,) = restarted.sweep()
    assert "<@101>" in reminder.reply.text
    assert timed.sweep() == []  # the first process sees it was sent


def test_notices_in_the_servers_language(timed: Service, script: deque[int], clock: Clock) -> None:
    start(timed, script)
    clock.advance(hours=HOURS - 1, minutes=1)
    (reminder,) = timed.sweep(lang_of=lambda guild: "fr")
    assert "à vous de jouer" in reminder.reply.text

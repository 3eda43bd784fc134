"""Limits on challenges (issue 20, item 10): one user made 1,000 pending challenges to one
person in 4.8 s, each with a mention. Now: one pending challenge per pair of players, a pause
between two challenges of one person, a cap on his pending ones; Rematch pressed twice makes
one challenge. (The races, with real concurrent sessions: tests/db/test_challenge_races.py.)"""

from __future__ import annotations

from collections import deque

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Reply, Service, Where
from db.models import Challenge, ChallengeStatus
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, Clock, labels, press


def pending(factory: sessionmaker[Session]) -> int:
    with factory() as s:
        stmt = select(func.count()).where(Challenge.status == ChallengeStatus.PENDING)
        return s.scalar(stmt) or 0


def challenge_id(reply: Reply) -> int:
    return int(reply.buttons[0].custom_id.split(":")[1])


def test_a_flood_of_challenges_makes_one(
    service: Service, clock: Clock, factory: sessionmaker[Session]
) -> None:
    first = service.challenge(ALICE, CHANNEL, BOB)
    assert first.mentions == (BOB.id,)
    answers = [service.challenge(ALICE, CHANNEL, BOB) for _ in range(200)]
    assert all(a.ephemeral and not a.mentions and not a.rows for a in answers)
    assert pending(factory) == 1
    number = challenge_id(first)
    assert f"(challenge #{number})" in answers[0].text and "Bob" in answers[0].text


def test_one_pending_challenge_per_pair_whoever_challenged(
    service: Service, clock: Clock, factory: sessionmaker[Session]
) -> None:
    first = service.challenge(ALICE, CHANNEL, BOB)
    number = challenge_id(first)
    clock.advance(seconds=30)  # past the cooldown: the pair rule still refuses
    again = service.challenge(ALICE, Where(channel_id=5001, guild_id=9000), BOB)
    assert again.ephemeral and f"challenge #{number}" in again.text
    crossed = service.challenge(BOB, CHANNEL, ALICE)  # Bob should answer Alice's instead
    assert crossed.ephemeral and "between you and Alice" in crossed.text
    assert pending(factory) == 1
    declined = press(service, BOB, first, "Decline")
    assert not declined.ephemeral
    assert not service.challenge(BOB, CHANNEL, ALICE).ephemeral  # answered: a new one may come


def test_an_expired_challenge_does_not_block_the_pair(
    service: Service, clock: Clock, factory: sessionmaker[Session]
) -> None:
    service.challenge(ALICE, CHANNEL, BOB)
    clock.advance(minutes=16)  # nobody answered: it expired (nothing swept it)
    again = service.challenge(ALICE, CHANNEL, BOB)
    assert not again.ephemeral and again.mentions == (BOB.id,)
    assert pending(factory) == 1


def test_a_pause_between_two_challenges(service: Service, clock: Clock) -> None:
    service.challenge(ALICE, CHANNEL, BOB)
    clock.advance(seconds=4)
    early = service.challenge(ALICE, CHANNEL, CAROL)
    assert early.ephemeral and "wait 6 seconds" in early.text
    fr = service.challenge(Actor(ALICE.id, "Alice", locale="fr"), CHANNEL, CAROL)
    assert fr.ephemeral and "attendez 6 secondes" in fr.text
    clock.advance(seconds=6)
    assert not service.challenge(ALICE, CHANNEL, CAROL).ephemeral


def test_at_most_five_pending_challenges(
    service: Service, clock: Clock, factory: sessionmaker[Session]
) -> None:
    made = []
    for i in range(5):
        made.append(service.challenge(ALICE, CHANNEL, Actor(900 + i, f"P{i}")))
        assert not made[-1].ephemeral
        clock.advance(seconds=10)
    sixth = service.challenge(ALICE, CHANNEL, CAROL)
    assert sixth.ephemeral and "already have 5 challenges waiting" in sixth.text
    assert pending(factory) == 5
    press(service, ALICE, made[0], "Cancel")  # one less waiting: room for Carol
    assert not service.challenge(ALICE, CHANNEL, CAROL).ephemeral
    # The others' challenges are theirs: Bob may still challenge Alice.
    clock.advance(seconds=10)
    assert not service.challenge(BOB, CHANNEL, ALICE).ephemeral


def test_rematch_pressed_twice_makes_one_challenge(
    service: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    script.extend([5, 2])
    board = press(service, BOB, made, "Accept")
    board = service.move(ALICE, CHANNEL, "13/8 13/11")
    dropped = press(service, ALICE, press(service, BOB, board, "Double"), "Drop")
    assert labels(dropped) == ["Rematch"]
    clock.advance(minutes=1)
    first = press(service, ALICE, dropped, "Rematch")
    assert "challenges you" in first.text
    for who in (ALICE, BOB, ALICE):
        clock.advance(seconds=30)
        again = press(service, who, dropped, "Rematch")
        assert again.ephemeral and "waiting for an answer" in again.text
    assert pending(factory) == 1


def test_a_quick_rematch_is_not_held_by_the_pause_between_challenges(
    service: Service, script: deque[int], clock: Clock
) -> None:
    # Bob doubled at once and Alice dropped: the game was over 5 seconds after her challenge,
    # and her Rematch was refused with "wait 5 seconds before the next challenge". The pause
    # keeps one person from pinging many; a rematch asks the one just played.
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    script.extend([2, 5])  # Bob opens
    board = press(service, BOB, made, "Accept")
    board = service.move(BOB, CHANNEL, "13/8 13/11")
    clock.advance(seconds=5)
    dropped = press(service, BOB, press(service, ALICE, board, "Double"), "Drop")
    assert labels(dropped) == ["Rematch"]
    again = press(service, ALICE, dropped, "Rematch")
    assert not again.ephemeral and "challenges you" in again.text, again.text
    early = service.challenge(ALICE, CHANNEL, CAROL)  # anyone else: the pause still holds
    assert early.ephemeral and "wait" in early.text

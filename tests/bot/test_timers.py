"""The move timer: reminders, claims and expiry, all from the database (restarts included)."""

from __future__ import annotations

from collections import deque
from datetime import timedelta

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Service, Settings, Where
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
    assert "<@101>" in reminder.reply.text and "59 minutes left" in reminder.reply.text
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


def test_a_claim_in_a_match_ends_the_match(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    # A player who let the time run out has abandoned the match: the game in progress is scored
    # (a single game, times the cube) and the match goes to the other player, whatever the
    # score, instead of a claim to wait for in every game that follows.
    made = timed.challenge(ALICE, CHANNEL, BOB, points=5, rated=True)
    script.extend([5, 2])
    board = press(timed, BOB, made, "Accept")  # Alice to play 5-2
    clock.advance(hours=HOURS, minutes=1)
    (claim,) = timed.sweep()
    over = press(timed, BOB, claim.reply, "Claim the game")
    assert "Bob claims the game" in over.text and "Bob** wins a single game" in over.text
    assert "Bob** wins the 5-point match 1–0" in over.text and labels(over) == ["Rematch"]
    stored = row(factory, board.game_id or 0)
    assert stored.status is GameStatus.ABANDONED and stored.winner == 1
    assert stored.deadline is None and timed.sweep() == []


def test_rolling_keeps_the_deadline(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    # The clock is for the whole decision: it starts again only when the other player must act.
    start(timed, script)
    board = timed.move(ALICE, CHANNEL, "13/8 13/11")  # Bob to roll, with a fresh deadline
    deadline = row(factory, board.game_id or 0).deadline
    clock.advance(hours=HOURS - 1)
    script.extend([6, 5])
    rolled = press(timed, BOB, board, "Roll")
    assert "Bob rolls 6-5" in rolled.text
    assert row(factory, board.game_id or 0).deadline == deadline
    moved = timed.move(BOB, CHANNEL, "24/13")  # now Alice must act: a new deadline
    assert row(factory, moved.game_id or 0).deadline != deadline


def test_games_waiting_for_a_claim_do_not_starve_other_notices(
    timed: Service, script: deque[int], clock: Clock
) -> None:
    # The sweep reads a limited batch of games, oldest deadline first. Games whose claim was
    # offered wait a whole period more before they expire, with nothing to send meanwhile:
    # they must not fill the batch and hold back the reminders of newer games.
    start(timed, script)  # game 1, in CHANNEL
    clock.advance(hours=HOURS, minutes=1)
    (claim,) = timed.sweep(limit=1)
    assert "ran out of time" in claim.reply.text
    other = Where(channel_id=5001, guild_id=CHANNEL.guild_id, guild_locale="en-US")
    made = timed.challenge(ALICE, other, BOB, rated=False)
    script.extend([5, 2])
    press(timed, BOB, made, "Accept", other)  # game 2: Alice to play, a fresh deadline
    clock.advance(hours=HOURS - 1, minutes=1)
    (reminder,) = timed.sweep(limit=1)
    assert reminder.channel_id == other.channel_id and "minutes left" in reminder.reply.text


def test_moving_a_checker_and_taking_it_back_does_not_restart_the_clock(
    timed: Service, script: deque[int], clock: Clock
) -> None:
    # The time limit is per move: a checker step (or its undo) inside the turn must not give
    # the player a fresh deadline, or one click a day would hold a game forever.
    board = start(timed, script)  # Alice to play 5-2
    clock.advance(hours=HOURS - 1, minutes=30)
    assert len(timed.sweep()) == 1  # the reminder
    stepped = press(timed, ALICE, board, "13")
    back = press(timed, ALICE, stepped, "Undo")
    assert not back.ephemeral
    assert timed.sweep() == []  # the reminder is not sent again
    clock.advance(minutes=31)
    (claim,) = timed.sweep()
    assert "ran out of time" in claim.reply.text
    # A whole move does restart it, for the opponent.
    timed.move(ALICE, CHANNEL, "13/8 13/11")
    assert timed.sweep() == []


def test_a_button_of_an_expired_game_says_the_game_is_over(
    timed: Service, script: deque[int], clock: Clock
) -> None:
    # Not "this board is out of date: use /board", which then finds no game.
    board = start(timed, script)
    clock.advance(hours=HOURS, minutes=1)
    timed.sweep()
    clock.advance(hours=HOURS)
    assert len(timed.sweep()) == 1  # expired
    answer = press(timed, ALICE, board, "13")
    assert answer.ephemeral and "This game is over" in answer.text


# -- issue 20, item 2: a resignation offer must not move the clock ------------------------------


def rated_start(service: Service, script: deque[int]):  # type: ignore[no-untyped-def]
    made = service.challenge(ALICE, CHANNEL, BOB, rated=True)
    script.extend([5, 2])
    return press(service, BOB, made, "Accept")  # Alice to play 5-2


def test_offering_to_resign_again_and_again_buys_no_time(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    # The stall found by the attack: offer, have it rejected, get a fresh deadline, forever.
    # Now the offerer's clock stops while Bob answers and goes on where it stopped after.
    board = rated_start(timed, script)
    for cycle in range(1, 9):
        clock.advance(minutes=30)  # Alice takes half an hour to offer each time
        offered = timed.resign(ALICE, CHANNEL, 1)
        assert "offers to resign" in offered.text
        clock.advance(minutes=50)  # Bob takes his time to answer: not Alice's time
        rejected = press(timed, BOB, offered, "Reject")
        assert "play on" in rejected.text
        # Her 4 hours are gone after 8 offers of half an hour each, not before.
        assert ("Claim the game" in labels(rejected)) == (cycle == 8)
    assert "Claim the game" in labels(rejected)
    over = press(timed, BOB, rejected, "Claim the game")
    assert "Bob claims the game" in over.text
    stored = row(factory, board.game_id or 0)
    assert stored.status is GameStatus.ABANDONED and stored.winner == 1


def test_the_answer_gives_back_exactly_the_time_left(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    board = rated_start(timed, script)
    game_id = board.game_id or 0
    clock.advance(hours=1)
    offered = timed.resign(ALICE, CHANNEL, 1)
    answer_by = row(factory, game_id).deadline  # Bob's own deadline to answer
    assert answer_by == clock.now + timedelta(hours=HOURS)
    clock.advance(hours=2)
    press(timed, BOB, offered, "Reject")
    # Alice had 3 hours left when she offered; Bob's 2 hours are not hers.
    assert row(factory, game_id).deadline == clock.now + timedelta(hours=HOURS - 1)
    assert row(factory, game_id).time_left_held is None


def test_the_offerer_cannot_claim_an_unanswered_offer_it_is_accepted(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    # Worse than the stall: Bob leaves Alice's offer unanswered past the deadline, and Alice
    # claimed the rated game on time. Now the offer is accepted: Alice loses what she offered.
    board = rated_start(timed, script)
    game_id = board.game_id or 0
    offered = timed.resign(ALICE, CHANNEL, 1)
    clock.advance(hours=HOURS - 1, minutes=1)
    (reminder,) = timed.sweep()
    assert reminder.reply.mentions == (BOB.id,)
    assert "Alice offers to resign" in reminder.reply.text and "<@202>" in reminder.reply.text
    clock.advance(hours=1)
    from bot.service.customid import GameAction

    claim = GameAction(game_id, row(factory, game_id).version, "claim").custom_id
    refused = timed.press(ALICE, CHANNEL, claim)
    assert refused.ephemeral and "while a resignation offer waits" in refused.text
    assert "Claim the game" not in labels(timed.board(BOB, CHANNEL))
    (notice,) = timed.sweep()
    assert "Bob did not answer in time: Alice's resignation is accepted" in notice.reply.text
    assert "Bob** wins a single game" in notice.reply.text
    stored = row(factory, game_id)
    assert stored.status is GameStatus.FINISHED and stored.winner == 1
    assert stored.result_kind is ResultKind.RESIGN
    assert timed.sweep() == []
    assert press(timed, BOB, offered, "Accept").ephemeral  # over: nothing more to answer


def test_an_offer_by_the_waiting_player_leaves_the_movers_clock_alone(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    # Bob offers while Alice is to move: Alice must answer (and then move) on her own clock;
    # Bob, waiting on his own offer, cannot win on time; unanswered, his offer is accepted.
    board = rated_start(timed, script)
    game_id = board.game_id or 0
    deadline = row(factory, game_id).deadline
    clock.advance(hours=1)
    timed.resign(BOB, CHANNEL, 2)
    assert row(factory, game_id).deadline == deadline
    clock.advance(hours=HOURS)
    from bot.service.customid import GameAction

    claim = GameAction(game_id, row(factory, game_id).version, "claim").custom_id
    assert timed.press(BOB, CHANNEL, claim).ephemeral
    (notice,) = timed.sweep()
    assert "Alice did not answer in time: Bob's resignation is accepted" in notice.reply.text
    stored = row(factory, game_id)
    assert stored.winner == 0 and stored.points == 2


def test_a_double_and_its_take_give_the_doubler_no_fresh_deadline(
    timed: Service, script: deque[int], clock: Clock, factory: sessionmaker[Session]
) -> None:
    # The sibling of the resignation: a take hands the turn back to the doubler, who used to
    # get a whole new period for the same turn.
    board = start(timed, script)  # Alice to play 5-2 (money game, cube)
    moved = timed.move(ALICE, CHANNEL, "13/8 13/11")  # Bob's turn, fresh deadline
    game_id = moved.game_id or 0
    clock.advance(hours=3)
    doubled = press(timed, BOB, moved, "Double")
    clock.advance(hours=2)
    taken = press(timed, ALICE, doubled, "Take")
    assert "Alice takes" in taken.text
    # Bob had an hour left when he doubled: he has that hour again, not four.
    assert row(factory, game_id).deadline == clock.now + timedelta(hours=1)
    assert board.game_id == game_id

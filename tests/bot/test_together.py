"""Playing together, through the service: a thread per game (the plan the adapter carries out,
the server setting, the result told in the parent channel), spectators (/watch, Refresh, every
refusal), "your turn" notices (one per game and turn, quiet hours, never for a finished game)
and /games."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Reply, Service, Where
from db.models import Game as GameRow
from db.models import GameStatus
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, DM, Clock, labels, press

THREADS = replace(CHANNEL, threads=True)  # a channel where the adapter can open threads
THREAD = Where(channel_id=7000, guild_id=CHANNEL.guild_id, guild_locale="en-US")
MANAGER = replace(CHANNEL, manager=True)
DAVE = Actor(505, "Dave", locale="en-US")
ERIN = Actor(606, "Erin", locale="en-US")


def row(factory: sessionmaker[Session], game_id: int) -> GameRow:
    with factory() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        s.expunge(game)
        return game


def accepted(
    service: Service,
    script: deque[int],
    where: Where = THREADS,
    a: Actor = ALICE,
    b: Actor = BOB,
    **options: object,
) -> Reply:
    """``a`` challenges ``b`` in ``where``, ``b`` accepts: ``a`` opens with 5-2."""
    clock = service.deps.clock
    assert isinstance(clock, Clock)
    clock.advance(seconds=10)  # past the pause between two challenges of one person
    made = service.challenge(a, where, b, **options)  # type: ignore[arg-type]
    assert not made.ephemeral, made.text
    script.extend([5, 2])
    return press(service, b, made, "Accept", where)


# -- a thread per game ------------------------------------------------------------------------


def test_an_accepted_challenge_asks_for_a_thread_and_moves_there(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    board = accepted(service, script)
    plan = board.thread
    assert plan is not None and board.game_id == plan.game_id
    assert plan.name == f"Game #{plan.game_id}: Alice vs Bob"
    assert set(plan.members) == {ALICE.id, BOB.id}
    assert "played in the thread below" in plan.intro and "Alice" in plan.intro
    assert board.image is not None and board.rows  # the board itself, for the thread
    assert service.game_moved(plan.game_id, THREAD.channel_id or 0, CHANNEL.channel_id or 0, 77)
    moved = row(factory, plan.game_id)
    assert (moved.channel_id, moved.parent_channel_id, moved.board_message_id) == (7000, 5000, 77)
    # Commands work in the thread (its own channel), not in the parent channel any more.
    assert not service.board(ALICE, THREAD).ephemeral
    assert "no game" in service.board(ALICE, CHANNEL).text
    # One active game per seat and channel still holds: the parent channel is free again.
    script.extend([6, 1])
    again = accepted(service, script, CHANNEL)
    assert again.game_id != plan.game_id and not again.ephemeral


def test_the_result_is_told_in_the_parent_channel(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    board = accepted(service, script)
    assert board.game_id is not None
    service.game_moved(board.game_id, 7000, 5000, 77)
    offer = service.resign(ALICE, THREAD, value=1)
    assert offer.posts == []  # still in progress: nothing for the parent channel
    over = press(service, BOB, offer, "Accept", THREAD)
    assert row(factory, board.game_id).status is GameStatus.FINISHED
    assert len(over.posts) == 1 and over.posts[0].channel_id == 5000
    assert f"Game #{board.game_id}, Alice vs Bob" in over.posts[0].text
    assert "Bob** wins a single game" in over.posts[0].text


def test_no_thread_where_none_can_be_opened(service: Service, script: deque[int]) -> None:
    # No permission, a user install, a thread already: the adapter says threads=False.
    board = accepted(service, script, CHANNEL)
    assert board.thread is None and board.edit and board.image is not None


def test_the_server_setting_turns_threads_off_and_on(service: Service, script: deque[int]) -> None:
    shown = service.server_command(ALICE, CHANNEL)
    assert shown.ephemeral and "A thread for each game: on" in shown.text
    refused = service.server_command(ALICE, CHANNEL, threads=False)
    assert refused.ephemeral and "Only members who may manage this server" in refused.text
    assert "A thread for each game: on" in service.server_command(ALICE, CHANNEL).text
    off = service.server_command(ALICE, MANAGER, threads=False)
    assert "Saved." in off.text and "A thread for each game: off" in off.text
    assert accepted(service, script).thread is None
    assert "on" in service.server_command(BOB, MANAGER, threads=True).text
    assert "server" in service.server_command(ALICE, DM, threads=True).text  # no server in DMs


def test_games_against_the_computer_get_no_thread(service: Service, script: deque[int]) -> None:
    script.extend([6, 1])
    assert service.play(ALICE, THREADS, level="beginner").thread is None


def test_a_thread_for_a_game_that_ended_is_not_taken(service: Service, script: deque[int]) -> None:
    board = accepted(service, script)
    assert board.game_id is not None
    over = press(service, BOB, service.resign(ALICE, THREADS, value=1), "Accept", THREADS)
    assert over.posts == []  # never moved to a thread: the result is on the board itself
    assert not service.game_moved(board.game_id, 7000, 5000, 77)


# -- spectators -------------------------------------------------------------------------------


def test_a_spectator_pressing_any_button_is_refused_and_nothing_changes(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    board = accepted(service, script)
    assert board.game_id is not None
    before = row(factory, board.game_id).version
    for button in board.buttons:
        refused = service.press(CAROL, THREADS, button.custom_id)
        assert refused.ephemeral and "You are watching game" in refused.text, button.label
        assert "/watch" in refused.text
    assert row(factory, board.game_id).version == before


def test_watch_shows_the_board_with_refresh_only(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    board = accepted(service, script)
    game_id = board.game_id
    assert game_id is not None
    for shown in (
        service.watch(CAROL, DM, game_id=game_id),
        service.watch(CAROL, DM, user=BOB),
        service.watch(CAROL, CHANNEL),  # the game of this channel
    ):
        assert shown.ephemeral and shown.image is not None, shown.text
        assert f"Watching game #{game_id}" in shown.text and "Alice" in shown.text
        assert labels(shown) == ["Refresh"] and shown.ping is None and shown.mentions == ()
    watched = service.watch(CAROL, DM, game_id=game_id)
    after = service.move(ALICE, CHANNEL, "13/8 13/11")
    assert not after.ephemeral
    version = row(factory, game_id).version
    refreshed = press(service, CAROL, watched, "Refresh", DM)  # an older version: still fine
    assert refreshed.edit and refreshed.position_id == after.position_id
    assert labels(refreshed) == ["Refresh"]
    assert row(factory, game_id).version == version  # watching writes nothing


def test_watch_refusals(service: Service, script: deque[int]) -> None:
    assert "Which game?" in service.watch(CAROL, CHANNEL).text
    assert "Dave has no game in progress" in service.watch(CAROL, CHANNEL, user=DAVE).text
    assert "No game #999." in service.watch(CAROL, CHANNEL, game_id=999).text
    script.extend([6, 1])
    mine = service.play(ALICE, DM, level="beginner")
    private = service.watch(CAROL, CHANNEL, game_id=mine.game_id)
    assert private.ephemeral and "direct messages" in private.text
    assert "Watching game" in service.watch(ALICE, CHANNEL, game_id=mine.game_id).text


def test_a_finished_game_is_watched_without_refresh(service: Service, script: deque[int]) -> None:
    board = accepted(service, script)
    press(service, BOB, service.resign(ALICE, THREADS, value=1), "Accept", THREADS)
    shown = service.watch(CAROL, CHANNEL, game_id=board.game_id)
    assert shown.image is not None and labels(shown) == [] and "🏁" in shown.text


def test_no_analysis_of_a_rated_game_in_progress(service: Service, script: deque[int]) -> None:
    board = accepted(service, script, CHANNEL, rated=True)
    game_id = board.game_id
    for reply in (
        service.hint(ALICE, CHANNEL),
        service.export(ALICE, CHANNEL),
        service.export(ALICE, CHANNEL, game_id=game_id),
        service.export(CAROL, CHANNEL, game_id=game_id),
        service.review(ALICE, CHANNEL, game_id=game_id),
        service.review(CAROL, CHANNEL, game_id=game_id),
    ):
        assert reply.ephemeral and not reply.attachments and reply.image is None, reply.text
    assert "rated game in progress" in service.export(ALICE, CHANNEL).text
    press(service, BOB, service.resign(ALICE, CHANNEL, value=1), "Accept")
    assert service.export(CAROL, CHANNEL, game_id=game_id).attachments  # over: open to all


# -- settings of the turn notices -------------------------------------------------------------


def test_notice_settings_are_validated(service: Service) -> None:
    saved = service.settings_command(ALICE, DM, notify=True, quiet="22-08", timezone="Europe/Paris")
    assert "Saved." in saved.text
    assert "“Your turn” messages: on · quiet hours: 22-08 · time zone: Europe/Paris" in saved.text
    for kwargs, message in (
        ({"quiet": "25-08"}, "is not quiet hours"),
        ({"quiet": "8-8"}, "is not quiet hours"),
        ({"quiet": "evenings"}, "is not quiet hours"),
        ({"timezone": "Mars/Olympus"}, "is not a time zone"),
        ({"timezone": "../etc/passwd"}, "is not a time zone"),
    ):
        refused = service.settings_command(ALICE, DM, **kwargs)  # type: ignore[arg-type]
        assert refused.ephemeral and message in refused.text, kwargs
    shown = service.settings_command(ALICE, DM)
    assert "quiet hours: 22-08 · time zone: Europe/Paris" in shown.text  # nothing changed
    off = service.settings_command(ALICE, DM, quiet="off", timezone="UTC", notify=False)
    assert "“Your turn” messages: off · quiet hours: off · time zone: UTC" in off.text
    french = service.settings_command(Actor(ALICE.id, "Alice", "fr"), DM, language="fr")
    assert "Messages « à vous de jouer » : non" in french.text


# -- turn notices ------------------------------------------------------------------------------


def three_games(service: Service, script: deque[int]) -> list[int]:
    """Alice plays Bob, Carol and Dave in three channels; each game waits for Alice (she
    opens with 5-2)."""
    ids = []
    for n, other in enumerate((BOB, CAROL, DAVE)):
        where = replace(CHANNEL, channel_id=5000 + n)
        board = accepted(service, script, where, ALICE, other)
        assert board.game_id is not None
        ids.append(board.game_id)
    return ids


def one_turn(service: Service, actor: Actor, where: Where, board: Reply) -> Reply:
    """``actor`` rolls if he must and plays the first whole play of the menu (or points)."""
    for _ in range(8):
        names = labels(board)
        if "Roll" in names:
            board = press(service, actor, board, "Roll", where)
        elif board.selects:
            value = board.selects[0].choices[0].value
            return press(service, actor, board, "", where, value=value)
        elif "Confirm" in names:
            return press(service, actor, board, "Confirm", where)
        else:
            board = press(service, actor, board, next(n for n in names if n.isdigit()), where)
        assert not board.ephemeral, board.text
    raise AssertionError("the turn did not end")


def test_one_notice_per_game_and_turn(service: Service, script: deque[int], clock: Clock) -> None:
    service.settings_command(ALICE, DM, notify=True)
    ids = three_games(service, script)  # the three wait for Alice
    notices = service.turn_notices()
    assert sorted((n.user_id, n.game_id) for n in notices) == [(ALICE.id, i) for i in ids]
    assert all("Your turn against" in n.reply.text and n.reply.image for n in notices)
    assert "https://discord.com/channels/9000/5000" in notices[0].reply.text
    assert service.turn_notices() == []  # once per turn, whatever the sweeps
    # Alice plays in the first game: Bob's turn (he asked for nothing: no notice)...
    clock.advance(minutes=5)
    service.move(ALICE, CHANNEL, "13/8 13/11")
    assert service.turn_notices() == []
    # ... then Bob plays: Alice's turn again in that game only, noticed once.
    clock.advance(minutes=5)
    one_turn(service, BOB, CHANNEL, service.board(BOB, CHANNEL))
    notices = service.turn_notices()
    assert [(n.user_id, n.game_id) for n in notices] == [(ALICE.id, ids[0])]
    assert service.still_waiting(ids[0], ALICE.id, notices[0].deadline)
    assert service.turn_notices() == []
    listing = service.games(ALICE, DM)
    assert all(f"**#{i}**" in listing.text for i in ids)


def test_turns_passed_while_notices_were_off_stay_quiet(
    service: Service, script: deque[int]
) -> None:
    board = accepted(service, script, CHANNEL)
    assert service.turn_notices() == []  # Alice asked for nothing
    service.settings_command(ALICE, DM, notify=True)
    assert service.turn_notices() == []  # that turn is done: the next ones are noticed
    assert board.game_id is not None


def test_a_notice_for_a_finished_game_is_never_sent(
    service: Service, script: deque[int], clock: Clock
) -> None:
    service.settings_command(BOB, DM, notify=True)
    board = accepted(service, script, CHANNEL)
    assert board.game_id is not None
    service.move(ALICE, CHANNEL, "13/8 13/11")
    notices = service.turn_notices()
    assert len(notices) == 1
    # Claimed, then the game ends before the adapter sends it: the adapter's check says no.
    press(service, ALICE, service.resign(BOB, CHANNEL, value=1), "Accept")
    assert not service.still_waiting(board.game_id, BOB.id, notices[0].deadline)
    assert service.turn_notices() == []


def test_quiet_hours_hold_the_notice_until_they_end(
    service: Service, script: deque[int], clock: Clock
) -> None:
    # 12:00 UTC is 13:00 in Paris: quiet from 13 to 15 there.
    service.settings_command(BOB, DM, notify=True, quiet="13-15", timezone="Europe/Paris")
    accepted(service, script, CHANNEL)
    service.move(ALICE, CHANNEL, "13/8 13/11")
    assert service.turn_notices() == []
    clock.advance(hours=1, minutes=59)  # 14:59 in Paris: still quiet
    assert service.turn_notices() == []
    clock.advance(minutes=1)  # 15:00: the quiet hours are over, the game still waits for Bob
    assert len(service.turn_notices()) == 1
    assert service.turn_notices() == []


# -- /games -----------------------------------------------------------------------------------


def test_games_lists_every_game_and_challenge_with_pages(
    service: Service, script: deque[int]
) -> None:
    assert "no game in progress" in service.games(ALICE, DM).text
    ids = three_games(service, script)
    listing = service.games(ALICE, DM)
    assert listing.ephemeral and listing.rows == []
    for game_id, name in zip(ids, ("Bob", "Carol", "Dave"), strict=True):
        assert f"**#{game_id}** against **{name}**" in listing.text
    assert listing.text.count("your turn") == 3 and "deadline 2026-12-01 12:00 UTC" in listing.text
    assert "https://discord.com/channels/9000/5002" in listing.text
    bob = service.games(BOB, DM)
    assert "Alice's turn" in bob.text and "against **Alice**" in bob.text
    # A challenge each way and two more games: two pages.
    service.challenge(ERIN, Where(channel_id=5100, guild_id=9000), ALICE)
    fay = Actor(707, "Fay", locale="en-US")  # (one pending challenge per pair: not Erin)
    clock = service.deps.clock
    assert isinstance(clock, Clock)
    clock.advance(seconds=10)  # past the pause between two challenges of one person
    service.challenge(ALICE, Where(channel_id=5101, guild_id=9000), fay, points=5)
    script.extend([6, 1])
    service.play(ALICE, DM, level="beginner")
    first = service.games(ALICE, DM)
    assert "(6) · page 1/2" in first.text and labels(first) == ["Next"]
    second = press(service, ALICE, first, "Next", DM)
    assert second.edit and "page 2/2" in second.text and labels(second) == ["Previous"]
    assert "Challenge" in second.text and "5-point match" in second.text
    back = press(service, ALICE, second, "Previous", DM)
    assert "page 1/2" in back.text
    french = service.games(Actor(ALICE.id, "Alice", "fr-FR"), DM)
    assert "Vos parties et défis" in french.text and "à vous de jouer" in french.text

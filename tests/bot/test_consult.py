"""The server against the computer (``/consult``, issue 32 item 2) through the service: a whole
game played by votes, the tie and no-vote rules, voting twice, a closed vote, a typed play, a
cube vote, French, refusals that change nothing, a restart in the middle and two sweeps racing
on one database."""

from __future__ import annotations

import threading
from collections import deque
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

import bot.service.consult as consult_module
from bot.service import Actor, Reply, Service, Where
from db.models import Consultation, ConsultVote, Game, GameStatus
from engine.game import Game as EngineGame
from tests.bot.conftest import Clock, ScriptedDice

HERE = Where(channel_id=8100, guild_id=9400, guild_locale="en-US")
ICI = Where(channel_id=8200, guild_id=9500, guild_locale="fr")
ANN = Actor(301, "Ann", locale="en-US")
BOB = Actor(302, "Bob", locale="en-US")
CYD = Actor(303, "Cyd", locale="en-US")
ZOE = Actor(304, "Zoé", locale="fr")


def row(factory: sessionmaker[Session], channel: int = 8100) -> Consultation:
    with factory() as s:
        found = s.scalars(select(Consultation).where(Consultation.channel_id == channel)).first()
        assert found is not None
        s.expunge(found)
        return found


def votes(factory: sessionmaker[Session]) -> list[tuple[int, int, int]]:
    with factory() as s:
        rows = s.scalars(select(ConsultVote).order_by(ConsultVote.id))
        return [(v.decision, v.player_id, v.choice) for v in rows]


def start(service: Service, where: Where = HERE, actor: Actor = ANN, **options: object) -> Reply:
    reply = service.consult(actor, where, level="expert", minutes=2, **options)
    assert not reply.ephemeral, reply.text
    assert reply.poll is not None
    return reply


def close(service: Service, clock: Clock) -> Reply:
    clock.advance(minutes=2)
    (notice,) = service.consult_sweep()
    return notice.reply


def check_poll(reply: Reply) -> None:
    poll = reply.poll
    assert poll is not None
    assert 2 <= len(poll.answers) <= 10
    assert all(1 <= len(a) <= 55 for a in poll.answers)
    assert len(poll.question) <= 300 and len(reply.text) <= 2000
    assert reply.rows == [] and reply.ping is None  # nobody presses the team's buttons


def test_a_vote_opens_with_the_computers_plays_and_the_most_voted_is_played(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    script.extend([5, 2])  # the team wins the opening roll: 5-2, a play to vote on
    reply = start(service)
    check_poll(reply)
    poll = reply.poll
    assert poll is not None
    cons = row(factory)
    assert cons.kind == "play" and cons.decision == 1
    assert poll.answers[-1].startswith("Another play")
    assert "Vote 1" in reply.text and "1. " + poll.answers[0] in reply.text
    second = poll.answers[1]
    assert "Your vote" in service.vote(BOB, HERE, choice=2).text
    assert service.vote(CYD, HERE, choice=2).ephemeral  # a vote is seen by the voter only
    assert service.vote(ANN, HERE, choice=1).ephemeral
    clock.advance(minutes=1)
    assert service.consult_sweep() == []  # not yet
    done = close(service, clock)
    assert f"Vote 1: **{second}** with 2 of 3 votes" in done.text
    assert f"played **{second}**" in done.text
    assert done.ends_poll is None  # never posted as a Discord poll here
    assert service.consult_sweep() == []  # closed once


def test_a_tie_goes_to_the_computers_preference_and_no_vote_to_its_choice(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    script.extend([5, 2])
    reply = start(service)
    assert reply.poll is not None
    answers = reply.poll.answers
    service.vote(BOB, HERE, choice=3)
    service.vote(CYD, HERE, choice=2)
    done = close(service, clock)
    assert f"**{answers[1]}** with 1 of 2 votes" in done.text  # 2 ranks above 3
    # The next vote of the team: nobody votes, the computer's choice (the first) is played.
    while row(factory).status == "open":
        before = row(factory)
        done = close(service, clock)
        if before.kind == "play":
            assert "nobody voted" in done.text
            assert f"**{(before.choices or [])[before.best]}**" in done.text
            break


def test_voting_twice_replaces_the_first_vote_and_says_so(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    script.extend([5, 2])
    reply = start(service)
    assert reply.poll is not None
    first = service.vote(BOB, HERE, choice=1)
    assert first.ephemeral and "Your vote on vote 1" in first.text
    again = service.vote(BOB, HERE, choice=1)
    assert "already voted" in again.text
    changed = service.vote(BOB, HERE, choice=2)
    assert "changed from" in changed.text and reply.poll.answers[1] in changed.text
    assert votes(factory) == [(1, BOB.id, 1)]  # one vote each: the last counts


def test_bad_votes_are_refused_and_change_nothing(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    assert "No consultation game" in service.vote(BOB, HERE, choice=1).text
    script.extend([5, 2])
    reply = start(service)
    assert reply.poll is not None
    count = len(reply.poll.answers)
    assert "from 1 to" in service.vote(BOB, HERE, choice=count + 1).text
    assert "type it with" in service.vote(BOB, HERE, choice=count).text  # "another play"
    assert "already going on" in service.consult(CYD, HERE).text
    refused = service.move(BOB, HERE, "24/1")
    assert refused.ephemeral
    # The member who started it cannot play alone, nor close it; others cannot close it.
    assert "close a vote early" in service.vote(BOB, HERE, close=True).text
    assert "played by the channel's votes" in service.undo(ANN, HERE).text
    assert "played by the channel's votes" in service.resign(ANN, HERE, 1).text
    assert "No hint in a consultation game" in service.hint(ANN, HERE).text
    assert votes(factory) == []
    assert row(factory).decision == 1
    # A vote arriving once the time is up is refused: the closed vote counts nothing new.
    clock.advance(minutes=3)
    late = service.vote(BOB, HERE, choice=1)
    assert late.ephemeral and "That vote is closed" in late.text
    assert votes(factory) == []


def test_a_typed_play_is_a_vote_for_it(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    script.extend([5, 2])
    reply = start(service)
    assert reply.poll is not None
    cons = row(factory)
    typed = service.move(BOB, HERE, (cons.choices or [])[2])
    assert "Your vote on vote 1" in typed.text
    assert votes(factory) == [(1, BOB.id, 2)]


def test_a_cube_vote_of_its_own(
    service: Service,
    factory: sessionmaker[Session],
    clock: Clock,
    script: deque[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(consult_module, "CUBE_VOTE_MARGIN", 99.0)  # every roll: a cube vote
    script.extend([2, 5, 6, 1])  # the computer wins the opening roll; then the team's turn
    reply = start(service)
    cons = row(factory)
    assert cons.kind == "double", reply.text
    assert reply.poll is not None
    assert reply.poll.answers == ("Double", "No double: roll")
    assert "Double, or roll?" in reply.text
    assert "another play" not in reply.text.lower()
    assert "cube decision" in service.move(BOB, HERE, "13/7").text
    service.vote(BOB, HERE, choice=2)
    done = close(service, clock)
    assert "**No double: roll**" in done.text and "The team rolls 6-1" in done.text
    assert row(factory).kind == "play"


def test_the_end_lists_the_voters(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    script.extend([5, 2])
    start(service, points=1)
    decisions = 0
    reply: Reply | None = None
    while row(factory).status == "open":
        cons = row(factory)
        service.vote(BOB, HERE, choice=cons.best + 1)  # always the computer's choice
        if cons.decision % 2:
            service.vote(CYD, HERE, choice=len(cons.choices or [])) if cons.kind != "play" else (
                service.vote(CYD, HERE, choice=min(2, cons.shown))
            )
        reply = close(service, clock)
        decisions += 1
        assert decisions < 400
    assert reply is not None and reply.poll is None
    assert "The voters" in reply.text
    bob_line = next(line for line in reply.text.splitlines() if "Bob" in line)
    assert f"Bob: {decisions} votes, {decisions} the computer's choice (100 %)" in bob_line
    assert "Cyd" in reply.text
    with factory() as s:
        game = s.get(Game, row(factory).game_id)
        assert game is not None and game.status is GameStatus.FINISHED and game.practice
    assert "No consultation game" in service.vote(BOB, HERE, choice=1).text


def test_french(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    script.extend([5, 2])
    reply = service.consult(ZOE, ICI, level="expert", minutes=2)
    assert "lance une partie en consultation" in reply.text and "Quel coup ?" in reply.text
    assert reply.poll is not None and reply.poll.answers[-1].startswith("Un autre coup")
    assert "Votre vote au vote 1" in service.vote(ZOE, ICI, choice=1).text
    assert "de 1 à" in service.vote(ZOE, ICI, choice=11).text
    assert "Seul le membre" in service.vote(Actor(305, "Léa", locale="fr"), ICI, close=True).text
    assert "se joue aux votes" in service.undo(ZOE, ICI).text
    closed = service.vote(ZOE, ICI, close=True)  # who started it closes the vote early
    assert "Vote 1 : **" in closed.text and "1 voix sur 1" in closed.text
    assert row(factory, 8200).decision == 2


def test_a_restart_in_the_middle_recreates_the_vote(
    factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    def fresh() -> Service:
        return Service(
            factory,
            clock=clock,
            new_dice=lambda: ScriptedDice(script, bytes(range(32))),
            dice_for=lambda seed, counter: ScriptedDice(script, seed, counter),
        )

    first = fresh()
    script.extend([5, 2])
    reply = start(first)
    assert reply.poll is not None
    assert first.consult_posted(reply.poll.consultation_id, 1, 1456074443980800041)
    first.vote(BOB, HERE, choice=2)
    restarted = fresh()  # the bot restarts: its poll message is gone
    (open_poll,) = restarted.consult_polls()
    assert open_poll.message_id == 1456074443980800041 and open_poll.decision == 1
    again = restarted.consult_repost(open_poll.consultation_id)
    assert again is not None and again.reply.poll is not None
    assert "again" in again.reply.text
    assert again.reply.poll.answers == reply.poll.answers
    assert restarted.consult_posted(open_poll.consultation_id, 1, 556)
    restarted.consult_poll_vote(CYD, 1456074443980800041, 2)  # the lost poll counts nothing
    restarted.consult_poll_vote(CYD, 556, 2)
    assert votes(factory) == [(1, BOB.id, 1), (1, CYD.id, 1)]
    done = close(restarted, clock)
    assert "with 2 of 2 votes" in done.text and done.ends_poll == 556
    # A poll posted for a vote closed since is not taken (the adapter ends it).
    assert not restarted.consult_posted(open_poll.consultation_id, 1, 557)


def test_two_sweeps_at_once_close_a_vote_once(
    tmp_path: Path, clock: Clock, script: deque[int]
) -> None:
    from db.connection import make_engine, make_session_factory
    from db.migrate import upgrade

    engine = make_engine(f"sqlite:///{tmp_path / 'race.sqlite3'}")
    upgrade(engine)
    factory = make_session_factory(engine)
    services = [
        Service(
            factory,
            clock=clock,
            new_dice=lambda: ScriptedDice(script, bytes(range(32))),
            dice_for=lambda seed, counter: ScriptedDice(script, seed, counter),
        )
        for _ in range(2)
    ]
    script.extend([5, 2])
    start(services[0])
    services[0].vote(BOB, HERE, choice=1)
    clock.advance(minutes=2)
    results: list[int] = []
    barrier = threading.Barrier(3)

    def sweep(service: Service) -> None:
        barrier.wait()
        results.append(len(service.consult_sweep()))

    def vote() -> None:
        barrier.wait()
        services[1].vote(CYD, HERE, choice=2)

    threads = [threading.Thread(target=sweep, args=(s,)) for s in services]
    threads.append(threading.Thread(target=vote))
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(results) == [0, 1]
    assert row(factory).decision >= 2 or row(factory).status == "finished"
    assert [v for v in votes(factory) if v[0] == 1] == [(1, BOB.id, 0)]  # the late vote: refused
    engine.dispose()


def test_a_double_of_the_computer_is_a_take_or_pass_vote(
    service: Service,
    factory: sessionmaker[Session],
    clock: Clock,
    script: deque[int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import bot.service.computer as computer
    from engine.bots import ComputerPlayer, get_bot

    class Doubler:
        """The expert, doubling whenever it may."""

        def __init__(self, inner: ComputerPlayer) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

        def should_double(self, position: object, ctx: object) -> bool:
            return True

    monkeypatch.setattr(computer, "computer_for", lambda level: Doubler(get_bot(level, rng=1)))
    monkeypatch.setattr(consult_module, "CUBE_VOTE_MARGIN", -1.0)  # the team never doubles
    script.extend([5, 2])  # the team opens: a play vote
    start(service)
    close(service, clock)  # the team plays; the computer doubles at once
    cons = row(factory)
    assert cons.kind == "take", cons.kind
    # Refusals name this vote's answers by number, and /move has no place in a cube vote.
    numbers = "`/vote choice:1` for **Take** or `/vote choice:2` for **Pass**"
    assert numbers in service.resign(ANN, HERE, 1).text
    assert numbers in service.move(BOB, HERE, "13/7").text
    assert "/move" not in service.resign(ANN, HERE, 1).text
    french = service.resign(Actor(ANN.id, "Ann", locale="fr"), HERE, 1).text
    assert "`/voter choix:1`" in french and "`/voter choix:2`" in french
    service.vote(BOB, HERE, choice=1)
    service.vote(CYD, HERE, choice=2)
    service.vote(ANN, HERE, choice=2)
    done = close(service, clock)
    assert "**Pass** with 2 of 3 votes" in done.text and "The team drops." in done.text
    assert "The voters" in done.text  # a money game: passing ends it


def test_the_last_choice_stays_another_play_once_someone_typed_one(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    """Choice 10 ("another play") never counts as a vote for someone else's typed play."""
    script.extend([6, 4])  # 6-4: more plays than the list's nine
    reply = start(service)
    assert reply.poll is not None
    count = len(reply.poll.answers)
    assert count == consult_module.MAX_PLAYS + 1
    listed = row(factory).choices or []
    opening = EngineGame()
    opening.opening_roll(6, 4)
    typed = next(str(p) for p in opening.legal_plays() if str(p) not in listed)
    assert "Your vote on vote 1" in service.move(BOB, HERE, typed).text
    refused = service.vote(CYD, HERE, choice=count)
    assert refused.ephemeral and "type it with" in refused.text
    assert "from 1 to" in service.vote(CYD, HERE, choice=count + 1).text
    assert [v[1] for v in votes(factory)] == [BOB.id]


@pytest.mark.parametrize("minutes", [0, -5, 1441])
def test_a_vote_time_out_of_range_starts_nothing(
    service: Service, factory: sessionmaker[Session], minutes: int
) -> None:
    refused = service.consult(ANN, HERE, level="expert", minutes=minutes)
    assert refused.ephemeral and "from 1 to 1440 minutes" in refused.text
    with factory() as s:
        assert s.scalars(select(Consultation)).first() is None
        assert s.scalars(select(Game)).first() is None
    french = service.consult(ZOE, ICI, level="expert", minutes=minutes)
    assert "de 1 à 1440 minutes" in french.text


def test_closing_a_closed_vote_says_so(
    service: Service, factory: sessionmaker[Session], clock: Clock, script: deque[int]
) -> None:
    script.extend([5, 2])
    start(service)
    clock.advance(minutes=3)
    late = service.vote(ANN, HERE, close=True)
    assert late.ephemeral and "already closed" in late.text and "not counted" not in late.text


def test_the_board_during_a_vote_shows_the_vote_not_a_move_prompt(
    service: Service, factory: sessionmaker[Session], script: deque[int]
) -> None:
    script.extend([5, 2])
    start(service)
    board = service.board(ANN, HERE)  # the member holding the team seat
    assert "Vote 1" in board.text and "pick a highlighted point" not in board.text
    assert board.rows == [] and board.poll is None  # no buttons to refuse, no second poll
    assert votes(factory) == []


def test_the_boards_of_a_consultation_name_the_team(
    service: Service, clock: Clock, script: deque[int]
) -> None:
    script.extend([5, 2])
    start(service)
    played = close(service, clock)
    assert "**The team** ⚪" in played.text and "**Ann**" not in played.text

"""Drills of one's own blunders (issue 32, item 3): a player's puzzles come back on an FSRS
schedule, a few a day; an answer changes the schedule once, whatever clicks twice or races
(SQLite here, PostgreSQL with TEST_POSTGRES_URL); a streak; the daily direct message at the
player's hour in his time zone, held through his quiet hours, once a day across restarts; the
week's summary picture; both languages."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Reply, Service
from bot.service.commands import by_name
from bot.service.customid import PuzzleAction
from bot.service.drills import PER_DAY
from db.models import DrillAnswer, DrillCard, Puzzle
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, Clock, within_discord_limits
from tests.pg import postgres_schema, two_processes

CLAIRE = Actor(505, "Claire", locale="fr")


def give_blunders(factory: sessionmaker[Session], actor: Actor, count: int) -> list[int]:
    """Make ``count`` starter puzzles (checker plays) ``actor``'s own blunders, as a review of
    his games would have."""
    with factory.begin() as s:
        ids = list(
            s.scalars(
                select(Puzzle.id)
                .where(Puzzle.source_player_id.is_(None), Puzzle.kind == "checker")
                .order_by(Puzzle.id)
                .limit(count)
            )
        )
        s.execute(update(Puzzle).where(Puzzle.id.in_(ids)).values(source_player_id=actor.id))
    return ids


def answer(service: Service, actor: Actor, question: Reply, *, right: bool) -> Reply:
    """Answer a drill's question with the best play, or with another one."""
    select_ = question.selects[0]
    action = PuzzleAction.parse(select_.custom_id)
    assert action is not None and action.drill
    with service.factory() as s:
        card = s.get(DrillCard, action.id)
        assert card is not None
        puzzle = s.get(Puzzle, card.puzzle_id)
        assert puzzle is not None
        choices = [str(c["answer"]) for c in puzzle.choices["choices"]]
    value = choices[0] if right else choices[-1]
    return within_discord_limits(service.press(actor, DM, select_.custom_id, value))


def drill(service: Service, actor: Actor, **options: object) -> Reply:
    command = by_name("drill")
    assert command is not None
    return within_discord_limits(service.run(command, actor, CHANNEL, **options))


def test_no_blunders_no_drill_with_a_clear_message(service: Service) -> None:
    reply = drill(service, ALICE)
    assert reply.ephemeral and "no drill yet" in reply.text
    french = drill(service, CLAIRE)
    assert "pas encore d’exercice" in french.text


def test_a_day_of_drills_then_the_schedule(
    service: Service, factory: sessionmaker[Session], clock: Clock
) -> None:
    give_blunders(factory, ALICE, PER_DAY + 2)
    question = drill(service, ALICE)
    assert question.ephemeral and "one of your own blunders" in question.text
    assert f"{PER_DAY} left today" in question.text and question.image
    first = answer(service, ALICE, question, right=True)
    assert "streak **1** day" in first.text and f"{PER_DAY - 1} left today" in first.text
    assert "2026-12-02" in first.text  # FSRS: a new card answered Good comes back in 2 days
    (next_button,) = first.buttons  # the next drill of the day, without typing /drill
    assert next_button.label == "Next drill"
    question = within_discord_limits(service.press(ALICE, DM, next_button.custom_id))
    assert f"{PER_DAY - 1} left today" in question.text and question.selects
    for _ in range(PER_DAY - 1):
        last = answer(service, ALICE, question, right=False)
        question = drill(service, ALICE)
    assert not last.buttons  # no Next after the day's last
    done = question
    assert done.ephemeral and "Today's drills are done (5 answered)" in done.text
    with factory() as s:
        dues = sorted(c.due for c in s.scalars(select(DrillCard)))
    # The two never asked are due now; the wrong ones tomorrow, the right one in two days.
    assert len(dues) == PER_DAY + 2 and dues[-1] - dues[-2] == timedelta(days=1)
    clock.advance(days=1)
    # Due today: the 2 never asked and the 4 missed, 5 of them at most.
    assert f"{PER_DAY} left today" in drill(service, ALICE).text


def test_an_answer_changes_the_schedule_once(
    service: Service, factory: sessionmaker[Session]
) -> None:
    give_blunders(factory, ALICE, 2)
    question = drill(service, ALICE)
    answer(service, ALICE, question, right=True)
    with factory() as s:
        before = [(c.id, c.due, c.state) for c in s.scalars(select(DrillCard))]
    again = answer(service, ALICE, question, right=False)  # a double click, an old message
    assert again.ephemeral and "answered this drill already" in again.text
    assert "Nothing was changed" in again.text
    theirs = answer(service, BOB, question, right=True)
    assert theirs.ephemeral and "someone else's" in theirs.text
    with factory() as s:
        after = [(c.id, c.due, c.state) for c in s.scalars(select(DrillCard))]
        assert len(s.scalars(select(DrillAnswer)).all()) == 1
    assert after == before
    bad = service.press(ALICE, DM, question.selects[0].custom_id, "24/1 24/1")
    assert bad.ephemeral
    unknown = service.press(ALICE, DM, "pz:1:n")  # only a drill has a Next button
    assert unknown.ephemeral and "pz:1:n" not in unknown.text
    french = service.press(CLAIRE, DM, question.selects[0].custom_id, "x")
    assert "quelqu’un d’autre" in french.text


def test_a_week_of_drills_keeps_the_streak(
    service: Service, factory: sessionmaker[Session], clock: Clock
) -> None:
    give_blunders(factory, ALICE, 30)
    for day in range(7):
        reply = answer(service, ALICE, drill(service, ALICE), right=day % 2 == 0)
        assert f"streak **{day + 1}**" in reply.text
        clock.advance(days=1)
    clock.advance(days=1)  # a day missed: the streak is broken, the best one stays
    reply = answer(service, ALICE, drill(service, ALICE), right=True)
    assert "streak **1** day (best 7)" in reply.text
    week = drill(service, ALICE, week=True)
    assert week.image and "Your week of drills" in week.text
    assert week.ephemeral  # his own results, as /drill's: never posted for the channel
    # The last seven days: answers on six of them, four right.
    assert "67 % right (4 of 6)" in week.text and "streak 1 (best 7)" in week.text


def test_the_daily_message_at_his_hour_once_and_held_through_quiet_hours(
    factory: sessionmaker[Session], clock: Clock
) -> None:
    service = Service(factory, clock=clock)
    service.settings_command(ALICE, CHANNEL, drills="7", timezone="Europe/Paris", quiet="22-08")
    clock.now = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)
    assert service.drill_notices() == []  # no blunder of his yet: nothing to send...
    clock.now = datetime(2026, 11, 30, 5, 59, tzinfo=UTC)  # 06:59 in Paris, the day before
    give_blunders(factory, ALICE, 3)
    assert service.drill_notices() == []
    clock.now = datetime(2026, 12, 1, 6, 30, tzinfo=UTC)  # 07:30: in his quiet hours
    assert service.drill_notices() == []
    clock.now = datetime(2026, 12, 1, 7, 0, tzinfo=UTC)  # 08:00: they end
    sent = service.drill_notices()  # ...and once he has some, that same day's comes
    assert [n.user_id for n in sent] == [ALICE.id]
    (question,) = sent[0].replies
    assert "Your drill of the day" in question.text and question.selects and question.image
    assert not question.ephemeral
    assert service.drill_notices() == []
    restarted = Service(factory, clock=clock)
    assert restarted.drill_notices() == []  # a restart: sent already
    answered = answer(restarted, ALICE, question, right=True)  # the DM, after the restart
    assert "streak **1**" in answered.text
    service.settings_command(ALICE, CHANNEL, drills="off")
    clock.advance(days=1)
    assert service.drill_notices() == []


def test_monday_brings_the_week_as_a_picture_in_french(
    factory: sessionmaker[Session], clock: Clock
) -> None:
    service = Service(factory, clock=clock)
    give_blunders(factory, CLAIRE, 10)
    service.settings_command(CLAIRE, CHANNEL, drills="9", language="fr")
    clock.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)  # a Tuesday
    for _ in range(6):
        (question,) = service.drill_notices()[0].replies
        assert "Votre exercice du jour" in question.text
        answer(service, CLAIRE, question, right=True)
        clock.advance(days=1)
    assert clock.now.weekday() == 0
    summary, *_ = service.drill_notices()[0].replies
    assert "Votre semaine d’exercices" in summary.text and "6 sur 6" in summary.text
    assert summary.image is not None
    picture = Image.open(io.BytesIO(summary.image))
    assert picture.width <= 800 and picture.height > picture.width  # tall: read on a phone


def test_settings_drills_refuses_a_bad_hour_and_changes_nothing(service: Service) -> None:
    refused = service.settings_command(ALICE, CHANNEL, drills="25")
    assert refused.ephemeral and "is not an hour" in refused.text
    assert (
        "Daily drill message of your blunders: off" in service.settings_command(ALICE, CHANNEL).text
    )
    saved = service.settings_command(ALICE, CHANNEL, drills="9h")
    assert "Daily drill message of your blunders: 09:00" in saved.text
    assert "n’est pas une heure" in service.settings_command(CLAIRE, CHANNEL, drills="midi").text


# -- two processes answering at once ---------------------------------------------------------------


Pair = tuple[sessionmaker[Session], sessionmaker[Session]]


@pytest.fixture(params=["sqlite", "postgresql"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Pair]:
    """Two processes' session factories (two engines) on one database."""
    if request.param == "sqlite":
        with two_processes(f"sqlite:///{tmp_path / 'race.sqlite3'}") as factories:
            yield factories
        return
    with postgres_schema("drills") as url, two_processes(url) as factories:
        yield factories


def test_two_processes_answering_together_change_the_schedule_once(
    shared: Pair, clock: Clock
) -> None:
    give_blunders(shared[0], ALICE, 1)
    one, two = Service(shared[0], clock=clock), Service(shared[1], clock=clock)
    question = drill(one, ALICE)
    start = threading.Barrier(2)
    replies: list[Reply] = []

    def press(service: Service) -> None:
        start.wait()
        replies.append(answer(service, ALICE, question, right=True))

    threads = [threading.Thread(target=press, args=(s,)) for s in (one, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    refused = [r for r in replies if "answered this drill already" in r.text]
    assert len(replies) == 2 and len(refused) == 1
    with shared[0]() as s:
        assert len(s.scalars(select(DrillAnswer)).all()) == 1
        card = s.scalars(select(DrillCard)).one()
        assert card.reviews == 1
    # Both processes sweeping the daily message: sent once.
    one.settings_command(ALICE, CHANNEL, drills="0")
    clock.advance(days=2)
    sent: list[object] = []
    barrier = threading.Barrier(2)

    def sweep(service: Service) -> None:
        barrier.wait()
        sent.extend(service.drill_notices())

    threads = [threading.Thread(target=sweep, args=(s,)) for s in (one, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(sent) == 1


def test_blunders_of_a_reviewed_game_become_drills_with_the_pr_in_the_week(
    service: Service, factory: sessionmaker[Session]
) -> None:
    """The whole way: a game played and reviewed, its blunders of Alice's made puzzles, those
    her drills; the week's summary carries her PR."""
    from tests.bot.conftest import play_out

    for _ in range(2):
        play_out(service, ALICE, CHANNEL, service.play(ALICE, CHANNEL, level="expert"))
        assert not service.review(ALICE, CHANNEL).ephemeral
    with factory() as s:
        mine = set(s.scalars(select(Puzzle.id).where(Puzzle.source_player_id == ALICE.id)))
    question = drill(service, ALICE)
    if not mine:  # a game without a clear blunder of hers: nothing to drill
        assert "no drill yet" in question.text
        return
    with factory() as s:
        cards = s.scalars(select(DrillCard).where(DrillCard.player_id == ALICE.id)).all()
        assert {c.puzzle_id for c in cards} == mine
    answer(service, ALICE, question, right=True)
    week = drill(service, ALICE, week=True)
    assert week.image and "PR " in week.text and "PR –" not in week.text


def test_the_counts_after_each_answer_match_the_drills_left(
    service: Service, factory: sessionmaker[Session]
) -> None:
    """Two drills due: "2 left", then "1 left" with a Next button, then none left, no button."""
    give_blunders(factory, ALICE, 2)
    question = drill(service, ALICE)
    assert "(2 left today" in question.text
    first = answer(service, ALICE, question, right=True)
    assert "1 left today" in first.text and "no drill left" not in first.text
    (next_button,) = first.buttons
    question = within_discord_limits(service.press(ALICE, DM, next_button.custom_id))
    assert "(1 left today" in question.text
    last = answer(service, ALICE, question, right=True)
    assert "no drill left today" in last.text and "0 left" not in last.text
    assert not last.buttons


def test_move_without_a_game_answers_the_drill_asked(
    service: Service, factory: sessionmaker[Session]
) -> None:
    """``/move`` when the player has no game here answers his drill, even once other messages
    came after its question."""
    assert "no game" in service.move(ALICE, CHANNEL, "8/5 6/5").text  # no drill: no game
    give_blunders(factory, ALICE, 1)
    question = drill(service, ALICE)
    action = PuzzleAction.parse(question.selects[0].custom_id)
    assert action is not None
    with factory() as s:
        card = s.get(DrillCard, action.id)
        assert card is not None
        puzzle = s.get(Puzzle, card.puzzle_id)
        assert puzzle is not None
        best = str(puzzle.choices["choices"][0]["answer"])
    answered = service.move(ALICE, CHANNEL, best)
    assert "is the best answer" in answered.text and "no drill left today" in answered.text
    with factory() as s:
        assert s.scalars(select(DrillAnswer)).first() is not None
    assert "no game" in service.move(ALICE, CHANNEL, best).text  # answered: no drill left

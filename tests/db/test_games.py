"""Games: one unit of work per action, the move log, results, and the timer sweep."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.orm.exc import StaleDataError

from db import games
from db.errors import GameMovedOn, GameNotFound
from db.gamestate import END_KIND, load_match, match_events, save_match
from db.models import ComputerRecord, Game, GameEvent, GameStatus, ResultKind
from engine import Match
from tests.db.conftest import NOW, later
from tests.db.helpers import ALICE, BOB, CAROL, DAVE, add_players, new_game

Factory = sessionmaker[Session]


def test_a_new_game_stores_the_engine_state_and_its_opening(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        row = new_game(s, guild_id=77, channel_id=88)
        game_id = row.id
    with factory() as s:
        row = games.get_game(s, game_id)
        assert (row.status, row.version, row.turn, row.event_count) == (GameStatus.ACTIVE, 1, 0, 1)
        m = load_match(row)
        assert m.game.position_id() == row.position_id == "4HPwATDgc/ABMA"
        assert m.game.match_id() == row.match_id
        (opening,) = games.game_events(s, game_id)
        assert (opening.seq, opening.kind, opening.die1, opening.die2) == (0, "opening", 3, 1)
        assert opening.actor_id == ALICE  # player 0 won the opening roll


def test_each_action_appends_its_events_with_the_ids_after_it(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    steps = [
        lambda m: m.game.play_text("8/5 6/5"),
        lambda m: m.game.roll((6, 4)),
        lambda m: m.game.play_text("24/14"),
        lambda m: m.game.double(),
        lambda m: m.game.take(),
    ]
    for step in steps:
        with factory.begin() as s:
            row = games.get_game(s, game_id)
            m = load_match(row)
            step(m)
            save_match(s, row, m, now=NOW)
            expected_ids = (m.game.position_id(), m.game.match_id())
        with factory() as s:
            last = games.game_events(s, game_id)[-1]
            assert (last.position_id, last.match_id) == expected_ids
    with factory() as s:
        log = games.game_events(s, game_id)
        row = games.get_game(s, game_id)
    assert [e.kind for e in log] == ["opening", "move", "roll", "move", "double", "take"]
    assert [e.seq for e in log] == list(range(6))
    assert log[1].play == "8/5 6/5" and log[3].play == "24/14"
    assert (log[2].die1, log[2].die2, log[2].actor_id) == (6, 4, BOB)
    assert (log[4].cube_value, log[4].actor_id, log[5].actor_id) == (2, ALICE, BOB)
    assert row.version == 1 + len(steps) and row.event_count == 6
    assert load_match(row).game.cube_value == 2


def test_the_move_log_is_the_engine_record(factory: Factory) -> None:
    """Replaying the stored log into a fresh Match gives the stored state back."""
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s, length=3).id
    with factory.begin() as s:
        row = games.get_game(s, game_id)
        m = load_match(row)
        m.game.play_text("8/5 6/5")
        m.game.resign(1, 2)
        m.game.accept_resignation()  # player 1 gives a gammon: 2-0, the Crawford game follows
        m.next_game().opening_roll(5, 2)
        save_match(s, row, m, now=NOW)
    with factory() as s:
        log = games.game_events(s, game_id)
        row = games.get_game(s, game_id)
    assert [(e.game_no, e.kind) for e in log] == [
        (1, "opening"),
        (1, "move"),
        (1, "resign"),
        (1, "accept"),
        (1, END_KIND),
        (2, "opening"),
    ]
    end = log[4]
    assert (end.player, end.points, end.cube_value) == (0, 2, 1)
    assert [(e.kind, e.game_no) for e in match_events(load_match(row))] == [
        (e.kind, e.game_no) for e in log
    ]
    assert row.status is GameStatus.ACTIVE and load_match(row).score == (2, 0)


def test_a_stale_version_is_refused_and_writes_nothing(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    with pytest.raises(GameMovedOn), factory.begin() as s:
        games.get_game(s, game_id, expected_version=0)
    with factory.begin() as s:
        row = games.get_game(s, game_id, expected_version=1)
        m = load_match(row)
        m.game.play_text("8/5 6/5")
        save_match(s, row, m)
    with pytest.raises(GameMovedOn), factory.begin() as s:
        games.get_game(s, game_id, expected_version=1)  # the button drawn before that move


def test_a_racing_save_raises_game_moved_on_and_rolls_back_everything(factory: Factory) -> None:
    """Two sessions load version 1; the second save must fail, with none of its rows kept."""
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    with factory() as first, factory() as second:
        row1 = games.get_game(first, game_id)
        row2 = games.get_game(second, game_id)
        m1, m2 = load_match(row1), load_match(row2)
        m1.game.play_text("8/5 6/5")
        m2.game.play_text("24/23 13/10")
        save_match(first, row1, m1)
        first.commit()
        with pytest.raises(GameMovedOn):
            save_match(second, row2, m2)
        second.rollback()
    with factory() as s:
        log = games.game_events(s, game_id)
        assert [e.play for e in log if e.kind == "move"] == ["8/5 6/5"]
        assert games.get_game(s, game_id).version == 2


def test_an_unknown_game_is_reported(factory: Factory) -> None:
    with factory() as s, pytest.raises(GameNotFound):
        games.get_game(s, 123456)


def test_a_bear_off_finishes_the_game_and_records_the_result(factory: Factory) -> None:
    # Player 0 (on roll) has one checker left on his 1-point; player 1 has all 15 at home.
    from engine import Game as EngineGame
    from engine import Position

    pos = Position.from_sides([1] + [0] * 24, [0] * 5 + [15] + [0] * 19)
    m = Match()
    m.games[0] = EngineGame(position=pos)
    m.game.opening_roll(2, 1)
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s, ALICE, None, match=m, computer_level="expert", deadline=later(60)).id
        assert load_match(s.get(Game, game_id)).game.legal_plays()
    with factory.begin() as s:
        row = games.get_game(s, game_id)
        m = load_match(row)
        m.game.play(m.game.legal_plays()[0])
        result = save_match(s, row, m, now=later(5))
        assert result is not None and result.ratings is None
    with factory() as s:
        row = games.get_game(s, game_id)
        assert (row.status, row.winner, row.points, row.result_kind) == (
            GameStatus.FINISHED,
            0,
            2,
            ResultKind.GAMMON,
        )
        assert row.finished_at == later(5) and row.deadline is None and row.turn is None
        record = s.get(ComputerRecord, (ALICE, "expert"))
        assert record is not None
        assert (record.wins, record.losses, record.points_won, record.points_lost) == (1, 0, 2, 0)
        assert games.game_events(s, game_id)[-1].kind == END_KIND


def test_a_match_against_the_computer_counts_the_points_of_all_its_games(
    factory: Factory,
) -> None:
    # A 3-point match won 7-0 (1 point, then a backgammon for 6) counted only the 6.
    from engine import Game as EngineGame
    from engine import Position

    m = Match(length=3)
    m.game.opening_roll(2, 1)
    m.game.resign(1)
    m.game.accept_resignation()  # player 0 wins the first game: 1 point
    m.next_game()
    pos = Position.from_sides([1] + [0] * 24, [0] * 5 + [15] + [0] * 19)
    m.games[-1] = EngineGame(position=pos, match_length=3, score=(1, 0))
    m.game.opening_roll(2, 1)
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s, ALICE, None, match=m, computer_level="expert").id
    with factory.begin() as s:
        row = games.get_game(s, game_id)
        m = load_match(row)
        m.game.play(m.game.legal_plays()[0])  # a gammon: 2 more points
        save_match(s, row, m, now=later(5))
    with factory() as s:
        record = s.get(ComputerRecord, (ALICE, "expert"))
        assert record is not None
        assert (record.wins, record.points_won, record.points_lost) == (1, 3, 0)


def test_a_forfeit_is_an_abandoned_game_won_by_the_waiting_player(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s, rated=True).id
    with factory.begin() as s:
        row = games.get_game(s, game_id)
        m = load_match(row)
        m.game.forfeit(0)  # player 0 let his clock run out
        result = save_match(s, row, m)
        assert result is not None and result.ratings is not None
    with factory() as s:
        row = games.get_game(s, game_id)
        assert (row.status, row.winner, row.result_kind) == (
            GameStatus.ABANDONED,
            1,
            ResultKind.TIMEOUT,
        )


def test_computer_losses_count_per_level(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        for level in ("beginner", "expert", "expert"):
            row = new_game(s, None, ALICE, computer_level=level)  # the computer in seat 0
            games.finish_game(s, row, winner=0, points=2, kind=ResultKind.DROP)
    with factory() as s:
        records = {
            r.level: (r.wins, r.losses, r.points_won, r.points_lost)
            for r in s.scalars(select(ComputerRecord))
        }
    assert records == {"beginner": (0, 1, 0, 2), "expert": (0, 2, 0, 4)}


def test_the_database_refuses_impossible_games(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
    for seats in ((ALICE, None, None), (None, None, "expert"), (ALICE, BOB, "expert")):
        with pytest.raises(IntegrityError), factory.begin() as s:
            new_game(s, seats[0], seats[1], computer_level=seats[2])
    with pytest.raises(ValueError, match="never rated"), factory.begin() as s:
        new_game(s, ALICE, None, computer_level="expert", rated=True)
    with pytest.raises(IntegrityError), factory.begin() as s:
        new_game(s, ALICE, 999)  # no such player: foreign keys are enforced


def test_the_timer_sweep_finds_only_active_games_past_their_deadline(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        due = new_game(s, deadline=later(10)).id
        new_game(s, ALICE, CAROL, deadline=later(100))
        done = new_game(s, BOB, CAROL, deadline=later(5))
        games.expire_game(s, done, now=later(1))
        new_game(s, CAROL, None, computer_level="expert")  # no deadline: the computer waits

    def past_deadline(s: Session, now: datetime) -> list[int]:
        day = timedelta(days=1)
        return list(
            games.games_with_timer_due(
                s, remind_from=now, now=now, expire_from=now - day, limit=100
            )
        )

    with factory() as s:
        assert past_deadline(s, later(50)) == [due]
        assert past_deadline(s, later(9)) == []
        assert len(past_deadline(s, NOW + timedelta(days=1))) == 2
        expired = s.get(Game, done.id)
        assert expired is not None and expired.status is GameStatus.EXPIRED
        # A reminder is due from its horizon on.
        assert list(
            games.games_with_timer_due(
                s, remind_from=later(10), now=NOW, expire_from=NOW, limit=100
            )
        ) == [due]
    with factory.begin() as s:
        # Once its claim is offered, a game waits for its expiry, and only one sweep moves it.
        version = games.get_game(s, due).version
        claim = {"version": version, "seen": 0, "stage": games.TimerStage.CLAIMABLE}
        assert games.advance_timer_stage(s, due, **claim)
        assert not games.advance_timer_stage(s, due, **claim)
    with factory() as s:
        assert past_deadline(s, later(50)) == []
        assert due not in past_deadline(s, later(9) + timedelta(days=1))
        assert due in past_deadline(s, later(10) + timedelta(days=1))


def test_active_games_by_player_and_channel(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        a = new_game(s, channel_id=5).id
        b = new_game(s, ALICE, CAROL, channel_id=6).id
        c = new_game(s, CAROL, DAVE, channel_id=5).id  # (Bob already plays in 5)
        games.expire_game(s, s.get(Game, c))  # type: ignore[arg-type]
    with factory() as s:
        found = games.active_game_in_channel(s, 5)
        assert found is not None and found.id == a
        assert games.active_game_in_channel(s, 7) is None
        mine = games.active_game_in_channel(s, 6, player_id=CAROL)
        assert mine is not None and mine.id == b
        assert games.active_game_in_channel(s, 5, player_id=CAROL) is None  # expired
        assert games.active_game_in_channel(s, 6, player_id=BOB) is None


def test_a_failed_action_leaves_no_trace(factory: Factory) -> None:
    """Anything raised inside the unit of work rolls back the state and the log together."""
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    with pytest.raises(RuntimeError), factory.begin() as s:
        row = games.get_game(s, game_id)
        m = load_match(row)
        m.game.play_text("8/5 6/5")
        save_match(s, row, m)
        raise RuntimeError("the render failed after the save")
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(GameEvent)) == 1
        assert games.get_game(s, game_id).version == 1


def test_datetimes_come_back_aware_in_utc(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s, deadline=later(30)).id
    with factory() as s:
        row = games.get_game(s, game_id)
        assert row.deadline == later(30) and row.deadline.utcoffset() == timedelta(0)
        assert row.created_at == NOW


def test_save_match_refuses_a_match_with_fewer_events(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    with pytest.raises(ValueError, match="events"), factory.begin() as s:
        save_match(s, games.get_game(s, game_id), Match())


def test_the_tail_of_the_log_is_the_log_from_that_row() -> None:
    m = Match(length=3)
    m.game.opening_roll(6, 1)
    m.game.play_text("13/7 8/7")
    m.game.resign(1, 2)
    m.game.accept_resignation()
    m.next_game().opening_roll(2, 2)  # a tie: re-rolled
    m.game.opening_roll(5, 3)
    whole = match_events(m)
    assert len(whole) == 7  # game 1: opening, move, resign, accept, end; game 2: two openings
    for start in range(len(whole) + 2):
        assert match_events(m, start) == whole[start:]


def test_the_version_counts_state_changes_only(factory: Factory) -> None:
    """Buttons carry the version: writing the deadline, the dice reveal time or the review cache
    after the action must not make the buttons just drawn stale, yet stays compare-and-swap."""
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    with factory.begin() as s:
        row = games.get_game(s, game_id, expected_version=1)
        m = load_match(row)
        m.game.resign(0, 1)
        m.game.accept_resignation()  # the money game ends: state saved and result, one step
        result = save_match(s, row, m, now=NOW)
        assert result is not None and row.version == 2
        row.dice_revealed_at = later(1)  # written at commit, after the save
    with factory.begin() as s:
        games.cache_review(s, game_id, {"cached": True})
    with factory() as s:
        row = games.get_game(s, game_id, expected_version=2)
        assert (row.status, row.dice_revealed_at, row.review) == (
            GameStatus.FINISHED,
            later(1),
            {"cached": True},
        )


def test_a_stale_write_of_any_column_is_refused(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s).id
    with factory() as stale, factory() as fresh:
        old = games.get_game(stale, game_id)
        row = games.get_game(fresh, game_id)
        m = load_match(row)
        m.game.play_text("8/5 6/5")
        save_match(fresh, row, m)
        fresh.commit()
        old.deadline = later(99)
        with pytest.raises(StaleDataError):
            stale.commit()
    with factory() as s:
        assert games.get_game(s, game_id).deadline is None


def test_a_game_ends_once(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        row = new_game(s)
        games.finish_game(s, row, winner=0, points=1, kind=ResultKind.SINGLE)
        with pytest.raises(ValueError, match="already finished"):
            games.finish_game(s, row, winner=1, points=1, kind=ResultKind.SINGLE)
        with pytest.raises(ValueError, match="already finished"):
            games.expire_game(s, row)
    with pytest.raises(ValueError, match="seat 0 or 1"):
        games.Finish(2, 1, ResultKind.SINGLE)
    with pytest.raises(ValueError, match="finished or abandoned"):
        games.Finish(0, 1, ResultKind.SINGLE, GameStatus.EXPIRED)


def test_the_board_message_is_replaced_and_the_former_one_returned(factory: Factory) -> None:
    # Each board posted in the game's channel returns the one it replaces (whose buttons the
    # adapter takes off); a board elsewhere, or the same message again, returns nothing.
    from db import together

    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s, guild_id=77, channel_id=88).id
    for message, channel, former in [
        (1, 88, None),
        (2, 88, 1),
        (2, 88, None),
        (3, 99, None),
        (4, 88, 2),
    ]:
        with factory.begin() as s:
            assert together.set_board_message(s, game_id, channel, message) == former, message
    with factory() as s:
        assert games.get_game(s, game_id).board_message_id == 4


def test_two_boards_posted_at_once_retire_one_each(
    factory: Factory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Compare-and-set: another post lands between this one's read and its write; this one
    # then reads again and retires the other's board, not the one both had read.
    from db import together

    with factory.begin() as s:
        add_players(s)
        game_id = new_game(s, guild_id=77, channel_id=88).id
    with factory.begin() as s:
        together.set_board_message(s, game_id, 88, 1)
    real_set, landed = together._set, []

    def other_post_first(session: Session, *args: object, **values: object) -> bool:
        if not landed:
            landed.append(True)
            with factory.begin() as other:
                assert real_set(other, game_id, board_message_id=2)
        return real_set(session, *args, **values)  # type: ignore[arg-type]

    monkeypatch.setattr(together, "_set", other_post_first)
    with factory.begin() as s:
        assert together.set_board_message(s, game_id, 88, 3) == 2  # not 1, retired already
    with factory() as s:
        assert games.get_game(s, game_id).board_message_id == 3

"""Leaderboards, personal statistics, histories and dice counts."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from db import games, stats
from db.games import NewEvent
from db.models import Rating, RatingHistory, ResultKind
from db.players import ensure_player, note_guild_activity
from tests.db.conftest import NOW, later
from tests.db.helpers import ALICE, BOB, CAROL, DAVE, add_players, new_game

Factory = sessionmaker[Session]


def _rate(s: Session, ratings: dict[int, float]) -> None:
    for pid, r in ratings.items():
        s.add(
            Rating(player_id=pid, rating=r, experience=pid % 100, wins=3, losses=1, updated_at=NOW)
        )


def test_the_leaderboard_ranks_ties_together_across_pages(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        ensure_player(s, 5, "eve", now=NOW)  # no rated match: not on the board
        _rate(s, {ALICE: 1550.0, BOB: 1600.0, CAROL: 1550.0, DAVE: 1500.0})
    with factory() as s:
        board = stats.leaderboard(s, limit=10)
        assert [(r.rank, r.display_name, r.rating) for r in board] == [
            (1, "bob", 1600.0),
            (2, "alice", 1550.0),
            (2, "carol", 1550.0),
            (4, "dave", 1500.0),
        ]
        assert (board[0].experience, board[0].wins, board[0].losses) == (BOB % 100, 3, 1)
        page2 = stats.leaderboard(s, limit=2, offset=2)
        assert [(r.rank, r.player_id) for r in page2] == [(2, CAROL), (4, DAVE)]
        assert stats.player_rank(s, CAROL) == 2 and stats.player_rank(s, DAVE) == 4
        assert stats.player_rank(s, 5) is None


def test_a_server_leaderboard_lists_only_its_members(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        _rate(s, {ALICE: 1550.0, BOB: 1600.0, CAROL: 1450.0, DAVE: 1500.0})
        for pid in (ALICE, CAROL):
            note_guild_activity(s, 7, pid, now=NOW)
        note_guild_activity(s, 8, BOB, now=NOW)
    with factory() as s:
        board = stats.leaderboard(s, guild_id=7)
        assert [(r.rank, r.player_id) for r in board] == [(1, ALICE), (2, CAROL)]
        assert stats.player_rank(s, CAROL, guild_id=7) == 2
        assert stats.player_rank(s, BOB, guild_id=7) is None
        assert stats.leaderboard(s, guild_id=9) == []


def test_playing_in_a_server_puts_both_players_on_its_board(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        g = new_game(s, ALICE, BOB, guild_id=7, rated=True)
        games.finish_game(s, g, winner=1, points=1, kind=ResultKind.SINGLE)
    with factory() as s:
        board = stats.leaderboard(s, guild_id=7)
        assert [(r.player_id, r.wins, r.losses) for r in board] == [(BOB, 1, 0), (ALICE, 0, 1)]


def test_personal_stats_gather_every_record(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        for winner, rated in ((0, True), (0, False), (1, False)):
            g = new_game(s, ALICE, BOB, rated=rated)
            games.finish_game(s, g, winner=winner, points=1, kind=ResultKind.SINGLE)
        g = new_game(s, CAROL, ALICE)  # alice in seat 1 this time, and she wins
        games.finish_game(s, g, winner=1, points=2, kind=ResultKind.GAMMON)
        new_game(s, ALICE, DAVE)  # still going
        g = new_game(s, None, ALICE, computer_level="expert")
        games.finish_game(s, g, winner=0, points=4, kind=ResultKind.DROP)
    with factory() as s:
        mine = stats.player_stats(s, ALICE)
        theirs = stats.player_stats(s, DAVE)
    assert (mine.rated_wins, mine.rated_losses, mine.rank) == (1, 0, 1)
    assert mine.rating == 1510.0 and mine.experience == 1
    assert (mine.wins_vs_people, mine.losses_vs_people, mine.active_games) == (3, 1, 1)
    assert mine.computer == {"expert": (0, 1, 0, 4)}
    assert (theirs.rating, theirs.rank, theirs.active_games, theirs.computer) == (
        1500.0,
        None,
        1,
        {},
    )


def test_rating_history_returns_the_latest_changes_oldest_first(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        for i in range(5):
            g = new_game(s, ALICE, BOB, rated=True)
            games.finish_game(s, g, winner=i % 2, points=1, kind=ResultKind.SINGLE, now=later(i))
    with factory() as s:
        history = stats.rating_history(s, ALICE, limit=3)
    assert [h.created_at for h in history] == [later(2), later(3), later(4)]
    assert [h.won for h in history] == [True, False, True]
    assert all(isinstance(h, RatingHistory) for h in history)
    assert history[1].rating_before == history[0].rating_after


def test_game_history_pages_through_both_seats_newest_first(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        ids = []
        for i in range(7):
            g = new_game(s, ALICE, BOB) if i % 2 else new_game(s, CAROL, ALICE)
            games.finish_game(s, g, winner=0, points=1, kind=ResultKind.SINGLE)
            ids.append(g.id)
        new_game(s, BOB, CAROL)  # not alice's
        active = new_game(s, ALICE, DAVE).id
    with factory() as s:
        first = stats.game_history(s, ALICE, limit=3)
        assert [g.id for g in first] == ids[::-1][:3]
        second = stats.game_history(s, ALICE, limit=3, before_id=first[-1].id)
        assert [g.id for g in second] == ids[::-1][3:6]
        last = stats.game_history(s, ALICE, limit=3, before_id=second[-1].id)
        assert [g.id for g in last] == ids[:1]
        assert stats.game_history(s, ALICE, limit=1, finished_only=False)[0].id == active
        assert stats.game_history(s, DAVE) == []


def test_roll_counts_by_player_server_and_everyone(factory: Factory) -> None:
    pid, mid = "4HPwATDgc/ABMA", "cAkAAAAAAAAA"
    with factory.begin() as s:
        add_players(s)
        here = new_game(s, ALICE, BOB, guild_id=7)
        there = new_game(s, ALICE, None, computer_level="expert")
        for row, rolls in (
            (here, [(0, (6, 5)), (1, (6, 5)), (0, (2, 2))]),
            (there, [(0, (6, 5)), (1, (1, 3))]),
        ):
            games.save_game(
                s,
                row,
                position_id=pid,
                match_id=mid,
                state=row.state,
                turn=0,
                events=[NewEvent("roll", pid, mid, player=p, dice=d) for p, d in rolls]
                + [NewEvent("move", pid, mid, player=0, dice=(4, 4), play="")],
            )
    with factory() as s:
        # Every game starts with the opening (kind "opening", not a roll): not counted.
        assert stats.roll_counts(s, player_id=ALICE) == {(6, 5): 2, (2, 2): 1}
        assert stats.roll_counts(s, player_id=BOB) == {(6, 5): 1}
        assert stats.roll_counts(s, guild_id=7) == {(6, 5): 2, (2, 2): 1}
        assert stats.roll_counts(s) == {(6, 5): 3, (2, 2): 1, (1, 3): 1}


def test_variant_games_are_rated_in_their_variant_only(factory: Factory) -> None:
    from engine import Match, Variant

    with factory.begin() as s:
        add_players(s)
        for i, variant in enumerate((Variant.HYPERGAMMON, Variant.HYPERGAMMON, Variant.NACKGAMMON)):
            match = Match(variant=variant)
            match.game.opening_roll(3, 1)
            g = new_game(s, ALICE, BOB, guild_id=7, rated=True, match=match)
            assert g.variant == variant.value
            games.finish_game(s, g, winner=0, points=1, kind=ResultKind.SINGLE, now=later(i))
    with factory() as s:
        assert stats.leaderboard(s) == []  # the standard board: nobody
        assert s.query(Rating).count() == 0
        hyper = stats.variant_leaderboard(s, "hypergammon", guild_id=7)
        nack = stats.variant_leaderboard(s, "nackgammon")
        assert [(r.player_id, r.wins, r.losses) for r in hyper] == [(ALICE, 2, 0), (BOB, 0, 2)]
        assert [(r.player_id, r.wins) for r in nack] == [(ALICE, 1), (BOB, 0)]
        assert hyper[0].rating > nack[0].rating > 1500
        assert stats.rating_history(s, ALICE) == []  # the chart is the standard rating's
        assert stats.variant_leaderboard(s, "hypergammon", guild_id=8) == []

"""FIBS ratings: the formula against hand-computed values, then its bookkeeping in the database."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from db import games
from db.models import Rating, RatingHistory, ResultKind
from db.ratings import fibs_change, k_factor
from tests.db.helpers import ALICE, BOB, CAROL, add_players, new_game

Factory = sessionmaker[Session]


@pytest.mark.parametrize(
    ("experience", "k"), [(0, 5.0), (100, 4.0), (250, 2.5), (399, 1.01), (400, 1.0), (5000, 1.0)]
)
def test_k_falls_from_5_to_1_with_experience(experience: int, k: float) -> None:
    assert k_factor(experience) == pytest.approx(k)


def test_equal_newcomers_in_a_one_point_match() -> None:
    # D = 0: P_upset = 1 / (10^0 + 1) = 0.5 whoever wins; K = 5; 4 * 5 * 1 * 0.5 = 10.
    assert fibs_change(
        winner_rating=1500,
        winner_experience=0,
        loser_rating=1500,
        loser_experience=0,
        match_length=1,
    ) == (10.0, 10.0)


def test_the_favourite_wins_a_five_point_match() -> None:
    # D = 100, n = 5, sqrt(5) = 2.2360680; D * sqrt(n) / 2000 = 0.1118034;
    # 10^0.1118034 = e^(0.1118034 * 2.3025851) = e^0.2574368 = 1.2936101;
    # P_upset = 1 / 2.2936101 = 0.4359939, and the favourite won: P = P_upset.
    # Winner (experience 0, K = 5): 4 * 5 * 2.2360680 * 0.4359939 = 19.49824.
    # Loser (experience 500, K = 1): 4 * 1 * 2.2360680 * 0.4359939 = 3.89965.
    gain, loss = fibs_change(
        winner_rating=1600,
        winner_experience=0,
        loser_rating=1500,
        loser_experience=500,
        match_length=5,
    )
    assert gain == pytest.approx(19.49824, abs=1e-4)
    assert loss == pytest.approx(3.89965, abs=1e-4)


def test_the_underdog_wins_a_one_point_match() -> None:
    # D = 200, n = 1: 10^(200 / 2000) = 10^0.1 = 1.2589254; P_upset = 1 / 2.2589254 = 0.4426884.
    # The underdog won: P = 1 - P_upset = 0.5573116.
    # Winner (experience 150, K = 3.5): 4 * 3.5 * 0.5573116 = 7.80236.
    # Loser (experience 1000, K = 1): 4 * 1 * 0.5573116 = 2.22925.
    gain, loss = fibs_change(
        winner_rating=1400,
        winner_experience=150,
        loser_rating=1600,
        loser_experience=1000,
        match_length=1,
    )
    assert gain == pytest.approx(7.80236, abs=1e-4)
    assert loss == pytest.approx(2.22925, abs=1e-4)


def test_a_money_game_counts_as_one_point() -> None:
    args = dict(winner_rating=1550.0, winner_experience=30, loser_rating=1500.0, loser_experience=0)
    assert fibs_change(**args, match_length=0) == fibs_change(**args, match_length=1)  # type: ignore[arg-type]


def _rating(s: Session, pid: int) -> Rating:
    r = s.get(Rating, pid)
    assert r is not None
    return r


def test_a_rated_match_moves_both_ratings_and_writes_history(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        first = new_game(s, length=1, rated=True)
        result = games.finish_game(s, first, winner=0, points=1, kind=ResultKind.SINGLE)
        assert result.ratings is not None
        won, lost = result.ratings
        assert (won.player_id, won.before, won.after) == (ALICE, 1500.0, 1510.0)
        assert (lost.player_id, lost.delta) == (BOB, -10.0)
    with factory.begin() as s:
        alice, bob = _rating(s, ALICE), _rating(s, BOB)
        assert (alice.rating, alice.experience, alice.wins, alice.losses) == (1510.0, 1, 1, 0)
        assert (bob.rating, bob.experience, bob.wins, bob.losses) == (1490.0, 1, 0, 1)
        # A 3-point match won by the underdog (bob), from 1510/1490 and experience 1 each.
        second = new_game(s, length=3, rated=True)
        games.finish_game(s, second, winner=1, points=2, kind=ResultKind.GAMMON)
        gain, loss = fibs_change(
            winner_rating=1490,
            winner_experience=1,
            loser_rating=1510,
            loser_experience=1,
            match_length=3,
        )
    with factory() as s:
        alice, bob = _rating(s, ALICE), _rating(s, BOB)
        assert alice.rating == pytest.approx(1510 - loss) and alice.experience == 4
        assert bob.rating == pytest.approx(1490 + gain) and bob.experience == 4
        history = s.scalars(
            select(RatingHistory).where(RatingHistory.player_id == BOB).order_by(RatingHistory.id)
        ).all()
        assert [(h.won, h.match_length, h.opponent_id) for h in history] == [
            (False, 1, ALICE),
            (True, 3, ALICE),
        ]
        assert history[1].rating_before == 1490.0 and history[1].experience_after == 4


def test_unrated_and_computer_games_leave_ratings_alone(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        unrated = new_game(s, ALICE, BOB, rated=False)
        games.finish_game(s, unrated, winner=0, points=1, kind=ResultKind.SINGLE)
        computer = new_game(s, ALICE, None, computer_level="expert")
        games.finish_game(s, computer, winner=0, points=3, kind=ResultKind.BACKGAMMON)
        expired = new_game(s, ALICE, CAROL, rated=True)
        games.expire_game(s, expired)
    with factory() as s:
        assert s.scalar(select(func.count()).select_from(Rating)) == 0
        assert s.scalar(select(func.count()).select_from(RatingHistory)) == 0

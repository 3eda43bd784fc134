"""FIBS ratings.

For a match of length ``n`` (money games count as ``n = 1``) between players rated ``r1 >= r2``
(``D = r1 - r2``)::

    P_upset = 1 / (10 ** (D * sqrt(n) / 2000) + 1)     # the underdog's chance to win
    P = P_upset if the favourite won, else 1 - P_upset
    winner gains  4 * K_winner * sqrt(n) * P
    loser loses   4 * K_loser  * sqrt(n) * P
    K = max(1, 5 - experience / 100)                   # each side his own
    experience += n                                    # both sides

Everyone starts at 1500 with no experience. Only rated matches between two people count.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from db._dialect import insert_for
from db.models import Game, Rating, RatingHistory, VariantRating
from db.types import utcnow

__all__ = [
    "START_RATING",
    "RatingChange",
    "apply_rated_result",
    "fibs_change",
    "k_factor",
    "rating_length",
]

START_RATING = 1500.0


def k_factor(experience: int) -> float:
    """The FIBS K: 5 for a newcomer, falling by 1 per 100 points of experience, never below 1."""
    return max(1.0, 5.0 - experience / 100)


def rating_length(match_length: int) -> int:
    """The ``n`` of the formula: the match length, 1 for a money game (length 0)."""
    return max(1, match_length)


def fibs_change(
    *,
    winner_rating: float,
    winner_experience: int,
    loser_rating: float,
    loser_experience: int,
    match_length: int,
) -> tuple[float, float]:
    """``(gain, loss)``: what the winner gains and the loser loses (both >= 0).

    >>> fibs_change(winner_rating=1500, winner_experience=0, loser_rating=1500,
    ...             loser_experience=0, match_length=1)
    (10.0, 10.0)
    """
    n = rating_length(match_length)
    diff = abs(winner_rating - loser_rating)
    p_upset = 1.0 / (10.0 ** (diff * math.sqrt(n) / 2000.0) + 1.0)
    p = p_upset if winner_rating >= loser_rating else 1.0 - p_upset
    scale = 4.0 * math.sqrt(n) * p
    return scale * k_factor(winner_experience), scale * k_factor(loser_experience)


@dataclass(frozen=True, slots=True)
class RatingChange:
    player_id: int
    before: float
    after: float
    experience: int  # after the match

    @property
    def delta(self) -> float:
        return self.after - self.before


def apply_rated_result(
    session: Session, game: Game, winner_seat: int, *, now: datetime | None = None
) -> tuple[RatingChange, RatingChange]:
    """Update both players' ratings for ``game`` (won by ``winner_seat``) and write their history
    rows. Returns the winner's change, then the loser's.

    Call it after the game's own update has been flushed (:func:`db.games.finish_game` does): on
    SQLite that write already holds the database's write lock and on PostgreSQL the rating rows
    are locked here, so two matches of one player ending at once cannot lose an update.
    """
    winner_id, loser_id = game.player_id(winner_seat), game.player_id(1 - winner_seat)
    if winner_id is None or loser_id is None:
        raise ValueError(f"game #{game.id} is not between two people: nothing to rate")
    now = now or utcnow()
    if game.variant != "standard":
        return _apply_variant(session, game, winner_id, loser_id, now)
    _ensure_ratings(session, (winner_id, loser_id), now)
    rows = {
        r.player_id: r
        for r in session.scalars(
            select(Rating)
            .where(Rating.player_id.in_((winner_id, loser_id)))
            .order_by(Rating.player_id)  # one lock order everywhere: no deadlocks
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    }
    return _rate(session, game, rows[winner_id], rows[loser_id], now)


def _rate(
    session: Session,
    game: Game,
    w: Rating | VariantRating,
    lo: Rating | VariantRating,
    now: datetime,
) -> tuple[RatingChange, RatingChange]:
    """The FIBS change of a result applied to the winner's and the loser's rating rows (the
    standard :class:`Rating` or a :class:`VariantRating`)."""
    gain, loss = fibs_change(
        winner_rating=w.rating,
        winner_experience=w.experience,
        loser_rating=lo.rating,
        loser_experience=lo.experience,
        match_length=game.match_length,
    )
    n = rating_length(game.match_length)
    return (
        _update(session, game, w, lo, w.rating + gain, n, won=True, now=now),
        _update(session, game, lo, w, lo.rating - loss, n, won=False, now=now),
    )


def _apply_variant(
    session: Session, game: Game, winner_id: int, loser_id: int, now: datetime
) -> tuple[RatingChange, RatingChange]:
    """:func:`apply_rated_result` for a variant game: the players' ratings in that variant
    (:class:`VariantRating`), never the standard one."""
    ids = sorted((winner_id, loser_id))
    stmt = insert_for(session, VariantRating).values(
        [_fresh(pid, now) | {"variant": game.variant} for pid in ids]
    )
    session.execute(stmt.on_conflict_do_nothing(index_elements=["player_id", "variant"]))
    rows = {
        r.player_id: r
        for r in session.scalars(
            select(VariantRating)
            .where(VariantRating.player_id.in_(ids), VariantRating.variant == game.variant)
            .order_by(VariantRating.player_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
    }
    return _rate(session, game, rows[winner_id], rows[loser_id], now)


def _fresh(player_id: int, now: datetime) -> dict[str, object]:
    return {
        "player_id": player_id,
        "rating": START_RATING,
        "experience": 0,
        "wins": 0,
        "losses": 0,
        "updated_at": now,
    }


def _ensure_ratings(session: Session, player_ids: tuple[int, int], now: datetime) -> None:
    stmt = insert_for(session, Rating).values(
        [
            {
                "player_id": pid,
                "rating": START_RATING,
                "experience": 0,
                "wins": 0,
                "losses": 0,
                "updated_at": now,
            }
            # Sorted: two processes inserting the same pair in opposite orders could deadlock.
            for pid in sorted(player_ids)
        ]
    )
    session.execute(stmt.on_conflict_do_nothing(index_elements=["player_id"]))


def _update(
    session: Session,
    game: Game,
    row: Rating | VariantRating,
    opponent: Rating | VariantRating,
    new_rating: float,
    n: int,
    *,
    won: bool,
    now: datetime,
) -> RatingChange:
    before = row.rating
    row.rating = new_rating
    row.experience += n
    if won:
        row.wins += 1
    else:
        row.losses += 1
    row.updated_at = now
    session.add(
        RatingHistory(
            player_id=row.player_id,
            game_id=game.id,
            opponent_id=opponent.player_id,
            won=won,
            match_length=game.match_length,
            rating_before=before,
            rating_after=new_rating,
            experience_after=row.experience,
            created_at=now,
            variant=game.variant,
        )
    )
    return RatingChange(row.player_id, before, new_rating, row.experience)

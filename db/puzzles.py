"""Puzzles, puzzle ratings and the position of the day (issue 18): the queries, no rules.

A puzzle is stored once per decision (its ``key``); an attempt once per player and puzzle (the
first answer counts); a position of the day once per server and day: :func:`claim_post` inserts
the row in a savepoint and a concurrent insert of the same (server, day), from another process or
a sweep that already ran, makes it return None, so the post is sent once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any

from sqlalchemy import String, cast, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from db.ids import in_range
from db.models import (
    DailyChannel,
    DailyPost,
    DailyVote,
    Game,
    GameStatus,
    Player,
    Puzzle,
    PuzzleAttempt,
    PuzzleRating,
)

__all__ = [
    "add_puzzle",
    "add_vote",
    "claim_post",
    "daily_channels",
    "get_post",
    "get_puzzle",
    "leaderboard",
    "pick_daily_puzzle",
    "pick_puzzle",
    "previous_post",
    "puzzle_rating",
    "rate_answer",
    "record_attempt",
    "set_daily_channel",
    "unreviewed_games",
    "votes",
]

NEAR = 12  # a puzzle is drawn among the this many unplayed ones nearest the player's rating


def add_puzzle(s: Session, **fields: Any) -> Puzzle | None:
    """Store a puzzle unless its decision (``key``) is stored already."""
    if s.scalar(select(Puzzle.id).where(Puzzle.key == fields["key"])) is not None:
        return None
    row = Puzzle(**fields)
    try:
        with s.begin_nested():
            s.add(row)
    except IntegrityError:  # stored meanwhile by a concurrent review
        return None
    return row


def get_puzzle(s: Session, puzzle_id: int) -> Puzzle | None:
    # An id past the column's range is no puzzle's (PostgreSQL would fail the query instead).
    return s.get(Puzzle, puzzle_id) if in_range(puzzle_id) else None


def pick_puzzle(
    s: Session, player_id: int, rating: float, *, own: bool, rng: random.Random
) -> Puzzle | None:
    """A puzzle the player has not answered, near ``rating``: never one of his own blunders,
    unless ``own`` (then only his own)."""
    done = select(PuzzleAttempt.puzzle_id).where(PuzzleAttempt.player_id == player_id)
    query = select(Puzzle).where(Puzzle.id.not_in(done))
    if own:
        query = query.where(Puzzle.source_player_id == player_id)
    else:
        query = query.where(
            (Puzzle.source_player_id.is_(None)) | (Puzzle.source_player_id != player_id)
        )
    query = query.order_by(func.abs(Puzzle.rating - rating), Puzzle.id).limit(NEAR)
    rows = list(s.scalars(query))
    return rng.choice(rows) if rows else None


def puzzle_rating(s: Session, player_id: int, *, lock: bool = False) -> PuzzleRating | None:
    query = select(PuzzleRating).where(PuzzleRating.player_id == player_id)
    if lock:
        query = query.with_for_update()
    return s.scalar(query)


def record_attempt(s: Session, **fields: Any) -> bool:
    """Store a player's answer; False when he had answered that puzzle already."""
    try:
        with s.begin_nested():
            s.add(PuzzleAttempt(**fields))
    except IntegrityError:
        return False
    return True


Rating = tuple[float, float, float]
"""A Glicko-2 rating as stored: rating, deviation (rd), volatility."""


def rate_answer(
    s: Session,
    row: PuzzleRating,
    puzzle: Puzzle,
    *,
    player: Rating,
    of_puzzle: Rating,
    correct: bool,
    now: datetime,
) -> None:
    """Store a first answer's ratings: the player's (``row``, added when new) and his streak,
    the puzzle's, and one more attempt on each."""
    s.add(row)  # a no-op for a row already in the session
    row.rating, row.rd, row.volatility = player
    row.updated_at = now
    row.attempts = (row.attempts or 0) + 1
    row.solved = (row.solved or 0) + int(correct)
    row.streak = (row.streak or 0) + 1 if correct else 0
    row.best_streak = max(row.best_streak or 0, row.streak)
    puzzle.rating, puzzle.rd, puzzle.volatility = of_puzzle
    puzzle.attempts += 1


def leaderboard(s: Session, guild_id: int, limit: int = 10) -> Sequence[tuple[str, PuzzleRating]]:
    """The best puzzle ratings of the players who solved puzzles in this server."""
    here = select(PuzzleAttempt.player_id).where(PuzzleAttempt.guild_id == guild_id)
    query = (
        select(Player.display_name, PuzzleRating)
        .join(PuzzleRating, PuzzleRating.player_id == Player.id)
        .where(Player.id.in_(here))
        .order_by(PuzzleRating.rating.desc(), Player.id)
        .limit(limit)
    )
    return [(name, rating) for name, rating in s.execute(query).tuples()]


def unreviewed_games(s: Session, limit: int, skip: set[int] | None = None) -> list[int]:
    """The latest finished games without a review, newest first (``skip``: ids to leave)."""
    no_review = or_(Game.review.is_(None), cast(Game.review, String) == "null")
    query = (
        select(Game.id)
        # Standard games only: puzzles come from the standard game (see bot.service.puzzles).
        .where(Game.status == GameStatus.FINISHED, no_review, Game.variant == "standard")
        .order_by(Game.id.desc())
        .limit(limit + len(skip or ()))
    )
    return [i for i in s.scalars(query) if i not in (skip or set())][:limit]


# -- The position of the day ---------------------------------------------------------------------


def set_daily_channel(
    s: Session, guild_id: int, channel_id: int, hour: int, timezone: str, now: datetime
) -> None:
    row = s.get(DailyChannel, guild_id)
    if row is None:
        row = DailyChannel(guild_id=guild_id)
        s.add(row)
    row.channel_id, row.hour, row.timezone, row.updated_at = channel_id, hour, timezone, now


def daily_channels(s: Session) -> Sequence[DailyChannel]:
    return list(s.scalars(select(DailyChannel).order_by(DailyChannel.guild_id)))


def claim_post(
    s: Session, guild_id: int, day: date, channel_id: int, puzzle_id: int, now: datetime
) -> DailyPost | None:
    """Claim the server's post of ``day``; None when it is claimed already (by any process)."""
    if s.scalar(select(DailyPost.id).where(DailyPost.guild_id == guild_id, DailyPost.day == day)):
        return None
    row = DailyPost(
        guild_id=guild_id, day=day, channel_id=channel_id, puzzle_id=puzzle_id, created_at=now
    )
    try:
        with s.begin_nested():
            s.add(row)
    except IntegrityError:
        return None
    return row


def previous_post(s: Session, guild_id: int, before: date) -> DailyPost | None:
    query = (
        select(DailyPost)
        .where(DailyPost.guild_id == guild_id, DailyPost.day < before)
        .order_by(DailyPost.day.desc())
        .limit(1)
    )
    return s.scalar(query)


def get_post(s: Session, post_id: int) -> DailyPost | None:
    return s.get(DailyPost, post_id) if in_range(post_id) else None


def pick_daily_puzzle(s: Session, guild_id: int, rng: random.Random) -> Puzzle | None:
    """A puzzle this server has not had, among the most attempted-worthy: near 1500."""
    posted = select(DailyPost.puzzle_id).where(DailyPost.guild_id == guild_id)
    query = (
        select(Puzzle)
        .where(Puzzle.id.not_in(posted))
        .order_by(func.abs(Puzzle.rating - 1500.0), Puzzle.id)
        .limit(NEAR)
    )
    rows = list(s.scalars(query))
    return rng.choice(rows) if rows else None


def add_vote(s: Session, post_id: int, player_id: int, answer: str, now: datetime) -> bool:
    """A member's answer; False when he had answered already (the first answer counts)."""
    try:
        with s.begin_nested():
            s.add(DailyVote(post_id=post_id, player_id=player_id, answer=answer, created_at=now))
    except IntegrityError:
        return False
    return True


def votes(s: Session, post_id: int) -> dict[str, int]:
    """How many members gave each answer."""
    query = (
        select(DailyVote.answer, func.count())
        .where(DailyVote.post_id == post_id)
        .group_by(DailyVote.answer)
    )
    return {answer: int(n) for answer, n in s.execute(query).tuples()}

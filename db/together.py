"""Playing together: a server's settings, a game moved into its own thread, its board message,
"your turn" notices claimed once, and a player's games and challenges everywhere.

The game columns written here (``channel_id`` when a game moves into its thread,
``parent_channel_id``, ``board_message_id``, ``noticed_deadline``) are where the game is shown
and who was told, not its state: they are written outside the version (like the timer stages),
so the buttons on the board stay valid.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from db._dialect import insert_for
from db.models import Challenge, ChallengeStatus, Game, GameStatus, GuildSettings
from db.types import utcnow

__all__ = [
    "claim_turn_notice",
    "games_waiting_notice",
    "move_to_thread",
    "pending_challenges_of",
    "player_active_games",
    "set_board_message",
    "set_threads",
    "threads_on",
]


def threads_on(session: Session, guild_id: int) -> bool:
    """Whether games of this server are played in threads (the default: yes)."""
    row = session.get(GuildSettings, guild_id)
    return True if row is None else row.threads


def set_threads(session: Session, guild_id: int, on: bool, *, now: datetime | None = None) -> None:
    """Turn the server's thread per game on or off (an upsert: two managers may race)."""
    now = now or utcnow()
    stmt = (
        insert_for(session, GuildSettings)
        .values(guild_id=guild_id, threads=on, updated_at=now)
        .on_conflict_do_update(index_elements=["guild_id"], set_={"threads": on, "updated_at": now})
    )
    session.execute(stmt)


def _set(session: Session, game_id: int, *conditions: object, **values: object) -> bool:
    result = session.execute(
        update(Game)
        .where(Game.id == game_id, *conditions)  # type: ignore[arg-type]
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def move_to_thread(
    session: Session, game_id: int, *, thread_id: int, parent_id: int, message_id: int | None
) -> bool:
    """The active game is now played in the thread ``thread_id`` opened from ``parent_id``
    (its commands are typed there). False when it is no longer active in ``parent_id``."""
    return _set(
        session,
        game_id,
        Game.status == GameStatus.ACTIVE,
        Game.channel_id == parent_id,
        channel_id=thread_id,
        parent_channel_id=parent_id,
        board_message_id=message_id,
    )


def set_board_message(
    session: Session, game_id: int, channel_id: int, message_id: int
) -> int | None:
    """The game's board is now this message (in the game's own channel only); returns the
    message that was its board until now there, if another (its buttons are then retired).

    A compare-and-set: the id is replaced only if it is still the one read, else read again.
    Two boards posted at once (two presses, two processes) so each retire the one before
    them, never both the same one while the other keeps live buttons. (A row lock would not
    do: SQLite has none, and reads there outside a transaction.)"""
    in_channel = Game.channel_id == channel_id
    for _ in range(5):  # another board at the same instant: rare, and each try is short
        row = session.execute(
            select(Game.board_message_id).where(Game.id == game_id, in_channel)
        ).first()
        if row is None:
            return None  # not a game of this channel: nothing recorded here
        previous = row[0]
        same = Game.board_message_id.is_not_distinct_from(previous)
        if _set(session, game_id, in_channel, same, board_message_id=message_id):
            return previous if previous != message_id else None
    return None


def games_waiting_notice(session: Session, *, limit: int = 200) -> list[Game]:
    """Active games between two people whose current turn has not been noticed yet (its
    deadline differs from the one noticed), oldest deadline first."""
    stmt = (
        select(Game)
        .where(
            Game.status == GameStatus.ACTIVE,
            Game.computer_level.is_(None),
            Game.deadline.is_not(None),
            or_(Game.noticed_deadline.is_(None), Game.noticed_deadline != Game.deadline),
        )
        .order_by(Game.deadline)
        .limit(limit)
    )
    return list(session.scalars(stmt))


def claim_turn_notice(session: Session, game_id: int, deadline: datetime) -> bool:
    """Take the notice of the turn that ends at ``deadline`` for this process: True once per
    turn, whatever the processes and restarts; False for a finished game or a turn gone by."""
    return _set(
        session,
        game_id,
        Game.status == GameStatus.ACTIVE,
        Game.deadline == deadline,
        or_(Game.noticed_deadline.is_(None), Game.noticed_deadline != deadline),
        noticed_deadline=deadline,
    )


def player_active_games(session: Session, player_id: int) -> Sequence[Game]:
    """The player's active games, everywhere, the most pressing (earliest deadline) first."""
    stmt = (
        select(Game)
        .where(
            Game.status == GameStatus.ACTIVE,
            or_(Game.player0_id == player_id, Game.player1_id == player_id),
        )
        .order_by(Game.deadline.is_(None), Game.deadline, Game.id)
    )
    return session.scalars(stmt).all()


def pending_challenges_of(
    session: Session, player_id: int, *, now: datetime | None = None
) -> Sequence[Challenge]:
    """The challenges the player made or received that still wait for an answer."""
    now = now or utcnow()
    stmt = (
        select(Challenge)
        .where(
            Challenge.status == ChallengeStatus.PENDING,
            Challenge.expires_at > now,
            or_(Challenge.challenger_id == player_id, Challenge.challenged_id == player_id),
        )
        .order_by(Challenge.expires_at, Challenge.id)
    )
    return session.scalars(stmt).all()

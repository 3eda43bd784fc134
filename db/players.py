"""Players, their preferences and their activity per Discord server."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import event, select, update
from sqlalchemy.orm import Session, SessionTransaction

from db._dialect import insert_for
from db.models import GuildMember, Player
from db.types import utcnow

__all__ = [
    "SEEN_RESOLUTION",
    "ensure_player",
    "get_player",
    "guild_members",
    "keep_players",
    "note_guild_activity",
    "player_names",
    "read_players",
    "set_preferences",
    "touch",
]


SEEN_RESOLUTION = timedelta(minutes=5)
"""``seen_at`` is refreshed at most this often, so that a click costs no write (nor, on SQLite,
the database's write lock) just to say the player was there."""


def ensure_player(
    session: Session, player_id: int, display_name: str, *, now: datetime | None = None
) -> Player:
    """The player with this Discord user id, created on first sight; his display name (people
    rename themselves) and ``seen_at`` (to :data:`SEEN_RESOLUTION`) are kept up to date."""
    now = now or utcnow()
    known = get_player(session, player_id)
    if (
        known is not None
        and known.display_name == display_name
        and abs(now - known.seen_at) < SEEN_RESOLUTION
    ):
        return known
    # An upsert, not an INSERT after the read above: two first clicks at once must both work.
    stmt = (
        insert_for(session, Player)
        .values(
            id=player_id, display_name=display_name, preferences={}, created_at=now, seen_at=now
        )
        .on_conflict_do_update(
            index_elements=["id"], set_={"display_name": display_name, "seen_at": now}
        )
        .returning(Player)
    )
    player: Player = session.scalars(stmt, execution_options={"populate_existing": True}).one()
    return _kept(session, player)


def player_names(session: Session, player_ids: Sequence[int]) -> dict[int, str]:
    """The display names of those of ``player_ids`` who exist."""
    stmt = select(Player.id, Player.display_name).where(Player.id.in_(player_ids))
    return {pid: name for pid, name in session.execute(stmt)}


def get_player(session: Session, player_id: int) -> Player | None:
    """The player with this id, or None; read once per unit of work (see :func:`_kept`)."""
    player = session.get(Player, player_id)
    return None if player is None else _kept(session, player)


def read_players(session: Session, ids: Iterable[int | None]) -> None:
    """Read the players of ``ids`` (None skipped) not read yet in this unit of work, in one
    query: the :func:`get_player` and :func:`ensure_player` calls that follow find them."""
    kept: dict[int, Player] = session.info.setdefault(_KEPT, {})
    wanted = {pid for pid in ids if pid is not None and pid not in kept}
    if wanted:
        # populate_existing: a row still referenced from an earlier transaction of this
        # session is refreshed, not served as it was then (expire_on_commit=False).
        query = select(Player).where(Player.id.in_(wanted))
        for player in session.scalars(query, execution_options={"populate_existing": True}):
            _kept(session, player)


_KEPT = "players"


def keep_players(session: Session, players: Iterable[Player | None]) -> None:
    """Keep ``players`` (read by another query, such as a game's with its seats) for the rest of
    the unit of work: the :func:`get_player` and :func:`read_players` calls that follow find
    them without a query."""
    for player in players:
        if player is not None:
            _kept(session, player)


def _kept(session: Session, player: Player) -> Player:
    """``player``, held by the session until it closes. The session's identity map holds its
    objects weakly: a row the caller no longer references is dropped, and the next
    ``session.get`` reads it again. An action asks for the same two players up to six times
    (who acts, the seats' names, their settings), so without this each press read them
    three or four times more than needed."""
    kept: dict[int, Player] = session.info.setdefault(_KEPT, {})
    kept[player.id] = player
    return player


@event.listens_for(Session, "after_transaction_end")
def _forget(session: Session, transaction: SessionTransaction) -> None:
    """The kept rows last one transaction: a session used for another one reads its players
    again (:func:`read_players` would otherwise skip rows another process changed since)."""
    if transaction.parent is None:
        session.info.pop(_KEPT, None)


def set_preferences(session: Session, player_id: int, **changes: Any) -> dict[str, Any]:
    """Merge ``changes`` into the player's preferences (a value of None removes the key) and
    return them. The player must exist (:func:`ensure_player`).

    :raises LookupError: for an unknown player.
    """
    # Lock the row before reading it, so that two /settings at once apply one after the other
    # instead of both merging into the same old value (the second write would lose the first
    # change). A no-op UPDATE locks on both databases: the row on PostgreSQL, the write lock on
    # SQLite (where SELECT ... FOR UPDATE does not exist); the read below then sees the latest
    # committed preferences, and nobody can change them before this unit of work commits.
    session.execute(
        update(Player)
        .where(Player.id == player_id)
        .values(preferences=Player.preferences)
        .execution_options(synchronize_session=False)
    )
    player = session.get(Player, player_id, populate_existing=True)
    if player is None:
        raise LookupError(f"no player {player_id}")
    prefs = {**player.preferences, **changes}
    # A new dict, not an in-place change: the JSON column only notices reassignment.
    player.preferences = {k: v for k, v in prefs.items() if v is not None}
    session.flush([player])
    return player.preferences


def note_guild_activity(
    session: Session,
    guild_id: int,
    player_id: int,
    *,
    games_played: int = 0,
    now: datetime | None = None,
) -> None:
    """Record that the player is active in this server (so he appears on its leaderboard), and
    count ``games_played`` more games there."""
    now = now or utcnow()
    stmt = insert_for(session, GuildMember).values(
        guild_id=guild_id,
        player_id=player_id,
        games_played=games_played,
        first_seen=now,
        last_seen=now,
    )
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=["guild_id", "player_id"],
            set_={
                "last_seen": now,
                "games_played": GuildMember.games_played + stmt.excluded.games_played,
            },
        )
    )


def guild_members(session: Session, guild_id: int) -> list[GuildMember]:
    return list(session.scalars(select(GuildMember).where(GuildMember.guild_id == guild_id)))


def touch(session: Session, player_id: int, *, now: datetime | None = None) -> None:
    """Refresh ``seen_at`` without loading the player."""
    session.execute(update(Player).where(Player.id == player_id).values(seen_at=now or utcnow()))

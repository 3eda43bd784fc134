"""The tables, as SQLAlchemy 2.0 typed models.

A game row holds the engine's state three ways: the GNU Backgammon Position ID and Match ID (for
people, tools and queries), and ``state``, the engine's own JSON (opaque here: whatever
``Game.to_dict()`` returns). ``version`` makes every change of a game a compare-and-swap, so two
actions on one game can never both apply (see :mod:`db.games`). The move log keeps one row per
event with the IDs after it, enough to replay or audit a game without the engine's JSON.

Discord ids (users, guilds, channels, messages) are 64-bit snowflakes: ``BigInteger``. A player's
primary key is his Discord user id; the terminal adapter picks ids of its own.
"""

from __future__ import annotations

import enum
from datetime import date, datetime
from typing import Annotated, Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    Double,
    Enum,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from db.types import UTCDateTime, utcnow

__all__ = [
    "Base",
    "Challenge",
    "ChallengeStatus",
    "ComputerRecord",
    "DailyChannel",
    "DailyPost",
    "DailyVote",
    "Game",
    "GameEvent",
    "GameStatus",
    "GuildMember",
    "Player",
    "Puzzle",
    "PuzzleAttempt",
    "PuzzleRating",
    "Rating",
    "RatingHistory",
    "ResultKind",
]

# Explicit constraint names, so that migrations can name what they alter (SQLite batch mode
# needs names to drop or recreate constraints) and every backend gets the same names.
NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

Snowflake = Annotated[int, mapped_column(BigInteger)]
Timestamp = Annotated[datetime, mapped_column(UTCDateTime(), default=utcnow)]


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {
        datetime: UTCDateTime(),
        dict[str, Any]: JSON(),
    }


class GameStatus(enum.StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"  # claimed by the waiting player after the move timer ran out
    EXPIRED = "expired"  # nobody claimed it (or both vanished): no result, no rating change


class ResultKind(enum.StrEnum):
    """How the deciding game ended."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"
    RESIGN = "resign"
    DROP = "drop"
    TIMEOUT = "timeout"


class ChallengeStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"


def _enum(cls: type[enum.StrEnum], name: str) -> Enum:
    # Stored as short strings with a CHECK constraint rather than a PostgreSQL ENUM type: adding a
    # value later is then an ordinary batch migration on both backends.
    return Enum(
        cls,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=16,
        values_callable=lambda members: [m.value for m in members],
        validate_strings=True,
    )


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str] = mapped_column(String(100))
    # Free-form settings owned by the bot: {"language": "fr", "auto_play_forced": true, ...}.
    preferences: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[Timestamp]
    seen_at: Mapped[Timestamp]


class GuildMember(Base):
    """A player's activity in one Discord server: who appears on that server's leaderboard."""

    __tablename__ = "guild_members"

    guild_id: Mapped[Snowflake] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    games_played: Mapped[int] = mapped_column(default=0)
    first_seen: Mapped[Timestamp]
    last_seen: Mapped[Timestamp]


class Game(Base):
    """A game or a match (``match_length`` points; 0 is a money game) between two people, or a
    person and the computer at ``computer_level`` (the computer's seat has no player id)."""

    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(
            "(computer_level IS NULL AND player0_id IS NOT NULL AND player1_id IS NOT NULL)"
            " OR (computer_level IS NOT NULL"
            " AND (player0_id IS NULL OR player1_id IS NULL)"
            " AND NOT (player0_id IS NULL AND player1_id IS NULL))",
            name="seats",
        ),
        CheckConstraint("match_length >= 0", name="match_length"),
        CheckConstraint("winner IS NULL OR winner IN (0, 1)", name="winner"),
        CheckConstraint("turn IS NULL OR turn IN (0, 1)", name="turn"),
        # History of a player, newest first: one index range per seat (see db.stats).
        Index(None, "player0_id", "id"),
        Index(None, "player1_id", "id"),
        # One active game per player and channel, even when two commands race (the service
        # checks first; these make the loser of a race fail instead of opening a second game).
        Index(
            "uq_games_active_seat0",
            "channel_id",
            "player0_id",
            unique=True,
            sqlite_where=text("status = 'active'"),
            postgresql_where=text("status = 'active'"),
        ),
        Index(
            "uq_games_active_seat1",
            "channel_id",
            "player1_id",
            unique=True,
            sqlite_where=text("status = 'active'"),
            postgresql_where=text("status = 'active'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player0_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.id"))
    player1_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.id"))
    computer_level: Mapped[str | None] = mapped_column(String(32))

    guild_id: Mapped[int | None] = mapped_column(BigInteger, index=True)  # None: a DM
    channel_id: Mapped[int | None] = mapped_column(BigInteger, index=True)

    match_length: Mapped[int] = mapped_column(default=0)
    cube: Mapped[bool] = mapped_column(Boolean, default=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)

    position_id: Mapped[str] = mapped_column(String(14))
    match_id: Mapped[str] = mapped_column(String(12))
    state: Mapped[dict[str, Any]]
    turn: Mapped[int | None] = mapped_column(SmallInteger)  # the player to act, None when over
    event_count: Mapped[int] = mapped_column(default=0)  # rows in the move log: the next seq
    version: Mapped[int] = mapped_column(Integer)

    status: Mapped[GameStatus] = mapped_column(
        _enum(GameStatus, "status"), default=GameStatus.ACTIVE
    )
    winner: Mapped[int | None] = mapped_column(SmallInteger)  # seat 0 or 1
    points: Mapped[int | None]  # points the winner scored in the deciding game
    result_kind: Mapped[ResultKind | None] = mapped_column(_enum(ResultKind, "result_kind"))

    created_at: Mapped[Timestamp]
    updated_at: Mapped[Timestamp] = mapped_column(onupdate=utcnow)
    finished_at: Mapped[datetime | None]
    # The move timer: when the player to act runs out of time. Only active games have one, so the
    # sweeper's "deadline <= now" is a short index range.
    deadline: Mapped[datetime | None] = mapped_column(index=True)
    # How far the sweeper got with the current deadline: 0 nothing sent, 1 reminder sent,
    # 2 the waiting player was told he may claim the game. Reset by every state change.
    timer_stage: Mapped[int] = mapped_column(SmallInteger, default=0, server_default="0")
    # The post-game review (engine.analysis.Review.to_dict), computed once on request.
    review: Mapped[dict[str, Any] | None]

    # Provably fair dice (the integrity issue): the SHA-256 commitment is published at the start,
    # the secret seed is kept here and shown only once the game is over, each roll derives from
    # the seed and the counter.
    dice_commitment: Mapped[str | None] = mapped_column(String(64))
    dice_seed: Mapped[str | None] = mapped_column(String(64))
    dice_counter: Mapped[int] = mapped_column(default=0)
    dice_revealed_at: Mapped[datetime | None]

    # Every UPDATE of the row is a compare-and-swap on ``version`` (WHERE version = <read>);
    # the repositories raise it themselves, once per state change (see db.games).
    __mapper_args__ = {  # noqa: RUF012 (read once by the mapper)
        "version_id_col": version,
        "version_id_generator": False,
    }

    def player_id(self, seat: int) -> int | None:
        """The player id in ``seat`` (0 or 1); None for the computer."""
        return self.player0_id if seat == 0 else self.player1_id

    def seat_of(self, player_id: int) -> int | None:
        """The seat of ``player_id`` in this game, or None when he does not play in it."""
        if self.player0_id == player_id:
            return 0
        if self.player1_id == player_id:
            return 1
        return None


class GameEvent(Base):
    """One event of a game's move log, in order: a roll, a play, a cube action, a resignation
    and its answer, a game's end. ``kind`` is the engine's name for the event."""

    __tablename__ = "game_events"
    __table_args__ = (
        # A player's dice statistics read only this index (revision 0002): his rolls, by value.
        Index(None, "actor_id", "kind", "die1", "die2"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(primary_key=True)  # 0, 1, 2 ... within the game row
    game_no: Mapped[int] = mapped_column(SmallInteger, default=1)  # the game within a match
    player: Mapped[int | None] = mapped_column(SmallInteger)  # seat, None for neutral events
    # The person who acted (None for the computer): per-player statistics read the log by it.
    actor_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(16))
    die1: Mapped[int | None] = mapped_column(SmallInteger)
    die2: Mapped[int | None] = mapped_column(SmallInteger)
    play: Mapped[str | None] = mapped_column(String(100))  # notation: "13/7 8/7*"
    cube_value: Mapped[int | None]
    points: Mapped[int | None]
    position_id: Mapped[str] = mapped_column(String(14))  # after the event
    match_id: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[Timestamp]


class Challenge(Base):
    __tablename__ = "challenges"
    __table_args__ = (
        Index(None, "status", "expires_at"),  # the expiry sweep
        Index(None, "challenged_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    challenger_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    challenged_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    match_length: Mapped[int] = mapped_column(default=0)
    cube: Mapped[bool] = mapped_column(Boolean, default=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    status: Mapped[ChallengeStatus] = mapped_column(
        _enum(ChallengeStatus, "status"), default=ChallengeStatus.PENDING
    )
    created_at: Mapped[Timestamp]
    expires_at: Mapped[datetime]
    resolved_at: Mapped[datetime | None]
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))


class Rating(Base):
    """A player's FIBS rating; a row appears with his first rated match."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    rating: Mapped[float] = mapped_column(Double, index=True)
    experience: Mapped[int] = mapped_column(default=0)
    wins: Mapped[int] = mapped_column(default=0)
    losses: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[Timestamp]


class RatingHistory(Base):
    __tablename__ = "rating_history"
    __table_args__ = (Index(None, "player_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    opponent_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    won: Mapped[bool] = mapped_column(Boolean)
    match_length: Mapped[int]
    rating_before: Mapped[float] = mapped_column(Double)
    rating_after: Mapped[float] = mapped_column(Double)
    experience_after: Mapped[int]
    created_at: Mapped[Timestamp]


class ComputerRecord(Base):
    """A player's record against one computer level (no rating involved)."""

    __tablename__ = "computer_records"

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    level: Mapped[str] = mapped_column(String(32), primary_key=True)
    wins: Mapped[int] = mapped_column(default=0)
    losses: Mapped[int] = mapped_column(default=0)
    points_won: Mapped[int] = mapped_column(default=0)
    points_lost: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[Timestamp]


# -- Puzzles and the position of the day (issue 18) ----------------------------------------------


class Puzzle(Base):
    """A decision that lost at least the puzzle threshold in a reviewed game, or a starter puzzle.

    ``key`` identifies the moment (``<position id>:<match id>:<decision>``), so the same decision
    is stored once whoever reviews it. ``source_player_id`` is who made the blunder (None for the
    computer and the starter set): it is never shown, only used so that nobody is served his own
    blunder. ``choices`` is the review's analysis: ``[{"answer", "equity", "steps"?, "cube"?}]``,
    best first, equities at the review's depth.
    """

    __tablename__ = "puzzles"
    __table_args__ = (Index(None, "rating"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(80), unique=True)
    kind: Mapped[str] = mapped_column(String(8))  # "checker" or "cube"
    decision: Mapped[str] = mapped_column(String(16))  # the review's kind: "move", "take"...
    position_id: Mapped[str] = mapped_column(String(20))
    match_id: Mapped[str] = mapped_column(String(20))
    xgid: Mapped[str] = mapped_column(String(80))
    dice: Mapped[str | None] = mapped_column(String(3))  # "6-4", None for a cube decision
    context: Mapped[dict[str, Any]]
    played: Mapped[str] = mapped_column(String(100))
    choices: Mapped[dict[str, Any]]  # {"choices": [...], "plies": n}
    error: Mapped[float] = mapped_column(Double)
    source_game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), index=True
    )
    source_player_id: Mapped[int | None] = mapped_column(BigInteger)
    rating: Mapped[float] = mapped_column(Double, default=1500.0)
    rd: Mapped[float] = mapped_column(Double, default=350.0)
    volatility: Mapped[float] = mapped_column(Double, default=0.06)
    attempts: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[Timestamp]


class PuzzleRating(Base):
    """A player's puzzle rating (Glicko-2) and streak."""

    __tablename__ = "puzzle_ratings"

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    rating: Mapped[float] = mapped_column(Double, index=True)
    rd: Mapped[float] = mapped_column(Double)
    volatility: Mapped[float] = mapped_column(Double)
    solved: Mapped[int] = mapped_column(default=0)
    attempts: Mapped[int] = mapped_column(default=0)
    streak: Mapped[int] = mapped_column(default=0)
    best_streak: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[Timestamp]


class PuzzleAttempt(Base):
    """One answer to a puzzle (``/puzzle``): the first answer counts, once."""

    __tablename__ = "puzzle_attempts"

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    puzzle_id: Mapped[int] = mapped_column(
        ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True
    )
    guild_id: Mapped[int | None] = mapped_column(BigInteger, index=True)
    answer: Mapped[str] = mapped_column(String(100))
    lost: Mapped[float] = mapped_column(Double)
    correct: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[Timestamp]


class DailyChannel(Base):
    """Where and when a server gets its position of the day (the hour in its time zone)."""

    __tablename__ = "daily_channels"

    guild_id: Mapped[Snowflake] = mapped_column(primary_key=True)
    channel_id: Mapped[Snowflake]
    hour: Mapped[int] = mapped_column(SmallInteger)
    timezone: Mapped[str] = mapped_column(String(64))
    updated_at: Mapped[Timestamp]


class DailyPost(Base):
    """The position of the day of one server: one row per (server, day), claimed with an
    insert, so the post goes out once whichever process sweeps and however often."""

    __tablename__ = "daily_posts"
    __table_args__ = (UniqueConstraint("guild_id", "day"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[Snowflake]
    day: Mapped[date] = mapped_column(Date)
    channel_id: Mapped[Snowflake]
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
    created_at: Mapped[Timestamp]


class DailyVote(Base):
    """A member's private answer to a position of the day (the first one counts)."""

    __tablename__ = "daily_votes"

    post_id: Mapped[int] = mapped_column(
        ForeignKey("daily_posts.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    answer: Mapped[str] = mapped_column(String(100))
    created_at: Mapped[Timestamp]

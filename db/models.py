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
from sqlalchemy import false as sa_false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, query_expression

from db.types import UTCDateTime, utcnow

__all__ = [
    "ActiveSeat",
    "Base",
    "Challenge",
    "ChallengeState",
    "ChallengeStatus",
    "ComputerRecord",
    "ConsultVote",
    "Consultation",
    "DailyChannel",
    "DailyPost",
    "DailyVote",
    "DrillAnswer",
    "DrillCard",
    "DrillSend",
    "EntrantStatus",
    "Game",
    "GameEvent",
    "GameStatus",
    "GuildMember",
    "GuildSettings",
    "Ladder",
    "LadderChallenge",
    "LadderMember",
    "LadderStatus",
    "MatchStatus",
    "Player",
    "Puzzle",
    "PuzzleAttempt",
    "PuzzleRating",
    "Rating",
    "RatingHistory",
    "ResultKind",
    "Tournament",
    "TournamentEntrant",
    "TournamentMatch",
    "TournamentStatus",
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
    # When he last challenged someone: the cooldown between two challenges (revision 0008).
    challenged_at: Mapped[datetime | None]


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


class GuildSettings(Base):
    """A Discord server's settings, changed by its managers (``/server``); a server without a
    row has the defaults."""

    __tablename__ = "guild_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    threads: Mapped[bool] = mapped_column(Boolean, default=True, server_default=text("true"))
    updated_at: Mapped[Timestamp]


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
    # Play together (revision 0009): a game played in its own thread has the thread as its
    # channel and remembers the channel the thread was opened from (its result is told there);
    # the board message is what a turn notice and /games link to.
    parent_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    board_message_id: Mapped[int | None] = mapped_column(BigInteger)
    # The deadline (one per turn between two people) whose "your turn" notice was sent: a
    # notice is claimed by an atomic UPDATE, so it goes out once whatever the processes.
    noticed_deadline: Mapped[datetime | None]

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
    # Seconds the player on roll had left for his move when he offered something (a double, a
    # resignation) that his opponent now answers with a deadline of his own; the answer gives
    # them back to him (revision 0008). An offer neither stops nor restarts his clock.
    time_left_held: Mapped[float | None] = mapped_column(Double)
    # Started from a Position ID (/play position:...): practice, kept out of every record,
    # rating and leaderboard (revision 0008).
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())
    # Standard backgammon, nackgammon or hypergammon (engine.Variant's value; revision 0013).
    variant: Mapped[str] = mapped_column(String(16), default="standard", server_default="standard")
    # The post-game review (engine.analysis.Review.to_dict), computed once on request.
    review: Mapped[dict[str, Any] | None]

    # Provably fair dice (the integrity issue): the SHA-256 commitment is published at the start,
    # the secret seed is kept here and shown only once the game is over, each roll derives from
    # the seed and the counter.
    dice_commitment: Mapped[str | None] = mapped_column(String(64))
    dice_seed: Mapped[str | None] = mapped_column(String(64))
    dice_counter: Mapped[int] = mapped_column(default=0)
    dice_revealed_at: Mapped[datetime | None]

    # Whether the game is a tournament's match: no column, read with the row by the loaders of
    # an action (db.games.get_game: ``EXISTS`` on tournament_matches); None when the query that
    # loaded the row did not ask.
    in_tournament: Mapped[bool | None] = query_expression()

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


class ActiveSeat(Base):
    """A person seated in an active game: at most one per channel, whatever the seat (revision
    0006). Written and removed only by triggers on ``games``, in the transaction that creates
    the game or ends it, so the database refuses a second active game for him in the channel.
    """

    __tablename__ = "active_seats"

    channel_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)


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
        # One pending challenge per pair of players, whoever challenged whom, even when two
        # challenges race (revision 0008; the service also refuses it first, with a message).
        Index(
            "uq_challenges_pending_pair",
            "pair_low",
            "pair_high",
            unique=True,
            sqlite_where=text("status = 'pending'"),
            postgresql_where=text("status = 'pending'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    challenger_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    challenged_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    match_length: Mapped[int] = mapped_column(default=0)
    cube: Mapped[bool] = mapped_column(Boolean, default=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=True)
    # Standard backgammon, nackgammon or hypergammon (engine.Variant's value; revision 0013).
    variant: Mapped[str] = mapped_column(String(16), default="standard", server_default="standard")
    status: Mapped[ChallengeStatus] = mapped_column(
        _enum(ChallengeStatus, "status"), default=ChallengeStatus.PENDING
    )
    created_at: Mapped[Timestamp]
    expires_at: Mapped[datetime]
    resolved_at: Mapped[datetime | None]
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    # The two players, smaller id first, whoever challenged whom: the key of the index above
    # (written by db.challenges.create_challenge; revision 0008 filled the older rows).
    pair_low: Mapped[int | None] = mapped_column(BigInteger)
    pair_high: Mapped[int | None] = mapped_column(BigInteger)


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
    # Standard backgammon, nackgammon or hypergammon (engine.Variant's value; revision 0013).
    variant: Mapped[str] = mapped_column(String(16), default="standard", server_default="standard")


class VariantRating(Base):
    """A player's FIBS rating in a variant (nackgammon, hypergammon): the standard one stays in
    :class:`Rating`, which a variant game never changes (revision 0013)."""

    __tablename__ = "variant_ratings"
    __table_args__ = (Index("ix_variant_ratings_rating", "variant", "rating"),)

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    variant: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Double)
    experience: Mapped[int] = mapped_column(default=0)
    wins: Mapped[int] = mapped_column(default=0)
    losses: Mapped[int] = mapped_column(default=0)
    updated_at: Mapped[Timestamp]


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


# -- Tournaments (issue 17) -----------------------------------------------------------------------


class TournamentStatus(enum.StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class EntrantStatus(enum.StrEnum):
    ACTIVE = "active"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"


class MatchStatus(enum.StrEnum):
    PLAYING = "playing"  # its game is on
    FINISHED = "finished"  # played to the end (or decided by a walkover: no game)
    BYE = "bye"  # a player sits out the round (player1 is None)
    VOID = "void"  # the tournament was cancelled while it was on


class Tournament(Base):
    """A tournament in one server's channel. ``version`` goes up with every change of the
    tournament (an entrant, a round paired, a result): every writer first bumps it, which
    serializes the writers of one tournament on its row (see :mod:`db.tournaments`)."""

    __tablename__ = "tournaments"
    __table_args__ = (
        Index(None, "guild_id", "id"),
        Index(None, "status", "starts_at"),
        CheckConstraint("match_length >= 1", name="match_length"),
        # One open tournament per server and name, even when two creations race (the service
        # checks first; this makes the loser of a race fail instead of opening a second one).
        Index(
            "uq_tournaments_open_name",
            "guild_id",
            "name_key",
            unique=True,
            sqlite_where=text("status IN ('registering', 'running')"),
            postgresql_where=text("status IN ('registering', 'running')"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    # The name as compared (db.tournaments.name_key), under the index above.
    name_key: Mapped[str | None] = mapped_column(String(100))
    lang: Mapped[str] = mapped_column(String(8), default="en")  # of its channel's messages
    format: Mapped[str] = mapped_column(String(16))  # bot.tournaments.Format
    organizer_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    match_length: Mapped[int] = mapped_column(default=1)
    cube: Mapped[bool] = mapped_column(Boolean, default=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    # The variant every match of the tournament is played in (revision 0013).
    variant: Mapped[str] = mapped_column(String(16), default="standard", server_default="standard")
    rounds: Mapped[int | None]  # Swiss: the number of rounds
    minutes: Mapped[int | None]  # arena: its length
    max_players: Mapped[int | None]
    clock_delay: Mapped[int | None]  # seconds per move, None without a clock
    clock_bank: Mapped[int | None]  # seconds of time bank per point of the match
    seed: Mapped[int] = mapped_column(BigInteger, default=0)  # the random draw of the seeding
    status: Mapped[TournamentStatus] = mapped_column(
        _enum(TournamentStatus, "status"), default=TournamentStatus.REGISTERING
    )
    starts_at: Mapped[datetime | None]
    started_at: Mapped[datetime | None]
    ends_at: Mapped[datetime | None]  # arena: no new pairing after it
    finished_at: Mapped[datetime | None]
    champion_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.id"))
    results: Mapped[int] = mapped_column(default=0)  # results so far: the order of the next
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[Timestamp]
    event_id: Mapped[int | None] = mapped_column(BigInteger)  # its Discord scheduled event


class TournamentEntrant(Base):
    """A player registered in a tournament; ``seed`` is his place in the seeding (from 1)."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    joined: Mapped[int]  # the order of registration
    seed: Mapped[int | None]
    rating: Mapped[float] = mapped_column(Double, default=1500.0)  # at the start
    status: Mapped[EntrantStatus] = mapped_column(
        _enum(EntrantStatus, "status"), default=EntrantStatus.ACTIVE
    )
    joined_at: Mapped[Timestamp]


class TournamentMatch(Base):
    """One match of a tournament: ``(round, slot)`` is unique, so a pairing cannot be stored
    twice; its game (a usual game row) is unique too. A bye has no second player and no game;
    a walkover (the opponent withdrew) is finished without a game."""

    __tablename__ = "tournament_matches"
    __table_args__ = (
        UniqueConstraint("tournament_id", "round", "slot"),
        Index(None, "tournament_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int]
    slot: Mapped[int]
    player0_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    player1_id: Mapped[int | None] = mapped_column(BigInteger, ForeignKey("players.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), unique=True)
    status: Mapped[MatchStatus] = mapped_column(
        _enum(MatchStatus, "status"), default=MatchStatus.PLAYING
    )
    winner_id: Mapped[int | None] = mapped_column(BigInteger)
    winner_points: Mapped[int | None]
    loser_points: Mapped[int | None]
    win_type: Mapped[int | None] = mapped_column(SmallInteger)  # bot.tournaments.WinType
    result_no: Mapped[int | None]  # the order the results came in (arena streaks)
    # The clock, when the tournament has one: each player's time bank left (seconds), and
    # since when the player to act has been thinking.
    bank0: Mapped[float | None] = mapped_column(Double)
    bank1: Mapped[float | None] = mapped_column(Double)
    clock_since: Mapped[datetime | None]
    created_at: Mapped[Timestamp]
    finished_at: Mapped[datetime | None]

    def other(self, player_id: int) -> int | None:
        """The opponent of ``player_id`` in this match."""
        return self.player1_id if self.player0_id == player_id else self.player0_id


# -- Ladders (issue 32) ----------------------------------------------------------------------------


class LadderStatus(enum.StrEnum):
    OPEN = "open"
    CLOSED = "closed"  # the season is over: its rungs and results kept as they were (archived)


class ChallengeState(enum.StrEnum):
    PLAYING = "playing"  # its game is on
    FINISHED = "finished"  # played (or forfeited) to a winner
    VOID = "void"  # ended without a winner (the game expired, the season closed)


class Ladder(Base):
    """One season of a server's ladder, in one channel. ``version`` goes up with every change
    (a member, a challenge, a result, a drop): every writer first bumps it, which serializes the
    writers of one ladder on its row (see :mod:`db.ladders`)."""

    __tablename__ = "ladders"
    __table_args__ = (
        Index(None, "guild_id", "id"),
        CheckConstraint("reach >= 1", name="reach"),
        # One open ladder per server and name, even when two creations race.
        Index(
            "uq_ladders_open_name",
            "guild_id",
            "name_key",
            unique=True,
            sqlite_where=text("status = 'open'"),
            postgresql_where=text("status = 'open'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100))
    season: Mapped[int] = mapped_column(default=1)  # the seasons of one name, from 1
    lang: Mapped[str] = mapped_column(String(8), default="en")  # of its channel's messages
    organizer_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    match_length: Mapped[int] = mapped_column(default=0)  # 0: a money game
    cube: Mapped[bool] = mapped_column(Boolean, default=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    reach: Mapped[int] = mapped_column(default=3)  # rungs above one may challenge
    deadline_hours: Mapped[int] = mapped_column(default=72)  # to play a challenge
    inactive_days: Mapped[int] = mapped_column(default=14)  # then one rung down; 0: never
    # The variant every challenge's game is played in (engine.Variant's value).
    variant: Mapped[str] = mapped_column(String(16), default="standard", server_default="standard")
    status: Mapped[LadderStatus] = mapped_column(
        _enum(LadderStatus, "status"), default=LadderStatus.OPEN
    )
    results: Mapped[int] = mapped_column(default=0)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[Timestamp]
    closed_at: Mapped[datetime | None]


class LadderMember(Base):
    """A member of a ladder and his rung (from 1 at the top). The rungs of a ladder's members
    are always 1 to N, each once: they are rewritten together, under the ladder's lock."""

    __tablename__ = "ladder_members"

    ladder_id: Mapped[int] = mapped_column(
        ForeignKey("ladders.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"), primary_key=True)
    rung: Mapped[int]
    joined_at: Mapped[Timestamp]
    active_at: Mapped[Timestamp]  # joined, or last played a challenge; the drops count from it


class LadderChallenge(Base):
    """A challenge on a ladder, played as a usual game (unique: one challenge per game). A player
    has at most one challenge in play on a ladder, as challenger or as the one challenged: the
    service checks it under the ladder's lock, and the two partial unique indexes make the loser
    of any race fail."""

    __tablename__ = "ladder_challenges"
    __table_args__ = (
        Index(None, "ladder_id", "id"),
        Index(
            "uq_ladder_challenges_challenger",
            "ladder_id",
            "challenger_id",
            unique=True,
            sqlite_where=text("state = 'playing'"),
            postgresql_where=text("state = 'playing'"),
        ),
        Index(
            "uq_ladder_challenges_defender",
            "ladder_id",
            "defender_id",
            unique=True,
            sqlite_where=text("state = 'playing'"),
            postgresql_where=text("state = 'playing'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ladder_id: Mapped[int] = mapped_column(ForeignKey("ladders.id", ondelete="CASCADE"))
    challenger_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    defender_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), unique=True)
    state: Mapped[ChallengeState] = mapped_column(
        _enum(ChallengeState, "state"), default=ChallengeState.PLAYING
    )
    deadline: Mapped[datetime]
    winner_id: Mapped[int | None] = mapped_column(BigInteger)
    forfeit: Mapped[bool] = mapped_column(Boolean, default=False)  # decided by the deadline
    # The rungs before the result: the challenger's and the one challenged's.
    from_rung: Mapped[int | None]
    to_rung: Mapped[int | None]
    result_no: Mapped[int | None]
    created_at: Mapped[Timestamp]
    finished_at: Mapped[datetime | None]

    def other(self, player_id: int) -> int:
        """The other player of this challenge."""
        return self.defender_id if self.challenger_id == player_id else self.challenger_id


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


class DrillCard(Base):
    """One of a player's own blunders (a puzzle made of his reviewed games) on his drill
    schedule: its FSRS state (``fsrs.Card.to_dict()``, opaque here) and when it is due next."""

    __tablename__ = "drill_cards"
    __table_args__ = (UniqueConstraint("player_id", "puzzle_id"), Index(None, "player_id", "due"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"), index=True)
    state: Mapped[dict[str, Any]]
    due: Mapped[Timestamp]
    reviews: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[Timestamp]


class DrillAnswer(Base):
    """An answer to a drill: once per card and due date (the card's ``due`` when it was asked,
    unique with the card), so a double click or a second process changes the schedule once.
    ``day`` is the player's own date (his time zone): the streak counts days with an answer."""

    __tablename__ = "drill_answers"
    __table_args__ = (UniqueConstraint("card_id", "due"), Index(None, "player_id", "day"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    card_id: Mapped[int] = mapped_column(ForeignKey("drill_cards.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    due: Mapped[Timestamp]
    day: Mapped[date] = mapped_column(Date)
    answer: Mapped[str] = mapped_column(String(100))
    correct: Mapped[bool] = mapped_column(Boolean)
    lost: Mapped[float] = mapped_column(Double)
    created_at: Mapped[Timestamp]


class DrillSend(Base):
    """A player's daily drill message of one day (his date), claimed with an insert: sent once
    whichever process sweeps and however often."""

    __tablename__ = "drill_sends"

    player_id: Mapped[int] = mapped_column(
        BigInteger, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    created_at: Mapped[Timestamp]


class Consultation(Base):
    """A channel's team against the computer (``/consult``, issue 32): its game, and the vote
    open on the team's decision, if any. ``decision`` counts the team's votes from 1 (0: none
    yet); ``kind`` is ``play``, ``double`` or ``take``; ``choices`` the answers in the computer's
    order (plays in notation, or the cube's words), plays typed with ``/move`` appended;
    ``shown`` how many of them the poll shows. ``version`` goes up with every change: a vote and
    the closing of the vote take the row first (:func:`db.locking.lock_row`), so a vote is
    closed once and no vote lands in a closed one."""

    __tablename__ = "consultations"
    __table_args__ = (Index(None, "status", "closes_at"), Index(None, "channel_id", "status"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    lang: Mapped[str] = mapped_column(String(8), default="en")
    level: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int] = mapped_column(SmallInteger, default=0)  # the team's
    seconds: Mapped[int] = mapped_column(Integer)  # how long each vote is open
    status: Mapped[str] = mapped_column(String(16), default="open")  # open, finished
    decision: Mapped[int] = mapped_column(Integer, default=0)
    kind: Mapped[str | None] = mapped_column(String(8))
    choices: Mapped[list[str] | None] = mapped_column(JSON)
    shown: Mapped[int] = mapped_column(Integer, default=0)
    best: Mapped[int] = mapped_column(Integer, default=0)  # the computer's choice
    closes_at: Mapped[datetime | None]
    message_id: Mapped[int | None] = mapped_column(BigInteger)  # the poll's, once posted
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[Timestamp]


class ConsultVote(Base):
    """One person's vote on one decision of a consultation: one row per person and decision
    (a second vote replaces the first, as a Discord poll lets one change a vote); ``best``
    records whether it was the computer's choice, for the voters' list at the end."""

    __tablename__ = "consult_votes"
    __table_args__ = (UniqueConstraint("consultation_id", "decision", "player_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    consultation_id: Mapped[int] = mapped_column(ForeignKey("consultations.id", ondelete="CASCADE"))
    decision: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(BigInteger, ForeignKey("players.id", ondelete="CASCADE"))
    choice: Mapped[int] = mapped_column(Integer)
    best: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[Timestamp]

"""The first schema: players, guild activity, games and their move log, challenges, ratings and
their history, records against the computer.

Revision ID: 0001
Revises:
Create Date: 2026-11-30 13:41:26.513310
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("preferences", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_table(
        "computer_records",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("level", sa.String(length=32), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("points_won", sa.Integer(), nullable=False),
        sa.Column("points_lost", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_computer_records_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "level", name=op.f("pk_computer_records")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player0_id", sa.BigInteger(), nullable=True),
        sa.Column("player1_id", sa.BigInteger(), nullable=True),
        sa.Column("computer_level", sa.String(length=32), nullable=True),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("cube", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("position_id", sa.String(length=14), nullable=False),
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("turn", sa.SmallInteger(), nullable=True),
        sa.Column("event_count", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "active",
                "finished",
                "abandoned",
                "expired",
                name="status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("winner", sa.SmallInteger(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column(
            "result_kind",
            sa.Enum(
                "single",
                "gammon",
                "backgammon",
                "resign",
                "drop",
                "timeout",
                name="result_kind",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("dice_commitment", sa.String(length=64), nullable=True),
        sa.Column("dice_seed", sa.String(length=64), nullable=True),
        sa.Column("dice_counter", sa.Integer(), nullable=False),
        sa.Column("dice_revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "(computer_level IS NULL AND player0_id IS NOT NULL AND player1_id IS NOT NULL)"
            " OR (computer_level IS NOT NULL"
            " AND (player0_id IS NULL OR player1_id IS NULL)"
            " AND NOT (player0_id IS NULL AND player1_id IS NULL))",
            name=op.f("ck_games_seats"),
        ),
        sa.CheckConstraint("match_length >= 0", name=op.f("ck_games_match_length")),
        sa.CheckConstraint("turn IS NULL OR turn IN (0, 1)", name=op.f("ck_games_turn")),
        sa.CheckConstraint("winner IS NULL OR winner IN (0, 1)", name=op.f("ck_games_winner")),
        sa.ForeignKeyConstraint(
            ["player0_id"], ["players.id"], name=op.f("fk_games_player0_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["player1_id"], ["players.id"], name=op.f("fk_games_player1_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_channel_id"), ["channel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_deadline"), ["deadline"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_guild_id"), ["guild_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_games_player0_id_id"), ["player0_id", "id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_games_player1_id_id"), ["player1_id", "id"], unique=False
        )

    op.create_table(
        "guild_members",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_guild_members_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("guild_id", "player_id", name=op.f("pk_guild_members")),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_ratings_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_ratings")),
    )
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ratings_rating"), ["rating"], unique=False)

    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("challenger_id", sa.BigInteger(), nullable=False),
        sa.Column("challenged_id", sa.BigInteger(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("cube", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "pending",
                "accepted",
                "declined",
                "expired",
                "cancelled",
                name="status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["challenged_id"], ["players.id"], name=op.f("fk_challenges_challenged_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["challenger_id"], ["players.id"], name=op.f("fk_challenges_challenger_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_challenges_game_id_games")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
    )
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_challenges_challenged_id_status"),
            ["challenged_id", "status"],
            unique=False,
        )
        batch_op.create_index(
            batch_op.f("ix_challenges_status_expires_at"), ["status", "expires_at"], unique=False
        )

    op.create_table(
        "game_events",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("game_no", sa.SmallInteger(), nullable=False),
        sa.Column("player", sa.SmallInteger(), nullable=True),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("die1", sa.SmallInteger(), nullable=True),
        sa.Column("die2", sa.SmallInteger(), nullable=True),
        sa.Column("play", sa.String(length=100), nullable=True),
        sa.Column("cube_value", sa.Integer(), nullable=True),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("position_id", sa.String(length=14), nullable=False),
        sa.Column("match_id", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["players.id"], name=op.f("fk_game_events_actor_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_events_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_game_events")),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.BigInteger(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("rating_before", sa.Double(), nullable=False),
        sa.Column("rating_after", sa.Double(), nullable=False),
        sa.Column("experience_after", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rating_history_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"], ["players.id"], name=op.f("fk_rating_history_opponent_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_rating_history_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
    )
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rating_history_game_id"), ["game_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_rating_history_player_id_id"), ["player_id", "id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_rating_history_player_id_id"))
        batch_op.drop_index(batch_op.f("ix_rating_history_game_id"))

    op.drop_table("rating_history")
    op.drop_table("game_events")
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_challenges_status_expires_at"))
        batch_op.drop_index(batch_op.f("ix_challenges_challenged_id_status"))

    op.drop_table("challenges")
    with op.batch_alter_table("ratings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ratings_rating"))

    op.drop_table("ratings")
    op.drop_table("guild_members")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_player1_id_id"))
        batch_op.drop_index(batch_op.f("ix_games_player0_id_id"))
        batch_op.drop_index(batch_op.f("ix_games_guild_id"))
        batch_op.drop_index(batch_op.f("ix_games_deadline"))
        batch_op.drop_index(batch_op.f("ix_games_channel_id"))

    op.drop_table("games")
    op.drop_table("computer_records")
    op.drop_table("players")

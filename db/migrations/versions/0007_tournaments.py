"""Tournaments (issue 17): the tournaments, their entrants and their matches (each linked to
its game). New tables only.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 15:31:13.677355
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("organizer_id", sa.BigInteger(), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("cube", sa.Boolean(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("max_players", sa.Integer(), nullable=True),
        sa.Column("clock_delay", sa.Integer(), nullable=True),
        sa.Column("clock_bank", sa.Integer(), nullable=True),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "registering",
                "running",
                "finished",
                "cancelled",
                name="status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("champion_id", sa.BigInteger(), nullable=True),
        sa.Column("results", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("match_length >= 1", name=op.f("ck_tournaments_match_length")),
        sa.ForeignKeyConstraint(
            ["champion_id"], ["players.id"], name=op.f("fk_tournaments_champion_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["organizer_id"], ["players.id"], name=op.f("fk_tournaments_organizer_id_players")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournaments_guild_id_id"), ["guild_id", "id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_tournaments_status_starts_at"), ["status", "starts_at"], unique=False
        )

    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("joined", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column(
            "status",
            sa.Enum(
                "active",
                "withdrawn",
                "disqualified",
                name="status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_tournament_entrants_player_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "player_id", name=op.f("pk_tournament_entrants")),
    )
    op.create_table(
        "tournament_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("player0_id", sa.BigInteger(), nullable=False),
        sa.Column("player1_id", sa.BigInteger(), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column(
            "status",
            sa.Enum(
                "playing",
                "finished",
                "bye",
                "void",
                name="status",
                native_enum=False,
                create_constraint=True,
                length=16,
            ),
            nullable=False,
        ),
        sa.Column("winner_id", sa.BigInteger(), nullable=True),
        sa.Column("winner_points", sa.Integer(), nullable=True),
        sa.Column("loser_points", sa.Integer(), nullable=True),
        sa.Column("win_type", sa.SmallInteger(), nullable=True),
        sa.Column("result_no", sa.Integer(), nullable=True),
        sa.Column("bank0", sa.Double(), nullable=True),
        sa.Column("bank1", sa.Double(), nullable=True),
        sa.Column("clock_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_tournament_matches_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["player0_id"], ["players.id"], name=op.f("fk_tournament_matches_player0_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["player1_id"], ["players.id"], name=op.f("fk_tournament_matches_player1_id_players")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_matches_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_matches")),
        sa.UniqueConstraint("game_id", name=op.f("uq_tournament_matches_game_id")),
        sa.UniqueConstraint(
            "tournament_id",
            "round",
            "slot",
            name=op.f("uq_tournament_matches_tournament_id_round_slot"),
        ),
    )
    with op.batch_alter_table("tournament_matches", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_matches_tournament_id_status"),
            ["tournament_id", "status"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_matches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_matches_tournament_id_status"))

    op.drop_table("tournament_matches")
    op.drop_table("tournament_entrants")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_status_starts_at"))
        batch_op.drop_index(batch_op.f("ix_tournaments_guild_id_id"))

    op.drop_table("tournaments")

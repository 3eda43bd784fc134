"""Consultation games (issue 32, item 2): a channel's team against the computer, the vote open
on its decision, and the votes (one per person and decision). New tables only.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 13:55:00.000000
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "consultations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=True),
        sa.Column("lang", sa.String(length=8), nullable=False),
        sa.Column("level", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.SmallInteger(), nullable=False),
        sa.Column("seconds", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("decision", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=True),
        sa.Column("choices", sa.JSON(), nullable=True),
        sa.Column("shown", sa.Integer(), nullable=False),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_consultations_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_consultations")),
        sa.UniqueConstraint("game_id", name=op.f("uq_consultations_game_id")),
    )
    with op.batch_alter_table("consultations", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_consultations_status_closes_at"), ["status", "closes_at"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_consultations_channel_id_status"), ["channel_id", "status"], unique=False
        )
    op.create_table(
        "consult_votes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("consultation_id", sa.Integer(), nullable=False),
        sa.Column("decision", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger(), nullable=False),
        sa.Column("choice", sa.Integer(), nullable=False),
        sa.Column("best", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["consultation_id"],
            ["consultations.id"],
            name=op.f("fk_consult_votes_consultation_id_consultations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_consult_votes_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_consult_votes")),
        sa.UniqueConstraint(
            "consultation_id",
            "decision",
            "player_id",
            name=op.f("uq_consult_votes_consultation_id_decision_player_id"),
        ),
    )


def downgrade() -> None:
    op.drop_table("consult_votes")
    with op.batch_alter_table("consultations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_consultations_channel_id_status"))
        batch_op.drop_index(batch_op.f("ix_consultations_status_closes_at"))
    op.drop_table("consultations")

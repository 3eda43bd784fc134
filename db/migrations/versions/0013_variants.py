"""Nackgammon and hypergammon: the variant of each game, challenge and tournament, and a rating
per player and variant (a variant game never changes the standard rating, kept in ``ratings``).

Every existing row is a standard game (the columns' server default). The rating history says
which variant each change belongs to, so the standard chart and stats leave the others out.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04 10:45:00
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TABLES = ("games", "challenges", "tournaments", "rating_history")


def upgrade() -> None:
    for table in _TABLES:
        op.add_column(
            table,
            sa.Column("variant", sa.String(16), nullable=False, server_default="standard"),
        )
    op.create_table(
        "variant_ratings",
        sa.Column(
            "player_id",
            sa.BigInteger(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("variant", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_variant_ratings_rating", "variant_ratings", ["variant", "rating"])


def downgrade() -> None:
    op.drop_index("ix_variant_ratings_rating", table_name="variant_ratings")
    op.drop_table("variant_ratings")
    for table in reversed(_TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("variant")
    if op.get_bind().dialect.name == "sqlite":
        # Rebuilding ``games`` dropped the triggers of revision 0006 with the old table.
        import_module("db.migrations.versions.0006_active_seats").create_triggers()

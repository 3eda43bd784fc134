"""Tournaments published as Discord scheduled events: the event's id, so that the bot can mark
it started, completed or cancelled with the tournament.

The upgrade only adds a nullable column; the downgrade drops it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 18:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("event_id", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_column("event_id")

"""Games remember how far the move timer's notices went (reminder sent, claim offered), and
cache their post-game review.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("timer_stage", sa.SmallInteger(), server_default="0", nullable=False)
        )
        batch_op.add_column(sa.Column("review", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("review")
        batch_op.drop_column("timer_stage")

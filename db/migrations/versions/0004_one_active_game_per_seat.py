"""At most one active game per player and channel, enforced by the database: two /play or
Accept presses racing each other can no longer open two games in one channel.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 16:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ACTIVE = sa.text("status = 'active'")


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        for name, seat in (
            ("uq_games_active_seat0", "player0_id"),
            ("uq_games_active_seat1", "player1_id"),
        ):
            batch_op.create_index(
                name,
                ["channel_id", seat],
                unique=True,
                sqlite_where=ACTIVE,
                postgresql_where=ACTIVE,
            )


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("uq_games_active_seat1")
        batch_op.drop_index("uq_games_active_seat0")

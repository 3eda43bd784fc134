"""Index the move log by the person who acted, so that a player's dice statistics (the /dice
command) read one index range instead of scanning every stored move.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 14:05:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_events", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_game_events_actor_id_kind_die1_die2"),
            ["actor_id", "kind", "die1", "die2"],
            unique=False,
        )


def downgrade() -> None:
    with op.batch_alter_table("game_events", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_events_actor_id_kind_die1_die2"))

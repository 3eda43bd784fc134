"""Play together: server settings (a thread per game), and what a game needs to be played in
its own thread and followed by its players: the channel its thread was opened from, its board
message (the link in a turn notice or ``/games``) and the turn its "your turn" notice went out
for.

The upgrade only adds (``add_column``, ``create_table``); the downgrade's rebuild of ``games`` on
SQLite puts back the triggers of revision 0006 that it drops.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01 15:30:00
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GAME_COLUMNS = ("parent_channel_id", "board_message_id", "noticed_deadline")


def upgrade() -> None:
    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("threads", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_guild_settings")),
    )
    op.add_column("games", sa.Column("parent_channel_id", sa.BigInteger(), nullable=True))
    op.add_column("games", sa.Column("board_message_id", sa.BigInteger(), nullable=True))
    op.add_column("games", sa.Column("noticed_deadline", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        for column in reversed(GAME_COLUMNS):
            batch_op.drop_column(column)
    if op.get_bind().dialect.name == "sqlite":
        # The rebuild dropped the triggers of revision 0006 with the old table: put them back.
        import_module("db.migrations.versions.0006_active_seats").create_triggers()
    op.drop_table("guild_settings")

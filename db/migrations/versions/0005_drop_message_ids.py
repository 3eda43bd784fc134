"""Drop ``games.message_id`` and ``challenges.message_id``: nothing ever wrote them (a message
is found from its buttons' custom ids, which carry the game and its version, or the
challenge), so the columns only misled.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


TABLES = ("games", "challenges")


def upgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("message_id")


def downgrade() -> None:
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("message_id", sa.BigInteger(), nullable=True))

"""At most one open tournament (registering or running) per server and name, enforced by the
database: two /tournament create with the same name at the same instant could both pass the
service's check and open two.

The name is compared as the service compares it, stripped and casefolded (Python's casefold:
SQLite's ``lower`` folds ASCII only), so it is stored in a column of its own, ``name_key``, under
a partial unique index. Existing rows get their key; where two open tournaments of a server
already share a name, only the oldest gets it (a missing key is never equal to another).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01 22:00:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

OPEN = sa.text("status IN ('registering', 'running')")


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("name_key", sa.String(100), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(
        sa.text("SELECT id, guild_id, name, status FROM tournaments ORDER BY id")
    ).all()
    taken: set[tuple[int | None, str]] = set()
    for row in rows:
        key = row.name.strip().casefold()[:100]
        if row.status in ("registering", "running"):
            if (row.guild_id, key) in taken:
                continue  # a duplicate from before the index: it keeps no key
            taken.add((row.guild_id, key))
        conn.execute(
            sa.text("UPDATE tournaments SET name_key = :key WHERE id = :id"),
            {"key": key, "id": row.id},
        )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(
            "uq_tournaments_open_name",
            ["guild_id", "name_key"],
            unique=True,
            sqlite_where=OPEN,
            postgresql_where=OPEN,
        )


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index("uq_tournaments_open_name")
        batch_op.drop_column("name_key")

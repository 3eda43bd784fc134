"""One active game per player and channel, whatever his seat: a table of the active seats.

Revision 0004's two partial unique indexes, on ``(channel_id, player0_id)`` and
``(channel_id, player1_id)``, miss a player seated 0 in one game and 1 in another of the same
channel (a /play racing an Accept, two crossed challenges accepted at once). ``active_seats``
holds one row per person seated in an active game, keyed ``(channel_id, player_id)``: a second
active game for him in that channel cannot be written, in either seat.

Triggers on ``games`` keep it, in the transaction that writes the game: a row per person when
an active game is inserted, gone when the game stops being active (its status changes) or is
deleted (the foreign key cascades). No code path can forget it.

Existing active games are copied in, newest first; should two of them already break the rule
(the race above happened), the older one keeps playing but has no row for that seat.

SQLite drops a table's triggers when a batch migration rebuilds it: this revision comes after
0005 (which drops ``games.message_id`` in batch mode), and a later revision that alters
``games`` in batch mode must call :func:`create_triggers` again.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 15:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WATCHED = "status, channel_id, player0_id, player1_id"

SQLITE_TRIGGERS = (
    """
    CREATE TRIGGER trg_games_active_seats_insert AFTER INSERT ON games
    WHEN NEW.status = 'active' AND NEW.channel_id IS NOT NULL
    BEGIN
        INSERT INTO active_seats (channel_id, player_id, game_id)
        SELECT NEW.channel_id, NEW.player0_id, NEW.id WHERE NEW.player0_id IS NOT NULL;
        INSERT INTO active_seats (channel_id, player_id, game_id)
        SELECT NEW.channel_id, NEW.player1_id, NEW.id
        WHERE NEW.player1_id IS NOT NULL AND NEW.player1_id IS NOT NEW.player0_id;
    END
    """,
    f"""
    CREATE TRIGGER trg_games_active_seats_update AFTER UPDATE OF {WATCHED} ON games
    BEGIN
        DELETE FROM active_seats WHERE game_id = OLD.id;
        INSERT INTO active_seats (channel_id, player_id, game_id)
        SELECT NEW.channel_id, NEW.player0_id, NEW.id
        WHERE NEW.status = 'active' AND NEW.channel_id IS NOT NULL
        AND NEW.player0_id IS NOT NULL;
        INSERT INTO active_seats (channel_id, player_id, game_id)
        SELECT NEW.channel_id, NEW.player1_id, NEW.id
        WHERE NEW.status = 'active' AND NEW.channel_id IS NOT NULL
        AND NEW.player1_id IS NOT NULL AND NEW.player1_id IS NOT NEW.player0_id;
    END
    """,
)

POSTGRES_TRIGGERS = (
    """
    CREATE FUNCTION games_active_seats() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'UPDATE' THEN
            DELETE FROM active_seats WHERE game_id = OLD.id;
        END IF;
        IF NEW.status = 'active' AND NEW.channel_id IS NOT NULL THEN
            IF NEW.player0_id IS NOT NULL THEN
                INSERT INTO active_seats (channel_id, player_id, game_id)
                VALUES (NEW.channel_id, NEW.player0_id, NEW.id);
            END IF;
            IF NEW.player1_id IS NOT NULL AND NEW.player1_id IS DISTINCT FROM NEW.player0_id
            THEN
                INSERT INTO active_seats (channel_id, player_id, game_id)
                VALUES (NEW.channel_id, NEW.player1_id, NEW.id);
            END IF;
        END IF;
        RETURN NULL;
    END
    $$
    """,
    f"""
    CREATE TRIGGER trg_games_active_seats AFTER INSERT OR UPDATE OF {WATCHED} ON games
    FOR EACH ROW EXECUTE FUNCTION games_active_seats()
    """,
)


def create_triggers() -> None:
    dialect = op.get_bind().dialect.name
    for ddl in POSTGRES_TRIGGERS if dialect == "postgresql" else SQLITE_TRIGGERS:
        op.execute(ddl)


def upgrade() -> None:
    op.create_table(
        "active_seats",
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_active_seats_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("channel_id", "player_id", name=op.f("pk_active_seats")),
    )
    op.create_index(op.f("ix_active_seats_game_id"), "active_seats", ["game_id"], unique=False)
    dialect = op.get_bind().dialect.name
    ignore = "INSERT OR IGNORE" if dialect == "sqlite" else "INSERT"
    conflict = "" if dialect == "sqlite" else " ON CONFLICT DO NOTHING"
    for seat, other in (("player0_id", None), ("player1_id", "player0_id")):
        distinct = "" if other is None else f" AND ({other} IS NULL OR {seat} <> {other})"
        op.execute(
            f"{ignore} INTO active_seats (channel_id, player_id, game_id)"
            f" SELECT channel_id, {seat}, id FROM games"
            f" WHERE status = 'active' AND channel_id IS NOT NULL AND {seat} IS NOT NULL"
            f"{distinct} ORDER BY id DESC{conflict}"
        )
    create_triggers()


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER trg_games_active_seats ON games")
        op.execute("DROP FUNCTION games_active_seats()")
    else:
        op.execute("DROP TRIGGER trg_games_active_seats_update")
        op.execute("DROP TRIGGER trg_games_active_seats_insert")
    op.drop_index(op.f("ix_active_seats_game_id"), table_name="active_seats")
    op.drop_table("active_seats")

"""Issue 20 (items 2, 7, 10): ``games.practice`` keeps games started from a Position ID out of
the records; ``games.time_left_held`` keeps the mover's clock while his opponent answers his
offer; ``players.challenged_at`` times the cooldown between challenges; one pending challenge
per pair of players.

Only ``add_column`` and indexes: the ``games`` table is not rebuilt on SQLite (triggers on it
would be lost).

Existing rows: a game whose move log does not begin with an opening roll was started from a
position (a normal game always begins with one), so it is practice, and its result is taken
back out of the player's record against that computer level. Of several pending challenges
between the same two players, only the newest stays pending; the others expire.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 16:00:00
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENDING = sa.text("status = 'pending'")

games = sa.table(
    "games",
    sa.column("id", sa.Integer),
    sa.column("player0_id", sa.BigInteger),
    sa.column("player1_id", sa.BigInteger),
    sa.column("computer_level", sa.String),
    sa.column("status", sa.String),
    sa.column("winner", sa.Integer),
    sa.column("points", sa.Integer),
    sa.column("practice", sa.Boolean),
)
events = sa.table(
    "game_events",
    sa.column("game_id", sa.Integer),
    sa.column("seq", sa.Integer),
    sa.column("kind", sa.String),
)
records = sa.table(
    "computer_records",
    sa.column("player_id", sa.BigInteger),
    sa.column("level", sa.String),
    sa.column("wins", sa.Integer),
    sa.column("losses", sa.Integer),
    sa.column("points_won", sa.Integer),
    sa.column("points_lost", sa.Integer),
)
challenges = sa.table(
    "challenges",
    sa.column("id", sa.Integer),
    sa.column("challenger_id", sa.BigInteger),
    sa.column("challenged_id", sa.BigInteger),
    sa.column("status", sa.String),
    sa.column("pair_low", sa.BigInteger),
    sa.column("pair_high", sa.BigInteger),
)


def upgrade() -> None:
    op.add_column("games", sa.Column("time_left_held", sa.Double(), nullable=True))
    op.add_column(
        "games",
        sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("players", sa.Column("challenged_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("challenges", sa.Column("pair_low", sa.BigInteger(), nullable=True))
    op.add_column("challenges", sa.Column("pair_high", sa.BigInteger(), nullable=True))
    _mark_practice()
    _uncount_practice()
    _one_pending_per_pair()
    op.create_index(
        "uq_challenges_pending_pair",
        "challenges",
        ["pair_low", "pair_high"],
        unique=True,
        sqlite_where=PENDING,
        postgresql_where=PENDING,
    )


def _mark_practice() -> None:
    opening = sa.exists().where(
        events.c.game_id == games.c.id, events.c.seq == 0, events.c.kind == "opening"
    )
    op.execute(games.update().where(~opening).values(practice=True))


def _uncount_practice() -> None:
    """Take the finished practice games back out of the records per computer level."""
    done = (
        games.c.practice.is_(True)
        & games.c.status.in_(("finished", "abandoned"))
        & (games.c.computer_level == records.c.level)
    )
    won = ((games.c.player0_id == records.c.player_id) & (games.c.winner == 0)) | (
        (games.c.player1_id == records.c.player_id) & (games.c.winner == 1)
    )
    lost = ((games.c.player0_id == records.c.player_id) & (games.c.winner == 1)) | (
        (games.c.player1_id == records.c.player_id) & (games.c.winner == 0)
    )

    def total(what: sa.ColumnElement[int], which: sa.ColumnElement[bool]) -> sa.ScalarSelect[int]:
        return (
            sa.select(sa.func.coalesce(sa.func.sum(what), 0)).where(done & which).scalar_subquery()
        )

    op.execute(
        records.update().values(
            wins=records.c.wins - total(sa.literal(1), won),
            losses=records.c.losses - total(sa.literal(1), lost),
            points_won=records.c.points_won - total(games.c.points, won),
            points_lost=records.c.points_lost - total(games.c.points, lost),
        )
    )


def _one_pending_per_pair() -> None:
    first = challenges.c.challenger_id < challenges.c.challenged_id
    op.execute(
        challenges.update().values(
            pair_low=sa.case((first, challenges.c.challenger_id), else_=challenges.c.challenged_id),
            pair_high=sa.case(
                (first, challenges.c.challenged_id), else_=challenges.c.challenger_id
            ),
        )
    )
    newer = challenges.alias("newer")
    newer_exists = sa.exists().where(
        newer.c.status == "pending",
        newer.c.id > challenges.c.id,
        sa.or_(
            (newer.c.challenger_id == challenges.c.challenger_id)
            & (newer.c.challenged_id == challenges.c.challenged_id),
            (newer.c.challenger_id == challenges.c.challenged_id)
            & (newer.c.challenged_id == challenges.c.challenger_id),
        ),
    )
    op.execute(
        challenges.update()
        .where(challenges.c.status == "pending", newer_exists)
        .values(status="expired")
    )


def downgrade() -> None:
    op.drop_index("uq_challenges_pending_pair", table_name="challenges")
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_column("pair_high")
        batch_op.drop_column("pair_low")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("challenged_at")
    # Dropping columns of ``games`` on SQLite needs a rebuild; both are harmless if left, but
    # the models of revision 0005 do not have them: drop them where the backend can.
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("practice")
        batch_op.drop_column("time_left_held")
    if op.get_bind().dialect.name == "sqlite":
        # The rebuild dropped the triggers of revision 0006 with the old table: put them back.
        import_module("db.migrations.versions.0006_active_seats").create_triggers()

"""Migrations: every upgrade keeps every row, and the migrated schema is exactly the models'.

The data test is generic over the revision history: it seeds the first revision with a row in
every table, walks up one revision at a time (a revision that adds a table may add a seed for it
in ``SEEDS``), and from each revision runs the bot's own start-up upgrade to the head, checking
that every row and every value of every surviving column is still there.
"""

from __future__ import annotations

import shutil
import textwrap
import threading
import tomllib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import setuptools
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import URL, Connection, Engine, MetaData, inspect, select

from db import migrate
from db.connection import make_engine
from db.migrate import current_revision, downgrade, head_revision, revisions, upgrade
from db.models import Base

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2025, 6, 1, 12, 0, tzinfo=UTC)


def seed_0001(conn: Connection) -> None:
    """One or more rows in every table of the first schema, with every column filled."""
    t = _tables(conn)
    players = [
        {"id": 10**17 + i, "display_name": f"p{i}", "preferences": {"language": "fr"}}
        for i in range(3)
    ]
    conn.execute(t["players"].insert(), [{**p, "created_at": T0, "seen_at": T0} for p in players])
    a, b, c = (p["id"] for p in players)
    conn.execute(
        t["guild_members"].insert(),
        [{"guild_id": 7, "player_id": a, "games_played": 2, "first_seen": T0, "last_seen": T0}],
    )
    game = {
        "id": 1,
        "player0_id": a,
        "player1_id": b,
        "computer_level": None,
        "guild_id": 7,
        "channel_id": 70,
        "message_id": 700,
        "match_length": 5,
        "cube": True,
        "rated": True,
        "position_id": "4HPwATDgc/ABMA",
        "match_id": "cAkAAAAAAAAA",
        "state": {"v": 1, "anything": [1, 2]},
        "turn": 1,
        "event_count": 1,
        "version": 3,
        "status": "finished",
        "winner": 0,
        "points": 2,
        "result_kind": "gammon",
        "created_at": T0,
        "updated_at": T0,
        "finished_at": T0,
        "deadline": T0,
        "dice_commitment": "ab" * 32,
        "dice_seed": "cd" * 32,
        "dice_counter": 9,
        "dice_revealed_at": T0,
    }
    vs_computer = {**game, "id": 2, "player1_id": None, "computer_level": "expert", "rated": False}
    conn.execute(t["games"].insert(), [game, vs_computer])
    conn.execute(
        t["game_events"].insert(),
        [
            {
                "game_id": 1,
                "seq": 0,
                "game_no": 1,
                "player": 1,
                "actor_id": b,
                "kind": "roll",
                "die1": 6,
                "die2": 5,
                "play": "24/13",
                "cube_value": 2,
                "points": 1,
                "position_id": "4HPwATDgc/ABMA",
                "match_id": "cAkAAAAAAAAA",
                "created_at": T0,
            },
            {  # an ordinary game begins with its opening roll (a practice game does not)
                "game_id": 2,
                "seq": 0,
                "game_no": 1,
                "player": 0,
                "actor_id": a,
                "kind": "opening",
                "die1": 3,
                "die2": 1,
                "play": None,
                "cube_value": None,
                "points": None,
                "position_id": "4HPwATDgc/ABMA",
                "match_id": "cAkAAAAAAAAA",
                "created_at": T0,
            },
        ],
    )
    conn.execute(
        t["challenges"].insert(),
        [
            {
                "id": 1,
                "challenger_id": a,
                "challenged_id": c,
                "guild_id": 7,
                "channel_id": 70,
                "message_id": 701,
                "match_length": 3,
                "cube": False,
                "rated": True,
                "status": "accepted",
                "created_at": T0,
                "expires_at": T0,
                "resolved_at": T0,
                "game_id": 1,
            }
        ],
    )
    ratings = [(a, 1512.345678, 1, 0), (b, 1487.654321, 0, 1)]
    conn.execute(
        t["ratings"].insert(),
        [
            {
                "player_id": p,
                "rating": r,
                "experience": 5,
                "wins": w,
                "losses": lo,
                "updated_at": T0,
            }
            for p, r, w, lo in ratings
        ],
    )
    conn.execute(
        t["rating_history"].insert(),
        [
            {
                "id": 1,
                "player_id": a,
                "game_id": 1,
                "opponent_id": b,
                "won": True,
                "match_length": 5,
                "rating_before": 1500.0,
                "rating_after": 1512.345678,
                "experience_after": 5,
                "created_at": T0,
            }
        ],
    )
    conn.execute(
        t["computer_records"].insert(),
        [
            {
                "player_id": a,
                "level": "expert",
                "wins": 3,
                "losses": 4,
                "points_won": 5,
                "points_lost": 6,
                "updated_at": T0,
            }
        ],
    )


def seed_0009(conn: Connection) -> None:
    """Playing together: a server's settings."""
    t = _tables(conn)
    conn.execute(
        t["guild_settings"].insert(), [{"guild_id": 9, "threads": False, "updated_at": T0}]
    )


SEEDS: dict[str, Callable[[Connection], None]] = {"0001": seed_0001, "0009": seed_0009}
"""Rows to add when the walk reaches a revision (a revision that adds a table adds a seed)."""

DROPPED: dict[str, set[str]] = {"0005": {"games.message_id", "challenges.message_id"}}
"""Tables or ``table.column`` a revision drops on purpose, by revision: their data may go."""


def _dropped(rev: str) -> set[str]:
    """What ``rev`` drops; for ``<start>..head``, what every revision after ``start`` drops."""
    if ".." not in rev:
        return DROPPED.get(rev, set())
    history = revisions()
    later = history[history.index(rev.split("..")[0]) + 1 :]
    return set().union(*(DROPPED.get(r, set()) for r in later))


def _tables(conn: Connection) -> dict[str, Any]:
    meta = MetaData()
    meta.reflect(conn)
    return dict(meta.tables)


def snapshot(engine: Engine) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table (but Alembic's own), as plain dicts in a stable order."""
    with engine.connect() as conn:
        tables = _tables(conn)
        return {
            name: sorted(
                (dict(row._mapping) for row in conn.execute(select(table))),
                key=lambda r: repr(sorted(r.items())),
            )
            for name, table in tables.items()
            if name != "alembic_version"
        }


def assert_kept(before: dict[str, list[dict[str, Any]]], after: dict[str, Any], rev: str) -> None:
    dropped = _dropped(rev)
    for table, rows in before.items():
        if table in dropped:
            continue
        assert table in after, f"revision {rev} lost table {table}"
        keep = [c for c in (rows[0] if rows else {}) if f"{table}.{c}" not in dropped]
        projected = [{c: r[c] for c in keep} for r in after[table]]
        assert projected == [{c: r[c] for c in keep} for r in rows], f"{rev} changed {table}"


def build_at(
    engine: Engine, target: str, *, check_steps: bool = True
) -> dict[str, list[dict[str, Any]]]:
    """Upgrade an empty database revision by revision up to ``target``, seeding on the way;
    checks each step keeps the data (unless ``check_steps`` is False: the same steps, checked
    elsewhere, are then run as few upgrades, one snapshot at the end). Returns the snapshot at
    ``target``."""
    history = revisions()
    if not check_steps:
        for rev in history[: history.index(target) + 1]:
            if rev in SEEDS:
                upgrade(engine, rev)
                with engine.begin() as conn:
                    SEEDS[rev](conn)
        upgrade(engine, target)
        return snapshot(engine)
    snap: dict[str, list[dict[str, Any]]] = {}
    for rev in history[: history.index(target) + 1]:
        upgrade(engine, rev)
        assert_kept(snap, after := snapshot(engine), rev)
        if rev in SEEDS:
            with engine.begin() as conn:
                SEEDS[rev](conn)
            after = snapshot(engine)
        snap = after
    return snap


@pytest.fixture
def empty_engine(empty_url: URL) -> Iterator[Engine]:
    engine = make_engine(empty_url)
    yield engine
    engine.dispose()


def test_the_first_revision_has_a_seed_filling_every_table(empty_engine: Engine) -> None:
    first = revisions()[0]
    snap = build_at(empty_engine, first)
    assert snap and all(snap.values()), [t for t, rows in snap.items() if not rows]


class SqliteWalk:
    """:func:`build_at` done once per test process on SQLite, keeping a copy of the file at
    each revision: the database at ``start`` is then a copy of the walk's, its steps checked
    once, not again for every later ``start`` (a walk to 0015 is 15 upgrades and snapshots)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.engine = make_engine(f"sqlite:///{folder / 'walk.sqlite3'}")
        self.done: dict[str, tuple[Path, dict[str, list[dict[str, Any]]]]] = {}
        self.snap: dict[str, list[dict[str, Any]]] = {}

    def at(self, target: str, into: Path) -> dict[str, list[dict[str, Any]]]:
        """Copy the database at ``target`` to ``into``; its snapshot."""
        history = revisions()
        for rev in history[len(self.done) : history.index(target) + 1]:
            upgrade(self.engine, rev)  # build_at's step, as it does it
            assert_kept(self.snap, after := snapshot(self.engine), rev)
            if rev in SEEDS:
                with self.engine.begin() as conn:
                    SEEDS[rev](conn)
                after = snapshot(self.engine)
            self.snap = after
            self.engine.dispose()  # every connection closed: the WAL is in the file
            kept = self.folder / f"{rev}.sqlite3"
            shutil.copyfile(self.folder / "walk.sqlite3", kept)
            self.done[rev] = (kept, after)
        path, snap = self.done[target]
        shutil.copyfile(path, into)
        return snap


@pytest.fixture(scope="session")
def sqlite_walk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SqliteWalk]:
    walk = SqliteWalk(tmp_path_factory.mktemp("walk"))
    yield walk
    walk.engine.dispose()


@pytest.mark.parametrize("start", revisions())
def test_upgrading_from_each_revision_keeps_all_data(
    empty_engine: Engine, start: str, request: pytest.FixtureRequest
) -> None:
    if empty_engine.dialect.name == "sqlite" and empty_engine.url.database:
        walk: SqliteWalk = request.getfixturevalue("sqlite_walk")
        empty_engine.dispose()
        before = walk.at(start, Path(empty_engine.url.database))
    else:  # PostgreSQL: a schema cannot be copied as a file is. Each step up to ``start`` is
        # checked by the walk to head of the test below, on the same revisions and seeds.
        before = build_at(empty_engine, start, check_steps=False)
    upgrade(empty_engine)  # what the bot does on start
    assert current_revision(empty_engine) == head_revision()
    assert_kept(before, snapshot(empty_engine), f"{start}..head")


def test_the_migrated_schema_is_the_models_schema(engine: Engine) -> None:
    """Autogenerate finds nothing to do: no model change is missing a revision."""
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
        assert set(inspect(conn).get_table_names()) == set(Base.metadata.tables) | {
            "alembic_version"
        }


def test_every_revision_downgrades_and_upgrades_again(empty_engine: Engine) -> None:
    upgrade(empty_engine)
    for rev in reversed(revisions()[:-1]):
        downgrade(empty_engine, rev)
        assert current_revision(empty_engine) == rev
    downgrade(empty_engine, "base")
    assert current_revision(empty_engine) is None
    upgrade(empty_engine)
    assert current_revision(empty_engine) == head_revision()


def test_upgrade_reads_database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "from-env.sqlite3"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    upgrade()
    engine = make_engine(f"sqlite:///{path}")
    assert current_revision(engine) == head_revision()
    upgrade()  # a second start does nothing
    assert current_revision(engine) == head_revision()
    engine.dispose()


def test_revisions_form_one_line_with_numbered_files() -> None:
    history = revisions()
    assert history == [f"{i:04d}" for i in range(1, len(history) + 1)]
    files = sorted(p.name for p in (migrate.MIGRATIONS / "versions").glob("0*.py"))
    assert [f[:4] for f in files] == history


def test_the_migrations_ship_in_the_package() -> None:
    """A non-editable install must carry the revisions and Alembic's template."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    packages = setuptools.find_packages(
        str(ROOT), include=config["setuptools"]["packages"]["find"]["include"]
    )
    assert {"db", "db.migrations", "db.migrations.versions"} <= set(packages)
    patterns = config["setuptools"]["package-data"]["*"]
    assert any(Path("script.py.mako").match(p) for p in patterns)


def _with_extra_revision(tmp_path: Path, body: str) -> Any:
    """Our migrations plus a revision 9999 doing ``body``, as a later release would add."""
    location = tmp_path / "migrations"
    shutil.copytree(migrate.MIGRATIONS, location)
    (location / "versions" / "9999_extra.py").write_text(
        "import sqlalchemy as sa\nfrom alembic import op\n\n"
        f"revision = '9999'\ndown_revision = {head_revision()!r}\n"
        "branch_labels = depends_on = None\n\n\n"
        f"def upgrade():\n{textwrap.indent(textwrap.dedent(body), '    ')}\n\n\n"
        "def downgrade():\n    pass\n",
        encoding="utf-8",
    )
    return migrate.alembic_config(script_location=location)


def test_a_later_revision_rebuilding_a_table_keeps_the_rows_that_reference_it(
    empty_engine: Engine, tmp_path: Path
) -> None:
    """SQLite rebuilds a table to change a column; with foreign keys on, dropping the old table
    would delete the move log by cascade. The runner turns them off and checks them after."""
    before = build_at(empty_engine, head_revision())
    config = _with_extra_revision(
        tmp_path,
        """
        with op.batch_alter_table("games") as batch_op:
            batch_op.alter_column("computer_level", type_=sa.String(40))
        """,
    )
    migrate._run(empty_engine, "upgrade", "head", config)
    assert current_revision(empty_engine) == "9999"
    assert_kept(before, snapshot(empty_engine), "9999")
    with empty_engine.connect() as conn:
        if conn.dialect.name == "sqlite":  # and the pool's connections still enforce them
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1


def test_a_failing_revision_changes_nothing(empty_engine: Engine, tmp_path: Path) -> None:
    upgrade(empty_engine)
    config = _with_extra_revision(
        tmp_path,
        """
        op.create_table("half_done", sa.Column("id", sa.Integer, primary_key=True))
        op.drop_index("ix_games_deadline", table_name="games")
        raise RuntimeError("the revision fails half-way")
        """,
    )
    with pytest.raises(RuntimeError, match="half-way"):
        migrate._run(empty_engine, "upgrade", "head", config)
    assert current_revision(empty_engine) == head_revision()
    with empty_engine.connect() as conn:
        names = inspect(conn).get_table_names()
        indexes = {i["name"] for i in inspect(conn).get_indexes("games")}
    assert "half_done" not in names and "ix_games_deadline" in indexes


def test_bot_processes_starting_together_migrate_once(empty_url: URL) -> None:
    engines = [make_engine(empty_url) for _ in range(3)]
    errors: list[BaseException] = []

    def start(engine: Engine) -> None:
        try:
            upgrade(engine)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)  # a guard against a deadlock only: each ends when its migration is done
    try:
        assert not any(t.is_alive() for t in threads), "a migration is stuck"
        assert errors == []
        assert current_revision(engines[0]) == head_revision()
    finally:
        for engine in engines:
            engine.dispose()


def test_0012_keys_open_tournament_names_and_keeps_one_of_each(empty_engine: Engine) -> None:
    """Before 0012 two creations racing could open two tournaments of one name in a server:
    only the oldest gets the key, so that the unique index can be built; a finished one keeps
    its key (the index covers open tournaments only), and from then on a second open
    tournament of the name is refused by the database itself."""
    from sqlalchemy.exc import IntegrityError

    upgrade(empty_engine, "0011")
    common = {
        "lang": "en",
        "format": "knockout",
        "organizer_id": 1,
        "match_length": 1,
        "cube": True,
        "rated": False,
        "seed": 0,
        "results": 0,
        "version": 1,
        "created_at": T0,
    }
    with empty_engine.begin() as conn:
        t = _tables(conn)
        conn.execute(
            t["players"].insert(),
            [{"id": 1, "display_name": "Org", "preferences": {}, "created_at": T0, "seen_at": T0}],
        )
        conn.execute(
            t["tournaments"].insert(),
            [
                {**common, "id": 1, "guild_id": 5, "name": "Straße Cup", "status": "finished"},
                {**common, "id": 2, "guild_id": 5, "name": "Straße Cup", "status": "registering"},
                {**common, "id": 3, "guild_id": 5, "name": " STRASSE cup", "status": "running"},
                {**common, "id": 4, "guild_id": 6, "name": "Straße Cup", "status": "running"},
            ],
        )
    upgrade(empty_engine, "0012")
    with empty_engine.connect() as conn:
        keys = dict(conn.exec_driver_sql("SELECT id, name_key FROM tournaments").all())
    assert keys == {1: "strasse cup", 2: "strasse cup", 3: None, 4: "strasse cup"}
    with pytest.raises(IntegrityError), empty_engine.begin() as conn:
        conn.execute(
            _tables(conn)["tournaments"].insert(),
            [
                {
                    **common,
                    "id": 5,
                    "guild_id": 6,
                    "name": "x",
                    "name_key": "strasse cup",
                    "status": "registering",
                }
            ],
        )

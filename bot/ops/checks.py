"""``backgammon-bot check``: is this installation ready to run? Each check prints one line;
the command exits 0 when every check passed, 1 otherwise. Nothing is changed (the database is
not migrated: ``backgammon-bot migrate`` does that)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.config import Config

__all__ = ["Check", "run_checks"]


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'}  {self.name}: {self.detail}"


def _configuration(config: Config) -> Check:
    shards = (
        f"shards {','.join(map(str, config.shard_ids))} of {config.shard_count}"
        if config.shard_ids is not None
        else f"{config.shard_count or 'automatic'} shard(s), all in this process"
    )
    if config.shard_ids is not None and config.shard_count is None:
        return Check("configuration", False, "SHARD_IDS is set without SHARD_COUNT")
    if config.shard_ids is not None and config.shard_count is not None:
        wrong = [i for i in config.shard_ids if not 0 <= i < config.shard_count]
        if wrong:
            return Check("configuration", False, f"SHARD_IDS {wrong} not below SHARD_COUNT")
    token = "DISCORD_TOKEN set" if config.token else "no DISCORD_TOKEN (terminal only)"
    metrics = (
        f"metrics on {config.metrics_host}:{config.metrics_port}"
        if config.metrics_port is not None
        else "no metrics port"
    )
    return Check("configuration", True, f"{token}; {shards}; {metrics}")


def _database(url: str | None) -> list[Check]:
    from sqlalchemy import text

    from db.connection import make_engine
    from db.migrate import current_revision, head_revision

    try:
        engine = make_engine(url)
    except Exception as error:
        return [Check("database", False, f"bad DATABASE_URL: {error}")]
    shown = engine.url.render_as_string(hide_password=True)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        current = current_revision(engine)
    except Exception as error:
        engine.dispose()
        return [Check("database", False, f"{shown} does not answer: {type(error).__name__}")]
    engine.dispose()
    head = head_revision()
    reached = Check("database", True, f"{shown} answers")
    if current == head:
        return [reached, Check("migrations", True, f"at the latest revision {head}")]
    where = current or "an empty database"
    return [
        reached,
        Check("migrations", False, f"at {where}, latest is {head}: run backgammon-bot migrate"),
    ]


def _computer() -> Check:
    from engine.bots import backend

    name = backend()
    if name == "bgsage":
        from engine.analysis.review import review_engine
        from engine.bots import sage

        review = (
            "reviews by GNU Backgammon's analysis on its networks (gnubg-nn)"
            if review_engine() == "gnubg"
            else "reviews by bgsage (gnubg-nn not installed)"
        )
        return Check("computer", True, f"bgsage {sage.version()} (neural networks); {review}")
    return Check("computer", True, "pure-Python fallback evaluator (bgsage not installed)")


def run_checks(
    config: Config, db_url: str | None = None, out: Callable[[str], None] = print
) -> int:
    """Print every check; 0 when all passed, else 1."""
    checks = [_configuration(config), *_database(db_url or config.database_url), _computer()]
    for check in checks:
        out(check.line())
    return 0 if all(c.ok for c in checks) else 1

"""Settings from the environment (and a ``.env`` file in the working directory).

Every setting has a default that works on a fresh machine; only ``DISCORD_TOKEN`` is needed to
connect to Discord. See the README's table of settings.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

__all__ = ["Config", "load_dotenv"]


def load_dotenv(path: Path | str = ".env", environ: dict[str, str] | None = None) -> None:
    """Read ``KEY=value`` lines from ``path`` into the environment, without overriding variables
    that are already set. Blank lines and ``#`` comments are skipped; quotes are stripped."""
    target = os.environ if environ is None else environ
    p = Path(path)
    if not p.is_file():
        return
    for raw in p.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        target.setdefault(key, value)


def _int(env: Mapping[str, str], key: str, default: int) -> int:
    raw = env.get(key, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{key} must be a whole number, not {raw!r}") from None


def _port(env: Mapping[str, str], key: str) -> int | None:
    raw = env.get(key, "").strip()
    if not raw:
        return None
    port = _int(env, key, 0)
    if not 0 <= port <= 65535:
        raise SystemExit(f"{key} is a TCP port (0 to 65535), not {raw!r}")
    return port


def _ids(env: Mapping[str, str], key: str) -> tuple[int, ...] | None:
    raw = env.get(key, "").strip()
    if not raw:
        return None
    try:
        return tuple(int(x) for x in raw.replace(" ", "").split(",") if x)
    except ValueError:
        raise SystemExit(f"{key} is a comma-separated list of numbers, not {raw!r}") from None


def _draw_default() -> int:
    """One drawing worker where there is a second core; none on a single core, where it
    would only take turns with the bot's process (see bot.drawers)."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


@dataclass(frozen=True)
class Config:
    """The bot's settings (environment variable in brackets)."""

    token: str | None = None  # DISCORD_TOKEN
    database_url: str | None = None  # DATABASE_URL (default: sqlite file backgammon.sqlite3)
    dev_guild_id: int | None = None  # DEV_GUILD_ID: sync commands to this guild on start
    shard_ids: tuple[int, ...] | None = None  # SHARD_IDS, e.g. "0,1"
    shard_count: int | None = None  # SHARD_COUNT
    challenge_minutes: int = 15  # CHALLENGE_MINUTES
    move_timeout_hours: int = 24  # MOVE_TIMEOUT_HOURS
    puzzle_min_error: int = 50  # PUZZLE_MIN_ERROR: millipoints a decision loses to be a puzzle
    log_level: str = "INFO"  # LOG_LEVEL
    tournament_role: str | None = None  # TOURNAMENT_ROLE: a role (name or id) of organizers
    images_dir: Path = field(default_factory=lambda: Path("boards"))  # IMAGES_DIR (terminal)
    metrics_port: int | None = None  # METRICS_PORT: /healthz and /metrics (off when unset)
    metrics_host: str = "127.0.0.1"  # METRICS_HOST (0.0.0.0 in a container)
    analysis_processes: int = field(default_factory=lambda: os.cpu_count() or 1)
    # ANALYSIS_PROCESSES: worker processes for reviews, and then one more for the computer's
    # cube searches (0: both in threads of the bot's process)
    draw_processes: int = field(default_factory=_draw_default)
    # DRAW_PROCESSES: worker processes drawing the boards (0: in the press's thread)
    web_port: int | None = None  # WEB_PORT: the web board (off when unset)
    web_host: str = "127.0.0.1"  # WEB_HOST (0.0.0.0 in a container)
    web_public_url: str | None = None  # PUBLIC_URL: the address people reach it at
    web_secret_file: str = ".web_secret"  # WEB_SECRET_FILE, when WEB_SECRET is not set
    clock_file: Path | None = None  # CLOCK_FILE: time moved by hand, for trying (bot.clockfile)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        count = _int(env, "SHARD_COUNT", 0)
        guild = _int(env, "DEV_GUILD_ID", 0)
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_url=env.get("DATABASE_URL", "").strip() or None,
            dev_guild_id=guild or None,
            shard_ids=_ids(env, "SHARD_IDS"),
            shard_count=count or None,
            challenge_minutes=max(1, _int(env, "CHALLENGE_MINUTES", 15)),
            move_timeout_hours=max(1, _int(env, "MOVE_TIMEOUT_HOURS", 24)),
            puzzle_min_error=max(1, _int(env, "PUZZLE_MIN_ERROR", 50)),
            log_level=env.get("LOG_LEVEL", "INFO").upper(),
            tournament_role=env.get("TOURNAMENT_ROLE", "").strip() or None,
            images_dir=Path(env.get("IMAGES_DIR", "boards")),
            metrics_port=_port(env, "METRICS_PORT"),
            metrics_host=env.get("METRICS_HOST", "").strip() or "127.0.0.1",
            analysis_processes=max(0, _int(env, "ANALYSIS_PROCESSES", os.cpu_count() or 1)),
            draw_processes=max(0, _int(env, "DRAW_PROCESSES", _draw_default())),
            web_port=_port(env, "WEB_PORT"),
            web_host=env.get("WEB_HOST", "").strip() or "127.0.0.1",
            web_public_url=env.get("PUBLIC_URL", "").strip() or None,
            web_secret_file=env.get("WEB_SECRET_FILE", "").strip() or ".web_secret",
            clock_file=Path(env["CLOCK_FILE"]) if env.get("CLOCK_FILE", "").strip() else None,
        )

    @property
    def challenge_ttl(self) -> timedelta:
        return timedelta(minutes=self.challenge_minutes)

    @property
    def public_url(self) -> str:
        """The web board's address as people reach it (default: ``http://WEB_HOST:WEB_PORT``)."""
        if self.web_public_url:
            return self.web_public_url.rstrip("/")
        return f"http://{self.web_host}:{self.web_port}"

    @property
    def move_timeout(self) -> timedelta:
        return timedelta(hours=self.move_timeout_hours)

"""The deployment example under ``docs/deploy/``, checked as far as a machine without a container
engine allows: the compose file parses and means what the README says (PostgreSQL, a migration
step, two shard processes whose settings the bot reads as intended), the image's COPY sources
exist, and the systemd unit starts the console script with a command it knows. The real build and
run are ``docs/deploy/check-image.sh`` (needs Docker: not run by the tests)."""

from __future__ import annotations

import re
import shlex
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.__main__ import main
from bot.config import Config

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "docs" / "deploy"
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["scripts"]


def _compose() -> dict[str, Any]:
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def _substitute(value: str, env: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?message}``."""

    def one(match: re.Match[str]) -> str:
        name, op, arg = match.group(1), match.group(2), match.group(3)
        if env.get(name):
            return env[name]
        if op == ":-":
            return arg or ""
        raise KeyError(f"{name} must be set: {arg}")

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", one, value)


def test_compose_runs_postgres_a_migration_and_two_shards() -> None:
    services = _compose()["services"]
    assert set(services) == {"postgres", "migrate", "shard0", "shard1"}
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["migrate"]["command"] == ["backgammon-bot", "migrate"]
    assert services["migrate"]["depends_on"]["postgres"]["condition"] == "service_healthy"
    shards = []
    for name in ("shard0", "shard1"):
        service = services[name]
        assert service["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert service["build"]["context"] == "../.."
        assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).is_file()
        env = {
            k: _substitute(str(v), {"DISCORD_TOKEN": "t", "POSTGRES_PASSWORD": "pw"})
            for k, v in service["environment"].items()
        }
        config = Config.from_env(env)  # what the bot reads in that container
        assert config.token == "t" and config.shard_count == 2
        assert config.database_url == "postgresql+psycopg://backgammon:pw@postgres:5432/backgammon"
        shards.append(config.shard_ids)
    assert shards == [(0,), (1,)]  # every shard of the count served, once


def test_compose_refuses_to_start_without_a_token() -> None:
    env = _compose()["services"]["shard0"]["environment"]
    with pytest.raises(KeyError, match="DISCORD_TOKEN must be set"):
        _substitute(env["DISCORD_TOKEN"], {})


def test_the_database_password_is_the_same_for_postgres_and_the_bot() -> None:
    services = _compose()["services"]
    env = {"POSTGRES_PASSWORD": "s3cret", "DISCORD_TOKEN": "t"}
    password = _substitute(services["postgres"]["environment"]["POSTGRES_PASSWORD"], env)
    url = _substitute(services["shard1"]["environment"]["DATABASE_URL"], env)
    assert password == "s3cret" and ":s3cret@postgres:" in url


def test_the_image_copies_what_exists_and_runs_the_console_script() -> None:
    lines = (DEPLOY / "Dockerfile").read_text("utf-8").splitlines()
    copies = [line.split()[1:-1] for line in lines if line.startswith("COPY ")]
    sources = [source for sources in copies for source in sources]
    assert {"pyproject.toml", "bot", "engine", "render", "db"} <= set(sources)
    for source in sources:
        assert (ROOT / source).exists(), source  # the build context is the repository root
    cmd = next(line for line in lines if line.startswith("CMD "))
    assert cmd == 'CMD ["backgammon-bot", "run"]' and "backgammon-bot" in SCRIPTS
    assert 'pip install ".[postgres]"' in "\n".join(lines)


def test_the_systemd_unit_starts_the_console_script(monkeypatch: pytest.MonkeyPatch) -> None:
    unit = (DEPLOY / "backgammon-bot@.service").read_text("utf-8")
    sections = re.findall(r"^\[(\w+)\]$", unit, flags=re.M)
    assert sections == ["Unit", "Service", "Install"]
    exec_start = next(line for line in unit.splitlines() if line.startswith("ExecStart="))
    argv = shlex.split(exec_start.removeprefix("ExecStart="))
    assert Path(argv[0]).name in SCRIPTS and argv[1:] == ["run"]
    assert "Environment=SHARD_IDS=%i" in unit
    # A crash loop backs off: 1,000 gateway logins a day must outlast it.
    keys = dict(line.split("=", 1) for line in unit.splitlines() if "=" in line and line[0] != "#")
    assert int(keys["RestartSec"]) >= 10 and int(keys["RestartSteps"]) >= 5
    assert keys["RestartMaxDelaySec"] == "30min"
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.chdir(DEPLOY)  # no .env here
    assert main(argv[1:]) == 2  # "run" is a command the bot knows; it wants a token


def test_the_base_image_is_an_argument_whose_default_is_the_official_python() -> None:
    lines = (DEPLOY / "Dockerfile").read_text("utf-8").splitlines()
    args = [line for line in lines if line.startswith("ARG ")]
    froms = [line for line in lines if line.startswith("FROM ")]
    assert args[0] == "ARG BASE_IMAGE=python:3.11-slim"
    assert lines.index(args[0]) < lines.index(froms[0])  # an ARG before FROM is visible to it
    assert froms == ["FROM ${BASE_IMAGE}"]
    # a Debian python3 refuses pip installs into the system (PEP 668): a venv, first on PATH
    assert "python3 -m venv /opt/backgammon-bot" in "\n".join(lines)
    assert any(line.strip().startswith("PATH=/opt/backgammon-bot/bin:$PATH") for line in lines)


def test_the_image_check_script_is_runnable_shell() -> None:
    script = DEPLOY / "check-image.sh"
    assert script.stat().st_mode & 0o111  # executable
    subprocess.run(["bash", "-n", str(script)], check=True)  # parses (docker is not needed)
    text = script.read_text("utf-8")
    assert '--build-arg BASE_IMAGE="$BASE"' in text
    assert '-f "$REPO/docs/deploy/Dockerfile"' in text
    for command in ("backgammon-bot check", "backgammon-bot migrate", "backgammon-bot run"):
        assert command in text

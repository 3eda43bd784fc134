"""The README's Persistence section: its example runs, its commands work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from db import games
from db.connection import make_engine, make_session_factory
from db.gamestate import load_match, save_match
from db.migrate import head_revision, upgrade
from tests.db.helpers import add_players, new_game

ROOT = Path(__file__).resolve().parents[2]


def _section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return text.split("## Persistence", 1)[1].split("\n## ", 1)[0]


def test_the_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'readme.sqlite3'}")
    engine = make_engine()
    upgrade(engine)
    factory = make_session_factory(engine)
    with factory.begin() as s:
        add_players(s)
        row = new_game(s)
        m = load_match(row)
        m.game.play_text("8/5 6/5")  # now player 1 is to roll, as the example expects
        save_match(s, row, m)
        game_id, version = row.id, row.version
    code = _section().split("```python", 1)[1].split("```", 1)[0]
    exec(code, {"game_id": game_id, "version_on_the_button": version})
    with factory() as s:
        log = games.game_events(s, game_id)
        assert (log[-1].kind, log[-1].die1, log[-1].die2) == ("roll", 6, 5)
    engine.dispose()


def test_the_migration_commands(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'cli.sqlite3'}"}
    env["PYTHONPATH"] = str(ROOT)
    for command in ("python -m db.migrate upgrade", "python -m db.migrate current"):
        assert command in _section()
        done = subprocess.run(
            [sys.executable, "-m", "db.migrate", command.split()[-1]],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    assert done.stdout.strip() == head_revision()

"""``--json`` and restarts in the terminal (issue 15.11): nothing on stderr but warnings, the
whole plays offered, the position as drawn in the middle of a move, and the game in progress
shown again when the terminal starts."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from bot.service import Service
from bot.terminal import Terminal
from engine import Position

ROOT = Path(__file__).resolve().parents[2]


def _term(service: Service, lang: str = "en") -> tuple[Terminal, io.StringIO]:
    out = io.StringIO()
    return Terminal(
        service, out=out, json_mode=True, lang=lang, images=Path("/tmp/unused"), user="Ann"
    ), out


def _last(out: io.StringIO) -> dict[str, Any]:
    return json.loads(out.getvalue().splitlines()[-1])


def test_json_mode_writes_nothing_on_stderr(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LOG_LEVEL", "DISCORD_TOKEN")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "play",
            "--json",
            "--db",
            f"sqlite:///{tmp_path / 'x.db'}",
            "--images",
            str(tmp_path / "boards"),
        ],
        input="/play level:beginner\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
        check=True,
    )
    assert done.stderr == "" and json.loads(done.stdout.splitlines()[-1])["buttons"]


def test_plays_offered_and_the_position_as_drawn(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])  # Ann opens with 3-1
    term, out = _term(service)
    term.handle("/play level:beginner")
    first = _last(out)
    assert "8/5 6/5" in first["plays"] and len(first["plays"]) == 16  # every play of 3-1
    assert first["position_id"] == Position.initial().position_id()
    term.handle("8")  # the 3 (the die picked first) from the 8-point: 8/5
    moved = _last(out)
    assert moved["position_id"] == Position.initial().apply_steps([(8, 5)]).position_id()
    assert moved["plays"] == []  # the menu is for a whole play, before any checker moved


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "You have a game in progress: game #"),
        ("fr", "Vous avez une partie en cours : la partie n° "),
    ],
)
def test_a_restart_shows_the_game_in_progress(
    service: Service, script: deque[int], lang: str, said: str
) -> None:
    script.extend([3, 1])
    term, out = _term(service, lang)
    term.handle("/play level:beginner")
    game = _last(out)
    again, out2 = _term(service, lang)  # a new process on the same database
    again.run([])
    shown = _last(out2)
    assert shown["text"].startswith(said) and shown["position_id"] == game["position_id"]
    assert shown["buttons"] == game["buttons"]
    fresh, out3 = _term(Service(service.factory), lang)
    fresh.user = "Nobody"
    fresh.run([])
    assert out3.getvalue() == ""  # no game, nothing to say (JSON mode prints no welcome)


def test_a_finished_game_has_a_null_xgid(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    term, out = _term(service)
    term.handle("/play level:beginner")
    assert _last(out)["xgid"].startswith("XGID=")
    term.handle("/resign")
    term.handle("Backgammon")  # the most a player can offer: the computer accepts it
    over = _last(out)
    assert "Rematch" in over["buttons"], over
    assert over["xgid"] is None and over["position_id"]  # the IDs stay; a finished game has no XGID

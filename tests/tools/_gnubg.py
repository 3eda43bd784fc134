"""Running scripts under GNU Backgammon's embedded Python, for the tools that record its answers.

GNU Backgammon (``gnubg -t -q -p script.py``) runs a script with its ``gnubg`` module importable,
but passes it no arguments, prints boards and messages on stdout and exits 0 even when the script
raises. So the tools pass their arguments in an environment variable, silence stdout, write their
results to files, and end with ``sys.exit(1)`` on an error (see :func:`main_in_gnubg`).

Nothing here imports the ``engine`` package: the tools record what GNU Backgammon says, and the
tests compare the engine with it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
_ARGS = "GNUBG_TOOL_ARGS"
_DEBIAN_PATH = "/usr/games/gnubg"  # Debian's package installs it outside root's PATH
_OVERRIDE = "GNUBG"


def gnubg_binary() -> str | None:
    """The GNU Backgammon executable, or None when it is not installed.

    ``GNUBG=/path/to/gnubg`` chooses the executable; ``GNUBG=`` (empty, or any path that is not
    an executable) makes the tests behave as on a machine without GNU Backgammon, so both cases
    can be run on one machine.
    """
    if _OVERRIDE in os.environ:
        chosen = os.environ[_OVERRIDE]
        return chosen if chosen and os.access(chosen, os.X_OK) else None
    found = shutil.which("gnubg")
    if found:
        return found
    return _DEBIAN_PATH if os.access(_DEBIAN_PATH, os.X_OK) else None


def run_in_gnubg(
    script: Path, args: dict[str, Any], *, timeout: float = 3600, echo: bool = False
) -> None:
    """Run ``script`` under GNU Backgammon with ``args`` (JSON-safe). With ``echo`` its stderr
    (progress and errors) goes to ours as it comes, else it is kept for the error message.

    :raises RuntimeError: when GNU Backgammon is missing or the script fails.
    """
    binary = gnubg_binary()
    if binary is None:
        raise RuntimeError(
            "GNU Backgammon is not installed (no gnubg on PATH or in /usr/games, or GNUBG= set)"
        )
    env = dict(os.environ, **{_ARGS: json.dumps(args)})
    done = subprocess.run(
        [binary, "-t", "-q", "-p", str(script)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,  # boards and chatter; the results go to files
        stderr=None if echo else subprocess.PIPE,
        text=True,
        timeout=timeout,
        check=False,
        cwd=ROOT,
    )
    if done.returncode != 0:
        detail = "" if echo else done.stderr[-4000:]
        raise RuntimeError(f"{script.name} failed under gnubg (status {done.returncode})\n{detail}")


def in_gnubg() -> bool:
    """True inside GNU Backgammon's Python (its ``gnubg`` module is importable)."""
    try:
        import gnubg  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


def main_in_gnubg(body: Callable[[dict[str, Any]], None]) -> None:
    """Run ``body(args)`` inside GNU Backgammon, turning an exception into exit status 1."""
    try:
        body(json.loads(os.environ.get(_ARGS, "{}")))
    except SystemExit:
        raise
    except BaseException:  # gnubg would print it and still exit 0
        traceback.print_exc()
        sys.stderr.flush()
        sys.exit(1)
    sys.exit(0)


def quiet_setup(gnubg: Any) -> None:
    """Two human players (so gnubg never moves by itself), no display, nothing automatic, and
    0-ply evaluation for ``hint`` (at 0 ply no move filter applies, so hint lists every play)."""
    for command in (
        "set player 0 human",
        "set player 1 human",
        "set display off",
        "set automatic roll off",
        "set automatic move off",
        "set automatic bearoff off",
        "set automatic game off",
        "set evaluation chequerplay evaluation plies 0",
        "set evaluation cubedecision evaluation plies 0",
    ):
        gnubg.command(command)

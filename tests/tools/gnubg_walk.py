#!/usr/bin/env python3
"""GNU Backgammon's Position ID and Match ID at every record of an imported .mat file.

GNU Backgammon (1.07) imports the file (``import mat``) and steps through it record by record
(``gnubg.navigate(next=1)``); at each move record it stands before the move, the dice rolled,
as after a ``roll`` (or the ``opening``) row of the bot's export. tests/bot/test_export_ids.py
compares those IDs with the bot's IDs file. Run by hand::

    python3 tests/tools/gnubg_walk.py game.mat
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

try:
    ROOT = Path(__file__).resolve().parents[2]
except NameError:  # gnubg runs scripts without __file__; run_in_gnubg starts it in ROOT
    ROOT = Path.cwd()
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.tools._gnubg import in_gnubg, main_in_gnubg, quiet_setup, run_in_gnubg

SCRIPT = ROOT / "tests" / "tools" / "gnubg_walk.py"


def _in_gnubg(args: dict[str, Any]) -> None:
    import gnubg  # type: ignore[import-not-found]

    quiet_setup(gnubg)
    gnubg.command("set jacoby off")  # a .mat does not say; the bot's money games play without
    gnubg.command(f"import mat {args['file']}")
    gnubg.navigate()  # the start of the match
    steps: list[list[str]] = []
    for _ in range(10_000):
        steps.append([gnubg.positionid(), gnubg.matchid()])
        if gnubg.navigate(next=1) is not None:  # a new game: recorded as its own step too
            steps.append(["game", ""])
        if len(steps) > 2 and steps[-1][:2] == steps[-2][:2] == steps[-3][:2]:
            break  # the end: navigating further changes nothing
    Path(args["out"]).write_text(json.dumps(steps), encoding="utf-8")


def walk(mat: Path) -> list[tuple[str, str]]:
    """(Position ID, Match ID) at each record gnubg steps through, in order, repeats removed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "walk.json"
        run_in_gnubg(SCRIPT, {"file": str(mat.resolve()), "out": str(out)}, timeout=300)
        steps = json.loads(out.read_text(encoding="utf-8"))
    ids: list[tuple[str, str]] = []
    for pid, mid in steps:
        if pid != "game" and (not ids or ids[-1] != (pid, mid)):
            ids.append((pid, mid))
    return ids


if __name__ == "__main__":
    if in_gnubg():
        main_in_gnubg(_in_gnubg)
    else:
        print("\n".join(f"{p}:{m}" for p, m in walk(Path(sys.argv[1]))))

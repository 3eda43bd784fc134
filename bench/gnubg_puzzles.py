"""Puzzles graded by GNU Backgammon: the part that runs inside gnubg (issue 18).

``bench/bench_puzzles_gnubg.py`` hands this script (run by ``gnubg -t -q -p``, see
tests/tools/_gnubg.py) a file of puzzle set-ups; for each, GNU Backgammon is put in the puzzle's
state with ``set gnubgid POSITION:MATCH`` (the Match ID carries the player on roll, the dice, the
cube value and owner, the score, the match length and the Crawford flag) and asked for its
analysis with ``hint`` at ``plies`` (2 is gnubg's default "world class"; its move filters are
left as they are). What it reports:

* what gnubg made of the set-up, for the caller to compare with the puzzle: its Position and
  Match IDs, its board (``gnubg.board()``), cube info, position info and whether the session
  plays the Jacoby rule (``show jacoby``; ``set gnubgid`` always starts a session without it,
  so a puzzle with the rule would show as a set-up that differs);
* a checker play: every play of gnubg's hint list (``plays``) with its equity and the depth it
  was evaluated at. When the puzzle's recorded best play (``ours``) or its played play
  (``played``) is not among the plays evaluated at full depth (the move filter dropped it after
  0 ply, or gnubg stopped at 0 ply with a single candidate left), the hint is asked again with
  a filter that keeps every play (``all``), so that their equities are gnubg's full-depth ones;
* a cube decision: gnubg's cubeful equities No double, Double/take and Double/pass (of the player
  who may double, normalised to the cube before the double), read from its ``hint`` text.

It imports nothing of the engine (gnubg's Python does not have the project installed); the
caller does every comparison.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

try:
    ROOT = Path(__file__).resolve().parents[1]
except NameError:  # gnubg runs scripts without __file__; run_in_gnubg starts it in ROOT
    ROOT = Path.cwd()
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.tools._gnubg import in_gnubg, main_in_gnubg, quiet_setup

SCRIPT = ROOT / "bench" / "gnubg_puzzles.py"
_CUBE_LINE = re.compile(
    r"^\s*\d\.\s+(No double|No redouble|Double, take|Redouble, take|Double, pass|"
    r"Redouble, pass)\s+([-+]?\d+\.\d+)",
    re.MULTILINE,
)
_CUBE_KEYS = {
    "No double": "nd",
    "No redouble": "nd",
    "Double, take": "dt",
    "Redouble, take": "dt",
    "Double, pass": "dp",
    "Redouble, pass": "dp",
}


def _captured(gnubg: Any, command: str) -> str:
    """What ``command`` prints: gnubg writes to the C stdout, redirected to a file meanwhile."""
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            gnubg.command(command)
            libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode("utf-8", "replace")


def _setup(gnubg: Any, plies: int) -> None:
    quiet_setup(gnubg)  # two human players, nothing automatic; the plies are set again below
    for command in (
        "set automatic doubles 0",
        "set confirm new off",
        "set beavers 0",  # the bot's games have no beavers
        "set output digits 5",
        "set output mwc off",  # cube equities in EMG, as the puzzles keep them
        f"set evaluation chequerplay evaluation plies {plies}",
        f"set evaluation cubedecision evaluation plies {plies}",
        "set evaluation chequerplay evaluation cubeful on",
        "set evaluation cubedecision evaluation cubeful on",
        "set evaluation chequerplay evaluation prune on",
        "set evaluation cubedecision evaluation prune on",
        "set evaluation chequerplay evaluation noise 0",
        "set evaluation cubedecision evaluation noise 0",
        "new session",
    ):
        gnubg.command(command)


def _plays(gnubg: Any) -> list[dict[str, Any]]:
    return [
        {"move": str(h["move"]), "equity": float(h["equity"]), "plies": int(h["context"]["plies"])}
        for h in gnubg.hint(10_000)["hint"]
    ]


def _filter(gnubg: Any, plies: int, level: int, accept: int, extra: int, threshold: float) -> None:
    """Set the move filter of ``hint`` at ``plies`` for the plays kept after ``level`` plies."""
    gnubg.command(f"set evaluation movefilter {plies} {level} {accept} {extra} {threshold:.6f}")


def _checker(gnubg: Any, setup: dict[str, Any], plies: int) -> dict[str, Any]:
    wanted = {setup["ours"], setup.get("played", setup["ours"])}
    plays = _plays(gnubg)
    full = [p["move"] for p in plays if p["plies"] == plies]
    every: list[dict[str, Any]] | None = None
    if not wanted <= set(full):
        saved = [f for f in gnubg.getevalhintfilter() if f["ply"] == plies]
        for f in saved:  # every level keeps every play
            _filter(gnubg, plies, f["level"], 0, 1000, 1000.0)
        _set(gnubg, setup)  # else hint serves the list it has for this position again
        try:
            every = _plays(gnubg)
        finally:
            for f in saved:
                args = (f["acceptmoves"], f["extramoves"], f["threshold"])
                _filter(gnubg, plies, f["level"], *args)
    return {"plays": plays, "all": every}


def _cube(gnubg: Any) -> dict[str, Any]:
    text = _captured(gnubg, "hint")
    found = {_CUBE_KEYS[name]: float(value) for name, value in _CUBE_LINE.findall(text)}
    if set(found) != {"nd", "dt", "dp"}:
        raise RuntimeError(f"no cube analysis in gnubg's hint:\n{text}")
    return {"cube": found, "text": text}


def _set(gnubg: Any, setup: dict[str, Any]) -> None:
    gnubg.command(f"set jacoby {'on' if setup['jacoby'] else 'off'}")
    gnubg.command(f"set gnubgid {setup['position_id']}:{setup['match_id']}")


def grade_one(gnubg: Any, setup: dict[str, Any], plies: int) -> dict[str, Any]:
    """GNU Backgammon's state and analysis for one puzzle set-up."""
    _set(gnubg, setup)
    out: dict[str, Any] = {
        "id": setup["id"],
        "position_id": str(gnubg.positionid()),
        "match_id": str(gnubg.matchid()),
        "board": [list(side) for side in gnubg.board()],
        "cubeinfo": {k: v for k, v in gnubg.cubeinfo().items() if k != "gammonprice"},
        "posinfo": dict(gnubg.posinfo()),
        "jacoby": "played with the Jacoby rule" in _captured(gnubg, "show jacoby").split("\n")[0],
    }
    if setup["kind"] == "checker":
        out.update(_checker(gnubg, setup, plies))
    else:
        out.update(_cube(gnubg))
    return out


def _in_gnubg(args: dict[str, Any]) -> None:
    import gnubg  # type: ignore[import-not-found]

    plies = int(args["plies"])
    _setup(gnubg, plies)
    setups = json.loads(Path(args["in"]).read_text(encoding="utf-8"))
    with Path(args["out"]).open("w", encoding="utf-8") as f:
        for k, setup in enumerate(setups):
            f.write(json.dumps(grade_one(gnubg, setup, plies)) + "\n")
            f.flush()
            if args.get("progress") and (k + 1) % 20 == 0:
                print(f"  gnubg: {k + 1} of {len(setups)} graded", file=sys.stderr, flush=True)


if __name__ == "__main__" and in_gnubg():
    main_in_gnubg(_in_gnubg)

#!/usr/bin/env python3
"""Jellyfish .mat files through GNU Backgammon, both ways.

``import``: GNU Backgammon (1.07) imports each .mat file (``import mat``) and reports what it
makes of it: every game's winner, points and whether it ended by resignation, the final score,
and the Position ID and Match ID at the end of the match. tests/test_gnubg_mat.py uses it on
matches the engine wrote.

``selfplay``: GNU Backgammon plays matches (and a money game) against itself, 0-ply, with seeded
dice, plus one match of scripted actions (:data:`SCRIPTED`), exports each with
``export match mat`` and writes the same report next to them:
tests/data/gnubg-mat/*.mat and tests/data/gnubg-mat/expected.json, which
tests/test_gnubg_mat.py replays with ``engine.matfile.read_mat`` whether or not gnubg is
installed. Make them again with::

    python3 tests/tools/gnubg_mat.py selfplay

Both modes play with the Jacoby rule off: a .mat file does not say whether it applies, and the
engine reads money games without it.
"""

from __future__ import annotations

import argparse
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

SCRIPT = ROOT / "tests" / "tools" / "gnubg_mat.py"
SELFPLAY_DIR = ROOT / "tests" / "data" / "gnubg-mat"

# A match between two "human" players driven by commands ("best" plays gnubg's best move): a
# resignation right after the opening roll, one after a roll, a rejected one, and a last game
# left unfinished with a roll made and not played, which gnubg exports as dice without a play.
SCRIPTED = (
    "gnubg-resign-after-roll.mat",
    5,
    8,  # a seed where player 0 wins the opening roll (see _export)
    [
        "resign 1",
        "accept",
        "new game",
        "best",
        "roll",
        "resign 1",
        "reject",
        "best",
        "double",
        "take",
        "roll",
        "resign 1",
        "accept",
        "new game",
        "best",
        "roll",
    ],
)

# (file name, match length (0: one money game), seed) of the committed self-play matches.
SELFPLAY = [
    ("gnubg-3pt.mat", 3, 31),
    ("gnubg-5pt.mat", 5, 52),
    ("gnubg-7pt.mat", 7, 73),
    ("gnubg-9pt.mat", 9, 94),
    ("gnubg-money.mat", 0, 5),
]


def report(gnubg: Any) -> dict[str, Any]:
    """What gnubg holds for the current match: games, final score and IDs."""
    info = gnubg.match(0, 0, 0, 0)
    games = []
    for game in info["games"]:
        g = game["info"]
        winner = {"X": 0, "O": 1, None: None}[g.get("winner")]
        games.append(
            {
                "score": [g["score-X"], g["score-O"]],
                "winner": winner,
                "points": g.get("points-won", 0),
                "resigned": bool(g.get("resigned")),
            }
        )
    final = [0, 0]
    for g in games:
        if g["winner"] is not None:
            final[g["winner"]] += g["points"]
    return {
        "length": info["match-info"]["match-length"],
        "games": games,
        "score": final,
        "position_id": str(gnubg.positionid()),
        "match_id": str(gnubg.matchid()),
    }


def _import(gnubg: Any, args: dict[str, Any]) -> None:
    quiet_setup(gnubg)
    gnubg.command("set jacoby off")
    reports = {}
    for path in args["files"]:
        gnubg.command(f"import mat {path}")
        reports[path] = report(gnubg)
    Path(args["out"]).write_text(json.dumps(reports, indent=1) + "\n", encoding="utf-8")


def _selfplay(gnubg: Any, args: dict[str, Any]) -> None:
    for command in ("set display off", "set jacoby off", "set rng mersenne"):
        gnubg.command(command)
    for player in (0, 1):
        gnubg.command(f"set player {player} gnubg")
        gnubg.command(f"set player {player} chequerplay evaluation plies 0")
        gnubg.command(f"set player {player} cubedecision evaluation plies 0")
    out = Path(args["dir"])
    out.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name, length, seed in SELFPLAY:
        gnubg.command(f"set seed {seed}")
        # With two computer players the command plays on by itself: a whole match, or (with
        # automatic games off) the one money game of the session.
        gnubg.command(f"set automatic game {'on' if length else 'off'}")
        gnubg.command(f"new match {length}" if length else "new session")
        for _ in range(20000):
            games = gnubg.match(0, 0, 0, 0)["games"]
            done = [g["info"] for g in games if g["info"].get("winner") is not None]
            score = [sum(g["points-won"] for g in done if g["winner"] == w) for w in "XO"]
            if (length and max(score) >= length) or (not length and done):
                break
            gnubg.nextturn()
        else:
            raise RuntimeError(f"{name}: the match did not end")
        _export(gnubg, out / name, expected)
    name, length, seed, commands = SCRIPTED
    quiet_setup(gnubg)
    gnubg.command("set jacoby off")
    gnubg.command(f"set seed {seed}")
    gnubg.command(f"new match {length}")
    for command in commands:
        if command == "best":
            command = "move " + gnubg.hint(1)["hint"][0]["move"]
        gnubg.command(command)
    _export(gnubg, out / name, expected)
    (out / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(expected)} matches to {out}", file=sys.stderr)


def _export(gnubg: Any, path: Path, expected: dict[str, Any]) -> None:
    """Export the match and keep gnubg's report, once gnubg reads the file back the same: its
    exporter writes a game given up right after player 1 won the opening roll in the wrong
    column, and then cannot import it itself, so such a file would be no reference."""
    gnubg.command(f"export match mat {path}")
    live = report(gnubg)
    gnubg.command(f"import mat {path}")
    again = report(gnubg)
    # The Match IDs may differ: after an import gnubg has not run its end-of-game update of
    # the Crawford flag (3-point self-play: Crawford still set after the match).
    if {**again, "match_id": None} != {**live, "match_id": None}:
        raise RuntimeError(
            f"gnubg does not read {path.name} back as it played it:\n{live}\n{again}"
        )
    expected[path.name] = live


def _in_gnubg(args: dict[str, Any]) -> None:
    import gnubg  # type: ignore[import-not-found]

    {"import": _import, "selfplay": _selfplay}[args["mode"]](gnubg, args)


def import_mats(files: list[Path], out: Path) -> dict[str, Any]:
    """gnubg's report for each .mat file, keyed by its path as given."""
    run_in_gnubg(SCRIPT, {"mode": "import", "files": [str(f) for f in files], "out": str(out)})
    reports: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return reports


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    play = sub.add_parser("selfplay", help="gnubg plays and exports the committed matches")
    play.add_argument("--dir", type=Path, default=SELFPLAY_DIR)
    imp = sub.add_parser("import", help="print gnubg's report on .mat files")
    imp.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    if args.mode == "selfplay":
        run_in_gnubg(SCRIPT, {"mode": "selfplay", "dir": str(args.dir.resolve())}, echo=True)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            reports = import_mats([f.resolve() for f in args.files], Path(tmp) / "report.json")
        print(json.dumps(reports, indent=1))


if __name__ == "__main__":
    if in_gnubg():
        main_in_gnubg(_in_gnubg)
    else:
        main()

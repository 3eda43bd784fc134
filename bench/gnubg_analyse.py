"""GNU Backgammon's analysis of ``.mat`` files: the part of ``bench/bench_pr_gnubg.py`` that runs
inside gnubg (``gnubg -t -q -p``, see tests/tools/_gnubg.py).

Each file is imported (``import mat``), analysed with ``analyse match`` at ``plies`` (checker play
and cube, cubeful, gnubg's default move filters) and its statistics read (what ``show statistics
match`` prints): for each player, in the file's order (the first name of the ``.mat`` is player
0), the normalised (EMG) error of his checker play, his unforced moves, the error of his cube
decisions and his close cube decisions. One JSON line per file: ``{"path", "players":
[[checker, unforced, cube, close], [...]]}``. The games are analysed under the rules they were
played by: without the Jacoby rule unless ``jacoby`` is given (gnubg's default has it in money
games, and a ``.mat`` file does not say; gnubg 1.07 ignores a ``; [Jacoby ...]`` line).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

try:
    ROOT = Path(__file__).resolve().parents[1]
except NameError:  # gnubg runs scripts without __file__; run_in_gnubg starts it in ROOT
    ROOT = Path.cwd()
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.tools._gnubg import in_gnubg, main_in_gnubg, quiet_setup


def _setup(gnubg: Any, plies: int, jacoby: bool = False) -> None:
    quiet_setup(gnubg)
    for command in (
        # The rules the games were played under: gnubg's default, the Jacoby rule in money
        # games, is not in a .mat file (gnubg 1.07 ignores a "; [Jacoby ...]" line).
        f"set jacoby {'on' if jacoby else 'off'}",
        "set confirm new off",
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        "set analysis chequerplay evaluation cubeful on",
        "set analysis cubedecision evaluation cubeful on",
        "set analysis chequerplay evaluation prune on",
        "set analysis cubedecision evaluation prune on",
        "set analysis chequerplay evaluation noise 0",
        "set analysis cubedecision evaluation noise 0",
    ):
        gnubg.command(command)


def player_breakdown(match: dict[str, Any]) -> list[list[float]]:
    """``[checker error, unforced moves, cube error, close cube decisions]`` of player 0 and
    player 1 from gnubg's ``gnubg.match(analysis=1, statistics=1)``, errors normalised (EMG), as
    ``show statistics match`` counts them. (The bench names player 0 "...0" and player 1
    "...1".)"""
    names = [match["match-info"][side]["name"] for side in ("X", "O")]
    out = {}
    for side, name in zip(("X", "O"), names, strict=True):
        moves, cube = match["stats"][side]["moves"], match["stats"][side]["cube"]
        # The cube's "error-skill" is a rate (per close decision); its total is the sum of the
        # kinds of cube errors, as "show statistics match" prints it.
        kinds = [k for k in cube if k.startswith("err-") and k.endswith("-skill")]
        out[name] = [
            moves["error-skill"],
            moves["unforced-moves"],
            sum(cube[k] for k in kinds),
            cube["close-cube"],
        ]
    return [out[n] for n in sorted(out, key=lambda n: n[-1])]


def player_errors(match: dict[str, Any]) -> list[list[float]]:
    """``[error, decisions]`` of player 0 and player 1 (see :func:`player_breakdown`): checker
    play and cube errors summed, unforced moves plus close cube decisions."""
    return [[c + q, n + k] for c, n, q, k in player_breakdown(match)]


def _in_gnubg(args: dict[str, Any]) -> None:
    import gnubg  # type: ignore[import-not-found]

    _setup(gnubg, int(args["plies"]), bool(args.get("jacoby", False)))
    with Path(args["out"]).open("w", encoding="utf-8") as f:
        for path in args["files"]:
            gnubg.command(f"import mat {path}")
            gnubg.command("analyse match")
            stats = gnubg.match(analysis=1, statistics=1, verbose=0)
            record = {"path": path, "players": player_breakdown(stats)}
            f.write(json.dumps(record) + "\n")
            f.flush()
            print(f"  gnubg: analysed {path}", file=sys.stderr, flush=True)


if __name__ == "__main__" and in_gnubg():
    main_in_gnubg(_in_gnubg)

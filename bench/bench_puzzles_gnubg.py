"""Puzzles graded by GNU Backgammon (issue 18: "Outside checks will grade puzzles with GNU
Backgammon"; "the best play agrees with a deeper analysis in at least 95% of the cases and every
disagreement is within 0.010").

``python -m bench puzzles_gnubg`` puts GNU Backgammon (1.07, ``gnubg``, ``/usr/games/gnubg`` or
``$GNUBG``) in the state of every starter puzzle (engine/data/puzzles.jsonl) and asks its ``hint``
at 2 plies, gnubg's default "world class" (``PUZZLES_GNUBG_PLIES=3`` for more): its best play,
or its cube action, is compared with the puzzle's recorded best answer. A disagreement's size is
gnubg's own equity of its best answer minus its equity of ours (both at full depth). The same is
done for the puzzles the bot makes of reviewed games (:func:`review_puzzles`: the matches GNU
Backgammon played itself in tests/data/gnubg-mat and ``PUZZLES_GNUBG_GAMES`` (16) self-play
games of the bot's middle levels, reviewed at the bot's depth and cut into puzzles by the bot's
own rule), unless ``--quick``, which grades the first ten starter puzzles.

The set-up is checked before any answer counts (:func:`setup_problems`): gnubg must read back
the same Position ID and Match ID, its board must be the puzzle's from the side of the player on
roll, and its cube value, cube owner, player on roll, score, match length, Crawford flag, Jacoby
rule and dice must be the puzzle's; a puzzle whose set-up differs is reported, and counts as a
disagreement. A take or a drop is set up as the doubler's cube decision (gnubg's ``set gnubgid``
drops a Match ID's double on offer): gnubg's No double, Double/take and Double/pass there are the
numbers of the taker's choice too.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.bench_puzzles import DATA, context, load
from bench.common import Figure, check
from bench.gnubg_puzzles import SCRIPT
from engine import Position, decode_match_id, encode_match_id, parse_play
from engine.analysis.puzzle import CLEAR, MIN_ERROR
from tests.tools._gnubg import gnubg_binary, run_in_gnubg

NAME = "puzzles_gnubg"
PLIES = int(os.environ.get("PUZZLES_GNUBG_PLIES", "2"))
AGREE = 95.0
WITHIN = 0.010
MATS = Path(__file__).resolve().parent.parent / "tests" / "data" / "gnubg-mat"
SELF_PLAY = int(os.environ.get("PUZZLES_GNUBG_GAMES", "16"))


@dataclass
class Verdict:
    """How GNU Backgammon grades one puzzle."""

    id: str
    kind: str
    ours: str
    theirs: str
    agree: bool
    loss: float
    """gnubg's equity of its best answer minus its equity of ours (0.0 when they agree)."""
    problems: list[str]
    """How gnubg's set-up differs from the puzzle's (empty when it is the same)."""
    margin: float
    """gnubg's equity of its best answer minus its runner-up's."""
    error: float = 0.0
    """gnubg's equity of its best answer minus its equity of the played answer."""
    equity: float = 0.0
    """gnubg's equity of the puzzle's best answer (for a checker play, at full depth)."""

    @property
    def confirmed(self) -> bool:
        """Whether gnubg confirms the puzzle as the bot makes them: the same best answer, the
        runner-up :data:`~engine.analysis.puzzle.CLEAR` behind, the played answer losing
        :data:`~engine.analysis.puzzle.MIN_ERROR` at least."""
        return self.agree and self.margin >= CLEAR - 1e-9 and self.error >= MIN_ERROR - 1e-9


def gnubg_setup(puzzle: dict[str, Any]) -> dict[str, Any]:
    """What the gnubg side is handed for one puzzle: the IDs to set (a take or a drop as the
    doubler's decision, before the double), the Jacoby rule, and the recorded best answer."""
    match_id = puzzle["match_id"]
    key = decode_match_id(match_id)
    if key.double_offered:
        key = dataclasses.replace(key, double_offered=False, turn=key.player_on_roll)
        match_id = encode_match_id(key)
    return {
        "id": puzzle["id"],
        "kind": puzzle["kind"],
        "position_id": puzzle["position_id"],
        "match_id": match_id,
        "jacoby": bool(puzzle["context"]["jacoby"]),
        "ours": puzzle["choices"][0]["answer"],
        "played": puzzle["played"],
    }


def setup_problems(
    puzzle: dict[str, Any], setup: dict[str, Any], seen: dict[str, Any]
) -> list[str]:
    """How the state gnubg reports (``seen``) differs from the puzzle's."""
    ctx = context(puzzle)
    cube, pos = seen["cubeinfo"], seen["posinfo"]
    mover = int(pos["turn"])
    owner = -1 if ctx.cube_owner is None else (mover if ctx.cube_owner == 0 else 1 - mover)
    dice = sorted(puzzle["dice"]) if puzzle["dice"] else [0, 0]
    mine, theirs = Position.from_position_id(puzzle["position_id"]).sides()
    expected: dict[str, Any] = {
        "Position ID": (seen["position_id"], setup["position_id"]),
        "Match ID": (seen["match_id"], setup["match_id"]),
        "board (player on roll, opponent)": (seen["board"][::-1], [list(mine), list(theirs)]),
        "player on roll": (int(cube["move"]), mover),
        "cube value": (int(cube["cube"]), ctx.cube_value),
        "cube owner": (int(cube["cubeowner"]), owner),
        "match length": (int(cube["matchto"]), ctx.match_length),
        "score (player on roll first)": (
            (int(cube["score"][mover]), int(cube["score"][1 - mover])),
            ctx.score,
        ),
        "Crawford": (bool(cube["crawford"]), ctx.crawford),
        "Jacoby": (bool(seen["jacoby"]), ctx.jacoby and ctx.match_length == 0),
        "dice": (sorted(pos["dice"]), dice),
        "double on offer": (bool(pos["doubled"]), False),
        "game in play": (int(pos["gamestate"]), 1),
    }
    return [
        f"{what}: gnubg has {got}, the puzzle {want}"
        for what, (got, want) in expected.items()
        if got != want
    ]


def _checker_verdict(
    puzzle: dict[str, Any], seen: dict[str, Any]
) -> tuple[str, float, float, float, float]:
    """gnubg's best play (in the engine's words), the loss of ours, gnubg's margin, the loss of
    the played play and gnubg's equity of ours."""
    position = Position.from_position_id(puzzle["position_id"])
    dice = (int(puzzle["dice"][0]), int(puzzle["dice"][1]))

    def after(text: str) -> str:
        return position.apply(parse_play(text, position, dice)).position_id()

    ours = after(puzzle["choices"][0]["answer"])
    played = after(puzzle["played"])
    plays = seen["plays"]
    best = plays[0]
    full = seen.get("all") or plays  # every play at full depth, when ours was not in the list
    equity = {after(p["move"]): float(p["equity"]) for p in full if p["plies"] == PLIES}
    theirs = str(parse_play(best["move"], position, dice))
    for wanted, text in ((ours, puzzle["choices"][0]["answer"]), (played, puzzle["played"])):
        if wanted not in equity:
            raise RuntimeError(f"{puzzle['id']}: gnubg evaluated no {text}")
    top = float(best["equity"])
    lost = max(0.0, top - equity[played])
    if after(best["move"]) == ours:
        margin = top - plays[1]["equity"] if len(plays) > 1 else 0.0
        return theirs, 0.0, float(margin), lost, equity[ours]
    return theirs, max(0.0, top - equity[ours]), 0.0, lost, equity[ours]


def _cube_verdict(
    puzzle: dict[str, Any], seen: dict[str, Any]
) -> tuple[str, float, float, float, float]:
    nd, dt, dp = (float(seen["cube"][k]) for k in ("nd", "dt", "dp"))
    if puzzle["decision"] in ("take", "drop"):
        options = {"take": -dt, "pass": -dp}
    else:
        options = {"double": min(dt, dp), "no double": nd}
    ranked = sorted(options, key=lambda k: -options[k])
    ours = puzzle["choices"][0]["answer"]
    margin = options[ranked[0]] - options[ranked[1]]
    lost = options[ranked[0]] - options[puzzle["played"]]
    return ranked[0], options[ranked[0]] - options[ours], margin, lost, options[ours]


def verdict(puzzle: dict[str, Any], setup: dict[str, Any], seen: dict[str, Any]) -> Verdict:
    """gnubg's grade of ``puzzle`` from what it reported (``seen``)."""
    problems = setup_problems(puzzle, setup, seen)
    if puzzle["kind"] == "checker":
        theirs, loss, margin, lost, equity = _checker_verdict(puzzle, seen)
    else:
        theirs, loss, margin, lost, equity = _cube_verdict(puzzle, seen)
    ours = puzzle["choices"][0]["answer"]
    return Verdict(
        puzzle["id"],
        puzzle["kind"],
        ours,
        theirs,
        loss == 0.0 and not problems,
        loss,
        problems,
        margin if loss == 0.0 else 0.0,
        lost,
        equity,
    )


def grade(puzzles: Sequence[dict[str, Any]], *, progress: bool = False) -> list[Verdict]:
    """GNU Backgammon's verdict on each puzzle (one gnubg process for all of them).

    :raises RuntimeError: when GNU Backgammon is not installed or fails.
    """
    setups = [gnubg_setup(p) for p in puzzles]
    with tempfile.TemporaryDirectory() as tmp:
        given, out = Path(tmp) / "in.json", Path(tmp) / "out.jsonl"
        given.write_text(json.dumps(setups), encoding="utf-8")
        args = {"in": str(given), "out": str(out), "plies": PLIES, "progress": progress}
        run_in_gnubg(SCRIPT, args, timeout=7200, echo=progress)
        seen = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return [verdict(p, s, g) for p, s, g in zip(puzzles, setups, seen, strict=True)]


def review_puzzles(games: int = SELF_PLAY) -> list[dict[str, Any]]:
    """The puzzles the bot makes of reviewed games, by its own rule
    (:meth:`bot.service.puzzles.Puzzles.harvest`: the review's depth, the default threshold, the
    confirming depth): of the matches in tests/data/gnubg-mat (GNU Backgammon against
    itself at 0 ply, games nobody here played) and of ``games`` self-play games of the bot's
    intermediate and advanced levels (money games and 5-point matches, seeds of their own)."""
    from bot.service.analysis import REVIEW_PLIES
    from bot.service.puzzles import CONFIRM_PLIES
    from engine import read_mat
    from engine.analysis import review_match
    from engine.analysis.puzzle import MIN_ERROR
    from engine.analysis.puzzle import review_puzzles as harvest
    from engine.analysis.selfplay import play_match
    from engine.bots import get_bot

    matches = [
        (mat.stem, read_mat(mat.read_text(encoding="utf-8")).match)
        for mat in sorted(MATS.glob("*.mat"))
    ]
    for k in range(games):
        seed = f"puzzles-gnubg/{k}"
        bots = (
            get_bot("intermediate", rng=random.Random(f"{seed}/0")),
            get_bot("advanced", rng=random.Random(f"{seed}/1")),
        )
        match = play_match(bots, random.Random(seed), length=5 if k % 2 else 0)
        matches.append((f"self-play-{k}", match))
    out: list[dict[str, Any]] = []
    for name, match in matches:
        review = review_match(match, plies=REVIEW_PLIES)
        for _, record in harvest(review, MIN_ERROR, max(REVIEW_PLIES, CONFIRM_PLIES)):
            ident = f"{name}-{record['position_id']}-{record['decision'].replace(' ', '-')}"
            out.append({"id": ident, **record})
    return out


def figures(
    label: str, verdicts: Sequence[Verdict], puzzles: Sequence[dict[str, Any]]
) -> list[Figure]:
    """The agreement figures of one set of puzzles, each disagreement told on stderr."""
    for v in verdicts:
        if not v.agree:
            why = "; ".join(v.problems) or f"gnubg prefers {v.theirs} by {v.loss:.4f}"
            print(f"  {NAME}: {v.id} ({v.ours}): {why}", file=sys.stderr)
    n = len(verdicts)
    agree = 100.0 * sum(v.agree for v in verdicts) / n if n else float("nan")
    losses = [v.loss for v in verdicts if not v.agree]
    confirmed = 100.0 * sum(v.confirmed for v in verdicts) / n if n else float("nan")
    for v in verdicts:
        if v.agree and not v.confirmed:
            print(
                f"  {NAME}: {v.id}: gnubg's margin {v.margin:.4f}, played loses {v.error:.4f}",
                file=sys.stderr,
            )
    drift = [
        abs(v.equity - p["choices"][0]["equity"]) for v, p in zip(verdicts, puzzles, strict=True)
    ]
    return [
        check(NAME, f"{label}: agrees with gnubg {PLIES}-ply ({n})", agree, "%", at_least=AGREE),
        check(
            NAME,
            f"{label}: largest disagreement",
            max(losses, default=0.0),
            "equity",
            at_most=WITHIN,
        ),
        check(
            NAME,
            f"{label}: set-ups gnubg reads differently",
            sum(bool(v.problems) for v in verdicts),
            "",
            at_most=0,
        ),
        check(
            NAME,
            f"{label}: confirmed by gnubg (same answer, margin >= {CLEAR}, error >= {MIN_ERROR})",
            confirmed,
            "%",
            at_least=AGREE,
        ),
        Figure(
            NAME,
            f"{label}: runner-up under {CLEAR} behind for gnubg",
            sum(v.agree and v.margin < CLEAR - 1e-9 for v in verdicts),
            "",
        ),
        Figure(
            NAME,
            f"{label}: played loses under {MIN_ERROR} for gnubg",
            sum(v.error < MIN_ERROR - 1e-9 for v in verdicts),
            "",
        ),
        Figure(
            NAME,
            f"{label}: |stored - gnubg| equity of the answer, median",
            statistics.median(drift) if drift else float("nan"),
            "equity",
        ),
        Figure(
            NAME,
            f"{label}: |stored - gnubg| equity of the answer, largest",
            max(drift, default=float("nan")),
            "equity",
        ),
    ]


def run(quick: bool = False) -> list[Figure]:
    if gnubg_binary() is None:
        print(f"  {NAME}: GNU Backgammon is not installed; nothing graded", file=sys.stderr)
        return [Figure(NAME, "skipped: no gnubg", 0, "")]
    puzzles = load(DATA)[:10] if quick else load(DATA)
    started = time.perf_counter()
    out = figures("starter set", grade(puzzles, progress=not quick), puzzles)
    out.append(
        Figure(
            NAME, "seconds per puzzle in gnubg", (time.perf_counter() - started) / len(puzzles), "s"
        )
    )
    if not quick:
        reviewed = review_puzzles()
        out.extend(figures("puzzles of reviewed games", grade(reviewed), reviewed))
    return out

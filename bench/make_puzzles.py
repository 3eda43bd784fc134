"""Generate the starter puzzle set (issue 18): ``python -m bench.make_puzzles``.

The computer plays itself at its weakest levels (beginner and casual, whose noise makes real
blunders), money games and 5- and 7-point matches in turn, with seeded dice and noise. Every game
is reviewed at bgsage's 3 plies (the depth the world-class level searches: the deepest analysis
the computer players use), and every decision that lost at least ``--min-error`` (0.050) becomes
a puzzle, at most ``--per-game`` per match (or money game) and never the same position and roll
twice. Each puzzle's candidates are then evaluated again at that depth (the top five plays and
the played one for a checker play; the two actions for a cube decision), and the recorded error
is the best candidate's equity minus the played one's. A decision whose best answer or error (to
0.001) is not the review's is left out, so a puzzle is graded as the review graded it, and so is
one whose runner-up is within :data:`CLEAR` (0.020) of the best answer: it has no single answer.

One JSON object a line, sorted by ``id``:

* ``id``; ``kind``: ``"checker"`` or ``"cube"``; ``decision``: the review's kind (``"move"``,
  ``"no double"``, ``"double"``, ``"take"``, ``"drop"``);
* ``position_id``, ``match_id``, ``xgid``: the moment of the decision (for a take or a drop, the
  double on offer, the position seen by the doubler, as the review keeps it);
* ``dice`` (a checker play) or null; ``context``: cube value and owner, match length, score,
  Crawford and Jacoby seen by the player on roll (the review's :class:`MatchContext`);
* ``played``: the answer given; ``played_steps`` for a checker play;
* ``choices``: the candidates, best first, each ``{"answer", "equity"}`` and, for a checker
  play, ``"steps"`` (``[from, to, die, hit]``, mover's numbering); equities are the decider's,
  normalised to the cube before any double; for a cube decision also ``cube``: ND, DT, DP;
* ``played_equity``, ``error`` (= the first choice's equity minus ``played_equity``);
* ``source``: how it was made (levels, seed, depth, engine).

Each kept puzzle is then checked twice (:func:`gnubg_agrees`, :func:`stable`): GNU Backgammon's
2-ply hint (its default "world class", ``python -m bench puzzles_gnubg``) must find the same best
answer, on a set-up it reads exactly as the puzzle's, and a 4-ply analysis too (the check of
``python -m bench puzzles``), with the runner-up :data:`CLEAR` behind there as well; a puzzle that
fails either is dropped, so that its answer holds. Without gnubg the first check is skipped (and
said). ``--refilter`` applies both checks to the existing file and tops it up from further games
(numbered after the last one in it).

It needs bgsage. Time it takes is printed; a game is reviewed in about 3 s on one core.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine import Match
from engine.analysis import review_match
from engine.analysis.puzzle import CLEAR, TOP, cube_choices, deeper, make_puzzle
from engine.analysis.review import Decision
from engine.analysis.selfplay import play_match
from engine.bots import backend, get_bot

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "data" / "puzzles.jsonl"
LEVELS = ("beginner", "casual")
LENGTHS = (0, 5, 0, 7)  # money games and matches in turn
PLIES = 3
__all__ = ["CLEAR", "TOP", "cube_choices", "gnubg_agrees", "main", "puzzle", "stable"]
SEED = "puzzles-2026"


def self_play(k: int) -> tuple[Match, str]:
    """Game ``k`` of the generator: the levels and length cycle with ``k``."""
    a = LEVELS[k % 2]
    b = LEVELS[(k // 2) % 2]
    length = LENGTHS[k % len(LENGTHS)]
    rngs = (random.Random(f"{SEED}/{k}/0"), random.Random(f"{SEED}/{k}/1"))
    bots = (get_bot(a, rng=rngs[0]), get_bot(b, rng=rngs[1]))
    return play_match(bots, random.Random(f"{SEED}/{k}"), length=length), f"{a} v {b}"


def puzzle(d: Decision, ident: str, source: dict[str, Any]) -> dict[str, Any] | None:
    """The record of decision ``d`` (None when its candidates no longer show the error)."""
    record = make_puzzle(d, PLIES)
    if record is None:
        return None
    return {"id": ident, **record, "source": source}


def stable(record: dict[str, Any]) -> bool:
    """Whether a deeper analysis (4 plies) finds the same best answer, by :data:`CLEAR` at
    least, and the recorded runner-up is :data:`CLEAR` behind too."""
    from bench.bench_puzzles import DEEPER

    choices = record["choices"]
    if choices[0]["equity"] - choices[1]["equity"] < CLEAR:
        return False
    best, _, margin = deeper(record, DEEPER)
    return bool(best == choices[0]["answer"] and margin >= CLEAR)


def gnubg_agrees(records: list[dict[str, Any]]) -> list[bool]:
    """Whether GNU Backgammon's 2-ply analysis finds each record's best answer, on a set-up it
    reads exactly as the puzzle's; all True when gnubg is not installed (the caller says so)."""
    from bench.bench_puzzles_gnubg import grade
    from tests.tools._gnubg import gnubg_binary

    if not records or gnubg_binary() is None:
        return [True] * len(records)
    return [v.agree for v in grade(records)]


def candidates(k: int, min_error: float, per_game: int) -> Iterator[dict[str, Any]]:
    match, who = self_play(k)
    review = review_match(match, plies=PLIES)
    source = {"levels": who, "seed": f"{SEED}/{k}", "plies": review.plies, "engine": review.engine}
    big = [d for d in review.decisions if d.unforced and d.error >= min_error]
    big.sort(key=lambda d: -d.error)
    records = []
    for d in big:
        ident = f"{k:04d}-{d.game}-{d.move:03d}-{d.kind.replace(' ', '-')}"
        record = puzzle(d, ident, source)
        if record is not None:
            records.append(record)
    kept = 0
    for record, agreed in zip(records, gnubg_agrees(records), strict=True):
        if kept >= per_game:
            break
        if not agreed:
            print(f"dropped {record['id']}: gnubg disagrees", file=sys.stderr, flush=True)
        elif stable(record):
            kept += 1
            yield record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.make_puzzles", description=__doc__)
    parser.add_argument("--count", type=int, default=200, help="puzzles to make (200)")
    parser.add_argument("--min-error", type=float, default=0.050)
    parser.add_argument("--per-game", type=int, default=6, help="at most this many per match")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--refilter", action="store_true", help="drop the unstable puzzles of --out, top it up"
    )
    args = parser.parse_args(argv)
    if backend() != "bgsage":
        parser.error("the puzzles are analysed by bgsage, which is not installed")
    from tests.tools._gnubg import gnubg_binary

    if gnubg_binary() is None:
        print("GNU Backgammon is not installed: the puzzles are not checked by it", file=sys.stderr)
    started = time.perf_counter()
    seen: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    k = 0
    if args.refilter:
        out, k = _refiltered(args.out)
        seen = {(r["position_id"], str(r["dice"])) for r in out}
    while len(out) < args.count:
        for record in candidates(k, args.min_error, args.per_game):
            key = (record["position_id"], str(record["dice"]))
            if key in seen or len(out) >= args.count:
                continue
            seen.add(key)
            out.append(record)
        k += 1
        elapsed = time.perf_counter() - started
        print(f"{k} games, {len(out)} puzzles, {elapsed:.0f} s", file=sys.stderr, flush=True)
    out.sort(key=lambda r: r["id"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as f:
        for record in out:
            f.write(json.dumps(record, sort_keys=True) + "\n")
    elapsed = time.perf_counter() - started
    cube = sum(r["kind"] == "cube" for r in out)
    print(
        f"{len(out)} puzzles ({cube} cube) from {k} games in {elapsed:.0f} s -> {args.out}",
        file=sys.stderr,
    )
    return 0


def _refiltered(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The puzzles of ``path`` that gnubg and a deeper analysis confirm, and the number of the
    next game to play."""
    with path.open(encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    kept = []
    for record, agreed in zip(records, gnubg_agrees(records), strict=True):
        if not agreed:
            print(f"dropped {record['id']}: gnubg disagrees", file=sys.stderr, flush=True)
        elif not stable(record):
            print(f"dropped {record['id']}: no clear answer", file=sys.stderr, flush=True)
        else:
            kept.append(record)
    return kept, 1 + max(int(r["id"][:4]) for r in records)


if __name__ == "__main__":
    raise SystemExit(main())

"""Generate the starter puzzle set (issue 18): ``python -m bench.make_puzzles``.

The computer plays itself at its weakest levels (beginner and casual, whose noise makes real
blunders), money games and 5- and 7-point matches in turn, with seeded dice and noise. Every game
is reviewed at bgsage's 3 plies (the depth the world-class level searches, GNU Backgammon's
2-ply), and every decision that lost at least ``--min-error`` (0.050) there is analysed at the
confirming depth :data:`CONFIRM` (3 plies, the bot's confirming depth too): the top five plays
and the played one for a checker play, the cube equities for a cube decision. It becomes a
puzzle only when that analysis confirms it (:func:`engine.analysis.puzzle.confirmed`): the
review's best answer still best, the runner-up :data:`CLEAR` (0.020) behind, the played answer
still losing 0.050; the puzzle's equities and error are that analysis'. At most ``--per-game``
per match (or money game), never the same position and roll twice.

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

Each kept puzzle is then checked by GNU Backgammon's 2-ply hint (its default "world class",
``python -m bench puzzles_gnubg``, :func:`gnubg_agrees`) the same way: on a set-up it reads
exactly as the puzzle's, the same best answer, by :data:`CLEAR` over its runner-up, the played
answer losing 0.050 by its equities; a puzzle it does not confirm is dropped. Without gnubg
that check is skipped (and said). ``--refilter`` makes the puzzles of the existing file again
of their analysis at :data:`CONFIRM` plies (:func:`reconfirm`; one made at that depth already
holds it), drops those that it or gnubg does not confirm, and tops the set up from further
games (numbered after the last one in it).

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
from engine.analysis.puzzle import (
    CLEAR,
    MIN_ERROR,
    TOP,
    confirmed,
    cube_choices,
    deeper,
    make_puzzle,
    puzzle_context,
)
from engine.analysis.review import Decision
from engine.analysis.selfplay import play_match
from engine.bots import backend, get_bot

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "engine" / "data" / "puzzles.jsonl"
LEVELS = ("beginner", "casual")
LENGTHS = (0, 5, 0, 7)  # money games and matches in turn
PLIES = 3
CONFIRM = 3
__all__ = [
    "CLEAR",
    "TOP",
    "as_decision",
    "cube_choices",
    "gnubg_agrees",
    "main",
    "puzzle",
    "reconfirm",
    "stable",
]
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
    """The record of decision ``d``, made of its analysis at :data:`CONFIRM` plies (None when
    that analysis does not confirm it: :func:`engine.analysis.puzzle.confirmed`)."""
    record = make_puzzle(d, PLIES, confirm=CONFIRM)
    if record is None:
        return None
    return {"id": ident, **record, "source": source}


def as_decision(record: dict[str, Any]) -> Decision:
    """The decision a stored puzzle was made of, as the review would hold it."""
    choices = record["choices"]
    dice = record["dice"]
    steps = tuple(tuple(s) for s in record.get("played_steps", ()))
    return Decision(
        game=0,
        move=0,
        player=0,
        kind=record["decision"],
        position_id=record["position_id"],
        match_id=record["match_id"],
        context=puzzle_context(record),
        dice=(int(dice[0]), int(dice[1])) if dice else None,
        played=record["played"],
        best=choices[0]["answer"],
        equity=record["played_equity"],
        best_equity=choices[0]["equity"],
        unforced=True,
        played_steps=steps,
        cube=tuple(choices[0]["cube"]) if record["kind"] == "cube" else None,
    )


def reconfirm(record: dict[str, Any]) -> dict[str, Any] | None:
    """A stored puzzle made again of its analysis at :data:`CONFIRM` plies, with its ``id`` and
    ``source`` (None when that analysis does not confirm it)."""
    again = confirmed(as_decision(record), CONFIRM, MIN_ERROR)
    if again is None:
        return None
    return {"id": record["id"], **again, "source": record["source"]}


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
    """Whether GNU Backgammon's 2-ply analysis confirms each record as the bot makes puzzles: the
    same best answer, on a set-up it reads exactly as the puzzle's, by :data:`CLEAR` over the
    runner-up, the played answer losing 0.050 at least; all True when gnubg is not installed (the
    caller says so)."""
    from bench.bench_puzzles_gnubg import grade
    from tests.tools._gnubg import gnubg_binary

    if not records or gnubg_binary() is None:
        return [True] * len(records)
    return [v.confirmed and not v.problems for v in grade(records)]


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
            print(f"dropped {record['id']}: gnubg does not confirm it", file=sys.stderr, flush=True)
        else:
            kept += 1
            yield record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.make_puzzles", description=__doc__)
    parser.add_argument("--count", type=int, default=200, help="puzzles to make (200)")
    parser.add_argument("--min-error", type=float, default=0.050)
    parser.add_argument("--per-game", type=int, default=6, help="at most this many per match")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--refilter",
        action="store_true",
        help="make the puzzles of --out again at the confirming depth, drop what fails, top up",
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
    """The puzzles of ``path`` made again of their :data:`CONFIRM`-ply analysis, those that it
    and gnubg confirm, and the number of the next game to play."""
    with path.open(encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    again = []
    for k, record in enumerate(records):
        # A puzzle made at the confirming depth already holds that evaluation's numbers.
        made_there = record.get("plies", record["source"]["plies"]) == CONFIRM
        new = {**record, "plies": CONFIRM} if made_there else reconfirm(record)
        if new is None:
            print(f"dropped {record['id']}: not confirmed at {CONFIRM} plies", file=sys.stderr)
        else:
            again.append(new)
        if (k + 1) % 20 == 0:
            print(f"  {k + 1} of {len(records)} analysed again", file=sys.stderr, flush=True)
    kept = []
    for record, agreed in zip(again, gnubg_agrees(again), strict=True):
        if agreed:
            kept.append(record)
        else:
            print(f"dropped {record['id']}: gnubg does not confirm it", file=sys.stderr, flush=True)
    return kept, 1 + max(int(r["id"][:4]) for r in records)


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Record GNU Backgammon's own notation for a sample of plays: tests/data/gnubg-notation.jsonl.gz.

Each line is ``{"position_id", "dice", "gnubg", "source", "after"}``: a play as GNU Backgammon
writes it (its ``FormatMove``, e.g. ``13/7*/5 6/5``, ``bar/20(2)``, ``6/off(3) 5/off``) and the
Position ID after it, seen by the opponent. ``source`` is ``hint`` for the text of gnubg's hint
list, or ``tuple`` for ``gnubg.movetupletostring`` of the same play given as the (from, to) pairs
of ``gnubg.parsemove`` (recorded only when it differs: it may order the parts otherwise, as in
``bar/20(2) bar/15`` for hint's ``bar/15 bar/20(2)``). ``after`` is computed as in
make_gnubg_corpus.py (``parsemove`` applied to ``gnubg.board()``, encoded by ``gnubg.positionid``)
and cross-checked on a share of the plays with gnubg's ``move`` command.

The positions are a stratified sample of tests/data/gnubg-corpus.jsonl.gz: the same number of
cases from every family, and in each case the plays whose notation has a bar, an ``off``, a hit
or a count first, then others at random.

Usage (needs GNU Backgammon; a few seconds)::

    python3 tests/tools/make_gnubg_notation.py
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

try:
    ROOT = Path(__file__).resolve().parents[2]
except NameError:  # gnubg runs scripts without __file__; run_in_gnubg starts it in ROOT
    ROOT = Path.cwd()
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.tools._gnubg import in_gnubg, main_in_gnubg, run_in_gnubg
from tests.tools.make_gnubg_corpus import DEFAULT_OUT as CORPUS
from tests.tools.make_gnubg_corpus import Oracle, _after, _read_jsonl

SCRIPT = ROOT / "tests" / "tools" / "make_gnubg_notation.py"
DEFAULT_OUT = ROOT / "tests" / "data" / "gnubg-notation.jsonl.gz"
PER_FAMILY = 100
PER_CASE = 10


def _special(text: str) -> bool:
    return any(mark in text for mark in ("bar", "off", "*", "("))


def _in_gnubg(args: dict[str, Any]) -> None:
    import gnubg  # type: ignore[import-not-found]

    rng = random.Random(int(args["seed"]))
    oracle = Oracle(gnubg, cross_check_every=0)
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for case in _read_jsonl(Path(args["corpus"])):
        if case["plays"]:
            by_kind.setdefault(case["kind"], []).append(case)
    rows = []
    checked = 0
    for kind in sorted(by_kind):
        for case in rng.sample(by_kind[kind], min(PER_FAMILY, len(by_kind[kind]))):
            position, dice = case["position_id"], tuple(case["dice"])
            gnubg.command(f"set board {position}")
            gnubg.command(f"set dice {dice[0]} {dice[1]}")
            board = gnubg.board()
            texts = [m["move"] for m in gnubg.hint(100000)["hint"]]
            rng.shuffle(texts)
            texts.sort(key=lambda t: not _special(t))  # stable: the special ones first
            for text in texts[:PER_CASE]:
                pairs = gnubg.parsemove(text)
                after = _after(gnubg, board, pairs)
                if after not in case["plays"]:
                    raise RuntimeError(f"{position} {dice} {text}: {after} is not in the corpus")
                flat = [v for pair in pairs for v in pair][:8]
                again = gnubg.movetupletostring(tuple(flat + [-1] * (8 - len(flat))), board)
                for source, written in (("hint", text), ("tuple", again)):
                    if source == "hint" or written != text:
                        rows.append({"position_id": position, "dice": list(dice), "gnubg": written})
                        rows[-1].update(source=source, after=after)
                if len(rows) % 10 == 0:
                    oracle.cross_check(position, dice, {text: after})
                    checked += 1
    with (
        open(args["out"], "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as z,
    ):
        for row in rows:
            z.write((json.dumps(row, separators=(",", ":")) + "\n").encode())
    print(f"wrote {len(rows)} plays; {checked} replayed with gnubg's move command", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    run_in_gnubg(
        SCRIPT,
        {"out": str(args.out.resolve()), "corpus": str(args.corpus.resolve()), "seed": args.seed},
        echo=True,
    )


if __name__ == "__main__":
    if in_gnubg():
        main_in_gnubg(_in_gnubg)
    else:
        main()

#!/usr/bin/env python3
"""Record GNU Backgammon's legal plays in the variants: tests/data/gnubg-variants.jsonl.gz.

Each line is ``{"variant", "kind", "position_id", "dice", "plays"}``, as in
tests/data/gnubg-corpus.jsonl.gz (``plays``: the sorted Position IDs after each distinct legal
play, seen by the opponent, ``[]`` when the player on roll cannot move).

GNU Backgammon 1.07 plays the variants after ``set variation nackgammon`` or
``set variation 3-chequer-hypergammon`` and ``new session``:

* **nackgammon** has 15 checkers a side, so gnubg's ``hint`` at 0 ply lists every play, as in
  make_gnubg_corpus.py (its :class:`Oracle` is reused); positions come from games started at
  gnubg's own nackgammon position, mixing random plays and gnubg's best ones;
* **hypergammon**: ``hint`` lists nothing without gnubg's hypergammon database, so the plays are
  found by asking gnubg's ``move`` command: every sequence of physically possible checker steps
  (any number of dice, in either order; written here without the engine) is tried on gnubg's
  board, and the ones gnubg accepts are the legal plays (the position it reaches must be the one
  computed here). Positions come from random games from the starting position (one checker on
  each of the 24-, 23- and 22-points) and random boards of up to three checkers a side.

Usage (needs GNU Backgammon; a few minutes)::

    python3 tests/tools/make_gnubg_variants.py
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

from tests.tools._gnubg import in_gnubg, main_in_gnubg, quiet_setup, run_in_gnubg
from tests.tools.make_gnubg_corpus import ROLLS, Oracle, roll_cycle

SCRIPT = ROOT / "tests" / "tools" / "make_gnubg_variants.py"
DEFAULT_OUT = ROOT / "tests" / "data" / "gnubg-variants.jsonl.gz"
VARIATIONS = {"nackgammon": "nackgammon", "hypergammon": "3-chequer-hypergammon"}
Case = dict[str, Any]
Side = list[int]  # 25 counts from the owner's view, index 24 = bar


def start_session(gnubg: Any, variant: str) -> None:
    gnubg.command(f"set variation {VARIATIONS[variant]}")
    gnubg.command("new session")


def steps(me: Side, opp: Side, die: int) -> list[tuple[int, int]]:
    """Every (from, to) a checker of ``me`` can physically make with ``die`` (1-based points, 25
    the bar, 0 off), ignoring the rules about the bar and bearing off: gnubg judges those."""
    out = []
    for src in range(25, 0, -1):
        if me[src - 1] <= 0:
            continue
        dst = max(src - die, 0)
        if dst and opp[24 - dst] >= 2:
            continue
        out.append((src, dst))
    return out


def moved(me: Side, opp: Side, step: tuple[int, int]) -> tuple[Side, Side]:
    me, opp = me[:], opp[:]
    src, dst = step
    me[src - 1] -= 1
    if dst:
        if opp[24 - dst] == 1:
            opp[24 - dst] = 0
            opp[24] += 1
        me[dst - 1] += 1
    return me, opp


def candidates(me: Side, opp: Side, dice: tuple[int, int]) -> dict[str, str]:
    """One move text per distinct resulting position (keyed by that position's sides)."""
    orders = [[dice[0]] * 4] if dice[0] == dice[1] else [list(dice), list(dice[::-1])]
    found: dict[str, str] = {}

    def walk(me: Side, opp: Side, dice_left: list[int], done: list[tuple[int, int]]) -> None:
        if done:
            key = json.dumps([me, opp])
            found.setdefault(key, " ".join(_text(s) for s in done))
        if dice_left:
            for step in steps(me, opp, dice_left[0]):
                walk(*moved(me, opp, step), dice_left[1:], [*done, step])

    for order in orders:
        walk(me, opp, order, [])
    return found


def _text(step: tuple[int, int]) -> str:
    src, dst = step
    return f"{'bar' if src == 25 else src}/{dst if dst else 'off'}"


class ProbeOracle:
    """Legal plays as GNU Backgammon's ``move`` command accepts them (hypergammon)."""

    def __init__(self, gnubg: Any) -> None:
        self.gnubg = gnubg
        quiet_setup(gnubg)
        gnubg.command("set automatic game off")
        start_session(gnubg, "hypergammon")
        self.probes = 0

    def plays(self, position_id: str, dice: tuple[int, int]) -> list[str]:
        g = self.gnubg
        opp, me = (list(s) for s in g.positionfromid(position_id))
        results = []
        for key, text in candidates(me, opp, dice).items():
            after_me, after_opp = json.loads(key)
            expected = str(g.positionid((after_me, after_opp)))
            self._set(position_id, dice)
            g.command(f"move {text}")
            self.probes += 1
            now = str(g.positionid())
            if sum(after_me) == 0:  # the last checker borne off: the game is over if accepted
                if now != position_id:
                    results.append(expected)
                start_session(g, "hypergammon")
            elif now == expected:
                results.append(expected)
            elif now != position_id:
                raise RuntimeError(f"{position_id} {dice} {text}: gnubg reached {now}")
        return sorted(results)

    def _set(self, position_id: str, dice: tuple[int, int]) -> None:
        g = self.gnubg
        g.command(f"set board {position_id}")
        g.command(f"set dice {dice[0]} {dice[1]}")
        if g.positionid() != position_id:
            raise RuntimeError(f"gnubg did not take {position_id}: it shows {g.positionid()}")

    def swap(self, position_id: str) -> str:
        opp, me = self.gnubg.positionfromid(position_id)
        return str(self.gnubg.positionid((list(me), list(opp))))


def random_hyper_board(rng: random.Random) -> tuple[Side, Side]:
    """Up to three checkers a side anywhere (the bar included), no point shared."""
    me, opp = [0] * 25, [0] * 25
    for _ in range(rng.randint(1, 3)):
        me[rng.choice([i for i in range(25) if i == 24 or opp[23 - i] == 0])] += 1
    for _ in range(rng.randint(1, 3)):
        opp[rng.choice([i for i in range(25) if i == 24 or me[23 - i] == 0])] += 1
    return me, opp


def games(oracle: Any, rng: random.Random, start: str, best: Any) -> Any:
    """(position, dice, plays) along games from ``start``, random plays or ``best`` ones."""
    rolls = roll_cycle(rng, ROLLS)
    while True:
        position = start
        share = rng.choice((0.0, 0.5, 0.9)) if best else 0.0
        for _ in range(400):
            dice = next(rolls)
            plays = oracle.plays(position, dice)
            yield position, dice, plays
            if not plays:
                position = oracle.swap(position)
                continue
            position = best(position, dice) if rng.random() < share else rng.choice(plays)
            opp, me = oracle.gnubg.positionfromid(position)
            if sum(opp) == 0 or sum(me) == 0:
                break


def collect(source: Any, variant: str, kind: str, quota: int, seen: set[Any]) -> list[Case]:
    cases: list[Case] = []
    for position, dice, plays in source:
        key = (position, min(dice), max(dice))
        if key in seen:
            continue
        seen.add(key)
        cases.append(
            {
                "variant": variant,
                "kind": kind,
                "position_id": position,
                "dice": list(dice),
                "plays": plays,
            }
        )
        if len(cases) == quota:
            return cases
    return cases


def _hyper_boards(oracle: ProbeOracle, rng: random.Random) -> Any:
    rolls = roll_cycle(rng, ROLLS)
    while True:
        me, opp = random_hyper_board(rng)
        position = str(oracle.gnubg.positionid((opp, me)))
        dice = next(rolls)
        yield position, dice, oracle.plays(position, dice)


def _in_gnubg(args: dict[str, Any]) -> None:
    import gnubg  # type: ignore[import-not-found]

    rng = random.Random(int(args["seed"]))
    n = int(args["per_variant"])
    seen: set[Any] = set()
    nack = Oracle(gnubg, cross_check_every=25)
    start_session(gnubg, "nackgammon")
    start = str(gnubg.positionid())
    cases = collect(games(nack, rng, start, nack.best), "nackgammon", "self-play", n, seen)
    hyper = ProbeOracle(gnubg)
    start = str(gnubg.positionid())
    cases += collect(games(hyper, rng, start, None), "hypergammon", "self-play", n // 2, seen)
    cases += collect(_hyper_boards(hyper, rng), "hypergammon", "random-board", n - n // 2, seen)
    out = Path(args["out"])
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as z:
        for case in cases:
            z.write((json.dumps(case, separators=(",", ":")) + "\n").encode())
    print(f"wrote {len(cases)} cases to {out}; {hyper.probes} moves probed", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=20261204)
    parser.add_argument("--per-variant", type=int, default=800)
    args = parser.parse_args(argv)
    run_in_gnubg(
        SCRIPT,
        {"out": str(args.out.resolve()), "seed": args.seed, "per_variant": args.per_variant},
        echo=True,
    )


if __name__ == "__main__":
    if in_gnubg():
        main_in_gnubg(_in_gnubg)
    else:
        main()

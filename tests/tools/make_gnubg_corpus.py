#!/usr/bin/env python3
"""Record GNU Backgammon's legal plays for many positions: tests/data/gnubg-corpus.jsonl.gz.

Each line is ``{"kind", "position_id", "dice", "plays"}``, as in tests/data/legal-plays.jsonl:
``plays`` are the sorted Position IDs after each distinct legal play, seen by the opponent (then on
roll), and ``[]`` when the player on roll cannot move.

How the plays are obtained from GNU Backgammon (1.07): ``set board <id>``, ``set dice``, then
``gnubg.hint(n)`` at 0-ply evaluation. At 0 ply no move filter prunes the list, so hint returns
every play of ``GenerateMoves`` (one per resulting position). Each play's notation is read back
with ``gnubg.parsemove`` and applied to ``gnubg.board()`` by the few lines of :func:`_after`, and
``gnubg.positionid`` encodes the result. Two checks keep this honest, every run:

* ``--verify tests/data/legal-plays.jsonl`` recomputes the shared 1,250-case corpus with the same
  method and fails on any difference (it reproduces it exactly);
* for a sample of cases, every play is also played with gnubg's own ``move`` command, and the
  position gnubg reaches must be the one :func:`_after` computed.

The positions are built here, independently of the engine: gnubg self-play (random and gnubg's
best 0-ply plays) and synthetic families (bear-offs, contact bear-offs, bar-heavy and closed
boards, doubles against primes, plays where only one die can be used, races, random boards),
each family cycling through all 21 rolls. The engine is used only to *label* the partial-roll
family (to keep the candidates where not every die can be played); the expected plays always come
from gnubg.

Usage (needs GNU Backgammon; about three minutes for the default size)::

    python3 tests/tools/make_gnubg_corpus.py                       # writes the corpus
    python3 tests/tools/make_gnubg_corpus.py --verify tests/data/legal-plays.jsonl
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

try:
    ROOT = Path(__file__).resolve().parents[2]
except NameError:  # gnubg runs scripts without __file__; run_in_gnubg starts it in ROOT
    ROOT = Path.cwd()
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.tools._gnubg import in_gnubg, main_in_gnubg, quiet_setup, run_in_gnubg

SCRIPT = ROOT / "tests" / "tools" / "make_gnubg_corpus.py"
DEFAULT_OUT = ROOT / "tests" / "data" / "gnubg-corpus.jsonl.gz"

ROLLS = [(a, b) for a in range(1, 7) for b in range(a, 7)]  # the 21 distinct rolls
DOUBLES = [(d, d) for d in range(1, 7)]

# How many cases of each family the default run writes.
FAMILIES = {
    "self-play": 4500,
    "bear-off": 1500,
    "contact-bear-off": 2500,
    "bar-heavy": 2500,
    "blocked-doubles": 1200,
    "partial-roll": 1500,
    "race": 600,
    "random-board": 1200,
}

Board = list[int]  # 26 signed cells, the mover's view: 1..24 points, 25 his bar, 0 -(their bar)
GnuBoard = tuple[list[int], list[int]]  # gnubg's (opponent, player on roll), 25 each, own view


# -- positions, independent of the engine ------------------------------------------------------


def to_gnubg(cells: Board) -> GnuBoard:
    """gnubg's board from 26 signed cells (its lists run from each owner's 1-point to his bar)."""
    me = [max(cells[p], 0) for p in range(1, 25)] + [cells[25]]
    opp = [max(-cells[25 - i], 0) for i in range(1, 25)] + [-cells[0]]
    return opp, me


def _free(cells: Board, side: int, points: range | list[int]) -> list[int]:
    """Points of ``points`` where ``side`` (+1 mover, -1 opponent) may put checkers."""
    return [p for p in points if cells[p] * side >= 0]


def scatter(rng: random.Random, cells: Board, side: int, n: int, points: range | list[int]) -> int:
    """Put up to ``n`` checkers of ``side`` on ``points`` in random stacks; returns how many."""
    placed = 0
    while placed < n:
        free = _free(cells, side, points)
        if not free:
            break
        p = rng.choice(free)
        k = min(n - placed, rng.choice((1, 1, 2, 2, 3, 4)))
        cells[p] += side * k
        placed += k
    return placed


def mover_checkers(cells: Board) -> int:
    return sum(v for v in cells[1:] if v > 0)


def opp_checkers(cells: Board) -> int:
    return -sum(v for v in cells[:25] if v < 0)


def bear_off_board(rng: random.Random, *, contact: bool) -> Board:
    """The mover has every checker in his home board (some perhaps borne off). With ``contact``
    the opponent has checkers in that home board or on the bar, so bearing off can hit, and now
    and then the mover has a checker back on the bar or just outside, as after being hit."""
    cells = [0] * 26
    mine = rng.randint(1, 15)
    if contact:
        # Opponent blots and anchors in the mover's home board, perhaps on the bar too.
        for _ in range(rng.randint(1, 3)):
            p = rng.randint(1, 6)
            cells[p] -= rng.choice((1, 1, 1, 2))
        if rng.random() < 0.3:
            cells[0] = -rng.randint(1, 2)
        if rng.random() < 0.25:
            straggler = rng.choice((25, rng.randint(7, 12)))
            if cells[straggler] >= 0:
                cells[straggler] += 1
                mine -= 1
    scatter(rng, cells, +1, max(mine, 1) if mover_checkers(cells) == 0 else mine, range(1, 7))
    theirs = rng.randint(1, 15) - opp_checkers(cells)
    # The rest of the opponent: racing home (his home is our 19..24) or still in contact.
    far = range(19, 25) if rng.random() < 0.5 else range(7, 25)
    scatter(rng, cells, -1, max(theirs, 0), far)
    return cells


def bar_heavy_board(rng: random.Random) -> Board:
    """Several mover checkers on the bar against a home board with 1..6 closed points."""
    cells = [0] * 26
    cells[25] = rng.choice((1, 1, 2, 2, 3, 3, 4, 5))
    home = list(range(19, 25))
    rng.shuffle(home)
    closed = rng.choice((1, 2, 2, 3, 3, 4, 4, 5, 6))  # 6 closed points: a certain pass
    for p in home[:closed]:
        cells[p] = -rng.choice((2, 2, 3))
    for p in home[closed:]:
        if rng.random() < 0.3:
            cells[p] = -1  # a blot to hit on entering
    theirs = 15 - rng.randint(0, 3) - opp_checkers(cells)
    if rng.random() < 0.2:
        cells[0] = -1
        theirs -= 1
    scatter(rng, cells, -1, max(theirs, 0), range(1, 19))
    scatter(rng, cells, +1, 15 - cells[25] - rng.randint(0, 2), range(1, 25))
    return cells


def prime_board(rng: random.Random) -> Board:
    """An opponent prime (or scattered made points) in front of some mover checkers."""
    cells = [0] * 26
    length = rng.randint(3, 6)
    start = rng.randint(2, 24 - length)
    for p in range(start, start + length):
        if rng.random() < 0.9:
            cells[p] = -rng.choice((2, 2, 3))
    for _ in range(rng.randint(0, 3)):
        p = rng.randint(1, 24)
        if cells[p] == 0:
            cells[p] = -2
    theirs = 15 - opp_checkers(cells)
    scatter(rng, cells, -1, max(0, theirs - rng.randint(0, 5)), range(1, 25))
    # The mover: a few checkers behind the prime (maybe on the bar) and the rest anywhere.
    behind = rng.randint(1, 5)
    if rng.random() < 0.3:
        cells[25] = 1
        behind -= 1
    scatter(rng, cells, +1, behind, range(start + length, 25))
    scatter(rng, cells, +1, rng.randint(0, 15 - mover_checkers(cells)), range(1, 25))
    if mover_checkers(cells) == 0:
        cells[25] = 1
    return cells


def race_board(rng: random.Random) -> Board:
    """No contact: the mover's checkers are all in front of the opponent's."""
    cells = [0] * 26
    split = rng.randint(7, 18)
    scatter(rng, cells, +1, rng.randint(1, 15), range(1, split))
    scatter(rng, cells, -1, rng.randint(1, 15), range(split, 25))
    return cells


def random_board(rng: random.Random) -> Board:
    """Checkers anywhere, bars included."""
    cells = [0] * 26
    if rng.random() < 0.3:
        cells[25] = rng.randint(1, 3)
    if rng.random() < 0.3:
        cells[0] = -rng.randint(1, 3)
    scatter(rng, cells, -1, rng.randint(1, 15) - opp_checkers(cells), range(1, 25))
    scatter(rng, cells, +1, rng.randint(1, 15) - mover_checkers(cells), range(1, 25))
    if mover_checkers(cells) == 0:
        cells[25] = 1
    return cells


def _valid(cells: Board) -> bool:
    """Both sides still in the game, at most 15 checkers each."""
    return 0 < mover_checkers(cells) <= 15 and 0 < opp_checkers(cells) <= 15


# -- asking GNU Backgammon ---------------------------------------------------------------------


class Oracle:
    """Legal plays as GNU Backgammon lists them."""

    def __init__(self, gnubg: Any, cross_check_every: int) -> None:
        self.gnubg = gnubg
        self.cross_check_every = cross_check_every
        self.asked = 0
        self.cross_checked = 0
        quiet_setup(gnubg)
        gnubg.command("new game")

    def position_id(self, cells: Board) -> str:
        return str(self.gnubg.positionid(to_gnubg(cells)))

    def plays(self, position_id: str, dice: tuple[int, int]) -> list[str]:
        """Sorted Position IDs after each legal play, seen by the opponent."""
        g = self.gnubg
        g.command(f"set board {position_id}")
        g.command(f"set dice {dice[0]} {dice[1]}")
        if g.positionid() != position_id:
            raise RuntimeError(f"gnubg did not take {position_id}: it shows {g.positionid()}")
        board = g.board()
        moves = [m["move"] for m in g.hint(100000)["hint"]]
        after = {m: _after(g, board, g.parsemove(m)) for m in moves}
        results = sorted(set(after.values()))
        if len(results) != len(moves):
            raise RuntimeError(f"{position_id} {dice}: two hint plays reach one position")
        self.asked += 1
        if self.cross_check_every and self.asked % self.cross_check_every == 0:
            self.cross_check(position_id, dice, after)
        return results

    def swap(self, position_id: str) -> str:
        """The same position seen by the other player (after a pass)."""
        opp, me = self.gnubg.positionfromid(position_id)
        return str(self.gnubg.positionid((list(me), list(opp))))

    def best(self, position_id: str, dice: tuple[int, int]) -> str:
        """The position after gnubg's best 0-ply play (hint lists the best first)."""
        g = self.gnubg
        g.command(f"set board {position_id}")
        g.command(f"set dice {dice[0]} {dice[1]}")
        return _after(g, g.board(), g.parsemove(g.hint(1)["hint"][0]["move"]))

    def checkers_left(self, position_id: str) -> tuple[int, int]:
        """Checkers still on the board (bar included) for (opponent, player on roll)."""
        opp, me = self.gnubg.positionfromid(position_id)
        return sum(opp), sum(me)

    def cross_check(self, position_id: str, dice: tuple[int, int], after: dict[str, str]) -> None:
        """Play each move with gnubg's ``move`` command: gnubg must reach what _after says."""
        g = self.gnubg
        for text, expected in after.items():
            if self.checkers_left(expected)[0] == 0:
                continue  # the winning play ends the game; gnubg would then show no position
            g.command(f"set board {position_id}")
            g.command(f"set dice {dice[0]} {dice[1]}")
            g.command(f"move {text}")
            if g.positionid() != expected:
                raise RuntimeError(
                    f"{position_id} {dice} {text}: gnubg's move gives {g.positionid()}, "
                    f"the corpus tool computed {expected}"
                )
            self.cross_checked += 1


def _after(gnubg: Any, board: tuple[Any, Any], pairs: tuple[tuple[int, int], ...]) -> str:
    """Position ID after moving ``pairs`` ((from, to), mover's numbering, 25 bar, 0 off) on
    gnubg's ``board``, seen by the opponent. A hit on an intermediate point is always written
    by gnubg (``13/7*/5``), so a combined pair like ``24/16`` passes no blot."""
    opp, me = list(board[0]), list(board[1])
    for src, dst in pairs:
        if me[src - 1] <= 0:
            raise RuntimeError(f"no checker on {src} for {pairs} in {board}")
        me[src - 1] -= 1
        if dst > 0:
            theirs = 24 - dst  # our point dst is his point 25 - dst
            if opp[theirs] > 1:
                raise RuntimeError(f"{dst} is blocked for {pairs} in {board}")
            if opp[theirs] == 1:
                opp[theirs] = 0
                opp[24] += 1
            me[dst - 1] += 1
    return str(gnubg.positionid((me, opp)))


# -- the families -------------------------------------------------------------------------------


def roll_cycle(rng: random.Random, rolls: list[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Every roll once per shuffled round, each in a random order of its two dice."""
    while True:
        batch = rolls[:]
        rng.shuffle(batch)
        for a, b in batch:
            yield (a, b) if rng.random() < 0.5 else (b, a)


Case = dict[str, Any]
Candidates = Iterator[tuple[str, tuple[int, int], list[str] | None]]


def self_play(oracle: Oracle, rng: random.Random) -> Candidates:
    """Positions along games from the initial position, each game mixing random plays with
    gnubg's best 0-ply plays in its own proportion (random games reach odd positions, good ones
    realistic ones). Yields (position, dice, plays)."""
    rolls = roll_cycle(rng, ROLLS)
    while True:
        best_share = rng.choice((0.0, 0.5, 0.9))
        position = "4HPwATDgc/ABMA"
        while True:
            dice = next(rolls)
            plays = oracle.plays(position, dice)
            yield position, dice, plays
            if not plays:
                position = oracle.swap(position)
                continue
            if rng.random() < best_share:
                position = oracle.best(position, dice)
            else:
                position = rng.choice(plays)
            if 0 in oracle.checkers_left(position):
                break  # someone has borne off every checker: next game


def synthetic(
    oracle: Oracle,
    rng: random.Random,
    make: Callable[[random.Random], Board],
    rolls: list[tuple[int, int]],
    keep: Callable[[str, tuple[int, int]], bool] | None = None,
) -> Candidates:
    """Random boards from ``make`` with the rolls in turn (plays left for the caller to ask)."""
    cycle = roll_cycle(rng, rolls)
    dice = next(cycle)
    while True:
        cells = make(rng)
        if not _valid(cells):
            continue
        position = oracle.position_id(cells)
        if keep is None or keep(position, dice):
            yield position, dice, None
            dice = next(cycle)


def partial_roll_filter() -> Callable[[str, tuple[int, int]], bool]:
    """Keeps a candidate when the engine says some die of the roll cannot be played (but one
    can). Only the selection uses the engine; the plays stored come from gnubg."""
    from engine import Position, legal_plays

    def keep(position_id: str, dice: tuple[int, int]) -> bool:
        plays = legal_plays(Position.from_position_id(position_id), dice)
        full = 4 if dice[0] == dice[1] else 2
        return bool(plays) and max(len(p) for p in plays) < full

    return keep


def generate(
    oracle: Oracle, seed: int, scale: float, skip: set[tuple[str, tuple[int, int]]]
) -> list[Case]:
    """Every family's quota of new cases (none repeats another or one of ``skip``)."""
    rng = random.Random(seed)

    def bear_off(r: random.Random) -> Board:
        return bear_off_board(r, contact=False)

    def contact_bear_off(r: random.Random) -> Board:
        return bear_off_board(r, contact=True)

    def blocked(r: random.Random) -> Board:
        return prime_board(r) if r.random() < 0.7 else bar_heavy_board(r)

    families: dict[str, Candidates] = {
        "self-play": self_play(oracle, rng),
        "bear-off": synthetic(oracle, rng, bear_off, ROLLS),
        "contact-bear-off": synthetic(oracle, rng, contact_bear_off, ROLLS),
        "bar-heavy": synthetic(oracle, rng, bar_heavy_board, ROLLS),
        "blocked-doubles": synthetic(oracle, rng, prime_board, DOUBLES),
        "partial-roll": synthetic(oracle, rng, blocked, ROLLS, keep=partial_roll_filter()),
        "race": synthetic(oracle, rng, race_board, ROLLS),
        "random-board": synthetic(oracle, rng, random_board, ROLLS),
    }
    cases: list[Case] = []
    seen = set(skip)
    for kind, candidates in families.items():
        quota = max(1, round(FAMILIES[kind] * scale))
        made = 0
        for position, dice, plays in candidates:
            key = (position, (min(dice), max(dice)))
            if key in seen:
                continue  # already in this corpus or in the shared one
            seen.add(key)
            if plays is None:
                plays = oracle.plays(position, dice)
            cases.append(
                {"kind": kind, "position_id": position, "dice": list(dice), "plays": plays}
            )
            made += 1
            if made == quota:
                break
    return cases


# -- entry points -------------------------------------------------------------------------------


def _read_jsonl(path: Path) -> list[Case]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _in_gnubg(args: dict[str, Any]) -> None:
    import gnubg  # type: ignore[import-not-found]

    oracle = Oracle(gnubg, cross_check_every=int(args["cross_check_every"]))
    if args.get("verify"):
        cases = _read_jsonl(Path(args["verify"]))
        bad = [c for c in cases if oracle.plays(c["position_id"], tuple(c["dice"])) != c["plays"]]
        for c in bad[:20]:
            print(f"differs: {c['kind']} {c['position_id']} {c['dice']}", file=sys.stderr)
        print(
            f"verified {len(cases)} cases, {len(bad)} differ; "
            f"{oracle.cross_checked} plays cross-checked with gnubg's move command",
            file=sys.stderr,
        )
        if bad:
            sys.exit(1)
        return
    skip = {(c["position_id"], tuple(sorted(c["dice"]))) for c in _read_jsonl(Path(args["skip"]))}
    cases = generate(oracle, int(args["seed"]), float(args["scale"]), skip)
    out = Path(args["out"])
    # mtime=0 keeps the file byte-identical from one run to the next.
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as z:
        for case in cases:
            z.write((json.dumps(case, separators=(",", ":")) + "\n").encode())
    print(
        f"wrote {len(cases)} cases to {out}; "
        f"{oracle.cross_checked} plays cross-checked with gnubg's move command",
        file=sys.stderr,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every family's size")
    parser.add_argument("--verify", type=Path, help="recompute this corpus and compare")
    parser.add_argument("--cross-check-every", type=int, default=40)
    args = parser.parse_args(argv)
    run_in_gnubg(
        SCRIPT,
        {
            "out": str(args.out.resolve()),
            "seed": args.seed,
            "scale": args.scale,
            "verify": str(args.verify.resolve()) if args.verify else None,
            "skip": str(ROOT / "tests" / "data" / "legal-plays.jsonl"),
            "cross_check_every": args.cross_check_every,
        },
        echo=True,
    )


if __name__ == "__main__":
    if in_gnubg():
        main_in_gnubg(_in_gnubg)
    else:
        main()

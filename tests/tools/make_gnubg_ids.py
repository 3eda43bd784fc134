#!/usr/bin/env python3
"""Record GNU Backgammon's Position ID and Match ID after every action of scripted matches:
tests/data/gnubg-ids.jsonl.gz.

GNU Backgammon plays each match with its own dice (Mersenne Twister, a fixed seed per match) and
two "human" players whose every action this script chooses at random: roll, a random legal play
or gnubg's best one, double and redouble, take, drop, resign a single game, gammon or backgammon,
accept or reject. After each action it records the action, what the engine needs to repeat it
(the opening dice of each player, the dice rolled, the play as gnubg writes it and the position
it leads to) and gnubg's Position ID and Match ID. Actions gnubg refuses (a double in the Crawford
game or by the player who does not own the cube) are recorded as refused, so the engine must
refuse them too. Matches to 1, 3, 5 and 7 points reach the Crawford and post-Crawford games;
money games (``new session``) are recorded one game each, with and without the Jacoby rule.

tests/test_gnubg_ids.py replays every sequence with the engine and compares the IDs.

Usage (needs GNU Backgammon; a few seconds)::

    python3 tests/tools/make_gnubg_ids.py
"""

from __future__ import annotations

import argparse
import base64
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

SCRIPT = ROOT / "tests" / "tools" / "make_gnubg_ids.py"
DEFAULT_OUT = ROOT / "tests" / "data" / "gnubg-ids.jsonl.gz"

# How often a player tries to double when he is to roll, and resigns (before or after rolling),
# by style: "mixed" games end every way, "played-out" ones by bearing off (singles, gammons and
# backgammons), "cube" ones mostly by drops, "resign" ones mostly by resignations, and
# "late-cube" matches are played without the cube until the post-Crawford games.
STYLES = {
    "mixed": (0.12, 0.02),
    "played-out": (0.0, 0.0),
    "cube": (0.35, 0.0),
    "resign": (0.0, 0.05),
    "late-cube": (0.4, 0.0),
}
# (match length, Jacoby rule, style, how many) for the default run; length 0 is one money game.
PLAN = [
    (1, False, "mixed", 3),
    (1, False, "played-out", 2),
    (3, False, "mixed", 5),
    (3, False, "played-out", 2),
    (3, False, "resign", 2),
    (3, False, "cube", 3),
    (3, False, "late-cube", 3),
    (5, False, "late-cube", 2),
    (5, False, "mixed", 4),
    (5, False, "cube", 2),
    (7, False, "mixed", 3),
    (7, False, "played-out", 1),
    (0, False, "mixed", 4),
    (0, False, "played-out", 3),
    (0, False, "resign", 3),
    (0, True, "mixed", 3),
    (0, True, "played-out", 3),
    (0, True, "resign", 8),
]

_FIELDS = (  # Match ID bit fields in order, as gnubg's matchid.c packs them
    ("cube", 4),
    ("owner", 2),
    ("move", 1),
    ("crawford", 1),
    ("state", 3),
    ("turn", 1),
    ("doubled", 1),
    ("resigned", 2),
    ("die0", 3),
    ("die1", 3),
    ("length", 15),
    ("score0", 15),
    ("score1", 15),
)


def decode(match_id: str) -> dict[str, int]:
    """The fields of a Match ID (this tool's own few lines, to steer the script)."""
    bits = int.from_bytes(base64.b64decode(match_id), "little")
    out = {}
    for name, width in _FIELDS:
        out[name] = bits & ((1 << width) - 1)
        bits >>= width
    return out


class Recorder:
    def __init__(self, gnubg: Any) -> None:
        self.g = gnubg
        self.rng = random.Random()
        self.steps: list[dict[str, Any]] = []
        self.p_double, self.p_resign = STYLES["mixed"]
        self.late_cube = False

    def ids(self) -> tuple[str, str]:
        return str(self.g.positionid()), str(self.g.matchid())

    def do(self, action: str, command: str | None = None, **extra: Any) -> bool:
        """Run a gnubg command; record it (as refused when gnubg changed nothing)."""
        before = self.ids()
        self.g.command(command or action)
        after = self.ids()
        step = {"action": action, **extra}
        if after == before:
            step["refused"] = True
        step["position_id"], step["match_id"] = after
        self.steps.append(step)
        return after != before

    def last_dice(self) -> list[int]:
        """The dice of the last roll of the current game (gnubg's record of it)."""
        records = self.g.match(0, 0, 0, 0)["games"][-1]["game"]
        return list(next(r["dice"] for r in reversed(records) if r.get("dice")))

    def opening(self) -> None:
        """Record the opening roll that ``new match``, ``new session`` or ``new game`` made
        (gnubg re-rolls ties by itself), with each player's die: the winner's is the higher."""
        position_id, match_id = self.ids()
        key = decode(match_id)
        high, low = max(key["die0"], key["die1"]), min(key["die0"], key["die1"])
        opening = [high, low] if key["move"] == 0 else [low, high]
        self.steps.append(
            {
                "action": "new game",
                "opening": opening,
                "position_id": position_id,
                "match_id": match_id,
            }
        )

    def resign(self) -> None:
        value = self.rng.randint(1, 3)
        self.do("resign", f"resign {value}", value=value)

    def turn(self) -> None:
        """One decision of whoever must act now."""
        key = decode(self.g.matchid())
        r = self.rng.random()
        if key["doubled"]:
            self.do("take" if r < 0.7 else "drop")
        elif key["resigned"]:
            self.do("accept" if r < 0.5 else "reject")
        elif key["die0"] == 0:  # to roll: maybe double or resign first
            p_double = self.p_double
            if self.late_cube and (
                key["crawford"] or max(key["score0"], key["score1"]) < key["length"] - 1
            ):
                p_double = 0.0  # not yet post-Crawford
            if r < p_double and key["cube"] < 6:  # the cube stays below 64, the maximum
                self.do("double")
            elif r < p_double + self.p_resign:
                self.resign()
            else:
                self.do("roll")
                self.steps[-1]["dice"] = self.last_dice()
        elif r < self.p_resign:
            self.resign()
        else:
            hints = self.g.hint(100000)["hint"]
            pick = hints[0] if r < 0.35 else self.rng.choice(hints)
            self.do("move", f"move {pick['move']}", play=pick["move"])

    def match(self, length: int, jacoby: bool, style: str, seed: int) -> list[dict[str, Any]]:
        self.steps = []
        self.p_double, self.p_resign = STYLES[style]
        self.late_cube = style == "late-cube"
        # The seed drives both gnubg's dice and the choices, so each sequence can be recorded
        # again on its own (tests/test_gnubg_ids.py does, where gnubg is installed).
        self.rng = random.Random(seed)
        g = self.g
        g.command(f"set jacoby {'on' if jacoby else 'off'}")
        g.command("set rng mersenne")
        g.command(f"set seed {seed}")
        if length:
            g.command(f"new match {length}")
        else:
            g.command("new session")
        self.opening()
        for _ in range(5000):
            key = decode(g.matchid())
            if key["state"] >= 2:  # the game is over
                if not length or max(key["score0"], key["score1"]) >= length:
                    return self.steps
                g.command("new game")
                self.opening()
            else:
                self.turn()
        raise RuntimeError("the match did not end")


def plan(first_seed: int) -> list[tuple[int, bool, str, int]]:
    """(match length, Jacoby, style, seed) of every sequence of the default run."""
    out = []
    seed = first_seed
    for length, jacoby, style, count in PLAN:
        for _ in range(count):
            seed += 1
            out.append((length, jacoby, style, seed))
    return out


def _in_gnubg(args: dict[str, Any]) -> None:
    import gnubg  # type: ignore[import-not-found]

    quiet_setup(gnubg)
    recorder = Recorder(gnubg)
    sequences = []
    for length, jacoby, style, seed in args.get("only") or plan(int(args["seed"])):
        steps = recorder.match(length, jacoby, style, seed)
        sequences.append({"match_length": length, "jacoby": jacoby, "style": style, "seed": seed})
        sequences[-1]["steps"] = steps
    # One sequence per line, gzip-compressed; mtime=0 keeps the bytes the same run to run.
    with (
        open(args["out"], "wb") as raw,
        gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as z,
    ):
        for sequence in sequences:
            z.write((json.dumps(sequence, separators=(",", ":")) + "\n").encode())
    total = sum(len(s["steps"]) for s in sequences)
    print(f"wrote {len(sequences)} sequences, {total} actions", file=sys.stderr)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument(
        "--only",
        type=json.loads,
        help="record just these sequences: JSON [[length, jacoby, style, seed], ...]",
    )
    args = parser.parse_args(argv)
    run_in_gnubg(
        SCRIPT,
        {"out": str(args.out.resolve()), "seed": args.seed, "only": args.only},
        echo=True,
    )


if __name__ == "__main__":
    if in_gnubg():
        main_in_gnubg(_in_gnubg)
    else:
        main()

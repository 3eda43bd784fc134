"""The engine's rollouts against GNU Backgammon's (issue 31, item 4: "within two combined
standard errors in at least 90% of them", on at least 20 positions).

``python -m bench rollout`` rolls out each position of tests/data/gnubg-rollouts.json (the
player on roll before his roll; twenty races from seeded self-play and the twenty shortest
contact positions of the starter puzzles: :func:`extend` adds more by the same rules) with
the engine's rollout (:mod:`engine.analysis.rollout`: GNU Backgammon's networks at 0-ply by
gnubg-nn, or bgsage at 1-ply without it or with ``BENCH_ROLLOUT_PLAYER=bgsage``, variance
reduction, cubeless, played to the end) and the file's trials and seed,
and compares each cubeless equity with GNU Backgammon 1.07's rollout of the same position with
the same settings (0-ply play, variance reduction, quasi-random dice) stored in the file, then
the same without variance reduction, then each cubeful equity with gnubg's cubeful rollout (the
cube decided at 0-ply, centred cube, no cube decision before the first roll: the value of not
doubling now, ``cube_at_start=False``; both without the Jacoby rule): a
position agrees when the two equities differ by at most two combined standard errors,
``2 * sqrt(se1^2 + se2^2)``. ``--quick`` rolls out the five shortest races only.
``ROLLOUT_GNUBG_REFRESH=1`` (with gnubg installed) rolls the positions out in GNU Backgammon
again and rewrites the file first.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

from bench.common import Figure, check

NAME = "rollout"
DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "gnubg-rollouts.json"
AGREE = 90.0
PLAYER = os.environ.get("BENCH_ROLLOUT_PLAYER", "auto")
"""Who plays our rollouts: ``auto`` (GNU Backgammon's network when gnubg-nn is installed, as the
bot does), ``gnubg`` or ``bgsage`` (the earlier figures)."""


def player_name() -> str:
    """The player :data:`PLAYER` stands for here (a name no player has is refused)."""
    from engine.analysis.rollout import rollout_player

    kind = type(rollout_player(PLAYER)).__name__
    return {"_GnubgPlayer": "gnubg-nn 0-ply", "_SagePlayer": "bgsage 1-ply"}.get(
        kind, "the fallback"
    )


def load(path: Path = DATA) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


SETTINGS = (("gnubg", True), ("gnubg_no_vr", False))
"""The file's keys for gnubg's results with and without variance reduction."""


def refresh(path: Path = DATA) -> None:
    """Roll the file's positions out again in GNU Backgammon, with the file's settings."""
    from bench.gnubg_rollouts import gnubg_rollouts

    data = load(path)
    for key, reduced in SETTINGS:
        results = gnubg_rollouts(
            data["positions"], data["trials"], data["seed"], variance_reduction=reduced
        )
        data[key] = [dataclasses.asdict(r) for r in results]
    cubeful = gnubg_rollouts(data["positions"], data["trials"], data["seed"], cubeful=True)
    data["gnubg_cubeful"] = [dataclasses.asdict(r) for r in cubeful]
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


PUZZLES = Path(__file__).resolve().parent.parent / "engine" / "data" / "puzzles.jsonl"
RACE_PIPS = (45, 110)  # each side's pips in a reference race


def contact_positions(count: int) -> list[str]:
    """The ``count`` shortest contact positions (both sides' pips together) of the starter
    puzzles (engine/data/puzzles.jsonl), each once, ties in the file's order: the file's ten
    contact positions are the first ten."""
    from engine import Position

    seen: dict[str, int] = {}
    for line in PUZZLES.read_text(encoding="utf-8").splitlines():
        pid = json.loads(line)["position_id"]
        pos = Position.from_position_id(pid)
        if pid not in seen and not pos.is_race():
            seen[pid] = sum(pos.pip_counts())
    return sorted(seen, key=seen.__getitem__)[:count]


def race_positions(count: int, *, seed: str = "rollout-races") -> list[str]:
    """``count`` races from seeded self-play (expert, bgsage): in each game ``{seed}/{n}``,
    the first position before a roll where the game is a race and each side has 45 to 110
    pips."""
    import random

    from engine import Dice, Play, Position
    from engine.bots import get_bot
    from engine.bots.arena import play_game

    bot = get_bot("expert", rng=0, engine="bgsage")
    out: list[str] = []
    game = 0
    found: list[str] = []  # this game's race, once found

    def record(seat: int, pos: Position, dice: Dice, play: Play | None) -> None:
        low, high = RACE_PIPS
        if not found and pos.is_race() and all(low <= p <= high for p in pos.pip_counts()):
            found.append(pos.position_id())

    while len(out) < count:
        found.clear()
        play_game((bot, bot), random.Random(f"{seed}/{game}"), on_move=record)
        game += 1
        out += [pid for pid in found if pid not in out]
    return out


def extend(path: Path = DATA, *, races: int, contact: int) -> None:
    """Add to the file the next contact positions of :func:`contact_positions` and the races
    of :func:`race_positions` it lacks, ``contact`` and ``races`` of each (then refresh it)."""
    data = load(path)
    have = list(data["positions"])
    new = [p for p in contact_positions(len(have) + contact) if p not in have][:contact]
    new += [p for p in race_positions(races) if p not in have and p not in new][:races]
    data["positions"] = have + new
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


@dataclasses.dataclass
class Comparison:
    position_id: str
    ours: float
    ours_se: float
    theirs: float
    theirs_se: float

    @property
    def combined(self) -> float:
        return math.sqrt(self.ours_se**2 + self.theirs_se**2)

    @property
    def agree(self) -> bool:
        return abs(self.ours - self.theirs) <= 2 * self.combined + 1e-9


def compare(
    data: dict[str, Any], count: int | None = None, *, reduced: bool = True, cubeful: bool = False
) -> tuple[list[Comparison], float]:
    """Our rollout of the first ``count`` positions (all by default) against gnubg's, with or
    without variance reduction, cubeless or cubeful (its "CF" equity), and our seconds per
    trial."""
    from engine import Position
    from engine.analysis.rollout import RolloutSettings, rollout_player, rollout_position

    player = rollout_player(PLAYER)
    settings = RolloutSettings(
        trials=data["trials"],
        seed=data["seed"],
        variance_reduction=reduced,
        cubeful=cubeful,
        cube_at_start=False,  # gnubg's "rollout" decides no cube before the first roll
    )
    key = "gnubg_cubeful" if cubeful else "gnubg" if reduced else "gnubg_no_vr"
    equity, se = ("cubeful", "cubeful_se") if cubeful else ("equity", "se")
    out: list[Comparison] = []
    started = time.perf_counter()
    for ref in data[key][:count]:
        r = rollout_position(Position.from_position_id(ref["position_id"]), player, settings)
        c = Comparison(ref["position_id"], r.equity, r.se, ref[equity], ref[se])
        mark = "" if c.agree else "  <- outside 2 SE"
        print(
            f"  {NAME}: {c.position_id} ours {c.ours:+.4f} ({c.ours_se:.4f}) "
            f"gnubg {c.theirs:+.4f} ({c.theirs_se:.4f}){mark}",
            file=sys.stderr,
            flush=True,
        )
        out.append(c)
    per_trial = (time.perf_counter() - started) / max(1, len(out) * settings.trials)
    return out, per_trial


def run(quick: bool = False) -> list[Figure]:
    if player_name() == "the fallback":
        print(
            f"  {NAME}: neither gnubg-nn nor bgsage is installed; nothing compared", file=sys.stderr
        )
        return [Figure(NAME, "skipped: no network", 0, "")]
    if os.environ.get("ROLLOUT_GNUBG_REFRESH") == "1":
        refresh()
    data = load()
    print(f"  {NAME}: our rollouts played by {player_name()}", file=sys.stderr)
    figures: list[Figure] = []
    for reduced in (True, False) if not quick else (True,):
        comparisons, per_trial = compare(data, 5 if quick else None, reduced=reduced)
        figures.extend(_figures(comparisons, per_trial, data["trials"], reduced, quick=quick))
    comparisons, per_trial = compare(data, 5 if quick else None, cubeful=True)
    figures.extend(
        _figures(comparisons, per_trial, data["trials"], True, cubeful=True, quick=quick)
    )
    return figures


def _figures(
    comparisons: list[Comparison],
    per_trial: float,
    trials: int,
    reduced: bool,
    *,
    cubeful: bool = False,
    quick: bool = False,
) -> list[Figure]:
    n = len(comparisons)
    agree = 100.0 * sum(c.agree for c in comparisons) / n
    how = "variance reduction" if reduced else "no variance reduction"
    if cubeful:
        how = f"cubeful, {how}"
    label = f"{n} positions, {trials} trials, {how}"
    mean_diff = sum(abs(c.ours - c.theirs) for c in comparisons) / n
    within = f"within 2 combined SE of gnubg 1.07 ({label})"
    # Five positions are a smoke run: one miss in five (chance gives one in twenty) is 80%.
    agreement = (
        Figure(NAME, within, agree, "%")
        if quick
        else check(NAME, within, agree, "%", at_least=AGREE)
    )
    return [
        agreement,
        Figure(NAME, f"mean |ours - gnubg| ({how})", mean_diff, "equity"),
        Figure(
            NAME, f"mean combined SE ({how})", sum(c.combined for c in comparisons) / n, "equity"
        ),
        Figure(NAME, f"seconds per trial (ours, {player_name()}, {how})", per_trial, "s"),
    ]

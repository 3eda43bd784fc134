"""GNU Backgammon's rollouts of positions, for comparing the engine's (issue 31, item 4).

GNU Backgammon 1.07 prints a rollout's results only to a terminal, so :func:`gnubg_rollouts`
runs it under a pseudo-terminal (``script -qc``), feeds it the commands on its standard input
and reads the "Current Position" block of each rollout from what it printed: the cubeless
chances (win, gammon, backgammon, lose gammon, lose backgammon), the cubeless equity ("CL"), in
a cubeful rollout the cubeful equity ("CF"), and their standard errors. Its settings: 0-ply
play (the rollout default, the strength of the engine's 1-ply), cubeless in a cubeless rollout
(gnubg's default is cubeful, which its first rollout of a session keeps), the given trials, seed,
variance reduction and truncation, quasi-random dice, cubeless (or cubeful, the cube decided at
0-ply too), money play without the Jacoby rule; it cuts cubeless rollouts short when both sides
reach its one-sided bear-off database (an exact evaluation there).

The Jacoby rule is off through the Match ID (:data:`MATCH_ID`): gnubg takes a session's rule
from the Match ID it is given (its bit 67), not from ``set jacoby off``, and under the rule it
plays a centred cube's checkers without counting gammons (their price is nought) and doubles
out a side that is too good. gnubg's ``rollout`` of the current position makes no cube decision
before the first roll (``GeneralEvaluationR`` passes no cube decision at the top): a cubeful
rollout is the value of not doubling now.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.ids import MatchKey, encode_match_id
from tests.tools._gnubg import gnubg_binary

__all__ = ["GnubgRollout", "gnubg_rollouts", "rollout_commands"]

MATCH_ID = encode_match_id(MatchKey(player_on_roll=1, turn=1, jacoby=False))
"""A money game, player 1 on roll, no dice, centred cube, without the Jacoby rule
("cAkAAAAAAAAE"; "cAkAAAAAAAAA" would be the same with it)."""

_NUMBER = r"([-+]?\d+\.\d+)"
_BLOCK = re.compile(
    r"Current Position:\s*\n\s*"
    + r"\s+".join([_NUMBER] * 3)
    + r"\s+-\s+"
    + r"\s+".join([_NUMBER] * 3)
    + r"\s+CL\s+"
    + _NUMBER
    + r"(?:\s+CF\s+"
    + _NUMBER
    + r")?\s*\n\s*\[\s*"
    + r"\s+".join([_NUMBER] * 3)
    + r"\s+-\s+"
    + r"\s+".join([_NUMBER] * 3)
    + r"\s+CL\s+"
    + _NUMBER
    + r"(?:\s+CF\s+"
    + _NUMBER
    + r")?\s*\]"
)


@dataclass(frozen=True, slots=True)
class GnubgRollout:
    """One rollout by GNU Backgammon: the chances and equity of the player on roll (before his
    roll) and their standard errors."""

    position_id: str
    probs: tuple[float, float, float, float, float]
    equity: float
    probs_se: tuple[float, float, float, float, float]
    se: float
    cubeful: float | None = None
    """The cubeful equity ("CF", a cubeful rollout only) and its standard error."""
    cubeful_se: float | None = None


def rollout_commands(
    position_ids: Sequence[str],
    trials: int,
    seed: int,
    *,
    truncate: int | None = None,
    variance_reduction: bool = True,
    cubeful: bool = False,
) -> str:
    """The commands that roll out each position (player on roll before his roll, money,
    centred cube, no Jacoby) with the given settings; ``cubeful``: the cube is played, its
    decisions at 0-ply like the checker play (gnubg's default is 2-ply)."""
    lines = [
        "set player 0 human",
        "set player 1 human",
        "set display off",
        "set automatic roll off",
        "set automatic move off",
        "set automatic game off",
        "set jacoby off",
        "set output digits 5",
        f"set rollout trials {trials}",
        f"set rollout cubeful {'on' if cubeful else 'off'}",
        "set rollout cubedecision plies 0",
        "set rollout chequerplay plies 0",
        # gnubg's checker play is cubeful by default; its first rollout of a session keeps that
        # even in a cubeless rollout (later ones are made consistent), so say it.
        f"set rollout chequerplay cubeful {'on' if cubeful else 'off'}",
        f"set rollout varredn {'on' if variance_reduction else 'off'}",
        "set rollout quasirandom on",
        "set rollout rng mersenne",
        f"set rollout seed {seed}",
    ]
    if truncate:
        lines += ["set rollout truncation enable on", f"set rollout truncation plies {truncate}"]
    else:
        lines.append("set rollout truncation enable off")
    lines.append("new session")
    for pid in position_ids:
        lines += [f"set gnubgid {pid}:{MATCH_ID}", "rollout"]
    lines += ["quit", "y"]
    return "\n".join(lines) + "\n"


def parse(text: str, position_ids: Sequence[str]) -> list[GnubgRollout]:
    """The last result block after each position's ``set gnubgid`` in gnubg's output."""
    text = text.replace("\r", "\n")
    chunks = text.split("Setting GNUbg ID")[1:]
    if len(chunks) != len(position_ids):
        raise RuntimeError(f"gnubg set {len(chunks)} positions of {len(position_ids)}")
    out: list[GnubgRollout] = []
    for pid, chunk in zip(position_ids, chunks, strict=True):
        found = _BLOCK.findall(chunk)
        if not found:
            raise RuntimeError(f"no rollout result for {pid} in gnubg's output:\n{chunk[-2000:]}")
        g = found[-1]
        cf, cf_se = (float(g[7]), float(g[15])) if g[7] else (None, None)
        v = [float(x) for k, x in enumerate(g) if k not in (7, 15)]
        out.append(
            GnubgRollout(
                pid,
                (v[0], v[1], v[2], v[4], v[5]),
                v[6],
                (v[7], v[8], v[9], v[11], v[12]),
                v[13],
                cf,
                cf_se,
            )
        )
    return out


def gnubg_rollouts(
    position_ids: Sequence[str],
    trials: int,
    seed: int,
    *,
    truncate: int | None = None,
    variance_reduction: bool = True,
    cubeful: bool = False,
    timeout: float = 7200,
) -> list[GnubgRollout]:
    """GNU Backgammon's rollout of each position (cubeless, or cubeful).

    :raises RuntimeError: when GNU Backgammon (or ``script``, to give it a terminal) is missing,
        or its output has no result for a position.
    """
    binary, script = gnubg_binary(), shutil.which("script")
    if binary is None or script is None:
        raise RuntimeError("GNU Backgammon or script(1) is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        commands, log = Path(tmp) / "commands.txt", Path(tmp) / "gnubg.log"
        commands.write_text(
            rollout_commands(
                position_ids,
                trials,
                seed,
                truncate=truncate,
                variance_reduction=variance_reduction,
                cubeful=cubeful,
            )
        )
        inner = f"{shlex.quote(binary)} -t -q < {shlex.quote(str(commands))}"
        subprocess.run(
            [script, "-qc", inner, str(log)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=timeout,
            check=False,
        )
        return parse(log.read_text(encoding="utf-8", errors="replace"), position_ids)

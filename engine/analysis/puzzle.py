"""A puzzle from a reviewed decision (issue 18): the decision's candidates evaluated at the
review's depth, kept only when they grade it as the review did.

For a checker play the candidates are the top plays and the played one, for a cube decision its
two actions, each with the decider's equity (normalised to the cube before any double), best
first. The puzzle's error is the best candidate's equity minus the played one's; a decision whose
best answer or error (to 0.001) is not the review's is no puzzle, nor is one whose runner-up is
within :data:`CLEAR` of the best (it has no single right answer). ``bench/make_puzzles.py`` makes
the starter set with it; the bot makes puzzles of finished games' reviews with it.
"""

from __future__ import annotations

from typing import Any

from engine.analysis.evaluator import get_evaluator
from engine.analysis.hints import rank_plays
from engine.analysis.review import Decision
from engine.movegen import legal_plays
from engine.xgid import Xgid

__all__ = ["CLEAR", "MIN_ERROR", "TOP", "checker_choices", "cube_choices", "make_puzzle"]

TOP = 5
CLEAR = 0.010
"""The best answer must beat the runner-up by this much to make a puzzle."""
MIN_ERROR = 0.050
"""The least error that makes a puzzle (the bot's setting may raise it)."""


def _r(x: float) -> float:
    return round(x, 6)


def checker_choices(d: Decision, plies: int) -> tuple[list[dict[str, Any]], float] | None:
    """The top plays and the played one at ``plies``, best first, and the played equity."""
    assert d.dice is not None
    played = d.played_play
    if played is None:
        return None
    ev = get_evaluator(plies)
    position = d.position
    plays = legal_plays(position, d.dice)
    ranked = rank_plays(ev, position, d.dice, plays, d.context, top=TOP, force=[played])
    shown = ranked[:TOP]
    mine = next(v for v in ranked if v.play == played)
    if mine not in shown:
        shown.append(mine)
    choices = [
        {
            "answer": str(v.play),
            "equity": _r(v.equity),
            "steps": [[m.src, m.dst, m.die, m.hit] for m in v.play.moves],
        }
        for v in shown
    ]
    return choices, _r(mine.equity)


def cube_choices(d: Decision) -> tuple[list[dict[str, Any]], float]:
    """The two actions of a cube decision with the decider's equities, best first."""
    assert d.cube is not None
    nd, dt, dp = d.cube
    if d.kind in ("take", "drop"):
        options = {"take": -dt, "pass": -dp}
    else:
        # The double's equity is what the opponent's best answer leaves (CubeHint.error).
        options = {"double": min(dt, dp), "no double": nd}
    ordered = sorted(options.items(), key=lambda kv: -kv[1])
    choices = [
        {"answer": answer, "equity": _r(eq), "cube": [_r(nd), _r(dt), _r(dp)]}
        for answer, eq in ordered
    ]
    played = "pass" if d.kind == "drop" else d.kind
    return choices, _r(options[played])


def make_puzzle(d: Decision, plies: int, min_error: float = MIN_ERROR) -> dict[str, Any] | None:
    """The puzzle of decision ``d`` reviewed at ``plies`` (None when it makes none): ``kind``,
    ``decision``, ``position_id``, ``match_id``, ``xgid``, ``dice``, ``context``, ``played``
    (and ``played_steps``), ``choices``, ``played_equity`` and ``error``."""
    if not d.unforced or d.error < min_error:
        return None
    if d.kind == "move":
        found = checker_choices(d, plies)
        if found is None:
            return None
        choices, played_equity = found
    else:
        choices, played_equity = cube_choices(d)
    error = _r(choices[0]["equity"] - played_equity)
    # A puzzle is graded as the review graded the decision: same best answer, same loss.
    if choices[0]["answer"] != d.best or abs(error - d.error) > 0.001 or error < min_error:
        return None
    if choices[0]["equity"] - choices[1]["equity"] < CLEAR:
        return None
    ctx = d.context
    record: dict[str, Any] = {
        "kind": "checker" if d.kind == "move" else "cube",
        "decision": d.kind,
        "position_id": d.position_id,
        "match_id": d.match_id,
        "xgid": str(Xgid.from_ids(d.position_id, d.match_id)),
        "dice": list(d.dice) if d.dice else None,
        "context": {
            "cube": ctx.cube_value,
            "owner": ctx.cube_owner,
            "length": ctx.match_length,
            "score": list(ctx.score),
            "crawford": ctx.crawford,
            "jacoby": ctx.jacoby,
        },
        "played": d.played if d.kind == "move" else ("pass" if d.kind == "drop" else d.kind),
        "choices": choices,
        "played_equity": played_equity,
        "error": error,
    }
    if d.kind == "move":
        record["played_steps"] = [list(s) for s in d.played_steps]
    return record

"""A puzzle from a reviewed decision (issue 18): the decision's candidates evaluated at the
review's depth, kept only when they grade it as the review did.

For a checker play the candidates are the top plays and the played one, for a cube decision its
two actions, each with the decider's equity (normalised to the cube before any double), best
first. The puzzle's error is the best candidate's equity minus the played one's; a decision whose
best answer or error (to 0.001) is not the review's is no puzzle, nor is one whose runner-up is
within :data:`CLEAR` of the best (it has no single right answer).

With ``confirm`` (the confirming depth), the candidates are evaluated again at that depth and the
puzzle is made of that evaluation (:func:`confirmed`): that analysis must find the review's
best answer, the played decision must still lose at least ``min_error`` there, and the answer
must beat the runner-up by :data:`CLEAR` there; the equities and the error stored (and shown
when the puzzle is answered) are the confirming evaluation's. The review's own numbers only
choose which decisions are worth confirming. ``bench/make_puzzles.py`` makes the starter set with
it (reviewed and confirmed at 3 plies; ``python -m bench puzzles`` checks it at 4); the bot makes
puzzles of finished games' reviews with it (confirmed at 3 plies, bgsage's numbering: GNU
Backgammon's 2-ply "world class"), :func:`review_puzzles`.

Why 0.020: graded by GNU Backgammon 2-ply (``python -m bench puzzles_gnubg``), the starter
puzzles made with a margin of 0.010 disagreed in 4 of the 15 whose margin was under 0.020, and in
3 of the 185 above it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.analysis.evaluator import get_evaluator
from engine.analysis.hints import rank_plays
from engine.analysis.review import Decision, Review
from engine.context import MatchContext
from engine.movegen import legal_plays
from engine.notation import parse_play
from engine.position import Position
from engine.xgid import Xgid

__all__ = [
    "CLEAR",
    "MIN_ERROR",
    "TOP",
    "checker_choices",
    "confirmed",
    "cube_choices",
    "deeper",
    "make_puzzle",
    "puzzle_context",
    "review_puzzles",
]

TOP = 5
CLEAR = 0.020
"""The best answer must beat the runner-up by this much to make a puzzle (at the review's depth,
and at the confirming depth)."""
MIN_ERROR = 0.050
"""The least error that makes a puzzle (the bot's setting may raise it)."""


def _r(x: float) -> float:
    return round(x, 6)


def checker_choices(
    d: Decision, plies: int, engine: str = "auto"
) -> tuple[list[dict[str, Any]], float] | None:
    """The top plays and the played one at ``plies``, best first, and the played equity
    (``engine``: the evaluator, as :func:`engine.analysis.evaluator.get_evaluator` takes it)."""
    assert d.dice is not None
    played = d.played_play
    if played is None:
        return None
    ev = get_evaluator(plies, engine=engine)
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


def make_puzzle(
    d: Decision,
    plies: int,
    min_error: float = MIN_ERROR,
    confirm: int | None = None,
    *,
    engine: str = "auto",
) -> dict[str, Any] | None:
    """The puzzle of decision ``d`` reviewed at ``plies`` (None when it makes none): ``kind``,
    ``decision``, ``position_id``, ``match_id``, ``xgid``, ``dice``, ``context``, ``played``
    (and ``played_steps``), ``choices``, ``played_equity``, ``error`` and ``plies`` (the depth
    of the stored equities). With ``confirm``, made of the evaluation at that depth
    (:func:`confirmed`); without, of the review's depth, whose best answer and error (to 0.001)
    it must find again. ``engine``: the evaluator (the review's, :attr:`Review.engine`)."""
    if not d.unforced or d.error < min_error:
        return None
    if confirm is not None:
        return confirmed(d, confirm, min_error, engine=engine)
    found = checker_choices(d, plies, engine) if d.kind == "move" else cube_choices(d)
    if found is None:
        return None
    choices, played_equity = found
    error = _r(choices[0]["equity"] - played_equity)
    # A puzzle is graded as the review graded the decision: same best answer, same loss.
    if choices[0]["answer"] != d.best or abs(error - d.error) > 0.001 or error < min_error:
        return None
    if choices[0]["equity"] - choices[1]["equity"] < CLEAR:
        return None
    return _record(d, choices, played_equity, error, plies)


def confirmed(
    d: Decision, plies: int, min_error: float = MIN_ERROR, *, engine: str = "auto"
) -> dict[str, Any] | None:
    """The puzzle of decision ``d`` made of an evaluation of its candidates at ``plies`` (None
    when that evaluation does not confirm it): the review's best answer still best, by
    :data:`CLEAR` over the runner-up, and the played decision still losing ``min_error`` at
    least. Its equities and error are that evaluation's."""
    found = _choices(d, plies, engine)
    if found is None:
        return None
    choices, played_equity = found
    error = _r(choices[0]["equity"] - played_equity)
    if choices[0]["answer"] != d.best or error < min_error:
        return None
    if choices[0]["equity"] - choices[1]["equity"] < CLEAR:
        return None
    return _record(d, choices, played_equity, error, plies)


def _choices(d: Decision, plies: int, engine: str) -> tuple[list[dict[str, Any]], float] | None:
    """The candidates of ``d`` and the played equity, evaluated at ``plies``."""
    if d.kind == "move":
        return checker_choices(d, plies, engine)
    nd, dt, dp = cube_equities(d, plies, engine)
    return cube_choices(dataclasses.replace(d, cube=(nd, dt, dp)))


def cube_equities(d: Decision, plies: int, engine: str = "auto") -> tuple[float, float, float]:
    """ND, DT and DP of a cube decision's position (the doubler's) at ``plies``."""
    cube, _ = get_evaluator(plies, engine=engine).cube(d.position, d.context)
    return cube.no_double, cube.double_take, cube.double_pass


def _record(
    d: Decision, choices: list[dict[str, Any]], played_equity: float, error: float, plies: int
) -> dict[str, Any]:
    """The stored puzzle of decision ``d`` (see :func:`make_puzzle`)."""
    record: dict[str, Any] = {
        "kind": "checker" if d.kind == "move" else "cube",
        "decision": d.kind,
        "position_id": d.position_id,
        "match_id": d.match_id,
        "xgid": str(Xgid.from_ids(d.position_id, d.match_id)),
        "dice": list(d.dice) if d.dice else None,
        "context": d.context.to_dict(),
        "played": d.played if d.kind == "move" else ("pass" if d.kind == "drop" else d.kind),
        "choices": choices,
        "played_equity": played_equity,
        "error": error,
        "plies": plies,
    }
    if d.kind == "move":
        record["played_steps"] = [list(s) for s in d.played_steps]
    return record


def puzzle_context(record: dict[str, Any]) -> MatchContext:
    """The :class:`MatchContext` recorded with a puzzle (seen by the player on roll)."""
    return MatchContext.from_dict(record["context"])


def deeper(record: dict[str, Any], plies: int) -> tuple[str, float, float]:
    """A puzzle analysed again at ``plies``: its best answer there, how much the recorded best
    answer loses against it (0.0 when they agree), and the best answer's margin over the
    runner-up. A checker play ranks every legal play (the recorded best and the two best
    searched at full depth); a cube decision takes the cube equities of the position."""
    ev = get_evaluator(plies)
    position = Position.from_position_id(record["position_id"])
    ctx = puzzle_context(record)
    recorded = record["choices"][0]["answer"]
    if record["kind"] == "checker":
        dice = (int(record["dice"][0]), int(record["dice"][1]))
        mine = parse_play(recorded, position, dice)
        plays = legal_plays(position, dice)
        ranked = rank_plays(ev, position, dice, plays, ctx, top=2, force=[mine])
        ours = next(v for v in ranked if v.play == mine)
        margin = ranked[0].equity - ranked[1].equity if len(ranked) > 1 else 0.0
        return str(ranked[0].play), max(0.0, ranked[0].equity - ours.equity), margin
    cube, _ = ev.cube(position, ctx)
    nd, dt, dp = cube.no_double, cube.double_take, cube.double_pass
    if record["decision"] in ("take", "drop"):
        options = {"take": -dt, "pass": -dp}
    else:
        options = {"double": min(dt, dp), "no double": nd}
    best, second = sorted(options, key=lambda k: -options[k])
    return best, options[best] - options[recorded], options[best] - options[second]


def review_puzzles(
    review: Review, min_error: float = MIN_ERROR, confirm: int | None = None
) -> list[tuple[int, dict[str, Any]]]:
    """The puzzles of a review's decisions, each with the player who made the decision: what the
    bot keeps of a finished game (pure and picklable, for a worker process)."""
    found = []
    for d in review.decisions:
        if d.unforced and d.error >= min_error:
            record = make_puzzle(d, review.plies, min_error, confirm, engine=review.engine)
            if record is not None:
                found.append((d.player, record))
    return found

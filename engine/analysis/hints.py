"""Hints for the player on roll: the best plays of a roll, and the cube decision before it.

>>> from engine import Position, legal_plays
>>> pos = Position.initial()
>>> hints = hint(pos, (3, 1), engine="fallback")
>>> str(hints[0].play), hints[0].difference
('8/5 6/5', 0.0)
>>> all(h.play in legal_plays(pos, (3, 1)) for h in hints)
True
>>> [h.difference <= 0 for h in hints]
[True, True, True, True, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engine.analysis.evaluator import Evaluator, PlayValue, Probs, get_evaluator
from engine.bots.decisions import roller_equity, to_match_equity
from engine.context import MatchContext
from engine.movegen import Dice, Play, legal_plays
from engine.position import Position

__all__ = ["CubeAction", "CubeHint", "HintMove", "cube_hint", "hint", "rank_plays"]

CubeAction = Literal["no double", "double", "too good"]

_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class HintMove:
    """One hinted play.

    :ivar play: one of :func:`engine.legal_plays` for the position and dice.
    :ivar equity: the mover's equity after the play, normalised to the cube (+1 = winning the
        cube's value); cubeful when the hint had a context, cubeless money equity otherwise.
    :ivar difference: ``equity`` minus the best play's (0.0 for the best, negative below).
    :ivar probs: the mover's cubeless chances after the play: win, win gammon, win backgammon,
        lose gammon, lose backgammon.
    :ivar match_win: in match play, the mover's match winning chance after the play; else None.
    :ivar ply: the depth of the evaluation (bgsage's numbering).
    """

    play: Play
    equity: float
    difference: float
    probs: Probs
    match_win: float | None
    ply: int

    def __str__(self) -> str:
        diff = "" if self.difference == 0 else f" ({self.difference:+.3f})"
        return f"{self.play}: {self.equity:+.3f}{diff}"


def rank_plays(
    evaluator: Evaluator,
    position: Position,
    dice: Dice,
    plays: Sequence[Play],
    ctx: MatchContext | None,
    *,
    top: int = 1,
    force: Sequence[Play] = (),
    cubeful: bool = False,
) -> list[PlayValue]:
    """Every play evaluated and sorted best first (ties keep the order of ``plays``), with the
    ``top`` best and the ``force`` plays all evaluated at full depth: a play whose value came
    from the candidate filter's shallow pass is searched again before it may rank in the top.
    ``cubeful``: a cubeful search (see :meth:`Evaluator.plays`).
    """
    forced: list[Play] = list(dict.fromkeys(force))
    while True:
        values = evaluator.plays(position, dice, plays, ctx, force=forced, cubeful=cubeful)
        order = sorted(range(len(values)), key=lambda i: -values[i].equity)
        ranked = [values[i] for i in order]
        shallow = [v.play for v in ranked[:top] if not v.full and v.play not in forced]
        if not shallow:
            return ranked
        forced.extend(shallow)


def hint(
    position: Position,
    dice: Dice,
    ctx: MatchContext | None = None,
    *,
    n: int = 5,
    plies: int = 2,
    engine: str = "auto",
) -> list[HintMove]:
    """The ``n`` best plays of ``dice`` for the player on roll, best first (all of them when
    there are fewer; an empty list when the dice cannot be played).

    Plays are ranked like the computer players rank them at depth ``plies`` (bgsage's numbering:
    2 is GNU Backgammon's 1-ply), and every hinted play is evaluated at that full depth. With a
    context the equities are cubeful (money: Janowski's interpolation; match: normalised match
    equity at the score); without one, cubeless money equities. Without bgsage, the fallback
    evaluator ranks the plays (lower accuracy; ``plies`` is ignored).

    :raises ValueError: when ``n`` is below 1, or for a depth or an engine that does not exist.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n!r}")
    evaluator = get_evaluator(plies, engine=engine)
    plays = legal_plays(position, dice)
    if not plays:
        return []
    ranked = rank_plays(evaluator, position, dice, plays, ctx, top=n)[:n]
    best = ranked[0].equity
    out = []
    for v in ranked:
        mwc = None
        if ctx is not None and ctx.match_length:
            # Clamped: the normalisation is linear, beyond the cube's value too (gammons).
            mwc = min(1.0, max(0.0, to_match_equity(v.equity, ctx, evaluator.met)))
        out.append(HintMove(v.play, v.equity, v.equity - best, v.probs, mwc, evaluator.ply))
    return out


@dataclass(frozen=True, slots=True)
class CubeHint:
    """The cube decision of the player on roll, before his roll.

    Equities are his, normalised to the cube's value before any double (+1 = winning it):

    :ivar no_double: if he rolls without doubling;
    :ivar double_take: if he doubles and the opponent takes (the cube then doubled, the
        opponent's);
    :ivar double_pass: if he doubles and the opponent passes (+1).
    :ivar probs: his cubeless chances before the roll (win, win gammon, win backgammon, lose
        gammon, lose backgammon).
    :ivar ply: the depth of the evaluation.
    :ivar redouble: whether he already owns the cube (a double is then a redouble).
    """

    no_double: float
    double_take: float
    double_pass: float
    probs: Probs
    ply: int
    redouble: bool = False

    @property
    def action(self) -> CubeAction:
        """``"double"`` when doubling gains (the opponent answers as :attr:`response` says),
        ``"too good"`` when playing on is worth more than the opponent's pass (he should not
        double: he plays for a gammon), else ``"no double"``."""
        if min(self.double_take, self.double_pass) > self.no_double + _EPS:
            return "double"
        if self.no_double > self.double_pass + _EPS and self.double_take >= self.double_pass:
            return "too good"
        return "no double"

    @property
    def response(self) -> Literal["take", "pass"]:
        """The opponent's right answer to a double: take when it costs him less than passing."""
        return "take" if self.double_take <= self.double_pass else "pass"

    @property
    def equity(self) -> float:
        """His equity with the right action on both sides."""
        return roller_equity(self.no_double, self.double_take, self.double_pass, can_double=True)

    def error(self, action: Literal["no double", "double", "take", "pass"]) -> float:
        """The equity an action loses against the right one (>= 0), for the player who takes
        it: the roller for ``"no double"`` and ``"double"``, the opponent for ``"take"`` and
        ``"pass"`` (his equity is minus the roller's)."""
        if action == "no double":
            return self.equity - self.no_double
        if action == "double":
            return self.equity - min(self.double_take, self.double_pass)
        if action == "take":
            return max(0.0, self.double_take - self.double_pass)
        if action == "pass":
            return max(0.0, self.double_pass - self.double_take)
        raise ValueError(f"unknown cube action {action!r}")

    def __str__(self) -> str:
        """GNU Backgammon's words: "No double, take", "Double, pass", "Too good to double,
        pass"...

        >>> str(CubeHint(0.4, 0.6, 1.0, (0.7, 0, 0, 0, 0), 2))
        'Double, take'
        >>> str(CubeHint(0.2, 0.1, 1.0, (0.6, 0, 0, 0, 0), 2, redouble=True))
        'No redouble, take'
        """
        verb = "redouble" if self.redouble else "double"
        answer = self.response
        if self.action == "double":
            return f"{verb.capitalize()}, {answer}"
        if self.action == "too good":
            return f"Too good to {verb}, {answer}"
        return f"No {verb}, {answer}"


def cube_hint(
    position: Position, ctx: MatchContext, *, plies: int = 2, engine: str = "auto"
) -> CubeHint:
    """The cube decision of the player on roll (player 0 of ``ctx``) before he rolls, with the
    computer players' cube evaluation at depth ``plies`` (the fallback's without bgsage).

    For the opponent's take decision, call it with the doubler's position and context and read
    :attr:`CubeHint.response`.

    >>> from engine import Position
    >>> h = cube_hint(Position.initial(), MatchContext(), engine="fallback")
    >>> h.action, h.response
    ('no double', 'take')

    :raises ValueError: when the player on roll may not double (Crawford game, the opponent's
        cube, the cube at its maximum).
    """
    if not ctx.may_double(0):
        raise ValueError(f"the player on roll cannot double here ({ctx})")
    evaluator = get_evaluator(plies, engine=engine)
    cube, probs = evaluator.cube(position, ctx)
    return CubeHint(
        cube.no_double,
        cube.double_take,
        cube.double_pass,
        probs,
        evaluator.ply,
        redouble=ctx.cube_owner == 0,
    )

"""The post-game review: every decision of a game or match evaluated against the best one, error
rates and ratings on GNU Backgammon's scale, luck, the worst mistakes and the winning chances
move by move.

How each number is computed (GNU Backgammon's definitions; all equities are normalised to the
cube's value, +1 = winning it, so an error means the same in every cube and at every score, like
GNU Backgammon's "EMG" figures). The evaluator, chosen by ``engine="auto"``:

* where GNU Backgammon's networks are installed (``gnubg-nn``) and the variant has 15 checkers
  a side, GNU Backgammon's own analysis replayed on them
  (:mod:`engine.analysis.gnubg_evaluator`): its move filter, its cubeful n-ply search, the cube
  at every node, its 0-ply luck; ``plies`` 3 is its 2-ply. Its errors are GNU Backgammon
  1.07's to a few thousandths (``python -m bench pr_gnubg``; the README's *PR against GNU
  Backgammon*);
* else bgsage (hypergammon, or a platform without gnubg-nn), else the fallback, as follows.

* **Checker play.** Every legal play is evaluated, the promising ones at depth ``plies``
  (bgsage's numbering: 2 is GNU Backgammon's 1-ply; its candidate filter leaves the others at
  1-ply), the played one and the best one always at full depth; the error is the best play's
  equity minus the played play's, cubeful (money: Janowski's interpolation; match
  play: normalised match equity at the score, with bgsage's match equity table). When that
  ranking shows a mistake, the played play and the best one are searched again cubefully, the
  cube's states searched at every node of the same depth (bgsage's cubeful search), which is
  how GNU Backgammon's n-ply analysis measures: the root conversion of cubeless chances misses
  much of the error where the cube is near its use (a race whose loser will be doubled out next
  turn; ``tests/test_pr_gnubg.py``). A play is
  *unforced* when the roll had more than one legal play; forced plays and rolls that cannot be
  played count as moves (for luck) but neither as decisions nor as errors.
* **Cube.** At every roll where the player could double usefully and did not, and at every
  double, take and drop, the cube equities no double (ND), double/take (DT) and double/pass
  (DP = +1) of the player on roll come from the computer players' cube evaluation at depth
  ``plies``. Errors: not doubling loses ``max(ND, min(DT, DP)) - ND``; doubling loses
  ``max(ND, min(DT, DP)) - min(DT, DP)``; taking loses ``DT - DP`` when DT > DP, passing
  ``DP - DT`` when DP > DT (the taker's equities are minus the doubler's). Every double, take and
  drop counts as a cube decision; a roll without a double counts only when the decision was
  close: ``max(ND, min(DT, DP)) - min(DT, 1) < 0.16``, as GNU Backgammon counts them (a missed
  double is always close), so trivial no-doubles do not dilute the rate. No-doubles that a cheap
  screen finds far from any cube decision skip the full analysis
  (:data:`engine.bots.decisions.SCREEN_MARGIN`).
* **Error rates** are in millipoints (thousandths of the cube's value) per decision: checker
  play per unforced move, cube per cube decision, and overall: all errors over unforced moves
  plus cube decisions. The **rating** names the overall rate on GNU Backgammon's scale
  (:func:`rating_name`).
* **Luck** of a roll is the equity of the best play with the roll that came minus the average,
  over the 36 rolls, of the best play's equity with each; best plays and equities at 1-ply
  (GNU Backgammon's 0-ply, its default for luck), cubeful. The opening roll is compared with the
  30 non-double opening rolls, 15 for each player (GNU Backgammon's rule). A player's luck is
  the sum over his rolls; the **luck rating** names the luck per roll (:func:`luck_rating`).
* **Winning chances**: after each play, player 0's chance to win the game (the cubeless chances
  of the played play) and, in match play, the match (the played play's cubeful equity converted
  to match winning chances); a point before the first play (50 %, or the match equity at the
  score) and one at the end of a game decided by a drop or a resignation.

>>> rating_name(4.9), rating_name(5.0), rating_name(40)
('world class', 'expert', 'awful')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from engine.analysis.evaluator import ROLLS, Evaluator, PlayValue, get_evaluator
from engine.analysis.hints import CubeHint, rank_plays
from engine.analysis.replay import Step, StepKind, replay
from engine.bots.decisions import (
    CLOSE_CUBE,
    CubeEquities,
    far_from_doubling,
    match_equity_after,
    to_match_equity,
)
from engine.context import MatchContext
from engine.game import Game
from engine.match import Match
from engine.movegen import Dice, Move, Play
from engine.position import CHECKERS, Position

__all__ = [
    "CLOSE_CUBE",
    "LUCK_RATINGS",
    "RATINGS",
    "Chance",
    "Decision",
    "DecisionKind",
    "PlayerStats",
    "Review",
    "error_size",
    "luck_rating",
    "rating_name",
    "review_game",
    "review_match",
]

DecisionKind = StepKind
CUBE_KINDS: tuple[DecisionKind, ...] = ("no double", "double", "take", "drop")

RATINGS: tuple[tuple[float, str], ...] = (
    (2.0, "supernatural"),
    (5.0, "world class"),
    (8.0, "expert"),
    (12.0, "advanced"),
    (18.0, "intermediate"),
    (26.0, "casual"),
    (35.0, "beginner"),
)
"""GNU Backgammon's rating scale: the first name whose bound (millipoints per decision) is above
the error rate; ``"awful"`` beyond the last."""

LUCK_RATINGS: tuple[tuple[float, str], ...] = (
    (-60.0, "go to bed"),
    (-30.0, "bad dice"),
    (30.0, "none"),
    (60.0, "good dice"),
)
"""GNU Backgammon's luck scale, in millipoints of luck per roll: below -60 "Go to bed", below -30
"Bad dice, man!", up to +30 "None", up to +60 "Good dice, man!", above "Go to Las Vegas"."""

Steps = tuple[tuple[int, int, int, bool], ...]

ERROR_SIZES: tuple[tuple[float, str], ...] = (
    (0.16, "blunder"),
    (0.08, "error"),
    (0.04, "doubtful"),
)
"""How big a decision's error is, GNU Backgammon's marks (its default thresholds, in equity
normalised to the cube): "very bad" (here: a blunder) from 0.16, "bad" (an error) from 0.08,
"doubtful" from 0.04; a smaller error has no mark."""


def error_size(error: float) -> str | None:
    """The mark of an error (:data:`ERROR_SIZES`), None below "doubtful".

    >>> error_size(0.039), error_size(0.04), error_size(0.1), error_size(0.16)
    (None, 'doubtful', 'error', 'blunder')
    """
    for bound, name in ERROR_SIZES:
        if error >= bound:
            return name
    return None


def rating_name(rate: float) -> str:
    """The rating of an error rate (millipoints per decision) on GNU Backgammon's scale:
    supernatural < 2, world class < 5, expert < 8, advanced < 12, intermediate < 18,
    casual < 26, beginner < 35, awful above.

    >>> rating_name(0.0), rating_name(1.99), rating_name(2.0), rating_name(34.9), rating_name(35)
    ('supernatural', 'supernatural', 'world class', 'beginner', 'awful')
    """
    for bound, name in RATINGS:
        if rate < bound:
            return name
    return "awful"


def luck_rating(per_roll: float) -> str:
    """The luck rating of a luck per roll in millipoints (see :data:`LUCK_RATINGS`).

    >>> luck_rating(-61), luck_rating(-30), luck_rating(0), luck_rating(30.5), luck_rating(61)
    ('go to bed', 'none', 'none', 'good dice', 'go to las vegas')
    """
    if per_roll < -60.0:
        return "go to bed"
    if per_roll < -30.0:
        return "bad dice"
    if per_roll <= 30.0:
        return "none"
    if per_roll <= 60.0:
        return "good dice"
    return "go to las vegas"


def _steps(play: Play | None) -> Steps:
    return tuple((m.src, m.dst, m.die, m.hit) for m in play.moves) if play else ()


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the record, evaluated.

    :ivar game: the game's index in the match (0 for the first).
    :ivar move: the number of plays made in that game up to this decision (a cube decision
        belongs to the play that follows it).
    :ivar player: who decided (0 or 1, as in :class:`engine.Game`).
    :ivar kind: ``"move"`` (a checker play), ``"no double"`` (rolled without doubling),
        ``"double"``, ``"take"`` or ``"drop"``.
    :ivar position_id: the position before the decision, seen by the player on roll: the mover,
        or the doubler for ``"take"`` and ``"drop"``.
    :ivar match_id: GNU Backgammon's Match ID of that moment (dice rolled for a play, double
        offered for a take or a drop).
    :ivar context: cube and score seen by the player on roll (before any double).
    :ivar dice: the roll of a ``"move"``; None for cube decisions.
    :ivar played: what was done: the play in notation (``""`` when the dice could not be played)
        or the cube action (``"no double"``, ``"double"``, ``"take"``, ``"pass"``).
    :ivar best: the best play or cube action (the played one when it was best).
    :ivar equity: the decider's equity after what he did, normalised to the cube before any
        double (the taker's is minus the doubler's).
    :ivar best_equity: his equity with the best decision.
    :ivar unforced: whether it counts as a decision for the error rates: a play with more than
        one legal play, a double, take or drop, a close no-double.
    :ivar luck: for a ``"move"``, the luck of its roll (see :mod:`engine.analysis.review`).
    :ivar played_steps: the played play's steps ``(from, to, die, hit)``, mover's numbering.
    :ivar best_steps: the best play's steps.
    :ivar cube: for cube decisions, the equities ``(ND, DT, DP)`` of the player on roll.
    """

    game: int
    move: int
    player: int
    kind: DecisionKind
    position_id: str
    match_id: str
    context: MatchContext
    dice: Dice | None
    played: str
    best: str
    equity: float
    best_equity: float
    unforced: bool
    luck: float | None = None
    played_steps: Steps = ()
    best_steps: Steps = ()
    cube: tuple[float, float, float] | None = None

    @property
    def error(self) -> float:
        """The equity lost against the best decision (>= 0)."""
        return max(0.0, self.best_equity - self.equity)

    @property
    def position(self) -> Position:
        """The position before the decision, seen by the player on roll."""
        return Position.from_position_id(self.position_id)

    @property
    def on_roll(self) -> int:
        """The player on roll at the decision (the doubler for takes and drops)."""
        return 1 - self.player if self.kind in ("take", "drop") else self.player

    @property
    def played_play(self) -> Play | None:
        """The played play (None for cube decisions and rolls that could not be played)."""
        return Play(tuple(Move(*s) for s in self.played_steps)) if self.played_steps else None

    @property
    def best_play(self) -> Play | None:
        """The best play, to draw as arrows (None for cube decisions)."""
        return Play(tuple(Move(*s) for s in self.best_steps)) if self.best_steps else None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "game": self.game,
            "move": self.move,
            "player": self.player,
            "kind": self.kind,
            "position": self.position_id,
            "match_id": self.match_id,
            "context": self.context.to_dict(),
            "dice": list(self.dice) if self.dice else None,
            "played": self.played,
            "best": self.best,
            "equity": self.equity,
            "best_equity": self.best_equity,
            "unforced": self.unforced,
        }
        if self.luck is not None:
            d["luck"] = self.luck
        if self.played_steps:
            d["played_steps"] = [list(s) for s in self.played_steps]
        if self.best_steps:
            d["best_steps"] = [list(s) for s in self.best_steps]
        if self.cube is not None:
            d["cube"] = list(self.cube)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Decision:
        kind = d["kind"]
        if kind not in get_args(StepKind):
            raise ValueError(f"unknown decision kind {kind!r}")
        dice = d.get("dice")
        cube = d.get("cube")

        def steps(key: str) -> Steps:
            return tuple((int(a), int(b), int(c), bool(h)) for a, b, c, h in d.get(key, []))

        return cls(
            game=int(d["game"]),
            move=int(d["move"]),
            player=int(d["player"]),
            kind=kind,
            position_id=str(d["position"]),
            match_id=str(d["match_id"]),
            context=MatchContext.from_dict(d["context"]),
            dice=(int(dice[0]), int(dice[1])) if dice else None,
            played=str(d["played"]),
            best=str(d["best"]),
            equity=float(d["equity"]),
            best_equity=float(d["best_equity"]),
            unforced=bool(d["unforced"]),
            luck=None if d.get("luck") is None else float(d["luck"]),
            played_steps=steps("played_steps"),
            best_steps=steps("best_steps"),
            cube=(float(cube[0]), float(cube[1]), float(cube[2])) if cube else None,
        )


@dataclass(frozen=True, slots=True)
class Chance:
    """Player 0's winning chances at one moment: after play ``move`` of game ``game`` (0: before
    the first play; a game's last point may repeat its last play's number when the game ended by
    a drop or a resignation). ``match_win`` is None in a money game."""

    game: int
    move: int
    game_win: float
    match_win: float | None

    def to_list(self) -> list[Any]:
        return [self.game, self.move, self.game_win, self.match_win]

    @classmethod
    def from_list(cls, v: Sequence[Any]) -> Chance:
        return cls(int(v[0]), int(v[1]), float(v[2]), None if v[3] is None else float(v[3]))


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's totals; rates are in millipoints per decision (None without decisions).

    :ivar moves: his plays, forced ones and rolls that could not be played included.
    :ivar unforced_moves: plays with a choice (more than one legal play).
    :ivar checker_error: equity lost by his plays, summed.
    :ivar cube_decisions: doubles, takes, drops and close no-doubles.
    :ivar cube_error: equity lost by his cube decisions, summed.
    :ivar luck: the luck of his rolls, summed (equity).
    :ivar rolls: the rolls whose luck is summed in ``luck``.
    """

    player: int
    moves: int = 0
    unforced_moves: int = 0
    checker_error: float = 0.0
    cube_decisions: int = 0
    cube_error: float = 0.0
    luck: float = 0.0
    rolls: int = 0

    @property
    def checker_rate(self) -> float | None:
        """Millipoints lost per unforced move."""
        return 1000 * self.checker_error / self.unforced_moves if self.unforced_moves else None

    @property
    def cube_rate(self) -> float | None:
        """Millipoints lost per cube decision."""
        return 1000 * self.cube_error / self.cube_decisions if self.cube_decisions else None

    @property
    def decisions(self) -> int:
        """Unforced moves plus cube decisions."""
        return self.unforced_moves + self.cube_decisions

    @property
    def error_rate(self) -> float | None:
        """Millipoints lost per decision, checker play and cube together (GNU Backgammon's
        overall error rate, the one its rating names)."""
        if not self.decisions:
            return None
        return 1000 * (self.checker_error + self.cube_error) / self.decisions

    @property
    def rating(self) -> str | None:
        """:func:`rating_name` of :attr:`error_rate` (None without decisions)."""
        rate = self.error_rate
        return None if rate is None else rating_name(rate)

    @property
    def luck_rate(self) -> float | None:
        """Millipoints of luck per roll."""
        return 1000 * self.luck / self.rolls if self.rolls else None

    @property
    def luck_rating(self) -> str | None:
        """:func:`luck_rating` of :attr:`luck_rate` (None without rolls)."""
        rate = self.luck_rate
        return None if rate is None else luck_rating(rate)


@dataclass(frozen=True, slots=True)
class Review:
    """The review of a match (or of one game): every decision evaluated and the winning chances.

    ``plies`` is the depth the review used (1 for the fallback, whatever was asked), ``engine``
    the evaluator (``"gnubg"``: GNU Backgammon's analysis on its networks; ``"bgsage"`` or
    ``"fallback"``), ``games`` the number of games reviewed.
    Per-player figures come from :meth:`stats`; the worst mistakes from :meth:`worst`;
    :meth:`to_dict` and :meth:`from_dict` store it as JSON.
    """

    match_length: int
    plies: int
    engine: str
    games: int
    decisions: tuple[Decision, ...] = ()
    chances: tuple[Chance, ...] = ()
    version: int = field(default=1)

    def stats(self, player: int, *, game: int | None = None) -> PlayerStats:
        """The totals of ``player`` (0 or 1), over the match or in game ``game`` only."""
        moves = unforced = cube_n = rolls = 0
        checker = cube = luck = 0.0
        for d in self.decisions:
            if d.player != player or (game is not None and d.game != game):
                continue
            if d.kind == "move":
                moves += 1
                if d.unforced:
                    unforced += 1
                    checker += d.error
                if d.luck is not None:
                    rolls += 1
                    luck += d.luck
            else:
                cube_n += d.unforced
                cube += d.error
        return PlayerStats(player, moves, unforced, checker, cube_n, cube, luck, rolls)

    @property
    def players(self) -> tuple[PlayerStats, PlayerStats]:
        """:meth:`stats` of both players over the whole review."""
        return self.stats(0), self.stats(1)

    def worst(self, player: int, n: int = 3, *, game: int | None = None) -> list[Decision]:
        """The ``n`` decisions of ``player`` that lost the most equity (errors only, worst
        first; a tie goes to the earlier one)."""
        mistakes = [
            d
            for d in self.decisions
            if d.player == player and d.error > 0 and (game is None or d.game == game)
        ]
        return sorted(mistakes, key=lambda d: -d.error)[:n]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe snapshot (floats, ints, strings, lists); :meth:`from_dict` restores it."""
        return {
            "v": self.version,
            "match_length": self.match_length,
            "plies": self.plies,
            "engine": self.engine,
            "games": self.games,
            "decisions": [d.to_dict() for d in self.decisions],
            "chances": [c.to_list() for c in self.chances],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Review:
        """Restore a review saved by :meth:`to_dict`.

        :raises ValueError: when it is not a saved review (or one of another format version).
        """
        try:
            if d["v"] != 1:
                raise ValueError(f"unknown review format {d['v']!r}")
            return cls(
                match_length=int(d["match_length"]),
                plies=int(d["plies"]),
                engine=str(d["engine"]),
                games=int(d["games"]),
                decisions=tuple(Decision.from_dict(x) for x in d["decisions"]),
                chances=tuple(Chance.from_list(x) for x in d["chances"]),
            )
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a saved review: {exc!r}") from None


# -- the analysis ---------------------------------------------------------------------------------


def _cube_action(kind: DecisionKind) -> Literal["no double", "double", "take", "pass"]:
    return "pass" if kind == "drop" else kind  # type: ignore[return-value]


_NO_PROBS = (0.0, 0.0, 0.0, 0.0, 0.0)


def _close(h: CubeHint) -> bool:
    """GNU Backgammon's close cube decision (see :data:`CLOSE_CUBE`)."""
    return h.equity - min(h.double_take, 1.0) < CLOSE_CUBE


def _best_cube(kind: DecisionKind, h: CubeHint) -> str:
    if kind in ("take", "drop"):
        return h.response
    return "double" if h.action == "double" else "no double"


class _GameReview:
    """Evaluates the decisions of one game with one evaluator."""

    def __init__(self, evaluator: Evaluator, index: int, game: Game) -> None:
        self.ev = evaluator
        self.index = index
        self.game = game
        self.decisions: list[Decision] = []
        self.chances: list[Chance] = []
        self._cubes: dict[tuple[Position, MatchContext], CubeHint] = {}

    # -- helpers

    def _cube(self, step: Step) -> CubeHint:
        key = (step.position, step.ctx)
        if key not in self._cubes:
            cube, probs = self.ev.cube(step.position, step.ctx)
            self._cubes[key] = CubeHint(
                cube.no_double, cube.double_take, cube.double_pass, probs, self.ev.ply
            )
        return self._cubes[key]

    def _luck(self, step: Step) -> float:
        assert step.dice is not None
        dice = (min(step.dice), max(step.dice))
        mine = self.ev.roll_equities(step.position, step.ctx)
        if not step.opening or dice[0] == dice[1]:
            mean = sum(mine[r] * w for r, w in ROLLS) / 36
            return mine[dice] - mean
        # The opening roll: 15 rolls for each player, who then plays them (GNU's LuckFirst).
        theirs = self.ev.roll_equities(step.position.swap_players(), step.ctx.swapped())
        singles = [r for r, w in ROLLS if w == 2]
        mean = (sum(mine[r] for r in singles) - sum(theirs[r] for r in singles)) / 30
        return mine[dice] - mean

    def _chance(self, step: Step, value: PlayValue) -> None:
        win = value.probs[0]
        game_win = win if step.player == 0 else 1.0 - win
        match_win = None
        if step.ctx.match_length:
            mine = to_match_equity(value.equity, step.ctx, self.ev.met)
            if value.after.winner() == 0:  # the game is over: exact
                points = value.after.result_value() * step.ctx.cube_value
                mine = match_equity_after(step.ctx, points, self.ev.met)
            mine = min(1.0, max(0.0, mine))  # the normalisation is linear beyond the cube
            match_win = mine if step.player == 0 else 1.0 - mine
        self.chances.append(Chance(self.index, step.number, game_win, match_win))

    def _start(self) -> None:
        g = self.game
        match_win = None
        if g.match_length:
            a0, a1 = g.match_length - g.score[0], g.match_length - g.score[1]
            match_win = self.ev.met(a0, a1, post_crawford=not g.crawford and 1 in (a0, a1))
        self.chances.append(Chance(self.index, 0, 0.5, match_win))

    def _end(self, number: int) -> None:
        result = self.game.result
        if result is None:
            return
        g = self.game
        match_win = None
        if g.match_length:
            score = list(g.score)
            score[result.winner] += result.points
            post = g.crawford or 1 in (g.match_length - g.score[0], g.match_length - g.score[1])
            match_win = self.ev.met(
                g.match_length - score[0], g.match_length - score[1], post_crawford=post
            )
        self.chances.append(Chance(self.index, number, float(result.winner == 0), match_win))

    # -- decisions

    def _ranked_move(self, step: Step) -> tuple[PlayValue, PlayValue]:
        """The best play and the one played, for a move with a choice of plays."""
        assert step.dice is not None and step.played is not None
        ranked = rank_plays(
            self.ev, step.position, step.dice, step.plays, step.ctx, force=[step.played]
        )
        best = ranked[0]
        mine = next(v for v in ranked if v.play == step.played)
        if best.play != mine.play and best.equity > mine.equity:
            # A mistake: measured as GNU Backgammon measures it, by a cubeful search
            # (see the module docstring), the best play found cubelessly searched too.
            ranked = rank_plays(
                self.ev,
                step.position,
                step.dice,
                step.plays,
                step.ctx,
                force=[step.played, best.play],
                cubeful=True,
            )
            best = ranked[0]
            mine = next(v for v in ranked if v.play == step.played)
        return best, mine

    def _move(self, step: Step) -> None:
        assert step.dice is not None
        if len(step.plays) >= 2:
            best, mine = self._ranked_move(step)
        else:
            only = step.played or Play(())
            mine = best = self.ev.plays(step.position, step.dice, [only], step.ctx, force=[only])[0]
        self.decisions.append(
            Decision(
                game=self.index,
                move=step.number,
                player=step.player,
                kind="move",
                position_id=step.position.position_id(),
                match_id=step.match_id,
                context=step.ctx,
                dice=step.dice,
                played=str(step.played) if step.played else "",
                best=str(best.play) if best.play.moves else "",
                equity=mine.equity,
                best_equity=max(best.equity, mine.equity),
                unforced=len(step.plays) >= 2,
                luck=self._luck(step),
                played_steps=_steps(step.played),
                best_steps=_steps(best.play),
            )
        )
        self._chance(step, mine)

    def _cube_decision(self, step: Step, screened: CubeEquities | None = None) -> None:
        if screened is not None:
            h = CubeHint(
                screened.no_double, screened.double_take, screened.double_pass, _NO_PROBS, 0
            )
        else:
            h = self._cube(step)
        action = _cube_action(step.kind)
        error = h.error(action)
        if step.kind in ("take", "drop"):
            equity = -h.double_take if step.kind == "take" else -h.double_pass
            unforced = True
        else:
            equity = h.no_double if step.kind == "no double" else min(h.double_take, h.double_pass)
            unforced = step.kind == "double" or _close(h) or error > 0
        self.decisions.append(
            Decision(
                game=self.index,
                move=step.number,
                player=step.player,
                kind=step.kind,
                position_id=step.position.position_id(),
                match_id=step.match_id,
                context=step.ctx,
                dice=None,
                played=action,
                best=_best_cube(step.kind, h),
                equity=equity,
                best_equity=equity + error,
                unforced=unforced,
                cube=(h.no_double, h.double_take, h.double_pass),
            )
        )

    def _screen(self, steps: Sequence[Step]) -> dict[int, CubeEquities]:
        """The no-double decisions far from the doubling window by the cheap screen (by index
        in ``steps``), with the screen's equities: they need no full cube analysis."""
        index = [k for k, s in enumerate(steps) if s.kind == "no double"]
        cheap = self.ev.screen_cube([(steps[k].position, steps[k].ctx) for k in index])
        return {k: c for k, c in zip(index, cheap, strict=True) if far_from_doubling(c)}

    def run(self) -> None:
        steps = list(replay(self.game))
        first = steps[0].position if steps else None
        if first is not None and first == self.game.variant.initial_position():
            self._start()
        far = self._screen(steps)
        number = 0
        for k, step in enumerate(steps):
            number = step.number
            if step.kind == "move":
                self._move(step)
            else:
                self._cube_decision(step, far.get(k))
        last = self.game.result
        if last is not None and last.reason.value != "bear-off":
            self._end(number)


def _engine(asked: str, games: Sequence[Game]) -> str:
    """The evaluator a review uses: GNU Backgammon's analysis on its networks where they are
    installed and know the variant (15 checkers a side), else the players' own (``"auto"``)."""
    if asked != "auto" or not games:
        return asked
    from engine.bots import gnubgsearch

    fifteen = all(g.variant.checkers == CHECKERS for g in games)
    return "gnubg" if fifteen and gnubgsearch.available() else "auto"


def review_engine(match: Match | None = None) -> str:
    """The evaluator a review of ``match`` (a standard game without one) runs on: ``"gnubg"``,
    ``"bgsage"`` or ``"fallback"``, as :attr:`Review.engine` will say.

    >>> review_engine() in {"gnubg", "bgsage", "fallback"}
    True
    """
    return get_evaluator(2, engine=_engine("auto", (match or Match()).games)).engine


def _review(
    games: Iterable[tuple[int, Game]], match_length: int, count: int, plies: int, engine: str
) -> Review:
    games = list(games)
    evaluator = get_evaluator(plies, engine=_engine(engine, [g for _, g in games]))
    decisions: list[Decision] = []
    chances: list[Chance] = []
    for index, game in games:
        r = _GameReview(evaluator, index, game)
        r.run()
        decisions.extend(r.decisions)
        chances.extend(r.chances)
    return Review(
        match_length=match_length,
        plies=evaluator.ply,
        engine=evaluator.engine,
        games=count,
        decisions=tuple(decisions),
        chances=tuple(chances),
    )


def review_game(game: Game, *, plies: int = 2, engine: str = "auto", index: int = 0) -> Review:
    """Review one game (finished or not): see the module docstring for every number.

    ``plies`` is the depth of bgsage's search (its numbering: 2 is GNU Backgammon's 1-ply);
    without bgsage the fallback evaluator reviews (lower accuracy, ``plies`` ignored). ``index``
    is the game's number in its match, kept in every :class:`Decision`. Blocking (about a second
    for a 60-move game at 2 plies): run it off the event loop.

    :raises ValueError: when the record does not replay.
    """
    return _review([(index, game)], game.match_length, 1, plies, engine)


def combine_reviews(parts: Sequence[Review]) -> Review:
    """The review of a match from the reviews of its games, in order, each made by
    :func:`review_game` with its index: what :func:`review_match` gives, computed a game at a
    time (so that a long match can tell its progress between games).

    >>> from engine import Match
    >>> m = Match(length=1)
    >>> m.game.opening_roll(6, 5)
    >>> parts = [review_game(g, engine="fallback", index=k) for k, g in enumerate(m.games)]
    >>> combine_reviews(parts) == review_match(m, engine="fallback")
    True

    :raises ValueError: without any part.
    """
    if not parts:
        raise ValueError("a review of a match needs the review of at least one game")
    first = parts[0]
    return Review(
        match_length=first.match_length,
        plies=first.plies,
        engine=first.engine,
        games=len(parts),
        decisions=tuple(d for part in parts for d in part.decisions),
        chances=tuple(c for part in parts for c in part.chances),
    )


def review_match(match: Match, *, plies: int = 2, engine: str = "auto") -> Review:
    """Review every game of ``match`` (a money game is a match of one game): see
    :func:`review_game`.

    >>> from engine import Match
    >>> m = Match(length=1)
    >>> m.game.opening_roll(6, 5)
    >>> m.game.play_text("8/3 8/2")
    <Play 8/3 8/2>
    >>> m.game.resign(1)
    >>> m.game.accept_resignation()
    >>> r = review_match(m, engine="fallback")
    >>> r.games, r.stats(0).moves + r.stats(1).moves == sum(d.kind == "move" for d in r.decisions)
    (1, True)
    """
    return _review(enumerate(match.games), match.length, len(match.games), plies, engine)

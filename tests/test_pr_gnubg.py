"""The bgsage evaluator's errors against GNU Backgammon's (issue 31), on the single decisions the
issue names: the played play and the best play are evaluated alike (same depth, same cubeful
conversion), and at the review's depth the error is gnubg 2-ply's within :data:`TOLERANCE`. The
review itself runs on GNU Backgammon's analysis where gnubg-nn is installed
(tests/test_gnubgsearch.py holds it to a hundredth of these decisions); bgsage reviews where it
is not, and hypergammon. (The whole comparison, game by game: ``python -m bench pr_gnubg``.)"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from bot.service.analysis import REVIEW_PLIES
from engine import Position, legal_plays, parse_play
from engine.analysis.evaluator import get_evaluator
from engine.analysis.hints import rank_plays
from engine.bots import backend
from engine.xgid import Xgid
from tests.tools._gnubg import gnubg_binary, run_in_gnubg

needs_bgsage = pytest.mark.skipif(
    backend() != "bgsage", reason="the bgsage evaluator is not installed"
)

# (Position ID, Match ID, dice, the play made, gnubg 2-ply's error of it): money, cube 2 owned
# by the player on roll. Recorded from GNU Backgammon 1.07 (hint at 2-ply, cubeful, every play
# at full depth); test_gnubg_still_says_so checks them again when gnubg is installed.
DECISIONS = [
    ("4HOHBwCSZ3AwEg", "AQEXAAAAAAAE", (6, 5), "23/18 8/2", 0.0841),
    ("23YjBABNnmDwAA", "AQEXAAAAAAAE", (6, 5), "18/12* 6/1", 0.0),
    ("4PMeBgAmT3BwBA", "AQEPAAAAAAAE", (6, 3), "13/7 6/3", 0.0125),
]
TOLERANCE = 0.040
"""How far the review's error of each decision may be from gnubg's (at the review's 2 plies
they were 0.141, 0.063 and 0.051: 0.057, 0.063 and 0.039 off)."""

# gnubg 2-ply's cubeless chances of a play and its cubeful (money) equity.
GNUBG_CHANCES = [
    ("4HOHBwCSZ3AwEg", "21/10", (0.310021, 0.053117, 0.001583, 0.127277, 0.002735), -0.34986),
    ("4HOHBwCSZ3AwEg", "13/2", (0.314863, 0.062285, 0.001698, 0.160784, 0.004096), -0.36412),
    ("23YjBABNnmDwAA", "18/12* 6/1", (0.197384, 0.024292, 0.000627, 0.542231, 0.01172), -1.06715),
    ("23YjBABNnmDwAA", "18/7", (0.063519, 0.004466, 0.000101, 0.250384, 0.001097), -1.09828),
    ("4PMeBgAmT3BwBA", "21/15 18/15", (0.232425, 0.01192, 0.000169, 0.032558, 9.1e-05), -0.47668),
    ("4PMeBgAmT3BwBA", "18/9", (0.253792, 0.027829, 0.000669, 0.098998, 0.001889), -0.47851),
]
MATCH_IDS = {pid: mid for pid, mid, *_ in DECISIONS}

# Decisions where the cube is about to be used (money games of the bench, Jacoby rule off): the
# player's cube is dead or nearly so and the loser of the race will be doubled out. GNU
# Backgammon's 2-ply cubeful evaluation searches the cube at every node; Janowski's
# interpolation on 2-ply cubeless chances (the review's former conversion, at the root only)
# found half of these errors (0.126 and 0.166). Recorded from gnubg 1.07 (hint at 2-ply,
# cubeful, every play at full depth); test_gnubg_still_says_so checks them again.
CUBE_DECISIONS = [
    # a bear-off, cube 2 owned by the opponent: 4/off 1/off -0.7115, the play made -0.9634
    ("f3sAAMB3+wAAAA", "EYEGAAAAAAAE", (1, 5), "4/off 3/2", 0.2519),
    # cube 4 owned by the opponent: bar/20 8/5 -0.7254, the play made -1.0 (doubled out)
    ("G247gAC2G8GAQQ", "EoEOAAAAAAAE", (5, 3), "bar/20 4/1", 0.2746),
]
CUBE_TOLERANCE = 0.012
"""The same search: only the networks' chances differ (0.0001 and 0.009 off)."""


def _setting(position_id: str, match_id: str) -> tuple[Position, Any]:
    x = Xgid.from_ids(position_id, match_id)
    return x.position, x.context()


@needs_bgsage
@pytest.mark.parametrize("position_id, play, chances, equity", GNUBG_CHANCES)
def test_the_cubeful_equity_of_the_same_chances_is_gnubgs(
    position_id: str, play: str, chances: tuple[float, ...], equity: float
) -> None:
    """The errors differ by the network's chances, not by the conversion: given gnubg's own
    cubeless chances, the review's cubeful money equity is gnubg's."""
    from engine.bots import sage

    position, ctx = _setting(position_id, MATCH_IDS[position_id])
    dice = next(d for p, _, d, *_ in DECISIONS if p == position_id)
    after = position.apply(parse_play(play, position, dice)).swap_players()
    assert sage.equity(after, chances, ctx) == pytest.approx(equity, abs=2e-5)  # type: ignore[arg-type]


@needs_bgsage
@pytest.mark.parametrize("position_id, match_id, dice, played, gnubg_error", DECISIONS)
def test_the_reviews_error_is_gnubgs(
    position_id: str, match_id: str, dice: tuple[int, int], played: str, gnubg_error: float
) -> None:
    position, ctx = _setting(position_id, match_id)
    mine = parse_play(played, position, dice)
    ev = get_evaluator(REVIEW_PLIES)
    plays = legal_plays(position, dice)
    ranked = rank_plays(ev, position, dice, plays, ctx, force=[mine], cubeful=True)
    best, made = ranked[0], next(v for v in ranked if v.play == mine)
    assert best.full and made.full  # both searched at the review's full depth
    assert best.equity - made.equity == pytest.approx(gnubg_error, abs=TOLERANCE)


@needs_bgsage
@pytest.mark.parametrize("position_id, match_id, dice, played, gnubg_error", CUBE_DECISIONS)
def test_the_reviews_cubeful_search_is_gnubgs(
    position_id: str, match_id: str, dice: tuple[int, int], played: str, gnubg_error: float
) -> None:
    """Near the cube's use, the review's error is gnubg's because both search cubefully; the
    root conversion of cubeless chances finds much less (so this would fail without it)."""
    position, ctx = _setting(position_id, match_id)
    mine = parse_play(played, position, dice)
    ev = get_evaluator(REVIEW_PLIES)
    plays = legal_plays(position, dice)
    errors = {}
    for cubeful in (True, False):
        ranked = rank_plays(ev, position, dice, plays, ctx, force=[mine], cubeful=cubeful)
        errors[cubeful] = ranked[0].equity - next(v for v in ranked if v.play == mine).equity
    assert errors[True] == pytest.approx(gnubg_error, abs=CUBE_TOLERANCE)
    assert gnubg_error - errors[False] > 0.08


def test_the_review_searches_checker_plays_cubefully(monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``/review`` runs asks the evaluator for the cubeful search on every unforced play."""
    from engine import Game
    from engine.analysis import review, review_game

    seen: list[bool] = []
    real = review.rank_plays

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(bool(kwargs.get("cubeful")))
        return real(*args, **kwargs)

    monkeypatch.setattr(review, "rank_plays", spy)
    game = Game()
    game.opening_roll(4, 2)
    game.play_text("24/20 13/11")
    review_game(game, engine="fallback")
    assert seen == [False, True]  # a blunder: ranked, then searched cubefully


_SCRIPT = """
import json, os, sys
sys.path.insert(0, os.getcwd())
import gnubg
from tests.tools._gnubg import main_in_gnubg, quiet_setup

def body(args):
    quiet_setup(gnubg)
    for c in ("set beavers 0", "set jacoby off", "new session",
              "set evaluation chequerplay evaluation plies 2",
              "set evaluation chequerplay evaluation cubeful on"):
        gnubg.command(c)
    for f in gnubg.getevalhintfilter():
        gnubg.command("set evaluation movefilter %d %d 0 1000 1000.0" % (f["ply"], f["level"]))
    out = []
    for pid, mid in args["ids"]:
        gnubg.command("set gnubgid %s:%s" % (pid, mid))
        out.append([[h["move"], h["equity"]] for h in gnubg.hint(1000)["hint"]])
    open(args["out"], "w").write(json.dumps(out))

main_in_gnubg(body)
"""


GNUBG_REPEAT = 0.002
"""How closely gnubg 1.07.001 repeats its own 2-ply errors from one machine to another: the
same package gave 0.0125 for `13/7 6/3` where the figures were taken and 0.0136 on another
processor (the rollout reference moved by as little). Far tighter than what the test guards:
the review's 0.051 against gnubg's 0.012."""


@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon is not installed")
def test_gnubg_still_says_so() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script, out = Path(tmp) / "hint.py", Path(tmp) / "out.json"
        script.write_text(_SCRIPT, encoding="utf-8")
        ids = [[pid, mid] for pid, mid, *_ in DECISIONS + CUBE_DECISIONS]
        run_in_gnubg(script, {"ids": ids, "out": str(out)}, timeout=600)
        hints = json.loads(out.read_text(encoding="utf-8"))
    for (_, _, _, played, error), plays in zip(DECISIONS + CUBE_DECISIONS, hints, strict=True):
        equity = dict(plays)
        assert plays[0][1] - equity[played] == pytest.approx(error, abs=GNUBG_REPEAT)


def test_gnubgs_cube_errors_are_read_as_totals() -> None:
    """gnubg's Python statistics give a cube's ``error-skill`` as a rate per close cube decision;
    the bench sums the kinds of cube errors, as ``show statistics match`` does (these numbers
    are gnubg 1.07's for a game where it printed error totals 0.632 and 0.419 EMG over 12 and
    15 decisions)."""
    from bench.gnubg_analyse import player_errors

    def side(name: str, moves: float, unforced: int, cube: dict[str, float], close: int) -> Any:
        kinds = {f"err-{k}-skill": v for k, v in cube.items()}
        rate = sum(cube.values()) / close
        return name, {
            "moves": {"error-skill": moves, "unforced-moves": unforced},
            "cube": {"error-skill": rate, "close-cube": close, **kinds},
        }

    x = side("casual0", 0.406676, 10, {"wrong-double-below-dp": 0.225087, "wrong-take": 0.0}, 2)
    o = side("intermediate1", 0.299128, 11, {"wrong-double-above-tg": 0.119944}, 4)
    match = {
        "match-info": {"X": {"name": x[0]}, "O": {"name": o[0]}},
        "stats": {"X": x[1], "O": o[1]},
    }
    (e0, n0), (e1, n1) = player_errors(match)
    assert (round(e0, 3), n0) == (0.632, 12)
    assert (round(e1, 3), n1) == (0.419, 15)
    from bench.gnubg_analyse import player_breakdown

    (c0, n0, q0, k0), _ = player_breakdown(match)
    assert (round(c0, 3), n0, round(q0, 3), k0) == (0.407, 10, 0.225, 2)


def test_gnubg_analyses_the_games_under_their_rules() -> None:
    """The bench's games are played without the Jacoby rule, which gnubg applies to money games
    by default (a .mat file cannot say): analysed with it, gnubg valued every centred cube
    differently (a missed double cost 0.196 with it, about 0.07 without)."""
    from bench.gnubg_analyse import _setup

    class Recorder:
        def __init__(self) -> None:
            self.commands: list[str] = []

        def command(self, text: str) -> None:
            self.commands.append(text)

    for jacoby, expected in ((False, "set jacoby off"), (True, "set jacoby on")):
        fake = Recorder()
        _setup(fake, 2, jacoby)
        assert expected in fake.commands
        assert fake.commands.index(expected) < fake.commands.index("set confirm new off")

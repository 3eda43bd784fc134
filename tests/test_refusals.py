"""Refused plays give the real reason (issue 15, item 9).

Thousands of illegal plays are generated over the corpus positions; for each refusal, what its
message claims is checked against the position and the dice by code written here, independently
of :mod:`engine.refusals`: a "no checker" really means none could be there, "blocked" names a point
the opponent holds on the way, a "plays only one die" play really can be played as written, etc.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest

from bot.i18n import error_text
from engine import (
    AmbiguousPlayError,
    Game,
    GameState,
    IllegalPlayError,
    MatchKey,
    Move,
    Play,
    PlaySyntaxError,
    Position,
    Turn,
    legal_plays,
    parse_play,
)
from engine.movegen import checker_steps
from engine.position import apply_step
from engine.refusals import step_problem
from tests.conftest import load_corpus

ISSUE = Position.from_position_id("/w8AgEE7/CcAAA")  # 1-1 to play: 5-point held, one on the 8

CASES = [
    (Position.from_position_id(str(c["position_id"])), (int(c["dice"][0]), int(c["dice"][1])))  # type: ignore[index]
    for c in load_corpus()
]


def refusal(text: str, pos: Position, dice: tuple[int, int]) -> IllegalPlayError:
    with pytest.raises(IllegalPlayError) as err:
        parse_play(text, pos, dice)
    return err.value


# -- the cases of the issue ---------------------------------------------------------------------


def test_bearing_off_with_a_checker_outside_names_that_checker() -> None:
    # There are two checkers on the 1-point: the obstacle is the one still on the 8-point.
    err = refusal("1/off(4)", ISSUE, (1, 1))
    assert (err.code, err.params["point"]) == ("illegal.not_home", 8)
    assert "8-point" in str(err)


def test_a_checker_walking_into_a_held_point_is_blocked_there() -> None:
    # 8/4 with 1-1 is four dice, not one; it stops at the 5-point, which the opponent holds.
    err = refusal("8/4", ISSUE, (1, 1))
    assert (err.code, err.params["point"]) == ("illegal.blocked", 5)
    assert "1 dice" not in str(err)


def test_a_die_that_does_not_reach_off_says_so() -> None:
    # After 8/6 every checker is home: what fails is the two 1s left, which cannot bear off a
    # checker from the 6-point.
    err = refusal("8/6 6/off", ISSUE, (1, 1))
    assert err.code == "illegal.off_distance"
    assert (err.params["point"], err.params["most"]) == (6, 4)


def test_a_partial_play_counts_the_dice_it_really_plays() -> None:
    err = refusal("8/7 2/1", ISSUE, (1, 1))
    assert err.code == "illegal.partial_double"
    assert (err.params["written"], err.params["longest"]) == (2, 4)


def test_moving_more_checkers_than_a_point_has() -> None:
    pos = Position.from_board([0, 2, 0, 0, 0, 0, 3] + [0] * 17 + [-15, 0])
    err = refusal("1/off(4)", pos, (1, 1))
    assert (err.code, err.params["point"]) == ("illegal.no_checker_left", 1)


def test_both_ways_blocked() -> None:
    # 13/5 with 6-2: the opponent holds both the 7-point and the 11-point (3/1 is playable).
    pos = Position.from_board([0, 0, 0, 1, 0, 0, 0, -2, 0, 0, 0, -2, 0, 14] + [0] * 10 + [-11, 0])
    err = refusal("13/5", pos, (6, 2))
    assert err.code == "illegal.blocked_both"
    assert {err.params["point"], err.params["other"]} == {7, 11}


def test_a_larger_die_bears_off_only_from_the_highest_point() -> None:
    pos = Position.from_board([0, 1, 0, 0, 1] + [0] * 20 + [0])  # checkers on the 1 and 4
    # After 4/3 with the 1, the 6 cannot take the checker off the 1-point: one stands on the 3.
    err = refusal("1/off 4/3", pos, (6, 1))
    assert err.code == "illegal.bear_off_higher"
    assert (err.params["point"], err.params["die"], err.params["higher"]) == (1, 6, 3)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_refusals_read_well_in_both_languages(lang: str) -> None:
    texts = [error_text(refusal(t, ISSUE, (1, 1)), lang) for t in ("8/7 2/1", "8/4", "1/off(4)")]
    texts.append(error_text(refusal("24/18", Position.initial(), (6, 2)), lang))
    for text in texts:
        assert "(s)" not in text and not re.search(r"\b1 (dice|dés)\b", text), text


# -- one rule for one step ------------------------------------------------------------------------


def test_step_problem_agrees_with_the_move_generator() -> None:
    checked = 0
    for pos, _ in CASES[::3]:
        for side in (pos, pos.swap_players()):
            cells = list(side.board)
            for die in range(1, 7):
                steps = {src for src, _, _ in checker_steps(cells, die)}
                for src in range(1, 26):
                    assert (step_problem(cells, src, die) is None) is (src in steps)
                    checked += 1
    assert checked > 50_000


# -- thousands of generated illegal plays --------------------------------------------------------


def _pool(dice: tuple[int, int]) -> list[int]:
    return [dice[0]] * 4 if dice[0] == dice[1] else list(dice)


def _sums(pool: list[int]) -> set[int]:
    return {sum(c) for n in range(1, len(pool) + 1) for c in itertools.combinations(pool, n)}


def _mover(cells: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(max(v, 0) for v in cells[1:])


def _reachable(pos: Position, dice: tuple[int, int]) -> dict[tuple[int, ...], set[int]]:
    """Each distribution of the mover's checkers the dice can make, with how many dice do it."""
    out: dict[tuple[int, ...], set[int]] = {}
    layer = {(pos.board, tuple(_pool(dice)))}
    for used in range(1, len(_pool(dice)) + 1):
        nxt = set()
        for cells, left in layer:
            for i, die in enumerate(left):
                for src, dst, _ in checker_steps(list(cells), die):
                    after = list(cells)
                    apply_step(after, src, dst)
                    nxt.add((tuple(after), left[:i] + left[i + 1 :]))
                    out.setdefault(_mover(after), set()).add(used)
        layer = nxt
    return out


def _fits(src: int, dst: int, dice: tuple[int, ...]) -> bool:
    total = sum(dice)
    if not dice:
        return False
    return total == src - dst if dst else total >= src > total - max(dice)


def _assignable(steps: list[tuple[int, int]], pool: list[int]) -> bool:
    """Whether each written move can get its own dice (brute force: every die to a move or none)."""
    for owner in itertools.product(range(len(steps) + 1), repeat=len(pool)):
        if all(
            _fits(s, t, tuple(d for d, o in zip(pool, owner, strict=True) if o == i))
            for i, (s, t) in enumerate(steps)
        ):
            return True
    return False


def _spans(steps: list[tuple[int, int]], point: int) -> bool:
    """Whether some written move passes over or lands on ``point``."""
    return any(s > point >= t for s, t in steps)


def _write(steps: list[tuple[int, int]]) -> str:
    name = {25: "bar", 0: "off"}
    return " ".join(f"{name.get(s, s)}/{name.get(t, t)}" for s, t in steps)


def _candidates(pos: Position, dice: tuple[int, int], rng: random.Random, n: int) -> list[str]:
    pool = _pool(dice)
    sums = sorted(_sums(pool))
    own = [p for p in range(1, 26) if pos.board[p] > 0]
    out = []
    for _ in range(n):
        steps: list[tuple[int, int]] = []
        for _ in range(rng.randint(1, min(4, len(pool) + 1))):
            if steps and rng.random() < 0.3 and steps[-1][1]:
                src = steps[-1][1]  # the same checker goes on
            elif own and rng.random() < 0.8:
                src = rng.choice(own)
            else:
                src = rng.randint(1, 25)
            gap = rng.choice(sums) if rng.random() < 0.85 else rng.randint(1, 12)
            steps.append((src, max(src - gap, 0)))
        out.append(_write(steps))
    return out


def _check(err: IllegalPlayError, text: str, pos: Position, dice: tuple[int, int]) -> None:
    """What the refusal claims is true of this position and these dice."""
    b, pool, p = pos.board, _pool(dice), err.params
    steps = [
        (25 if s == "bar" else int(s), 0 if t == "off" else int(t))
        for s, t in (m.split("/") for m in text.split())
    ]
    starts = Counter(s for s, _ in steps)
    ends = Counter(t for _, t in steps if t)
    counts = list(_mover(b))
    for s, t in steps:
        counts[s - 1] -= 1
        if t:
            counts[t - 1] += 1
    plays = legal_plays(pos, dice)
    longest = max(len(pl) for pl in plays)
    used = _reachable(pos, dice).get(tuple(counts), set())
    code = err.code
    if code in ("illegal.partial", "illegal.partial_double", "illegal.forced_die"):
        # The play can be made as written: it breaks a rule of the whole roll.
        assert used and (longest not in used or code == "illegal.forced_die")
        if code == "illegal.partial":
            assert dice[0] != dice[1] and min(used) == 1 and longest == 2
        elif code == "illegal.partial_double":
            assert dice[0] == dice[1] and p["written"] == min(used) and p["longest"] == longest
            assert min(used) < longest
        else:
            assert longest == 1 and used == {1} and p["die"] == max(dice)
            assert all(pl.moves[0].die == max(dice) for pl in plays)
        return
    # Every other reason says the play cannot be made at all.
    assert not used, (code, used)
    point = p.get("point")
    if code == "illegal.distance":
        assert any(t and s - t == p["gap"] for s, t in steps) and p["gap"] not in _sums(pool)
    elif code == "illegal.off_distance":
        assert isinstance(point, int) and (point, 0) in steps and p["most"] == sum(pool) < point
    elif code == "illegal.dice":
        assert all(_assignable([st], pool) for st in steps) and not _assignable(steps, pool)
    elif code == "illegal.no_checker":
        assert isinstance(point, int) and b[point] <= 0 and not ends[point] and starts[point]
    elif code == "illegal.no_checker_bar":
        assert b[25] == 0 and starts[25]
    elif code == "illegal.no_checker_left":
        assert isinstance(point, int) and starts[point] > max(b[point], 0) + ends[point]
    elif code == "illegal.no_checker_left_bar":
        assert starts[25] > b[25]
    elif code == "illegal.enter_first":
        # Some checker moves while one is still on the bar: another one, or an entered one on.
        assert b[25] > starts[25] and any(s != 25 or 25 - t not in pool for s, t in steps)
    elif code == "illegal.blocked":
        assert isinstance(point, int) and b[point] <= -2 and _spans(steps, point)
    elif code == "illegal.blocked_both":
        other = p["other"]
        assert isinstance(point, int) and isinstance(other, int) and point != other
        assert any(s > max(point, other) and min(point, other) >= t for s, t in steps)
        assert b[point] <= -2 and b[other] <= -2
    elif code == "illegal.not_home":
        assert any(t == 0 for _, t in steps) and isinstance(point, int) and 7 <= point <= 24
        assert b[point] > 0 or _spans(steps, point)
    elif code == "illegal.bear_off_higher":
        higher, die = p["higher"], p["die"]
        assert isinstance(point, int) and isinstance(higher, int) and isinstance(die, int)
        assert die in pool and die > point and higher > point
        assert any(t == 0 and s >= point for s, t in steps)
        assert b[higher] > 0 or _spans(steps, higher)
    else:
        raise AssertionError(f"{text!r} with {dice} in {pos!r}: unexpected {code} ({err})")


def test_generated_illegal_plays_are_explained_truly() -> None:
    rng = random.Random(15)
    seen: Counter[str] = Counter()
    for pos, dice in CASES:
        if not legal_plays(pos, dice):
            continue
        for text in _candidates(pos, dice, rng, 4):
            try:
                parse_play(text, pos, dice)
            except IllegalPlayError as err:
                _check(err, text, pos, dice)
                seen[err.code] += 1
            except (PlaySyntaxError, AmbiguousPlayError):
                pass
    assert sum(seen.values()) > 3000, seen
    # Every kind of reason was met and checked (the rare ones have their own tests above too).
    common = {
        "illegal.partial",
        "illegal.partial_double",
        "illegal.distance",
        "illegal.off_distance",
        "illegal.dice",
        "illegal.no_checker",
        "illegal.no_checker_left",
        "illegal.enter_first",
        "illegal.blocked",
        "illegal.not_home",
    }
    assert common <= set(seen), seen


def test_a_play_given_as_steps_is_explained_the_same_way() -> None:
    # Game.play with a Play built from steps (not from text) gives the same reasons.
    game = Game.from_key(ISSUE, MatchKey(game_state=GameState.PLAYING, dice=(1, 1)))
    with pytest.raises(IllegalPlayError) as err:
        game.play(Play([Move(8, 7, 1), Move(7, 6, 1), Move(6, 5, 1), Move(5, 4, 1)]))
    assert (err.value.code, err.value.params["point"]) == ("illegal.blocked", 5)
    with pytest.raises(IllegalPlayError) as err:
        game.play(Play([Move(8, 7, 1), Move(2, 1, 1)]))
    assert err.value.code == "illegal.partial_double"
    assert game.dice == (1, 1) and game.position == ISSUE  # nothing changed


def test_a_refused_click_names_the_rule_too() -> None:
    with pytest.raises(IllegalPlayError) as err:
        Turn(Position.initial(), (6, 1)).step(13, 1)
    assert (err.value.code, err.value.params) == ("illegal.blocked", {"text": "13/12", "point": 12})
    with pytest.raises(IllegalPlayError) as err:
        Turn(ISSUE, (1, 1)).step(1, 1)
    assert (err.value.code, err.value.params["point"]) == ("illegal.not_home", 8)


def test_refused_clicks_over_the_corpus_tell_the_truth() -> None:
    seen: Counter[str] = Counter()
    for pos, dice in CASES[::2]:
        turn = Turn(pos, dice)
        b = pos.board
        for src in range(1, 26):
            for die in set(dice):
                try:
                    turn.step(src, die)
                except IllegalPlayError as err:
                    p, code = err.params, err.code
                    seen[code] += 1
                    if code == "illegal.blocked":
                        assert p["point"] == src - die and b[src - die] <= -2
                    elif code == "illegal.not_home":
                        point = p["point"]
                        assert isinstance(point, int) and point >= 7 and b[point] > 0
                    elif code == "illegal.bear_off_higher":
                        higher = p["higher"]
                        assert isinstance(higher, int) and die > src and higher > src
                        assert b[higher] > 0
                    elif code == "turn.no_checker":
                        assert b[src] <= 0
                    elif code == "turn.enter_first":
                        assert b[25] > 0 and src != 25
    assert {"illegal.blocked", "illegal.not_home", "illegal.bear_off_higher"} <= set(seen), seen


def test_the_roll_is_named_higher_die_first_as_the_game_shows_it() -> None:
    """A new player rolled 3-2 and was told "impossible avec 2-3" (the dice as they fell)."""
    from engine.position import Position
    from engine.refusals import why_illegal

    error = why_illegal("24/18 13/10", [(24, 18), (13, 10)], Position.initial(), (2, 3))
    assert "3-2 cannot make" in str(error) and error.params["dice"] == "3-2"


@pytest.mark.parametrize("dice", [(6, 5), (2, 1)])
def test_a_bear_off_with_checkers_outside_names_them_whatever_the_dice(
    dice: tuple[int, int],
) -> None:
    """Not "your 1-point is held" (a way with the 5) nor "2-1 moves a checker 3 at most": a
    checker stays outside the home board whatever the order of the moves."""
    from engine.refusals import why_illegal
    from engine.xgid import Xgid

    position = Xgid.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10").position
    error = why_illegal("6/off", [(6, 0)], position, dice)
    assert error.code == "illegal.not_home", str(error)


def test_a_bear_off_beside_a_move_from_an_empty_point_names_the_empty_point() -> None:
    """Such a move creates no checker outside the home board to blame (17/15 typed from the
    other side's numbering)."""
    from engine import Position
    from engine.refusals import why_illegal

    position = Position.from_position_id("3/cBAAB43ycAAA")
    error = why_illegal("17/15 6/off", [(17, 15), (6, 0)], position, (6, 2))
    assert error.code == "illegal.no_checker", str(error)

"""Hints and the post-game review (engine.analysis), and their pictures (render.analysis).

Most tests run on the evaluator the bot would use (bgsage when installed); the fallback's are run
explicitly, so both engines are covered wherever bgsage is installed.
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest
from PIL import Image

from engine import Game, Match, Position, legal_plays, parse_play
from engine.analysis import (
    RATINGS,
    CubeHint,
    Review,
    cube_hint,
    get_evaluator,
    hint,
    luck_rating,
    rating_name,
    review_game,
    review_match,
)
from engine.analysis.evaluator import ROLLS
from engine.analysis.replay import replay, start_position
from engine.analysis.selfplay import play_match
from engine.bots import backend, get_bot, level_spec
from engine.bots.fallback import FallbackPlayer
from engine.bots.levels import LevelSpec
from engine.context import MatchContext
from render import BoardView
from render.analysis import mistake_card, review_chart
from render.chart import CHANCES_H, chances_chart
from render.panels import band_height

HAS_SAGE = backend() == "bgsage"
needs_sage = pytest.mark.skipif(not HAS_SAGE, reason="bgsage is not installed")
ENGINES = ["fallback", pytest.param("bgsage", marks=needs_sage)]


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).size


def _positions(corpus: list[dict[str, Any]], count: int) -> list[tuple[Position, tuple[int, int]]]:
    """Corpus positions (from GNU Backgammon) whose roll leaves a choice."""
    out = []
    for row in corpus:
        pos = Position.from_position_id(str(row["position_id"]))
        dice = tuple(row["dice"])  # type: ignore[arg-type]
        if len(legal_plays(pos, dice)) >= 2 and pos.winner() is None:  # type: ignore[arg-type]
            out.append((pos, dice))
        if len(out) == count:
            break
    return out  # type: ignore[return-value]


def _opening_game(dice: tuple[int, int], text: str) -> Game:
    """A money game where player 0 opens with ``dice`` (high die first), plays ``text``, and
    player 1 then resigns."""
    g = Game()
    g.opening_roll(*dice)
    g.play_text(text)
    g.resign(1)
    g.accept_resignation()
    return g


# -- hints ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_hints_are_legal_sorted_and_measured_from_the_best(
    corpus: list[dict[str, Any]], engine: str
) -> None:
    for pos, dice in _positions(corpus, 12):
        legal = legal_plays(pos, dice)
        for ctx in (None, MatchContext(match_length=7, score=(2, 4), cube_value=2, cube_owner=1)):
            hints = hint(pos, dice, ctx, n=4, engine=engine)
            assert 1 <= len(hints) <= min(4, len(legal))
            assert all(h.play in legal for h in hints)
            assert len({h.play for h in hints}) == len(hints)
            equities = [h.equity for h in hints]
            assert equities == sorted(equities, reverse=True)
            assert hints[0].difference == 0.0
            assert all(h.difference == pytest.approx(h.equity - equities[0]) for h in hints)
            assert all((h.match_win is None) == (ctx is None) for h in hints)


@needs_sage
@pytest.mark.parametrize("ply", [1, 2])
def test_best_hint_is_what_the_computer_plays_at_the_same_depth(
    corpus: list[dict[str, Any]], ply: int
) -> None:
    from engine.bots.neural import SagePlayer

    bot = SagePlayer(LevelSpec("test", ply=ply, cube_ply=ply, noise=0.0))
    ctx = MatchContext()
    for pos, dice in _positions(corpus, 25 if ply == 1 else 12):
        assert hint(pos, dice, n=1, plies=ply)[0].play == bot.choose_play(pos, dice)
        assert hint(pos, dice, ctx, n=1, plies=ply)[0].play == bot.choose_play(pos, dice, ctx)


def test_best_fallback_hint_is_what_the_fallback_plays(corpus: list[dict[str, Any]]) -> None:
    bot = FallbackPlayer(level_spec("expert"))
    for pos, dice in _positions(corpus, 25):
        assert hint(pos, dice, engine="fallback", n=1)[0].play == bot.choose_play(pos, dice)


def test_hint_edge_cases() -> None:
    closed = Position.from_sides([0] * 24 + [1], [2] * 6 + [0] * 17 + [3, 0])
    assert legal_plays(closed, (6, 6)) == []
    assert hint(closed, (6, 6), engine="fallback") == []
    with pytest.raises(ValueError, match="n must be"):
        hint(Position.initial(), (3, 1), n=0)
    with pytest.raises(ValueError, match="unknown engine"):
        hint(Position.initial(), (3, 1), engine="xg")
    h = hint(Position.initial(), (6, 5), n=30, engine="fallback")
    assert len(h) == len(legal_plays(Position.initial(), (6, 5)))
    assert str(h[0]).startswith("24/13: ")


def test_cube_hint_words_and_errors() -> None:
    double_take = CubeHint(0.40, 0.60, 1.0, (0.7, 0, 0, 0, 0), 2)
    assert (double_take.action, double_take.response, str(double_take)) == (
        "double",
        "take",
        "Double, take",
    )
    assert double_take.equity == 0.60
    assert double_take.error("no double") == pytest.approx(0.20)
    assert double_take.error("double") == 0.0
    assert double_take.error("take") == 0.0
    assert double_take.error("pass") == pytest.approx(0.40)
    double_pass = CubeHint(0.80, 1.30, 1.0, (0.85, 0.1, 0, 0, 0), 2)
    assert str(double_pass) == "Double, pass"
    assert double_pass.error("take") == pytest.approx(0.30)
    too_good = CubeHint(1.20, 1.60, 1.0, (0.9, 0.5, 0, 0, 0), 2)
    assert (too_good.action, str(too_good)) == ("too good", "Too good to double, pass")
    assert too_good.error("double") == pytest.approx(0.20)
    no_redouble = CubeHint(0.30, 0.10, 1.0, (0.6, 0, 0, 0, 0), 2, redouble=True)
    assert str(no_redouble) == "No redouble, take"
    with pytest.raises(ValueError, match="unknown cube action"):
        no_redouble.error("beaver")  # type: ignore[arg-type]


@pytest.mark.parametrize("engine", ENGINES)
def test_cube_hint_on_clear_positions(engine: str) -> None:
    assert cube_hint(Position.initial(), MatchContext(), engine=engine).action == "no double"
    # A race he cannot lose: far ahead, on roll: the opponent must pass.
    race = Position.from_sides([0, 0, 0, 0, 2, 2] + [0] * 19, [0] * 6 + [3] * 5 + [0] * 14)
    h = cube_hint(race, MatchContext(), engine=engine)
    assert h.response == "pass"
    assert h.action in ("double", "too good")
    with pytest.raises(ValueError, match="cannot double"):
        cube_hint(race, MatchContext(match_length=5, score=(4, 2), crawford=True), engine=engine)
    with pytest.raises(ValueError, match="cannot double"):
        cube_hint(race, MatchContext(cube_value=2, cube_owner=1), engine=engine)


# -- the review -----------------------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_a_blunder_is_measured_like_the_hint_measures_it(engine: str) -> None:
    game = _opening_game((6, 5), "8/3 8/2")  # the worst 6-5 opening: two blots in the board
    review = review_game(game, engine=engine)
    [move] = [d for d in review.decisions if d.kind == "move"]
    hints = hint(Position.initial(), (6, 5), MatchContext(), n=30, engine=engine)
    played = next(h for h in hints if str(h.play) == "8/3 8/2")
    assert (move.player, move.dice, move.played, move.unforced) == (0, (6, 5), "8/3 8/2", True)
    assert move.best == str(hints[0].play)
    assert move.best_play == hints[0].play
    assert move.played_play == played.play
    # The review searches cubefully, as GNU Backgammon analyses (tests/test_pr_gnubg.py); the
    # hint converts the same depth's cubeless chances, as the players rank plays: at the
    # opening, with the cube far from use, the two are within a few ten-thousandths.
    assert move.error == pytest.approx(-played.difference, abs=1e-6 if engine != "bgsage" else 2e-3)
    assert move.error > 0.1  # a blunder by any measure
    stats = review.stats(0)
    assert (stats.moves, stats.unforced_moves, stats.cube_decisions) == (1, 1, 0)
    assert stats.checker_rate == pytest.approx(1000 * move.error)
    assert stats.error_rate == stats.checker_rate
    assert stats.rating == rating_name(1000 * move.error) == "awful"
    assert review.worst(0) == [move]
    assert review.worst(1) == []
    assert review.stats(1).error_rate is None and review.stats(1).rating is None


def test_forced_moves_and_rolls_that_cannot_be_played_are_not_decisions() -> None:
    # Player 0 has one checker on the bar against a closed board; player 1 has two checkers
    # left on his 1-point and bears them off with any roll.
    g = Game(position=Position.from_sides([0] * 24 + [1], [2] * 6 + [0] * 19))
    g.opening_roll(6, 5)  # player 0 cannot enter: the turn passes at once
    assert g.events[-1].play == ""
    g.roll((4, 3))  # player 1: 12 checkers on his home points, every play bears off
    before = g.position
    plays = legal_plays(before, (4, 3))
    g.play(plays[0])
    g.resign(1)
    g.accept_resignation()
    review = review_game(g, engine="fallback")
    moves = [d for d in review.decisions if d.kind == "move"]
    assert moves[0].played == "" and not moves[0].unforced and moves[0].error == 0.0
    assert moves[0].luck is not None
    assert moves[1].unforced == (len(plays) >= 2)
    stats0 = review.stats(0)
    assert (stats0.moves, stats0.unforced_moves, stats0.checker_rate) == (1, 0, None)
    assert stats0.rolls == 1


def test_a_single_forced_play_counts_as_forced() -> None:
    # Two checkers on his 1-point, rolled 6-5: one play only (both off).
    start = Position.from_sides([2] + [0] * 24, [0] * 6 + [3] * 5 + [0] * 14)
    assert len(legal_plays(start, (6, 5))) == 1
    g = Game(position=start)
    g.opening_roll(6, 5)
    g.play_text("1/off 1/off")
    review = review_game(g, engine="fallback")
    [move] = review.decisions
    assert move.kind == "move" and not move.unforced and move.error == 0.0
    assert review.stats(0).unforced_moves == 0 and review.stats(0).moves == 1
    assert review.chances[-1].game_win == 1.0


@pytest.mark.parametrize("engine", ENGINES)
def test_luck_is_zero_on_average_over_the_36_rolls(engine: str) -> None:
    plies = 1
    total = 0.0
    for dice, weight in ROLLS:
        g = Game()
        g.opening_roll(3, 1)
        g.play_text("8/5 6/5")
        g.roll(dice)
        g.play(legal_plays(g.position, dice)[0])
        g.resign(0)
        g.accept_resignation()
        review = review_game(g, plies=plies, engine=engine)
        luck = [d.luck for d in review.decisions if d.kind == "move"]
        assert len(luck) == 2 and all(x is not None for x in luck)
        total += weight * luck[1]  # type: ignore[operator]
        assert review.stats(1).luck == luck[1]
    assert total / 36 == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("engine", ENGINES)
def test_opening_luck_is_zero_on_average_over_the_30_opening_rolls(engine: str) -> None:
    ev = get_evaluator(1, engine=engine)
    ctx = MatchContext()
    total = 0.0
    for die0 in range(1, 7):
        for die1 in range(1, 7):
            if die0 == die1:
                continue
            g = Game()
            g.opening_roll(die0, die1)
            mover = g.on_roll
            g.play(legal_plays(g.position, g.dice)[0])  # type: ignore[arg-type]
            g.resign(1 - mover)
            g.accept_resignation()
            [move] = [d for d in review_game(g, plies=1, engine=engine).decisions]
            assert move.luck is not None
            total += move.luck if mover == 0 else -move.luck
    assert ev.engine == engine and ctx.cube_value == 1
    assert total == pytest.approx(0.0, abs=1e-9)


def test_cube_decisions_are_found_and_judged() -> None:
    g = Game()
    g.opening_roll(3, 1)
    g.play_text("8/5 6/5")
    g.roll((6, 4))  # player 1 could double: a (far from close) no-double
    g.play_text("24/14")
    g.double()  # player 0 doubles far too early
    g.take()
    g.roll((2, 1))  # player 1 owns the cube: no cube decision for player 0
    g.play(legal_plays(g.position, (2, 1))[0])
    g.roll((5, 5))  # player 1 could redouble
    g.play(legal_plays(g.position, (5, 5))[0])
    g.roll((6, 6))
    g.play(legal_plays(g.position, (6, 6))[0])
    g.double()  # player 1 redoubles to 4, player 0 drops
    g.drop()
    review = review_game(g, engine="fallback")
    kinds = [(d.kind, d.player) for d in review.decisions]
    assert kinds == [
        ("move", 0),
        ("no double", 1),
        ("move", 1),
        ("double", 0),
        ("take", 1),
        ("move", 0),
        ("no double", 1),
        ("move", 1),
        ("move", 0),
        ("double", 1),
        ("drop", 0),
    ]
    double = review.decisions[3]
    assert double.played == "double" and double.best == "no double" and double.error > 0
    assert double.cube is not None and double.error == pytest.approx(
        double.cube[0] - min(double.cube[1], double.cube[2])
    )
    take = review.decisions[4]
    assert take.on_roll == 0 and take.context.cube_value == 1 and take.unforced
    drop = review.decisions[10]
    assert drop.context.cube_value == 2 and drop.context.cube_owner == 0  # the doubler's view
    stats = review.stats(0)
    assert stats.cube_decisions == 2  # the double and the drop
    assert stats.cube_error == pytest.approx(double.error + drop.error)
    assert review.chances[-1].game_win == 0.0  # player 0 dropped


@pytest.mark.parametrize("engine", ENGINES)
def test_a_match_review(engine: str) -> None:
    bots = (get_bot("casual", rng=3, engine=engine), get_bot("advanced", rng=4, engine=engine))
    match = play_match(bots, random.Random(8), length=3)
    review = review_match(match, engine=engine)
    assert review.games == len(match.games) and review.match_length == 3
    assert review.engine == engine
    moves = sum(e.kind == "move" for g in match.games for e in g.events)
    assert sum(d.kind == "move" for d in review.decisions) == moves
    for p in (0, 1):
        per_game = [review.stats(p, game=k) for k in range(review.games)]
        total = review.stats(p)
        assert total.moves == sum(s.moves for s in per_game)
        assert total.checker_error == pytest.approx(sum(s.checker_error for s in per_game))
        assert total.luck == pytest.approx(sum(s.luck for s in per_game))
        worst = review.worst(p)
        assert len(worst) <= 3 and all(d.player == p for d in worst)
        assert [d.error for d in worst] == sorted((d.error for d in worst), reverse=True)
    assert all(0.0 <= c.game_win <= 1.0 for c in review.chances)
    assert all(c.match_win is not None and 0.0 <= c.match_win <= 1.0 for c in review.chances)
    assert review.chances[0].move == 0 and review.chances[0].match_win == pytest.approx(0.5)
    winner = match.winner
    assert review.chances[-1].match_win == (1.0 if winner == 0 else 0.0)
    assert sorted({c.game for c in review.chances}) == list(range(review.games))
    for d in review.decisions:  # every decision can be shown and replayed from its IDs
        assert Position.from_position_id(d.position_id) == d.position
        assert d.match_id


def test_review_serialises_to_json_and_back() -> None:
    bots = (get_bot("beginner", rng=1, engine="fallback"), get_bot("expert", engine="fallback"))
    review = review_match(play_match(bots, random.Random(4), length=1), engine="fallback")
    saved = json.loads(json.dumps(review.to_dict()))
    assert Review.from_dict(saved) == review
    assert Review.from_dict(saved).stats(0) == review.stats(0)
    with pytest.raises(ValueError, match="not a saved review"):
        Review.from_dict({"v": 1})
    with pytest.raises(ValueError, match="unknown review format"):
        Review.from_dict({**saved, "v": 99})
    saved["decisions"][0]["kind"] = "beaver"
    with pytest.raises(ValueError, match="unknown decision kind"):
        Review.from_dict(saved)


def test_a_self_played_match_review_round_trips_and_rates() -> None:
    """Was the example of the engine.analysis docstring: a 1-point match played and reviewed."""
    match = play_match((get_bot("expert", engine="fallback"),) * 2, random.Random(7), length=1)
    review = review_match(match, engine="fallback")
    assert Review.from_dict(json.loads(json.dumps(review.to_dict()))) == review
    assert review.stats(0).rating in {name for _, name in RATINGS} | {"awful"}


def test_records_that_do_not_replay_are_refused() -> None:
    g = _opening_game((3, 1), "8/5 6/5")
    g.events[1] = g.events[1].__class__(
        g.events[1].kind, g.events[1].player, (6, 6), "24/18", ((24, 18, 6, False),)
    )
    with pytest.raises(ValueError, match="does not replay"):
        review_game(g, engine="fallback")


def test_games_from_any_position_replay() -> None:
    start = Position.from_sides(
        [0, 2, 2, 2, 3, 3, 0, 0, 1] + [0] * 16, [0, 0, 2, 2, 2, 3, 2, 0, 1] + [0] * 16
    )
    g = Game(position=start)
    g.opening_roll(2, 5)  # player 1 opens
    g.play(legal_plays(g.position, (5, 2))[0])
    g.roll((3, 3))
    g.play(legal_plays(g.position, (3, 3))[0])
    # The position a game starts from is seen by the winner of the opening roll.
    assert start_position(g) == (start, 1)
    steps = list(replay(g))
    assert [s.kind for s in steps] == ["move", "no double", "move"]
    assert steps[0].position == start and steps[0].opening
    review = review_game(g, engine="fallback")
    assert review.chances[0].move == 1  # no 50 % starting point for a position like this


def test_rating_and_luck_names_at_their_boundaries() -> None:
    bounds = [
        (2.0, "supernatural", "world class"),
        (5.0, "world class", "expert"),
        (8.0, "expert", "advanced"),
        (12.0, "advanced", "intermediate"),
        (18.0, "intermediate", "casual"),
        (26.0, "casual", "beginner"),
        (35.0, "beginner", "awful"),
    ]
    for bound, below, at in bounds:
        assert rating_name(bound - 1e-9) == below
        assert rating_name(bound) == at
    assert rating_name(0.0) == "supernatural" and rating_name(1000.0) == "awful"
    assert luck_rating(-60.01) == "go to bed"
    assert luck_rating(-60.0) == luck_rating(-30.01) == "bad dice"
    assert luck_rating(-30.0) == luck_rating(30.0) == "none"
    assert luck_rating(30.01) == luck_rating(60.0) == "good dice"
    assert luck_rating(60.01) == "go to las vegas"


def test_stronger_levels_make_fewer_errors() -> None:
    """The fast version of the benchmark (bench/bench_review_levels.py): two games between a
    beginner and an expert; the beginner's error rate must be the higher, by far."""
    rates: dict[str, list[float]] = {"beginner": [], "expert": []}
    for seed in (1, 2):
        bots = (get_bot("beginner", rng=seed), get_bot("expert", rng=seed))
        # Without the cube, so that nobody drops early: a whole game of checker play.
        match = play_match(bots, random.Random(f"levels/{seed}"), length=0, cube=False)
        review = review_match(match)
        for player, level in ((0, "beginner"), (1, "expert")):
            rate = review.stats(player).checker_rate
            assert rate is not None and review.stats(player).unforced_moves >= 10
            rates[level].append(rate)
    # Judged by GNU Backgammon's networks at its 1-ply (the review's evaluator where gnubg-nn is
    # installed), the expert's second game rates 12.8 against the beginner's 33.6 and 55.2:
    # twice as many errors at least, where bgsage's own networks found three times.
    assert min(rates["beginner"]) > 2 * max(rates["expert"])


# -- pictures -------------------------------------------------------------------------------------


def test_review_chart_and_mistake_cards() -> None:
    bots = (get_bot("beginner", rng=5, engine="fallback"), get_bot("expert", engine="fallback"))
    review = review_match(play_match(bots, random.Random(6), length=3), engine="fallback")
    assert _png_size(review_chart(review, names=("Ann", "Bob"))) == (800, CHANCES_H)
    assert _png_size(review_chart(review, names=("Ann", "Bob"), player=1, lang="fr"))
    with pytest.raises(ValueError, match="player"):
        review_chart(review, player=2)
    with pytest.raises(ValueError, match="no chances"):
        review_chart(Review(0, 2, "fallback", 0))
    move = next(d for d in review.worst(0, 10) if d.kind == "move")
    card = mistake_card(move, names=("Ann", "Bob"))
    captioned = (960, 840 + band_height(BoardView(caption=("", "", ""))))  # three caption lines
    assert _png_size(card) == captioned
    for d in review.decisions:
        if d.kind != "move":
            size = _png_size(mistake_card(d, names=("Ann", "Bob"), lang="fr"))
            assert size[0] == 960 and size[1] >= captioned[1]  # an offer may be written too
            break
    no_play = next((d for d in review.decisions if d.kind == "move" and not d.best_steps), None)
    if no_play is not None:
        with pytest.raises(ValueError, match="no play"):
            mistake_card(no_play)


def test_a_self_played_match_has_a_chart_and_cards_drawn_by_render_board() -> None:
    """Was the example of the render.analysis docstring: a whole 1-point match played and
    reviewed, its chart and its worst mistake's card, the card being the board it describes."""
    from render import render_board
    from render.analysis import mistake_board

    bots = (get_bot("beginner", rng=1, engine="fallback"), get_bot("expert", engine="fallback"))
    review = review_match(play_match(bots, random.Random(2), length=1), engine="fallback")
    assert review_chart(review, names=("Ann", "Bob"))[:4] == b"\x89PNG"
    mistake = review.worst(0, 1)[0]
    assert mistake_card(mistake, names=("Ann", "Bob"))[:4] == b"\x89PNG"
    position, view = mistake_board(mistake, names=("Ann", "Bob"))
    assert render_board(position, view=view) == mistake_card(mistake, names=("Ann", "Bob"))


def test_mistake_card_draws_both_plays_from_the_mover_side() -> None:
    from render import render_board
    from render.analysis import card_caption

    game = _opening_game((6, 5), "8/3 8/2")
    [move] = [d for d in review_game(game, engine="fallback").decisions if d.kind == "move"]
    best = parse_play(move.best, Position.initial(), (6, 5))
    expected = render_board(
        Position.initial(),  # both plays drawn from the position before them
        view=BoardView(
            names=("Ann", "Bob"),
            dice=(6, 5),
            dice_left=(),
            context=MatchContext(),
            last_play=best,
            last_play_by="mover",
            other_play=parse_play("8/3 8/2", Position.initial(), (6, 5)),
            caption=card_caption(move, names=("Ann", "Bob")),
            caption_colors=("text", "arrow_other", "arrow"),
            turn_marker=False,
        ),
    )
    assert mistake_card(move, names=("Ann", "Bob")) == expected


def test_chances_chart_checks_its_input() -> None:
    assert _png_size(chances_chart([0.5])) == (800, CHANCES_H)
    with pytest.raises(ValueError, match="at least one"):
        chances_chart([])
    with pytest.raises(ValueError, match="probabilities"):
        chances_chart([0.5, 1.2])


def test_self_play_is_reproducible() -> None:
    bots = (
        get_bot("casual", rng=1, engine="fallback"),
        get_bot("casual", rng=2, engine="fallback"),
    )
    a = play_match(bots, random.Random(3), length=0)
    bots = (
        get_bot("casual", rng=1, engine="fallback"),
        get_bot("casual", rng=2, engine="fallback"),
    )
    b = play_match(bots, random.Random(3), length=0)
    assert isinstance(a, Match) and a.is_over
    assert a.to_dict() == b.to_dict()


@pytest.mark.slow
def test_the_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Analysis", 1)[1].split("\n## ", 1)[0]
    code = section.split("```python", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("24/13 ") and out[3] == "No double, take"


def _under_the_plot(png: bytes) -> int:
    """How many colours lie between the plot's bottom and the legend (where moves' numbers
    go): one where nothing is drawn."""
    from render.chart import chances_plot_box

    left, _, _, bottom = chances_plot_box()
    im = Image.open(io.BytesIO(png)).convert("RGB").crop((left, bottom + 1, 800, bottom + 26))
    return len(im.getcolors(1 << 16) or [])


def test_the_chances_chart_numbers_the_moves_where_there_is_room() -> None:
    values = [0.5 + 0.3 * ((i % 7) - 3) / 3 for i in range(40)]
    plain = _under_the_plot(chances_chart(values))
    numbered = _under_the_plot(chances_chart(values, ticks=[(10, "10"), (20, "20")]))
    assert plain == 1 and numbered > 3  # marks and numbers drawn
    # A number that would meet a game's label is left out: the picture is the label's alone.
    labelled = {"separators": [10], "labels": ["Game 2"]}
    alone = chances_chart(values, **labelled)  # type: ignore[arg-type]
    assert chances_chart(values, ticks=[(11, "1")], **labelled) == alone  # type: ignore[arg-type]


def test_the_review_chart_numbers_the_moves_as_the_cards_do() -> None:
    bots = (get_bot("beginner", rng=5, engine="fallback"), get_bot("expert", engine="fallback"))
    review = review_match(
        play_match(bots, random.Random(2), length=0, cube=False), engine="fallback"
    )
    assert len(review.chances) > 20
    assert _under_the_plot(review_chart(review, names=("Ann", "Bob"))) > 3

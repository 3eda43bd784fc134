"""Nackgammon and hypergammon in the engine: starting positions, checker counts, results, IDs,
saved games, and legal plays that agree with GNU Backgammon.

tests/data/gnubg-variants.jsonl.gz was recorded from GNU Backgammon 1.07 by
tests/tools/make_gnubg_variants.py (its docstring says how); the comparison reads only the file.
"""

from __future__ import annotations

import pickle
from collections import Counter

import pytest

from engine import (
    Game,
    InvalidPositionIdError,
    Match,
    Position,
    UnknownVariantError,
    Variant,
    legal_plays,
)
from engine.ids import encode_position_id
from render.text import text_board
from tests.conftest import load_jsonl_gz
from tests.tools._gnubg import gnubg_binary

CASES = load_jsonl_gz("gnubg-variants.jsonl.gz")
HYPER = Variant.HYPERGAMMON


def test_starting_positions_are_gnubgs() -> None:
    # The Position IDs gnubg 1.07 shows after `set variation ...` and `new session`.
    assert Variant.NACKGAMMON.initial_position().position_id() == "4Dl4ADbgOXgANg"
    assert HYPER.initial_position().position_id() == "AACgAgAAKgAAAA"
    nack = Variant.NACKGAMMON.initial_position()
    mine, theirs = nack.sides()
    assert mine == theirs
    assert {p + 1: n for p, n in enumerate(mine) if n} == {6: 4, 8: 3, 13: 4, 23: 2, 24: 2}
    hyper = HYPER.initial_position()
    assert {p: n for p, n in enumerate(hyper.board) if n > 0} == {22: 1, 23: 1, 24: 1}
    assert hyper.borne_off() == (0, 0) and hyper.pip_counts() == (69, 69)


def test_variant_names_are_parsed_or_refused() -> None:
    assert Variant.parse("NACK") is Variant.NACKGAMMON
    assert Variant.parse("standard") is Variant.STANDARD
    for bad in ("", "chouette", "xyz"):
        with pytest.raises(UnknownVariantError, match="standard, nackgammon or hypergammon"):
            Variant.parse(bad)


def test_hypergammon_counts_three_checkers() -> None:
    pos = Position.from_board([0] * 6 + [1] + [0] * 12 + [-3] + [0] * 6, checkers=3)
    assert pos.borne_off() == (2, 0)
    assert pos.winner() is None
    # As standard 15-checker board the same cells would mean 14 and 12 borne off.
    assert Position.from_board(pos.board).borne_off() == (14, 12)
    with pytest.raises(ValueError, match="at most 3"):
        Position.from_board([0] * 6 + [4] + [0] * 19, checkers=3)
    with pytest.raises(InvalidPositionIdError, match="at most 3"):
        Position.from_position_id("4HPwATDgc/ABMA", checkers=3)


def test_hypergammon_gammons_and_backgammons() -> None:
    # The mover bears off his last checker: the loser has all three checkers on the board.
    def after_last_checker(loser: dict[int, int]) -> int:
        cells = [0] * 26
        cells[1] = 1
        for point, n in loser.items():
            cells[point] = -n
        pos = Position.from_board(cells, checkers=3)
        (play,) = {p.result_position(): p for p in legal_plays(pos, (6, 5))}.values()
        return pos.apply(play).result_value()

    assert after_last_checker({19: 1, 20: 1, 21: 1}) == 2  # none off, none in our home: gammon
    assert after_last_checker({19: 1, 20: 1}) == 1  # one off: single game
    assert after_last_checker({5: 1, 20: 2}) == 3  # one left in the winner's home: backgammon


def test_a_hypergammon_game_ends_and_scores() -> None:
    game = Game(variant=HYPER)
    game.opening_roll(6, 5)
    for _ in range(300):
        if game.is_over:
            break
        plays = game.legal_plays()
        if plays:
            game.play(min(plays, key=lambda p: p.result_position().pip_counts()[1]))
        if not game.is_over:
            game.roll((6, 5) if game.on_roll == 0 else (2, 1))
    assert game.result is not None and game.result.winner == 0
    assert game.result.value == 2  # player 1 rolled 2-1 all game: he bore off none


def test_saved_variant_games_and_matches_come_back() -> None:
    match = Match(length=3, variant=HYPER)
    match.game.opening_roll(4, 2)
    match.game.play(match.game.legal_plays()[0])
    back = Match.from_dict(match.to_dict())
    assert back.variant is HYPER and back.game.variant is HYPER
    assert back.game.position == match.game.position
    assert back.game.position.checkers == 3
    assert "variant" not in Game().to_dict()  # the standard game's snapshot is unchanged
    assert Game.from_dict(Game().to_dict()).variant is Variant.STANDARD
    pos = match.game.position
    assert pickle.loads(pickle.dumps(pos)) == pos
    assert pickle.loads(pickle.dumps(pos)).checkers == 3


def test_a_position_of_the_wrong_size_is_refused_by_a_game() -> None:
    with pytest.raises(ValueError, match="3 checkers"):
        Game(variant=HYPER, position=Position.initial())


def test_position_ids_round_trip_with_any_count() -> None:
    pos = HYPER.initial_position()
    assert Position.from_position_id(pos.position_id(), checkers=3) == pos
    assert encode_position_id(pos.board) == pos.position_id()
    # Equal cells, different totals: not the same position.
    assert Position.from_board(pos.board) != pos


def test_the_text_board_of_a_hypergammon_game() -> None:
    text = text_board(HYPER.initial_position())
    assert "AACgAgAAKgAAAA" in text
    assert "167" not in text and "69" in text


def test_the_variant_corpus_covers_both_variants() -> None:
    kinds = Counter(c["variant"] for c in CASES)
    assert kinds["nackgammon"] >= 500 and kinds["hypergammon"] >= 500
    assert sum(1 for c in CASES if not c["plays"]) >= 20  # dances too
    assert any(len(c["plays"]) > 30 for c in CASES if c["variant"] == "nackgammon")


def test_engine_agrees_with_gnubg_on_the_variants() -> None:
    bad = []
    for case in CASES:
        variant = Variant(case["variant"])
        pos = Position.from_position_id(case["position_id"], checkers=variant.checkers)
        dice = (case["dice"][0], case["dice"][1])
        got = sorted({pos.apply(p).position_id() for p in legal_plays(pos, dice)})
        if got != case["plays"]:
            bad.append(f"{variant.value} {case['position_id']} {dice}: {got} vs {case['plays']}")
    assert not bad, f"{len(bad)} of {len(CASES)} differ:\n" + "\n".join(bad[:20])


@pytest.mark.slow
@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_the_corpus_tool_still_reproduces_gnubg(tmp_path: object) -> None:
    # A small run of the recording tool: its first cases must be the stored ones.
    from pathlib import Path

    from tests.tools.make_gnubg_variants import main

    out = Path(str(tmp_path)) / "small.jsonl.gz"
    main(["--out", str(out)])
    import gzip
    import json

    with gzip.open(out, "rt", encoding="utf-8") as f:
        fresh = [json.loads(line) for line in f]
    assert fresh == CASES


@pytest.mark.parametrize("variant", [Variant.NACKGAMMON, Variant.HYPERGAMMON])
def test_every_level_plays_the_variants(variant: Variant) -> None:
    import random

    from engine import MatchContext
    from engine.bots import LEVELS, backend, get_bot

    engines = {"fallback", backend()}
    rng = random.Random(5)
    for engine in sorted(engines):
        for level in LEVELS:
            bot = get_bot(level, rng=1, engine=engine)
            pos = variant.initial_position()
            for _ in range(6):  # a few turns each way, from the variant's start
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                play = bot.choose_play(pos, dice)
                legal = legal_plays(pos, dice)
                assert (play is None) == (not legal), (engine, level)
                pos = pos.apply(play) if play is not None else pos.swap_players()
                assert pos.checkers == variant.checkers
            assert isinstance(bot.should_double(pos, MatchContext()), bool)

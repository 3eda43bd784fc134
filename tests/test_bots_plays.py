"""Every level plays only legal plays, including where bgsage's move generator deviates."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from engine import Position, legal_plays
from engine.bots import LEVELS, backend, get_bot, sage
from tests.conftest import load_corpus

CORPUS = load_corpus()
HAVE_BGSAGE = backend() == "bgsage"
needs_bgsage = pytest.mark.skipif(not HAVE_BGSAGE, reason="bgsage is not installed")
ENGINES = ["bgsage", "fallback"] if HAVE_BGSAGE else ["fallback"]


def _cases(step: int) -> Iterator[tuple[Position, tuple[int, int], list[Any]]]:
    for case in CORPUS[::step]:
        pos = Position.from_position_id(str(case["position_id"]))
        yield pos, tuple(case["dice"]), case["plays"]  # type: ignore[misc]


@pytest.mark.slow
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legally_on_the_corpus(level: str, engine: str) -> None:
    bot = get_bot(level, rng=1, engine=engine)
    # World class searches 3-ply (about 40 ms a move): a tenth of the corpus keeps this fast.
    step = 10 if level == "world class" and engine == "bgsage" else 1
    seen_none = 0
    for pos, dice, expected in _cases(step):
        play = bot.choose_play(pos, dice)
        if not expected:
            assert play is None
            seen_none += 1
        else:
            assert play in legal_plays(pos, dice), (pos, dice, play)
    assert seen_none > 0  # the corpus has positions with no legal play


def _closed_out() -> Position:
    # The mover has two checkers on the bar against a closed board: no legal play.
    board = [0] * 26
    board[25], board[6], board[1] = 2, 13, -3
    for point in range(19, 25):
        board[point] = -2
    return Position.from_board(board)


def _last_checker_with_a_hit() -> Position:
    # The mover's last checker is on his 6-point and an opponent blot on his 4-point. With 6-2
    # the rules require both dice: 6/4*/off. bgsage also offers 6/off, which uses one die.
    board = [0] * 26
    board[6], board[4], board[20] = 1, -1, -14
    return Position.from_board(board)


@needs_bgsage
def test_bgsage_really_deviates_on_these_positions() -> None:
    import bgbot_cpp

    closed = _closed_out()
    assert legal_plays(closed, (3, 4)) == []
    assert bgbot_cpp.possible_moves(sage.to_sage(closed), 3, 4) == [sage.to_sage(closed)]
    last = _last_checker_with_a_hit()
    assert [str(p) for p in legal_plays(last, (6, 2))] == ["6/4*/off"]
    assert len(bgbot_cpp.possible_moves(sage.to_sage(last), 6, 2)) == 2


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("level", LEVELS)
def test_deviations_are_mapped_onto_the_rules(level: str, engine: str) -> None:
    bot = get_bot(level, rng=2, engine=engine)
    assert bot.choose_play(_closed_out(), (3, 4)) is None
    last = _last_checker_with_a_hit()
    for dice in ((6, 2), (2, 6)):
        play = bot.choose_play(last, dice)
        assert str(play) == "6/4*/off"
        assert last.apply(play).result_value() == 3  # a backgammon, as the rules give


@needs_bgsage
def test_plays_missing_from_bgsage_are_evaluated_directly(monkeypatch: pytest.MonkeyPatch) -> None:
    # If bgsage ever omitted a legal play, the engine's play must still be considered: hide
    # every candidate and check that the choice matches the full ranking.
    pos, dice = Position.initial(), (4, 2)
    plays = legal_plays(pos, dice)
    full = sage.evaluate_plays(pos, dice, plays, 1)
    real = sage._analyzer(1)

    class Hidden:
        def __init__(self) -> None:
            self.lock, self.sage = real.lock, self

        def checker_play(self, *args: Any, **kwargs: Any) -> Any:
            result = real.sage.checker_play(*args, **kwargs)
            result.moves = []
            return result

        def post_move_analytics(self, board: list[int]) -> Any:
            return real.sage.post_move_analytics(board)

    monkeypatch.setattr(sage, "_analyzer", lambda ply, cubeful=False: Hidden())
    direct = sage.evaluate_plays(pos, dice, plays, 1)
    assert [a for a, _ in direct] == [a for a, _ in full]
    for (_, p1), (_, p2) in zip(direct, full, strict=True):
        # Close, not equal: bgsage also looks at the position before the play when it ranks.
        assert p1 == pytest.approx(p2, abs=0.02)
    assert str(get_bot("expert", engine="bgsage").choose_play(pos, dice)) == "8/4 6/4"


@pytest.mark.parametrize("engine", ENGINES)
def test_strong_levels_find_the_standard_openings(engine: str) -> None:
    bot = get_bot("expert", engine=engine)
    start = Position.initial()
    assert str(bot.choose_play(start, (3, 1))) == "8/5 6/5"
    assert str(bot.choose_play(start, (4, 2))) == "8/4 6/4"

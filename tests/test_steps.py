"""The engine's one piece of checker arithmetic: :func:`engine.position.apply_step` and its
inverse :func:`engine.position.undo_step`, which positions, plays, turns, the replay and the
arrows all use."""

from __future__ import annotations

import pytest

from engine import IllegalPlayError, Move, Play, Position, Turn, legal_plays
from engine.position import apply_step, undo_step
from tests.conftest import load_corpus

CASES = [
    (Position.from_position_id(str(c["position_id"])), (int(c["dice"][0]), int(c["dice"][1])))  # type: ignore[index]
    for c in load_corpus()
]


def test_every_corpus_play_applies_and_undoes_step_by_step() -> None:
    checked = 0
    for pos, dice in CASES:
        for play in legal_plays(pos, dice):
            after = pos.apply_steps(play.moves)
            # The generator's cached result, a play written by hand and the steps agree.
            assert pos.apply_steps(play.moves, end_turn=True) == play.result_position()
            assert pos.apply(Play(list(play.moves))) == play.result_position()
            assert after.swap_players() == play.result_position()
            assert after.undo_steps(play.moves) == pos
            cells = list(pos.board)
            for m in play.moves:
                assert apply_step(cells, m.src, m.dst) is m.hit
            assert tuple(cells) == after.board
            for m in reversed(play.moves):
                undo_step(cells, m.src, m.dst, m.hit)
            assert tuple(cells) == pos.board
            checked += 1
    assert checked > 10_000


@pytest.mark.parametrize(
    ("src", "dst"),
    [(13, 12), (7, 1), (6, 6), (6, 8), (26, 20), (6, -1)],  # held, empty, still, back, no point
)
def test_apply_step_refuses_what_cannot_happen_and_changes_nothing(src: int, dst: int) -> None:
    cells = list(Position.initial().board)
    with pytest.raises(IllegalPlayError):
        apply_step(cells, src, dst)
    assert tuple(cells) == Position.initial().board


def test_undo_steps_refuses_steps_that_cannot_have_led_here() -> None:
    pos = Position.initial()
    with pytest.raises(IllegalPlayError):
        pos.undo_steps([Move(24, 20, 4, False)])  # nothing of ours on 20
    with pytest.raises(IllegalPlayError):
        pos.undo_steps([Move(8, 6, 2, True)])  # a hit, but nobody of theirs on the bar


def test_turn_shows_the_steps_made_so_far() -> None:
    turn = Turn(Position.initial(), (6, 4)).step(24, 6)
    assert turn.current_position() == Position.initial().apply_steps([(24, 18)])
    assert turn.step(18, 4).is_complete()

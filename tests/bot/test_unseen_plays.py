"""Every play a player did not make himself is drawn before he decides anything (issue 15.2):
the computer's plays and the forced moves played for him, each as arrows with a caption, even
when a pass or a double comes after them in the same reply."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest

import bot.drawers
from bot.service import Service
from engine import Position
from render import BoardView, render_board
from tests.bot.conftest import ALICE, DM
from tests.test_position import board

Drawn = list[tuple[Position, BoardView]]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Every picture the service draws, with what it was asked to show."""
    seen: Drawn = []

    def spy(position: Position, *, view: BoardView, **kw: Any) -> bytes:
        seen.append((position, view))
        return render_board(position, view=view, **kw)

    monkeypatch.setattr(bot.drawers, "render_board", spy)  # the game message and its shots
    return seen


def _practice(service: Service, script: deque[int], **position: int) -> Any:
    service.settings_command(ALICE, DM, auto_roll=True, auto_forced=True)
    pid = Position.from_board(board(**position)).position_id()
    return service.play(ALICE, DM, level="beginner", position_id=pid, cube=False)


def test_a_forced_move_and_the_computers_reply_are_both_drawn(
    service: Service, script: deque[int], drawn: Drawn
) -> None:
    # Alice (14 off) has checkers on her 20 and 3: 6-5 can only be played 20/9, and the bot
    # plays it for her; the computer replies 3-1; her next roll, 2-1, is hers to play.
    script.extend([6, 5, 3, 1, 2, 1])
    reply = _practice(service, script, p20=1, p3=1, o1=-15)
    assert "20/9" in reply.text and "Computer" in reply.text
    assert [a.name for a in reply.attachments] == ["game-1-play-1.png"]
    assert reply.attachments[0].data[:4] == b"\x89PNG" and reply.image is not None
    main, extra = drawn[0][1], drawn[1][1]
    # The game message's picture: the computer's 3-1 as arrows, told as the second play.
    assert main.last_play is not None and main.last_play_by == "opponent"
    assert main.caption and main.caption[0].startswith("2 of 2 · Computer")
    assert "3-1" in main.caption[0]
    # The extra picture: Alice's forced 20/9 on the board it left, told as the first.
    assert extra.last_play is not None and extra.caption[0].startswith("1 of 2 · Forced move")
    assert "20/9" in extra.caption[0] and not extra.turn_marker
    assert extra.last_play is not None
    assert [(m.src, m.dst) for m in extra.last_play] in ([(20, 14), (14, 9)], [(20, 15), (15, 9)])


def test_the_computers_plays_around_a_pass_are_all_drawn(
    service: Service, script: deque[int], drawn: Drawn
) -> None:
    # Alice moves her last outside checker; the computer plays 6-1; Alice rolls 6-6, which
    # she cannot play; the computer plays 1-2; then Alice has a 4-3 to play by hand.
    script.extend([2, 1])
    start = _practice(
        service,
        script,
        p24=1,
        p6=2,
        p5=2,
        p4=2,
        p3=2,
        p2=2,
        p1=2,
        o19=-1,
        o18=-2,
        o17=-2,
        o16=-2,
        o15=-2,
        o14=-2,
        o13=-2,
    )
    assert start.rows, start.text  # her 2-1 to play by hand
    del drawn[:]
    script.extend([6, 1, 6, 6, 1, 2])
    after = service.move(ALICE, DM, "24/21")
    assert "cannot move" in after.text, after.text
    views = [v for _, v in drawn]
    # Two plays of the computer, one on each side of Alice's pass: both drawn and told apart.
    assert [v.caption[0][:31] for v in views] == [
        "2 of 2 · Computer (beginner) pl",
        "1 of 2 · Computer (beginner) pl",
    ]
    assert all(v.last_play and v.last_play_by == "opponent" for v in views)
    assert "6-1" in views[1].caption[0] and len(after.attachments) == 1


@pytest.mark.parametrize("cube", [False, True])
def test_a_game_without_the_cube_is_drawn_without_one(
    service: Service, script: deque[int], drawn: Drawn, cube: bool
) -> None:
    # Every picture of a game started with cube:false (the game message and the computer's
    # play) leaves the cube out (it was drawn centred, at 64); a game with it keeps it.
    script.extend([6, 5, 3, 1, 2, 1])
    service.settings_command(ALICE, DM, auto_roll=True, auto_forced=True)
    pid = Position.from_board(board(p20=1, p3=1, o1=-15)).position_id()
    service.play(ALICE, DM, level="beginner", position_id=pid, cube=cube)
    assert drawn and all(view.has_cube() == cube for _, view in drawn)

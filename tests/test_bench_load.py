"""What the load benchmark's simulated players keep of a reply (bench/bench_load.py)."""

from __future__ import annotations

from bench.bench_load import _seen
from bot.service.replies import Button, Choice, Reply, Select


def test_a_player_keeps_the_buttons_and_mentions_not_the_menus_or_files() -> None:
    roll = Button("g:roll", "Roll")
    menu = Select("g:pick", "Pick", (Choice("One", "1"),))
    reply = Reply(
        "Your turn",
        image=b"png",
        rows=[[menu], [roll, Button("g:x", "X", disabled=True)]],
        mentions=[5],
        board_text="board",
    )
    seen = _seen(reply)
    assert seen.buttons == reply.buttons
    assert seen.selects == []
    assert seen.mentions == [5]
    assert (seen.image, seen.board_text, seen.attachments, seen.followups) == (None, None, [], [])
    assert reply.selects == [menu]  # the reply itself is left as it was

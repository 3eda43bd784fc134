"""What the load benchmark's simulated players keep of a reply (bench/bench_load.py)."""

from __future__ import annotations

import gc

from bench.bench_load import _choose, _seen
from bot.service.replies import Button, Choice, Reply, Select


def test_a_player_keeps_the_enabled_buttons_and_mentions_not_the_menus_or_files() -> None:
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
    assert seen.buttons == (("Roll", "g:roll"),)
    assert seen.mentions == (5,) and not seen.ephemeral
    assert _choose(seen) == "Roll"
    assert reply.selects == [menu]  # the reply itself is left as it was


def test_what_a_player_keeps_is_left_out_of_the_collectors_walks() -> None:
    # Tuples of strings and numbers: a collection untracks them, so 2,000 players' screens do
    # not lengthen the bot's full collections (the Reply kept before had menus and choices).
    seen = _seen(Reply("Your turn", rows=[[Button("g:roll", "Roll")]], mentions=[5]))
    gc.collect()  # the inner tuples first, then the tuple of them
    gc.collect()
    assert not gc.is_tracked(seen.buttons) and not gc.is_tracked(seen.mentions)

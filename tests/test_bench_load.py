"""What the load benchmark's simulated players keep of a reply, and how they are scheduled
(bench/bench_load.py)."""

from __future__ import annotations

import asyncio
import gc
from types import SimpleNamespace

import pytest

from bench.bench_load import Load, _choose, _seen
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


def test_the_players_play_every_table_from_one_task_while_they_wait(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Load.players: each table's turns, the think time between them, a table left when its
    # turn says so; between presses no task per game (2,000 of them, with their coroutines,
    # futures and timers, were a third of what the bot's full collections walked).
    tables = [SimpleNamespace(think=0.0, turns=0) for _ in range(50)]
    load = Load(bot=None, service=None)

    async def turn(table: SimpleNamespace) -> float | None:
        table.turns += 1
        if table is tables[0]:
            return None  # its game is gone: never pressed again
        if table is tables[1]:
            raise RuntimeError("the press broke")  # told at the end; this table stops
        return 0.05 if table.turns == 1 else 3600.0  # then a long think

    load._turn = turn  # type: ignore[method-assign]

    async def main() -> int:
        players = asyncio.create_task(load.players(tables))  # type: ignore[arg-type]
        while any(t.turns < 2 for t in tables[2:]):
            await asyncio.sleep(0.01)
        thinking = len(asyncio.all_tasks())  # every game is thinking now
        load.stop.set()
        await players
        return thinking

    assert asyncio.run(main()) == 2  # this one and the players' own
    assert [t.turns for t in tables] == [1, 1] + [2] * 48
    assert "the press broke" in capsys.readouterr().err

"""``/export``'s IDs file: each row holds the IDs right after its own action (issue 15.1),
checked on games played through the service against the computer, where one request logs the
player's action and everything the computer does after it; and against GNU Backgammon's IDs
for the exported ``.mat`` (skipped without gnubg)."""

from __future__ import annotations

import tempfile
from collections import deque
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

from bot.service import Service
from bot.service.present import xgid_of
from engine import Position, decode_match_id, parse_play
from tests.bot.conftest import ALICE, DM, play_out
from tests.tools._gnubg import gnubg_binary


@dataclass(frozen=True)
class Row:
    kind: str
    player: str
    play: str
    position_id: str
    match_id: str


def exported(service: Service, game_id: int | None = None) -> tuple[bytes, list[Row]]:
    reply = service.export(ALICE, DM, game_id)
    mat, ids = reply.attachments
    lines = ids.data.decode().splitlines()
    names = lines[0].split(": ", 1)[1].split(" vs ")  # "# game 3: Alice vs Computer (beginner)"
    width = max(16, *map(len, names))  # the player column: as wide as the longer name
    rows = []
    for line in lines[2:]:
        left, right = line.split(" -> ")
        ids_, xgid = right.split("  ")  # "<position id>:<match id>  <XGID>"
        pid, mid = ids_.split(":")
        assert xgid == xgid_of(pid, mid)
        player, play = left[17 : 17 + width].strip(), left[18 + width :].strip()
        assert player in (*names, "-") and left[17 + width] == " ", line
        rows.append(Row(left[8:16].strip(), player, play, pid, mid))
    return mat.data, rows


def _played_game(service: Service, script: deque[int], opening: tuple[int, int]) -> list[Row]:
    script.extend(opening)
    start = service.play(ALICE, DM, level="beginner", points=1)
    play_out(service, ALICE, DM, start)
    return exported(service)[1]


@pytest.mark.parametrize("opening", [(1, 6), (6, 1)])  # the computer, then Alice, opens
def test_each_row_holds_the_ids_after_its_action(
    service: Service, script: deque[int], opening: tuple[int, int]
) -> None:
    rows = _played_game(service, script, opening)
    assert rows[0].kind == "opening"
    assert rows[0].position_id == Position.initial().position_id()  # before anyone has played
    assert decode_match_id(rows[0].match_id).dice != (0, 0)
    moves = rolls = 0
    for prev, row in pairwise(rows):
        if row.kind == "roll":
            # The dice in the Match ID, the position still the one the roller faces.
            assert decode_match_id(row.match_id).dice != (0, 0), row
            assert row.position_id == prev.position_id, row
            rolls += 1
        elif row.kind == "move" and row.play:
            # The position right after this move, from the one before it with its dice.
            before = Position.from_position_id(prev.position_id)
            dice = decode_match_id(prev.match_id).dice
            after = before.apply(parse_play(row.play, before, dice))
            assert row.position_id == after.position_id(), row
            assert decode_match_id(row.match_id).dice == (0, 0), row
            moves += 1
    assert moves > 10 and rolls > 10


def test_the_ids_file_writes_whole_names(service: Service, script: deque[int]) -> None:
    """A name longer than 16 characters, "Computer (beginner)", is written whole on each of its
    rows (it was cut to "Computer (beginn"); the .mat file keeps GNU Backgammon's names."""
    rows = _played_game(service, script, (6, 1))
    assert {r.player for r in rows} - {"-"} == {"Alice", "Computer (beginner)"}
    mat = exported(service)[0].decode()
    assert " Alice : 0" in mat and "Computer (beginner) : 0" in mat


@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon (gnubg) is not installed")
@pytest.mark.parametrize("points", [3, 0])  # a match, and a money game with the cube
def test_ids_agree_with_gnubg_on_the_exported_match(
    service: Service, script: deque[int], points: int
) -> None:
    from tests.tools.gnubg_walk import walk

    script.extend([1, 6])  # the computer opens: its opening and rolls are logged with Alice's
    start = service.play(ALICE, DM, level="beginner", points=points)
    play_out(service, ALICE, DM, start)
    mat, rows = exported(service)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.mat"
        path.write_bytes(mat)
        theirs = walk(path)
    # gnubg stands at each move with its dice rolled: the IDs of our roll rows, in the same
    # order (gnubg also stops at the cube actions and at the start of each game, before the
    # opening roll: the opening rows are checked by the test above).
    ours = [(r.position_id, r.match_id) for r in rows if r.kind == "roll"]
    found = 0
    for ids in ours:
        while found < len(theirs) and theirs[found] != ids:
            found += 1
        assert found < len(theirs), f"{ids} is not where gnubg has it"
    # And each move leaves the position gnubg shows next (without dice, to the other player).
    positions = {pid for pid, _ in theirs}
    played = [r for r in rows if r.kind == "move" and r.play]
    missing = [r for r in played[:-1] if r.position_id not in positions]
    assert len(ours) > 20 and not missing, missing

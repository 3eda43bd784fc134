"""The IDs of each move-log row are those right after its own action (issue 15.1).

A match is played action by action with the engine, the IDs noted live after each one; the
move log built afterwards (``db.gamestate.match_events``), replayed from any earlier stored
state, must give every row the IDs noted live, as one request that logs many actions does.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from db.gamestate import match_events
from engine import EventKind, Match, encode_match_id
from tests.test_gnubg_mat import _decide


def _live(seed: int, length: int) -> tuple[Match, list[tuple[str, str]], list[dict[str, object]]]:
    """A match played at random, the IDs after each row's action, and a snapshot of the match
    before each row (the stored state a request would start from)."""
    rng = random.Random(seed)
    match = Match(length=length)
    ids: list[tuple[str, str]] = []
    snapshots: list[dict[str, object]] = []
    for _ in range(100_000):
        game = match.game
        if game.is_over:
            if match.is_over:
                return match, ids, snapshots
            match.next_game()
            continue
        before_pid, before_key, count = game.position_id(), game.match_key(), len(game.events)
        snapshots.append(match.to_dict())
        _decide(game, rng, 0.1, 0.01, 0.5)
        new = game.events[count:]
        for event in new:
            if event.kind is EventKind.ROLL and len(new) == 2:
                # A roll that cannot be played: its row shows the dice before the engine passes.
                assert event.dice is not None
                rolled = encode_match_id(replace(before_key, dice=event.dice))
                ids.append((before_pid, rolled))
            else:
                ids.append((game.position_id(), game.match_id()))
        if game.is_over:
            ids.append((game.position_id(), game.match_id()))  # the end row
        snapshots.extend(snapshots[-1:] * (len(new) - 1 + game.is_over))
    raise AssertionError("the match did not end")


@pytest.mark.parametrize(("seed", "length"), [(1, 0), (2, 3), (3, 5), (4, 7)])
def test_every_row_has_the_ids_of_its_own_action(seed: int, length: int) -> None:
    match, ids, snapshots = _live(seed, length)
    assert len(ids) == len(match_events(match))
    rng = random.Random(seed)
    # Requests of any size: the log stored in chunks, each replayed from the state before it.
    start = 0
    while start < len(ids):
        end = min(len(ids), start + rng.randint(1, 12))
        while end < len(ids) and snapshots[end] == snapshots[end - 1]:
            end += 1  # a chunk ends between two engine calls, never inside one
        before = Match.from_dict(snapshots[start])  # type: ignore[arg-type]
        rows = match_events(match, start, before)
        got = [(r.position_id, r.match_id) for r in rows[: end - start]]
        assert got == ids[start:end], f"rows {start}..{end}"
        start = end


def test_without_the_stored_state_rows_get_the_final_ids() -> None:
    # A log that does not follow from the state given is never guessed at: final IDs instead.
    match, _ids, _snapshots = _live(5, 0)
    wrong = Match(length=0)
    rows = match_events(match, 0, wrong)  # a money game started afresh: replays, fits
    assert rows[0].kind == "opening"
    unrelated = Match(length=3)
    unrelated.game.opening_roll(6, 1)
    fallback = match_events(match, 1, unrelated)
    last = match.game
    assert {(r.position_id, r.match_id) for r in fallback} == {
        (last.position_id(), last.match_id())
    }

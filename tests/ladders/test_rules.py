"""The pure rules of a ladder: joining, who may challenge whom, the move-up on a win from below,
the inactivity drop; and, whatever happens, the ladder stays a permutation of its members."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.ladders.rules import (
    Verdict,
    after_result,
    dropped,
    idle_dropped,
    joined,
    left,
    may_challenge,
    rung_of,
    targets,
)

LADDER = (10, 20, 30, 40, 50, 60)  # 10 on rung 1 (top), 60 on rung 6


def test_a_member_joins_at_the_bottom_once() -> None:
    assert joined(LADDER, 70) == (*LADDER, 70)
    assert joined(LADDER, 30) == LADDER
    assert rung_of(joined((), 5), 5) == 1
    assert rung_of(LADDER, 99) == 0


def test_leaving_moves_those_below_up() -> None:
    assert left(LADDER, 30) == (10, 20, 40, 50, 60)
    assert left(LADDER, 99) == LADDER


def test_who_may_challenge_whom() -> None:
    assert targets(LADDER, 60, 2) == (50, 40)
    assert targets(LADDER, 20, 3) == (10,)
    assert targets(LADDER, 10, 3) == ()
    assert targets(LADDER, 99, 3) == ()
    assert may_challenge(LADDER, 60, 40, 2) is Verdict.OK
    assert may_challenge(LADDER, 60, 30, 2) is Verdict.TOO_FAR
    assert may_challenge(LADDER, 40, 60, 2) is Verdict.BELOW
    assert may_challenge(LADDER, 40, 40, 2) is Verdict.SELF
    assert may_challenge(LADDER, 99, 40, 2) is Verdict.NOT_MEMBER
    assert may_challenge(LADDER, 40, 99, 2) is Verdict.NOT_ON_LADDER


def test_a_win_from_below_takes_the_rung_and_moves_those_between_down() -> None:
    assert after_result(LADDER, 50, 20) == (10, 50, 20, 30, 40, 60)
    assert after_result(LADDER, 20, 10) == (20, 10, 30, 40, 50, 60)


def test_a_win_from_above_changes_nothing() -> None:
    assert after_result(LADDER, 20, 50) == LADDER
    assert after_result(LADDER, 20, 99) == LADDER  # the loser has left meanwhile


def test_inactivity_drops_a_member_down() -> None:
    assert dropped(LADDER, 20) == (10, 30, 20, 40, 50, 60)
    assert dropped(LADDER, 20, 3) == (10, 30, 40, 50, 20, 60)
    assert dropped(LADDER, 20, 99) == (10, 30, 40, 50, 60, 20)
    assert dropped(LADDER, 60) == LADDER  # the bottom stays the bottom
    assert dropped(LADDER, 20, 0) == LADDER


def test_the_idle_drop_one_rung_each_keeping_their_order() -> None:
    assert idle_dropped(LADDER, [20, 30]) == (10, 40, 20, 30, 50, 60)
    assert idle_dropped(LADDER, [30, 20]) == (10, 40, 20, 30, 50, 60)
    assert idle_dropped(LADDER, [60]) == LADDER  # the bottom stays the bottom
    # Only past an active member: two idle at the bottom, or everyone idle, stay as they are.
    assert idle_dropped(LADDER, [50, 60]) == LADDER
    assert idle_dropped(LADDER, LADDER) == LADDER
    assert idle_dropped(LADDER, [10, 20, 30, 40, 50]) == (60, 10, 20, 30, 40, 50)
    assert idle_dropped(LADDER, [10, 30]) == (20, 10, 40, 30, 50, 60)
    assert idle_dropped(LADDER, [99]) == LADDER


_EVENT = st.tuples(st.sampled_from(("join", "leave", "win", "drop", "idle")), st.integers(0, 30),
                   st.integers(0, 30), st.integers(0, 5))  # fmt: skip


@given(st.lists(_EVENT, max_size=80), st.integers(1, 6))
def test_the_ladder_stays_a_permutation_of_its_members(
    events: list[tuple[str, int, int, int]], reach: int
) -> None:
    rungs: tuple[int, ...] = ()
    members: set[int] = set()
    for kind, a, b, steps in events:
        before = rungs
        if kind == "join":
            rungs, members = joined(rungs, a), members | {a}
        elif kind == "leave":
            rungs, members = left(rungs, a), members - {a}
        elif kind == "win" and may_challenge(rungs, a, b, reach) is Verdict.OK:
            rungs = after_result(rungs, a, b)
            assert rung_of(rungs, a) == rung_of(before, b)  # the winner took the rung
            assert rung_of(rungs, b) == rung_of(before, b) + 1
            assert 0 <= rung_of(before, a) - rung_of(before, b) <= reach
        elif kind == "drop":
            rungs = dropped(rungs, a, steps)
        elif kind == "idle":
            rungs = idle_dropped(rungs, [a, b])
        assert len(set(rungs)) == len(rungs) and set(rungs) == members
        # Only the members between the two moved places change rung by one at most.
        for p in members & set(before):
            if p not in (a, b) and kind != "idle":
                assert abs(rung_of(rungs, p) - rung_of(before, p)) <= 1 or kind == "leave"

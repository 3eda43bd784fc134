"""Game and match state: opening, turns, cube, resignations, scoring, Crawford, snapshots."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import (
    EventKind,
    Game,
    GameState,
    GameStateError,
    IllegalPlayError,
    Match,
    Phase,
    Position,
    ResultReason,
    decode_match_id,
)
from tests.test_position import board


def started(**kwargs: object) -> Game:
    game = Game(**kwargs)  # type: ignore[arg-type]
    game.opening_roll(3, 1)
    game.play_text("8/5 6/5")
    return game  # player 1 to roll


def test_opening_ties_are_rerolled_and_recorded() -> None:
    g = Game()
    g.opening_roll(4, 4)
    assert g.phase is Phase.OPENING
    g.opening_roll(2, 5)
    assert g.phase is Phase.MOVE and g.on_roll == 1 and g.dice == (5, 2)
    assert [e.kind for e in g.events] == [EventKind.OPENING, EventKind.OPENING]
    assert g.events[0].player == -1 and g.events[1].player == 1
    with pytest.raises(GameStateError, match="opening roll is over"):
        g.opening_roll(6, 1)


def test_turns_alternate_and_positions_are_seen_by_the_player_on_roll() -> None:
    g = started()
    assert g.on_roll == 1 and g.phase is Phase.ROLL and g.turn == 1
    assert g.position_for(0).board[5] == 2
    assert g.position.board[20] == -2
    g.roll((6, 4))
    assert g.phase is Phase.MOVE and g.dice == (6, 4)
    g.play_text("24/14")
    assert g.on_roll == 0 and g.position_for(1).board[14] == 1


def test_pass_when_no_move() -> None:
    cells = board(bar=1, o19=-2, o20=-2, o21=-2, o22=-2, o23=-2, o24=-2, p6=14)
    g = Game(position=Position.from_board(cells))
    g.opening_roll(6, 5)  # player 0 on roll, cannot enter
    assert g.phase is Phase.ROLL and g.on_roll == 1
    assert g.events[-1].kind is EventKind.MOVE and g.events[-1].play == ""


def test_illegal_play_changes_nothing() -> None:
    g = Game()
    g.opening_roll(3, 1)
    before = g.to_dict()
    with pytest.raises(IllegalPlayError):
        g.play_text("24/18")
    with pytest.raises(ValueError):
        g.play_text("nonsense")
    assert g.to_dict() == before


def test_actions_out_of_turn_are_refused_with_the_reason() -> None:
    g = Game()
    with pytest.raises(GameStateError, match="before the opening roll"):
        g.roll((1, 2))
    g.opening_roll(3, 1)
    with pytest.raises(GameStateError, match="dice are rolled"):
        g.roll((1, 2))
    with pytest.raises(GameStateError, match="before rolling"):
        g.double()
    with pytest.raises(GameStateError, match="no double to answer"):
        g.take()


def test_cube_take_gives_ownership_and_only_owner_redoubles() -> None:
    g = started()
    assert g.can_double()
    g.double()
    assert g.phase is Phase.DOUBLED and g.turn == 0
    key = decode_match_id(g.match_id())
    assert key.double_offered and key.turn == 0 and key.player_on_roll == 1
    g.take()
    assert (g.cube_value, g.cube_owner, g.phase, g.on_roll) == (2, 0, Phase.ROLL, 1)
    assert not g.can_double()
    with pytest.raises(GameStateError, match="only the owner"):
        g.double()
    g.roll((6, 4))
    g.play_text("24/14")
    assert g.can_double()  # player 0 owns the cube
    g.double()
    g.take()
    assert (g.cube_value, g.cube_owner) == (4, 1)


def test_cube_stops_at_64() -> None:
    g = started()
    g.cube_value, g.cube_owner = 64, 1
    assert not g.can_double()
    with pytest.raises(GameStateError, match="maximum"):
        g.double()


@pytest.mark.parametrize(
    ("rules", "cube", "code"),
    [
        ({"match_length": 5, "score": (4, 2), "crawford": True}, (1, None), "cube.crawford"),
        ({"cube": False}, (1, None), "cube.disabled"),
        ({}, (64, 0), "cube.max"),
        ({}, (2, 1), "cube.owner"),
        ({"match_length": 5, "score": (3, 0)}, (2, 0), "cube.dead"),
        ({}, (1, None), "cube.when"),  # he could have doubled: it is the moment that is wrong
    ],
    ids=["crawford", "no-cube", "max", "owner", "dead", "missed"],
)
def test_a_double_after_the_roll_gives_the_reason_for_the_whole_turn(
    rules: dict[str, Any], cube: tuple[int, int | None], code: str
) -> None:
    # "before rolling" was the answer even in the Crawford game, where nobody may double.
    g = Game(**rules)
    g.opening_roll(3, 1)  # player 0 rolled 3-1 and is to move
    g.cube_value, g.cube_owner = cube
    assert g.phase is Phase.MOVE and not g.can_double()
    with pytest.raises(GameStateError) as refused:
        g.double()
    assert refused.value.code == code


def test_a_double_while_an_answer_is_awaited_says_so() -> None:
    # It said "only at the start of your turn, before rolling" while /roll said "not now".
    g = started()
    g.double()
    with pytest.raises(GameStateError) as refused:
        g.double()
    assert refused.value.code == "state.doubled"


def test_drop_loses_the_stake_before_the_double() -> None:
    g = started()
    g.cube_value, g.cube_owner = 2, 1
    g.double()
    g.drop()
    assert g.result is not None
    assert (g.result.winner, g.result.points, g.result.reason) == (1, 2, ResultReason.DROP)
    assert decode_match_id(g.match_id()).game_state is GameState.DROPPED
    with pytest.raises(GameStateError, match="game is over"):
        g.roll((1, 2))


def test_resignation_accepted_scores_value_times_cube() -> None:
    g = started()
    g.double()
    g.take()  # cube 2 owned by player 0
    g.resign(1, 2)
    assert g.phase is Phase.RESIGNED and g.turn == 0
    assert decode_match_id(g.match_id()).resignation == 2
    g.accept_resignation()
    assert g.result is not None and (g.result.winner, g.result.points) == (0, 4)


def test_resignation_rejected_resumes_where_it_stopped() -> None:
    g = started()
    g.roll((6, 4))
    g.step(24, 6)
    g.resign(0, 1)  # the player not on roll may offer too
    with pytest.raises(GameStateError, match="resignation waits"):
        g.step(18, 4)
    g.reject_resignation()
    assert g.phase is Phase.MOVE and g.partial.steps[0].src == 24
    g.step(18, 4)
    g.confirm()
    assert g.on_roll == 0


def test_bad_resignation_values() -> None:
    g = started()
    with pytest.raises(GameStateError, match="single game"):
        g.resign(1, 4)
    with pytest.raises(ValueError):
        g.resign(2, 1)


def test_game_ends_with_gammon_and_backgammon_values() -> None:
    # Player 0 bears off his last checker; player 1 has all 15 on the board, one in 0's home.
    cells = board(p1=1, o3=-1, o20=-14)
    g = Game(position=Position.from_board(cells))
    g.opening_roll(6, 1)
    assert g.result is None
    g.play_text("1/off")
    assert g.result is not None
    assert (g.result.winner, g.result.value, g.result.points) == (0, 3, 3)
    assert g.phase is Phase.OVER


def test_jacoby_counts_gammons_only_after_the_cube_turned() -> None:
    cells = board(p1=1, o20=-15)
    g = Game(position=Position.from_board(cells), jacoby=True)
    g.opening_roll(6, 1)
    g.play_text("1/off")
    assert g.result is not None and (g.result.value, g.result.points) == (2, 1)
    g2 = Game(position=Position.from_board(cells), jacoby=True)
    g2.opening_roll(6, 1)
    g2.cube_value = 2
    g2.play_text("1/off")
    assert g2.result is not None and g2.result.points == 4


def test_crawford_game_forbids_doubling_and_match_ends() -> None:
    m = Match(length=3)
    g = m.game
    g.opening_roll(3, 1)
    g.play_text("8/5 6/5")
    g.resign(1, 2)
    g.accept_resignation()
    assert m.score == (2, 0) and not m.is_over
    crawford = m.next_game()
    assert crawford.crawford and crawford.score == (2, 0)
    crawford.opening_roll(1, 3)
    crawford.play_text("8/5 6/5")
    assert not crawford.can_double()
    with pytest.raises(GameStateError, match="Crawford"):
        crawford.double()
    crawford.resign(0, 1)
    crawford.accept_resignation()
    assert m.score == (2, 1)
    post = m.next_game()
    assert not post.crawford
    post.opening_roll(3, 1)
    post.play_text("8/5 6/5")
    assert post.can_double()  # post-Crawford: doubling is back
    post.double()
    post.take()
    post.resign(1, 1)
    post.accept_resignation()
    assert m.is_over and m.winner == 0 and m.score == (4, 1)
    with pytest.raises(GameStateError, match="match is over"):
        m.next_game()


def test_next_game_needs_the_current_one_over() -> None:
    m = Match(length=5)
    with pytest.raises(GameStateError, match="not over"):
        m.next_game()


def test_money_game_is_a_single_game() -> None:
    m = Match()
    m.game.opening_roll(3, 1)
    m.game.resign(0, 3)
    m.game.accept_resignation()
    assert m.is_over and m.winner == 1 and m.score == (0, 3)


def test_match_length_bounds() -> None:
    with pytest.raises(ValueError):
        Match(length=-1)
    with pytest.raises(ValueError):
        Match(length=65)


def test_snapshot_round_trip_in_every_phase() -> None:
    g = Game(match_length=7, score=(2, 3))
    snapshots = [g.to_dict()]
    g.opening_roll(3, 1)
    g.step(8, 3)
    snapshots.append(g.to_dict())  # mid-turn, one step made
    g.step(6, 1)
    g.confirm()
    g.double()
    snapshots.append(g.to_dict())
    g.take()
    g.resign(0, 1)
    snapshots.append(g.to_dict())
    g.reject_resignation()
    g.roll((5, 5))
    snapshots.append(g.to_dict())
    for snap in snapshots:
        text = json.dumps(snap)
        restored = Game.from_dict(json.loads(text))
        assert restored.to_dict() == snap
        assert restored.match_id() == Game.from_dict(snap).match_id()


def test_snapshot_keeps_partial_turn() -> None:
    g = Game()
    g.opening_roll(6, 5)
    g.step(24, 6)
    restored = Game.from_dict(g.to_dict())
    assert [m.src for m in restored.partial.steps] == [24]
    restored.step(18, 5)
    assert str(restored.confirm()) == "24/13"


def test_corrupt_snapshots_are_refused() -> None:
    with pytest.raises(ValueError, match="not a saved game"):
        Game.from_dict({"v": 1})
    snap = Game().to_dict()
    snap["position"] = "not an id"
    with pytest.raises(ValueError):
        Game.from_dict(snap)
    with pytest.raises(ValueError, match="not a saved match"):
        Match.from_dict({"games": []})


def test_match_snapshot_round_trip() -> None:
    m = Match(length=3)
    m.game.opening_roll(3, 1)
    m.game.resign(1, 1)
    m.game.accept_resignation()
    m.next_game()
    restored = Match.from_dict(json.loads(json.dumps(m.to_dict())))
    assert restored.score == (1, 0) and len(restored.games) == 2
    assert restored.to_dict() == m.to_dict()


def test_match_id_reflects_the_game() -> None:
    g = started(match_length=5, score=(1, 2))
    key = decode_match_id(g.match_id())
    assert (key.match_length, key.score, key.player_on_roll, key.turn) == (5, (1, 2), 1, 1)
    g.roll((4, 2))
    assert decode_match_id(g.match_id()).dice == (4, 2)
    assert g.position_id() == g.position.position_id()


def test_context_is_seen_by_the_player() -> None:
    g = started(match_length=7, score=(1, 4))
    g.double()
    g.take()
    assert g.context(0).cube_owner == 0 and g.context(0).score == (1, 4)
    assert g.context(1).cube_owner == 1 and g.context(1).score == (4, 1)
    assert g.context(1).cube_value == 2


def test_forfeit() -> None:
    g = started()
    g.forfeit(1)
    assert g.result is not None and g.result.reason is ResultReason.FORFEIT
    assert g.result.winner == 0
    with pytest.raises(GameStateError):
        g.forfeit(0)


def test_last_move_for_arrows() -> None:
    g = started()
    event = g.last_move()
    assert event is not None and event.player == 0 and event.play == "8/5 6/5"
    assert {(s[0], s[1]) for s in event.steps} == {(8, 5), (6, 5)}
    assert g.last_move(1) is None


def test_the_rest_of_a_play_after_steps_made() -> None:
    """``/move 24/21`` once 13/8 is moved with the 5 of a 5-3: the rest of the play."""
    g = Game()
    g.opening_roll(5, 3)
    g.step(13, 5)
    assert str(g.play_text("24/21")) == "24/21 13/8"
    # A whole play written mid-move is played as written, whatever was moved.
    h = Game()
    h.opening_roll(5, 3)
    h.step(13, 5)
    assert str(h.play_text("8/3 6/3")) == "8/3 6/3"
    # A rest that cannot follow gets the refusal of the text as a whole play.
    k = Game()
    k.opening_roll(5, 3)
    k.step(13, 5)
    with pytest.raises(IllegalPlayError) as refused:
        k.play_text("24/23")
    assert "24/23" in str(refused.value)
    assert k.partial.steps  # nothing played, the step made still there


def test_the_rest_of_a_play_by_a_die_already_played_says_which_die_is_left() -> None:
    # 6-5 opening, the 6 played with the buttons (13/7), then /move 24/18: another 6. It was
    # refused as "plays only one die, but both dice can be played", which is not the point.
    g = Game()
    g.opening_roll(6, 5)
    g.step(13, 6)
    with pytest.raises(IllegalPlayError) as refused:
        g.play_text("24/18")
    assert refused.value.code == "illegal.die_played"
    assert refused.value.params == {"text": "24/18", "gap": 6, "left": "5"}
    with pytest.raises(IllegalPlayError) as whole:  # a 5 that cannot be played: as before
        g.play_text("24/19")
    assert whole.value.code != "illegal.die_played"
    assert str(g.play_text("13/8")) == "13/8 13/7"


def test_more_after_every_die_is_played_says_the_move_is_complete() -> None:
    # It read "is a move of 6, but your 6 is already played:  is left to play" (nothing left).
    g = Game()
    g.opening_roll(6, 5)
    for step in ((13, 6), (13, 5)):
        g.step(*step)
    with pytest.raises(IllegalPlayError) as refused:
        g.play_text("24/18")
    assert refused.value.code == "turn.complete"
    g.play_text("13/7 13/8")  # the whole play, as moved: played
    g.roll((4, 4))
    for step in ((13, 4), (13, 4), (6, 4), (6, 4)):
        g.step(*step)
    with pytest.raises(IllegalPlayError) as doubles:
        g.play_text("6/2")
    assert doubles.value.code == "turn.complete"

"""Property tests: random games and matches keep every invariant of the rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    Game,
    Match,
    Phase,
    Position,
    legal_plays,
    parse_play,
    read_mat,
    write_mat,
)
from engine.ids import decode_match_id, encode_match_id

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def checkers(pos: Position) -> tuple[int, int]:
    b = pos.board
    mine = sum(v for v in b[1:] if v > 0) + pos.borne_off()[0]
    theirs = -sum(v for v in b[:25] if v < 0) + pos.borne_off()[1]
    return mine, theirs


def play_random_game(game: Game, rng: random.Random, *, cube_actions: bool = True) -> None:
    """Play ``game`` to the end with random legal actions, checking invariants on the way."""
    turns = 0
    while not game.is_over:
        turns += 1
        assert turns < 2000, "a game should end"
        pos = game.position
        assert checkers(pos) == (15, 15)
        assert Position.from_position_id(pos.position_id()) == pos
        key = decode_match_id(game.match_id())
        assert encode_match_id(key) == game.match_id()
        if game.phase is Phase.OPENING:
            game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.phase is Phase.ROLL:
            if cube_actions and game.can_double() and rng.random() < 0.08:
                game.double()
            elif rng.random() < 0.01:
                game.resign(game.on_roll, rng.randint(1, 3))
            else:
                game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif game.phase is Phase.DOUBLED:
            game.take() if rng.random() < 0.8 else game.drop()
        elif game.phase is Phase.RESIGNED:
            game.accept_resignation() if rng.random() < 0.5 else game.reject_resignation()
        else:
            step_through_turn(game, rng)


def step_through_turn(game: Game, rng: random.Random) -> None:
    plays = game.legal_plays()
    assert plays, "a MOVE phase always has a play (passes are automatic)"
    dice = game.partial.dice
    if rng.random() < 0.5:
        play = rng.choice(plays)
        # Notation written by the engine reads back to the same play.
        assert parse_play(str(play), game.position, dice) == play
        game.play(play)
        return
    # Click by click, with undo on the way: undo restores exactly.
    while not game.partial.is_complete():
        before = game.partial
        move = rng.choice(before.available())
        game.step(move.src, move.die)
        if rng.random() < 0.2:
            game.undo()
            assert game.partial == before
            game.step(move.src, move.die)
    game.confirm()


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1))
def test_random_money_games(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(jacoby=rng.random() < 0.5)
    play_random_game(match.game, rng)
    result = match.game.result
    assert result is not None and match.is_over and match.winner == result.winner
    assert result.points == match.score[result.winner]
    assert result.points % result.cube == 0 and 1 <= result.value <= 3


@pytest.mark.slow
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(1, 7))
def test_random_matches_end_with_the_right_score(seed: int, length: int) -> None:
    rng = random.Random(seed)
    match = Match(length=length)
    expected = [0, 0]
    crawford_seen = False
    while True:
        game = match.game
        assert game.score == tuple(expected)
        if game.crawford:
            assert not crawford_seen
            crawford_seen = True
        play_random_game(game, rng)
        assert game.result is not None
        expected[game.result.winner] += game.result.points
        if match.is_over:
            break
        match.next_game()
    assert match.score == tuple(expected)
    assert max(expected) >= length and match.winner == (0 if expected[0] >= length else 1)
    # The .mat file replays to the same games and score.
    replay = read_mat(write_mat(match, ("Ann", "Bob")))
    assert replay.match.score == match.score
    assert [g.position_id() for g in replay.match.games] == [g.position_id() for g in match.games]
    assert [g.result for g in replay.match.games] == [g.result for g in match.games]


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), d1=st.integers(1, 6), d2=st.integers(1, 6))
def test_positions_from_random_play(seed: int, d1: int, d2: int) -> None:
    rng = random.Random(seed)
    pos = Position.initial()
    for _ in range(rng.randint(0, 60)):
        plays = legal_plays(pos, (rng.randint(1, 6), rng.randint(1, 6)))
        pos = pos.apply(rng.choice(plays)) if plays else pos.swap_players()
        if pos.winner() is not None:
            return
    plays = legal_plays(pos, (d1, d2))
    results = [pos.apply(p) for p in plays]
    assert len(set(results)) == len(results)  # one play per resulting position
    if plays:
        used = {len(p) for p in plays}
        assert len(used) == 1  # every play uses the same (maximal) number of dice
    for play, after in zip(plays, results, strict=True):
        assert checkers(after) == (15, 15)
        assert parse_play(str(play), pos, (d1, d2)) == play
        assert Position.from_position_id(after.position_id()) == after

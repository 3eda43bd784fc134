"""Each rule in one place: the Crawford flag of the next game (:meth:`engine.Game.next_is_crawford`,
used by :class:`engine.Match` and by the Match ID of a finished game) and the refusals of a double
(:meth:`engine.MatchContext.why_no_double`, used by :meth:`engine.Game.double` and by every
computer player through ``may_double``)."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import GameStateError, Match, MatchContext
from engine.game import Game


@pytest.mark.parametrize("length", [1, 2, 3, 5, 7])
def test_the_crawford_game_comes_once_right_after_a_player_reaches_match_point(length: int) -> None:
    rng = random.Random(length)
    for _ in range(40):
        m = Match(length=length)
        crawford_games = []
        while True:
            game = m.game
            before = m.score
            game.opening_roll(6, 1)
            loser = rng.randrange(2)
            game.resign(loser, rng.choice([1, 1, 1, 2, 3]))
            game.accept_resignation()
            after = m.score
            # The Match ID of the finished game carries the next game's flag.
            first_time = max(before) < length - 1 and max(after) == length - 1
            assert game.match_key().crawford is (first_time and not game.crawford)
            if m.is_over:
                break
            nxt = m.next_game()
            assert nxt.crawford is game.match_key().crawford
            if nxt.crawford:
                crawford_games.append(len(m.games))
        reached = any(g.score and max(g.score) == length - 1 for g in m.games)
        assert len(crawford_games) <= 1
        if crawford_games:
            assert reached and length > 1


def test_a_match_taken_up_past_its_crawford_game_has_none() -> None:
    # 5 points, score 4-2 and no Crawford flag: the Crawford game has been played.
    m = Match.from_ids("4HPwATDgc/ABMA", "MAGgAEAAEAAE")
    assert m.length == 5 and m.score == (4, 2) and not m.game.crawford
    m.game.resign(0, 1)
    m.game.accept_resignation()
    assert not m.game.match_key().crawford and not m.next_game().crawford


def _game(ctx: MatchContext, *, cube: bool = True) -> Game:
    g = Game(match_length=ctx.match_length, score=ctx.score, crawford=ctx.crawford, cube=cube)
    g.opening_roll(3, 1)
    g.play_text("8/5 6/5")  # player 1 is on roll now
    g.cube_value = ctx.cube_value
    g.cube_owner = None if ctx.cube_owner is None else 1 - ctx.cube_owner
    return g


def test_a_double_is_refused_exactly_when_the_context_gives_a_reason() -> None:
    contexts = [
        MatchContext(value, owner, length, score, crawford)
        for value, owner, length, score, crawford in itertools.product(
            (1, 2, 4, 64), (None, 0, 1), (0, 3, 7), ((0, 0), (2, 1), (1, 2), (0, 6)), (False, True)
        )
        if (not length or max(score) < length) and (length or not crawford)
        if not (crawford and (length - 1) not in score)
    ]
    refused = set()
    for ctx in contexts:
        g = _game(ctx)
        # Game.context is seen by the player on roll (player 1 here).
        reason = g.context(1).why_no_double(0)
        assert g.can_double() is (reason is None) is g.context(1).may_double(0)
        if reason is None:
            g.double()
            continue
        with pytest.raises(GameStateError) as err:
            g.double()
        assert err.value.code == reason.code
        refused.add(reason.code)
    assert refused == {"cube.crawford", "cube.max", "cube.owner", "cube.dead"}


def test_the_cube_owner_is_named_before_a_dead_cube() -> None:
    # The opponent owns the cube and it would be dead anyway: the first reason a player can act on.
    ctx = MatchContext(2, 1, 5, (3, 0))
    reason = ctx.why_no_double(0)
    assert reason is not None and reason.code == "cube.owner"
    assert _game(ctx, cube=False).can_double() is False

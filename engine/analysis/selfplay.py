"""Whole games and matches between two computer players, with the cube, recorded by the engine.

For tests, benchmarks and samples: dice come from a seeded :class:`random.Random`, so a record
is reproducible; the players act exactly as in the bot (double before rolling when they want to,
answer doubles, play their rolls). Nobody resigns.

>>> from engine.bots.arena import RandomPlayer
>>> m = play_match((RandomPlayer(1), RandomPlayer(2)), random.Random(3), length=3)
>>> m.is_over, max(m.score) >= 3
(True, True)
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.context import MatchContext
from engine.game import Game, Phase
from engine.match import Match
from engine.movegen import Dice, Play
from engine.position import Position

__all__ = ["play_game", "play_match"]

MAX_ACTIONS = 20_000  # far above any real game: a guard against a stuck player


class _Player(Protocol):
    def choose_play(
        self, position: Position, dice: Dice, ctx: MatchContext | None = None
    ) -> Play | None: ...


def _roll(rng: random.Random) -> Dice:
    return rng.randint(1, 6), rng.randint(1, 6)


def _decide(player: _Player, name: str, *args: object) -> bool:
    method = getattr(player, name, None)
    return bool(method(*args)) if method is not None else False


def play_game(game: Game, players: tuple[_Player, _Player], rng: random.Random) -> Game:
    """Play ``game`` (just created, or under way) to its end; ``players[k]`` is player k.

    A player without ``should_double`` never doubles, and one without ``should_take`` always
    takes (so :class:`engine.bots.arena.RandomPlayer` can play).

    :raises RuntimeError: when the game does not end (a stuck player).
    """
    for _ in range(MAX_ACTIONS):
        if game.phase is Phase.OVER:
            return game
        if game.phase is Phase.OPENING:
            game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif game.phase is Phase.ROLL:
            seat = game.on_roll
            if game.can_double() and _decide(
                players[seat], "should_double", game.position, game.context(seat)
            ):
                game.double()
            else:
                game.roll(_roll(rng))
        elif game.phase is Phase.DOUBLED:
            doubler = game.on_roll
            taker = players[1 - doubler]
            if not hasattr(taker, "should_take") or taker.should_take(
                game.position, game.context(doubler)
            ):
                game.take()
            else:
                game.drop()
        elif game.phase is Phase.MOVE:
            seat = game.on_roll
            play = players[seat].choose_play(game.position, game.partial.dice, game.context(seat))
            if play is None:
                raise RuntimeError("a player returned no play where the engine has one")
            game.play(play)
        else:  # pragma: no cover - nobody resigns here
            raise RuntimeError(f"unexpected phase {game.phase}")
    raise RuntimeError(f"no result after {MAX_ACTIONS} actions")


def play_match(
    players: tuple[_Player, _Player],
    rng: random.Random,
    *,
    length: int = 0,
    cube: bool = True,
    jacoby: bool = False,
) -> Match:
    """A whole match to ``length`` points (0: one money game) between ``players``.

    :raises RuntimeError: when a game does not end (a stuck player).
    """
    match = Match(length=length, cube=cube, jacoby=jacoby)
    while True:
        play_game(match.game, players, rng)
        if match.is_over:
            return match
        match.next_game()

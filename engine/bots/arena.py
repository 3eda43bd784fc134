"""An arena: cubeless money games between two computer players, refereed by the engine.

Dice come from a seeded :class:`random.Random`, so every run is reproducible; this is for tests and
benchmarks (the bot's production dice come from the application). The opening roll follows the
rules: each side rolls one die, ties are rolled again, and the higher die moves first with both
dice. Each play a player returns must be one of :func:`engine.legal_plays` (the referee checks).

``mirrored=True`` (duplicate play) plays every dice sequence twice with the seats swapped, which
removes much of the luck from a comparison; the confidence interval is then computed over the
pairs, which are independent.

>>> from engine.bots.arena import RandomPlayer, run_arena
>>> result = run_arena(RandomPlayer(seed=1), RandomPlayer(seed=2), games=4, seed=7)
>>> result.games, sum(result.wins)
(4, 4)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.bots.protocol import PlayChooser
from engine.context import MatchContext
from engine.movegen import Dice, Play, legal_plays
from engine.position import Position

__all__ = ["ArenaResult", "GameRecord", "RandomPlayer", "opening_roll", "play_game", "run_arena"]

MAX_TURNS = 5000  # far above any real game (about 60 turns): a guard against a stuck player


class RandomPlayer:
    """Plays a uniformly random legal play: the weakest possible reference."""

    level = "random"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self._rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose_play(
        self, position: Position, dice: Dice, ctx: MatchContext | None = None
    ) -> Play | None:
        plays = legal_plays(position, dice)
        return self._rng.choice(plays) if plays else None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game: the winning seat (0 or 1), 1/2/3 points, and the turns played."""

    winner: int
    value: int
    turns: int


def opening_roll(rng: random.Random) -> tuple[int, Dice]:
    """Each seat rolls one die until they differ: ``(seat that starts, (its die, other die))``.

    >>> opening_roll(random.Random(3))
    (1, (5, 2))
    """
    while True:
        d0, d1 = rng.randint(1, 6), rng.randint(1, 6)
        if d0 != d1:
            return (0, (d0, d1)) if d0 > d1 else (1, (d1, d0))


def play_game(
    players: tuple[PlayChooser, PlayChooser],
    rng: random.Random,
    *,
    on_move: Callable[[int, Position, Dice, Play | None], None] | None = None,
    start: Position | None = None,
) -> GameRecord:
    """Play one cubeless game; ``players[0]`` sits in seat 0. ``start`` is the starting position
    (the standard one by default; a variant's, :meth:`engine.Variant.initial_position`).

    ``on_move(seat, position, dice, play)`` is called after every legal play (for statistics).

    :raises ValueError: when a player returns a play that :func:`engine.legal_plays` does not list.
    """
    seat, dice = opening_roll(rng)
    pos = start or Position.initial()
    for turn in range(1, MAX_TURNS + 1):
        play = players[seat].choose_play(pos, dice)
        legal = legal_plays(pos, dice)
        if (play is None and legal) or (play is not None and play not in legal):
            raise ValueError(f"seat {seat} played {play} with {dice} in {pos!r}: not legal")
        if on_move is not None:
            on_move(seat, pos, dice, play)
        pos = pos.apply(play) if play is not None else pos.swap_players()
        if pos.winner() is not None:
            return GameRecord(winner=seat, value=pos.result_value(), turns=turn)
        seat = 1 - seat
        dice = (rng.randint(1, 6), rng.randint(1, 6))
    raise RuntimeError(f"no result after {MAX_TURNS} turns")


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """Totals from player A's side: per player (A, B) the games won, gammons and backgammons
    won (a backgammon counts only as a backgammon), and A's points per game with its 95%
    confidence interval."""

    games: int
    wins: tuple[int, int]
    gammons: tuple[int, int]
    backgammons: tuple[int, int]
    ppg: float
    ci95: tuple[float, float]

    def __str__(self) -> str:
        lo, hi = self.ci95
        return (
            f"{self.games} games: {self.ppg:+.3f} ppg (95% CI {lo:+.3f}..{hi:+.3f}); "
            f"wins {self.wins[0]}-{self.wins[1]}, gammons {self.gammons[0]}-{self.gammons[1]}, "
            f"backgammons {self.backgammons[0]}-{self.backgammons[1]}"
        )


def run_arena(
    a: PlayChooser,
    b: PlayChooser,
    *,
    games: int,
    seed: int = 0,
    mirrored: bool = True,
    on_move: Callable[[PlayChooser, Position, Dice, Play | None], None] | None = None,
    start: Position | None = None,
) -> ArenaResult:
    """Play ``games`` games between ``a`` and ``b`` (an even number when ``mirrored``).

    Game ``k`` (or pair ``k``) uses dice from ``random.Random(f"{seed}/{k}")``, so any game can be
    replayed alone. ``on_move(player, position, dice, play)`` sees every play. ``start``: the
    starting position of every game (a variant's; the standard one by default).
    """
    if games < 1 or (mirrored and games % 2):
        raise ValueError(f"games must be positive{' and even when mirrored' if mirrored else ''}")
    records: list[tuple[int, GameRecord]] = []  # (seat of A, record)
    for k in range(games // 2 if mirrored else games):
        seats_of_a = (0, 1) if mirrored else (k % 2,)
        for seat_a in seats_of_a:
            order = (a, b) if seat_a == 0 else (b, a)
            hook = None
            if on_move is not None:
                hook = _seat_hook(on_move, order)
            dice = random.Random(f"{seed}/{k}")
            records.append((seat_a, play_game(order, dice, on_move=hook, start=start)))
    return _summarize(records, pair_size=2 if mirrored else 1)


def _seat_hook(
    on_move: Callable[[PlayChooser, Position, Dice, Play | None], None],
    order: tuple[PlayChooser, PlayChooser],
) -> Callable[[int, Position, Dice, Play | None], None]:
    def hook(seat: int, pos: Position, dice: Dice, play: Play | None) -> None:
        on_move(order[seat], pos, dice, play)

    return hook


def _summarize(records: list[tuple[int, GameRecord]], *, pair_size: int) -> ArenaResult:
    wins, gammons, backgammons = [0, 0], [0, 0], [0, 0]
    points: list[float] = []
    for seat_a, rec in records:
        side = 0 if rec.winner == seat_a else 1  # 0: A won
        wins[side] += 1
        gammons[side] += rec.value == 2
        backgammons[side] += rec.value == 3
        points.append(rec.value if side == 0 else -rec.value)
    # Independent units: single games, or duplicate pairs (averaged) when mirrored.
    units = [sum(points[i : i + pair_size]) / pair_size for i in range(0, len(points), pair_size)]
    mean = sum(units) / len(units)
    half = 0.0
    if len(units) > 1:
        var = sum((u - mean) ** 2 for u in units) / (len(units) - 1)
        half = 1.96 * math.sqrt(var / len(units))
    return ArenaResult(
        games=len(records),
        wins=(wins[0], wins[1]),
        gammons=(gammons[0], gammons[1]),
        backgammons=(backgammons[0], backgammons[1]),
        ppg=mean,
        ci95=(mean - half, mean + half),
    )

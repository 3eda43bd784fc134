"""Error rates of computer players: equity lost per move against a deeper bgsage search.

The decisions are sampled from expert self-play games (seeded dice), keeping only the unforced
ones (at least two legal plays). Every player answers the same decisions; for each decision one
reference search at depth ``ref_ply`` evaluates bgsage's best play and every play the players
chose, all at full depth, and a player's error is the best play's cubeless equity minus its
play's. Rates are in millipoints (thousandths of a point) per unforced move, as GNU Backgammon
reports them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine import Dice, Play, Position, legal_plays
from engine.bots import get_bot, sage
from engine.bots.arena import play_game
from engine.bots.protocol import PlayChooser

Decision = tuple[Position, Dice]


def sample_decisions(count: int, *, seed: int = 0) -> list[Decision]:
    """``count`` unforced decisions (position, dice) from expert self-play, reproducibly."""
    bot = get_bot("expert", rng=seed, engine="bgsage")
    out: list[Decision] = []

    def record(seat: int, pos: Position, dice: Dice, play: Play | None) -> None:
        if len(out) < count and len(legal_plays(pos, dice)) >= 2:
            out.append((pos, dice))

    game = 0
    while len(out) < count:
        play_game((bot, bot), random.Random(f"decisions/{seed}/{game}"), on_move=record)
        game += 1
    return out


def error_rates(
    players: Mapping[str, PlayChooser], decisions: Sequence[Decision], *, ref_ply: int
) -> dict[str, float]:
    """Mean equity lost per decision, in millipoints, for each named player."""
    lost = dict.fromkeys(players, 0.0)
    for pos, dice in decisions:
        chosen = {name: p.choose_play(pos, dice) for name, p in players.items()}
        plays = list({play for play in chosen.values() if play is not None})
        best, equities = sage.reference_equities(pos, dice, plays, ref_ply)
        value = dict(zip(plays, equities, strict=True))
        for name, play in chosen.items():
            assert play is not None  # unforced decisions always have a play
            lost[name] += best - value[play]
    return {name: 1000.0 * total / len(decisions) for name, total in lost.items()}

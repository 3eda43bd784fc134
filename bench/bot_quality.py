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
    players: Mapping[str, PlayChooser],
    decisions: Sequence[Decision],
    *,
    ref_ply: int,
    all_plays: bool = False,
    draws: Mapping[str, int] | None = None,
) -> dict[str, float]:
    """Mean equity lost per decision, in millipoints, for each named player.

    ``all_plays`` grades every legal play at the reference depth once per decision (affordable
    at 3-ply, about 0.3 s a decision); otherwise only bgsage's candidates and the plays chosen
    are searched (4-ply costs about half a second per play). ``draws[name]`` asks a noisy player
    that many times per decision (its noise changes its answer), which averages out the noise
    without more decisions.
    """
    draws = draws or {}
    lost = dict.fromkeys(players, 0.0)
    for pos, dice in decisions:
        chosen: dict[str, list[Play]] = {}
        for name, player in players.items():
            answers = [player.choose_play(pos, dice) for _ in range(draws.get(name, 1))]
            chosen[name] = [play for play in answers if play is not None]
            assert len(chosen[name]) == len(answers)  # unforced decisions always have a play
        plays = (
            legal_plays(pos, dice) if all_plays else list({p for c in chosen.values() for p in c})
        )
        best, equities = sage.reference_equities(pos, dice, plays, ref_ply)
        value = dict(zip(plays, equities, strict=True))
        for name, picked in chosen.items():
            lost[name] += sum(best - value[play] for play in picked) / len(picked)
    return {name: 1000.0 * total / len(decisions) for name, total in lost.items()}

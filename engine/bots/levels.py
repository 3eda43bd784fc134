"""The playing levels, built like GNU Backgammon's: an evaluation plus noise, deeper at the top.

GNU Backgammon's levels add Gaussian noise to each output of its network (beginner 0.060, casual
0.050, intermediate 0.040, advanced 0.015) and search deeper for world class (its 2-ply, which is
bgsage's 3-ply: bgsage counts the network's own evaluation as the first ply). Ours add the noise to
the equity of every candidate instead, so the numbers are about 2.8 times larger (the equity is a
sum of five outputs, weights 2, 1, 1, 1, 1). They were calibrated on 1,500 decisions so that the
error rates come out near GNU Backgammon's (60, 45, 35 and 9 millipoints per move; see
``bench/bench_bots.py`` and the README for the measured figures).

>>> [spec.name for spec in SPECS]
['beginner', 'casual', 'intermediate', 'advanced', 'expert', 'world class']
>>> level_spec("World_Class").ply, level_spec("World_Class").cube_ply, level_spec("expert").noise
(3, 3, 0.0)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LEVELS", "SPECS", "LevelSpec", "level_spec", "normalize_level"]


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """How one level plays.

    ``ply`` is bgsage's search depth for checker play (1 = the network on each resulting position,
    like GNU Backgammon's 0-ply); ``cube_ply`` the depth of cube decisions; ``noise`` the standard
    deviation, in equity (cube = 1), of the Gaussian noise added to every candidate's evaluation,
    for checker play and cube decisions alike.

    Every level but world class decides the cube at 2-ply: through bgsage's API a 2-ply cube
    decision costs little more than a 1-ply one, and it sees the next roll, which the network's
    direct estimate of a position before the roll sometimes gets badly wrong near the end of a
    game. World class decides it at 3-ply (GNU Backgammon's 2-ply): graded by GNU Backgammon 1.07
    at 2 plies on 300 sampled cube decisions (``bench/bench_cube.py``), bgsage 2-ply loses 0.60
    millipoints per decision, gnubg's own 1-ply 0.71 and bgsage 3-ply nothing, within the 1 s a
    cube decision may take (see the README for the timings).
    """

    name: str
    ply: int
    cube_ply: int
    noise: float


SPECS: tuple[LevelSpec, ...] = (
    LevelSpec("beginner", ply=1, cube_ply=2, noise=0.180),
    LevelSpec("casual", ply=1, cube_ply=2, noise=0.135),
    LevelSpec("intermediate", ply=1, cube_ply=2, noise=0.105),
    LevelSpec("advanced", ply=1, cube_ply=2, noise=0.028),
    LevelSpec("expert", ply=1, cube_ply=2, noise=0.0),
    LevelSpec("world class", ply=3, cube_ply=3, noise=0.0),
)

LEVELS: tuple[str, ...] = tuple(spec.name for spec in SPECS)
"""Level names from weakest to strongest."""

_BY_NAME = {spec.name: spec for spec in SPECS}


def normalize_level(level: str) -> str:
    """The canonical name of a level: case, spaces, ``_`` and ``-`` do not matter.

    >>> normalize_level("worldclass"), normalize_level(" Expert ")
    ('world class', 'expert')

    :raises ValueError: for an unknown level; the message lists the levels.
    """
    key = "".join(ch for ch in str(level).lower() if ch.isalpha())
    for name in LEVELS:
        if name.replace(" ", "") == key:
            return name
    raise ValueError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}")


def level_spec(level: str) -> LevelSpec:
    """The :class:`LevelSpec` of a level name (see :func:`normalize_level`)."""
    return _BY_NAME[normalize_level(level)]

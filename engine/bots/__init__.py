"""Computer players, from beginner to world class, with cube play and answers to resignations.

>>> from engine import Position, legal_plays
>>> from engine.bots import LEVELS, get_bot
>>> LEVELS
('beginner', 'casual', 'intermediate', 'advanced', 'expert', 'world class')
>>> bot = get_bot("expert", rng=1)
>>> pos = Position.initial()
>>> bot.choose_play(pos, (3, 1)) in legal_plays(pos, (3, 1))
True

Every player implements :class:`ComputerPlayer`. The strength comes from bgsage (an optional
dependency with wheels for Linux x86_64, macOS arm64 and Windows amd64); without it, the players
fall back to a pure-Python evaluator built on Tesauro's pubeval (:mod:`engine.bots.fallback`).
:func:`get_bot` logs which engine runs, once per process.
"""

from __future__ import annotations

import logging
import random
from functools import cache

from engine.bots.levels import LEVELS, LevelSpec, level_spec
from engine.bots.protocol import RESIGNATION_VALUES, ComputerPlayer, PlayChooser

__all__ = [
    "BACKENDS",
    "LEVELS",
    "RESIGNATION_VALUES",
    "ComputerPlayer",
    "LevelSpec",
    "PlayChooser",
    "backend",
    "get_bot",
    "level_spec",
]

log = logging.getLogger(__name__)

BACKENDS = ("auto", "bgsage", "fallback")


@cache
def backend() -> str:
    """``"bgsage"`` when bgsage imports, else ``"fallback"``; decided (and logged) once."""
    try:
        import bgsage  # noqa: F401  (only probing: the adapter imports it for real)

        from engine.bots import sage
    except (ImportError, OSError):
        log.info("computer players: pure-Python fallback (bgsage not installed)")
        return "fallback"
    if not sage.available():  # pragma: no cover - bgsage importable here but not in sage
        log.info("computer players: pure-Python fallback (bgsage not installed)")
        return "fallback"
    log.info("computer players: bgsage %s", sage.version())
    return "bgsage"


def get_bot(
    level: str, *, rng: random.Random | int | None = None, engine: str = "auto"
) -> ComputerPlayer:
    """A computer player of ``level`` (a name from :data:`LEVELS`; case, spaces, ``_`` and ``-``
    are ignored, so ``"world_class"`` and ``"worldclass"`` work).

    ``rng`` is the source of the level's noise: a :class:`random.Random`, or a seed for
    reproducible games; by default a fresh, system-seeded instance (never the global state).
    ``engine`` forces ``"bgsage"`` or ``"fallback"`` (for comparisons); ``"auto"`` prefers bgsage.

    >>> get_bot("grandmaster")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown level 'grandmaster'; the levels are: beginner, casual, ..., world class

    :raises ValueError: for an unknown level or engine.
    :raises RuntimeError: when ``engine="bgsage"`` and bgsage is not installed.
    """
    spec = level_spec(level)
    if engine not in BACKENDS:
        raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(BACKENDS)}")
    chosen = backend() if engine == "auto" else engine
    if chosen == "bgsage":
        from engine.bots import sage
        from engine.bots.neural import SagePlayer

        if not sage.available():
            raise RuntimeError("bgsage is not installed")
        return SagePlayer(spec, rng)
    from engine.bots.fallback import FallbackPlayer

    return FallbackPlayer(spec, rng)

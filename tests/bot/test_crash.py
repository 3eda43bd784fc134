"""Kill -9 at random moments of scripted games: nothing acknowledged is lost, nothing is
half-applied, and every resumed game ends exactly as the uninterrupted game with the same dice
seed. (``bench/bench_crash.py`` does the same for 50 games.)

The kills come after a number of acknowledged actions, not after some seconds, so they land
mid-game however slow the machine is (see ``bench.crash.crash_one``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.crash import crash_one

pytestmark = pytest.mark.slow


def test_killed_games_resume_without_loss_or_divergence(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    reference = f"sqlite:///{tmp_path / 'reference.sqlite3'}"
    rng = random.Random(20261130)
    results = [crash_one(db, reference, channel, rng) for channel in (1, 2)]
    for r in results:
        assert r.mid_game and r.acknowledged >= 2, r  # the kill did land mid-game
        assert not r.lost and not r.half_applied and not r.diverged and r.finished, r

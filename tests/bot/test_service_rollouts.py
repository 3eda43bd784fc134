"""/hint rollout:N (bot/service/rollouts.py): the decision rolled out, progress shown in place,
in the analysis lane."""

from __future__ import annotations

from collections import deque

import pytest

from bot.service import Service
from bot.service import rollouts as rollout_module
from bot.service.commands import by_name
from bot.service.replies import PROGRESS
from tests.bot.conftest import ALICE, DM


@pytest.fixture
def fine_progress(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Progress after every part of 4 trials, collected."""
    monkeypatch.setattr(rollout_module, "PART", 4)
    monkeypatch.setattr(rollout_module, "PROGRESS_EVERY", 0.0)
    seen: list[str] = []
    token = PROGRESS.set(seen.append)
    yield seen
    PROGRESS.reset(token)


def test_rollout_of_the_best_plays(
    service: Service, script: deque[int], fine_progress: list[str]
) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    reply = service.hint(ALICE, DM, rollout=12, truncate=2)
    lines = reply.text.splitlines()
    assert reply.ephemeral and reply.image is None
    assert "Rollout of the best plays for 3-1: 12 trials, cut after 2 plies" in lines[0]
    assert len(lines) == 4 and all(" ± " in line and line.endswith("%") for line in lines[1:])
    assert fine_progress == ["🎲 Rolling out… 4 of 12 trials", "🎲 Rolling out… 8 of 12 trials"]


def test_rollout_before_the_roll(
    service: Service, script: deque[int], fine_progress: list[str]
) -> None:
    script.extend([3, 1, 5, 2])
    service.play(ALICE, DM, level="expert")
    service.move(ALICE, DM, "8/5 6/5")
    reply = service.hint(ALICE, DM, rollout=4, truncate=1)
    assert "position before the roll: 4 trials, cut after 1 plies" in reply.text
    assert "Your equity" in reply.text and fine_progress == []


def test_same_rollout_same_figures(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    first = service.hint(ALICE, DM, rollout=3, truncate=1)
    assert service.hint(ALICE, DM, rollout=3, truncate=1).text == first.text


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rollout": 5000}, "A rollout takes 1 to 1296 trials."),
        ({"rollout": 0}, "A rollout takes 1 to 1296 trials."),
        ({"rollout": 4, "truncate": 0}, "A rollout is cut after at least one ply."),
    ],
)
def test_bad_rollouts_are_refused(
    service: Service, script: deque[int], options: dict[str, int], message: str
) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    reply = service.hint(ALICE, DM, **options)
    assert reply.ephemeral and reply.text == message


def test_a_rollout_runs_in_the_analysis_lane() -> None:
    command = by_name("hint")
    assert command.lane_for({"rollout": None, "truncate": None}) == "hints"
    assert command.lane_for({"rollout": 36, "truncate": None}) == "analysis"
    assert command.lane_for({"rollout": None, "truncate": 5}) == "analysis"

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
    assert "position before the roll: 4 trials, cut after 1 ply" in reply.text
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


def test_the_terminal_shows_the_progress_then_the_rollout(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import json
    from pathlib import Path

    from bot.terminal import Terminal

    monkeypatch.setattr(rollout_module, "PART", 2)
    monkeypatch.setattr(rollout_module, "PROGRESS_EVERY", 0.0)
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    script.extend([3, 1])
    term.run(["/play level:expert", "/hint rollout:4 truncate:1", "/hint rollout:5000"])
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    progress = [x["progress"] for x in lines if "progress" in x]
    texts = [x["text"] for x in lines if "text" in x]
    assert progress == ["🎲 Rolling out… 2 of 4 trials"]
    assert "Rollout of the best plays for 3-1: 4 trials, cut after 1 ply" in texts[-2]
    assert texts[-1] == "A rollout takes 1 to 1296 trials."


async def test_discord_progress_edits_the_deferred_message_never_after_the_answer() -> None:
    import asyncio
    from typing import Any, cast

    from bot.discord_app.progress import ProgressEdits
    from bot.service.replies import report_progress

    class Response:
        deferred = False

        def is_done(self) -> bool:
            return self.deferred

    class Interaction:
        id = 1

        def __init__(self) -> None:
            self.response = Response()
            self.edits: list[str] = []

        async def edit_original_response(self, *, content: str) -> None:
            self.edits.append(content)

    interaction = Interaction()
    edits = ProgressEdits(cast(Any, interaction))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, edits.wrap(lambda: report_progress("too early")))
    await asyncio.sleep(0.05)
    interaction.response.deferred = True  # Discord shows "thinking…" from now on
    await loop.run_in_executor(None, edits.wrap(lambda: report_progress("12 of 36")))
    await asyncio.sleep(0.05)
    await edits.close()
    edits.post("too late")
    await asyncio.sleep(0.05)
    assert interaction.edits == ["12 of 36"]


def test_same_seed_same_figures_other_seed_other_dice(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    first = service.hint(ALICE, DM, rollout=4, truncate=2, seed=7)
    assert "seed 7" in first.text.splitlines()[0]
    assert service.hint(ALICE, DM, rollout=4, truncate=2, seed=7).text == first.text
    assert service.hint(ALICE, DM, rollout=4, truncate=2, seed=8).text != first.text


def test_variance_reduction_can_be_turned_off(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    on = service.hint(ALICE, DM, rollout=4, truncate=2)
    off = service.hint(ALICE, DM, rollout=4, truncate=2, variance_reduction=False)
    assert "with variance reduction" in on.text.splitlines()[0]
    assert "without variance reduction" in off.text.splitlines()[0]
    assert off.text.splitlines()[1:] != on.text.splitlines()[1:]


def test_the_time_limit_stops_with_the_trials_done(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake clock that moves 4 seconds each time it is read: with seconds:10 the rollout
    stops after the part that ends past 10 s, and says so."""
    now = [0.0]

    def clock() -> float:
        now[0] += 4.0
        return now[0]

    monkeypatch.setattr(rollout_module, "PART", 2)
    monkeypatch.setattr(rollout_module, "CLOCK", clock)
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    reply = service.hint(ALICE, DM, rollout=20, truncate=1, seconds=10)
    lines = reply.text.splitlines()
    assert "3-1: 6 trials" in lines[0]
    assert lines[-1] == "⏱️ Stopped at the time limit (10 s): 6 of 20 trials played."


def test_options_alone_ask_for_a_rollout(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    reply = service.hint(ALICE, DM, seed=3, truncate=1)
    assert "36 trials" in reply.text.splitlines()[0] and "seed 3" in reply.text
    command = by_name("hint")
    for name in ("seed", "variance_reduction", "seconds"):
        assert command.lane_for({name: 1}) == "analysis"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rollout": 4, "seed": -1}, "A rollout's seed is a whole number from 0 to 999999999."),
        ({"rollout": 4, "seconds": 0}, "A rollout's time limit is 1 to 60 seconds."),
        ({"rollout": 4, "seconds": 61}, "A rollout's time limit is 1 to 60 seconds."),
    ],
)
def test_bad_rollout_options_are_refused(
    service: Service, script: deque[int], options: dict[str, int], message: str
) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    assert service.hint(ALICE, DM, **options).text == message


def test_bad_rollout_options_are_refused_in_french() -> None:
    from bot.i18n import t

    assert t("rollout.seconds", "fr", most=60) == (
        "La limite de temps d’une simulation va de 1 à 60 secondes."
    )
    assert "0 à 999999999" in t("rollout.seed", "fr", most=999_999_999)


def test_review_rolls_out_the_worst_play(
    service: Service, script: deque[int], fine_progress: list[str]
) -> None:
    script.extend([3, 1, 5, 2])
    service.play(ALICE, DM, level="expert")
    service.move(ALICE, DM, "24/21 24/23")  # not 8/5 6/5: an error to roll out
    reply = service.review(ALICE, DM, rollout=8)
    lines = reply.text.splitlines()
    at = next(i for i, line in enumerate(lines) if "Your worst play rolled out" in line)
    assert "(game 1, move 1, 3-1, you played 24/23 24/21): 8 trials" in lines[at]
    rolled = lines[at + 1 : at + 3]
    assert len(rolled) == 2 and all(" ± " in line for line in rolled)
    assert "8/5 6/5" in rolled[0] and "24/23 24/21" in rolled[1]  # the best comes out on top
    assert fine_progress == ["🎲 Rolling out… 4 of 8 trials"]


def test_review_rollout_without_a_checker_error(service: Service, script: deque[int]) -> None:
    script.extend([3, 1, 5, 2])
    service.play(ALICE, DM, level="expert")
    service.move(ALICE, DM, "8/5 6/5")
    reply = service.review(ALICE, DM, rollout=4)
    assert (
        reply.text.splitlines()[-1] == "🎲 No checker-play error of yours to roll out in this game."
    )
    assert service.review(ALICE, DM, rollout=0).text == "A rollout takes 1 to 1296 trials."

"""/hint rollout:N (bot/service/rollouts.py): the decision rolled out, progress shown in place,
in the analysis lane."""

from __future__ import annotations

import math
import re
from collections import deque

import pytest

from bot.service import Service
from bot.service import rollouts as rollout_module
from bot.service.commands import by_name
from bot.service.replies import PROGRESS
from tests.bot.conftest import ALICE, DM


def expert_game(service: Service, script: deque[int], *dice: int, **options: object) -> None:
    """Alice's game against the expert (``options``: /play's), her opening 3-1 to play; then
    ``dice`` for the rolls after it."""
    script.extend([3, 1, *dice])
    service.play(ALICE, DM, level="expert", **options)  # type: ignore[arg-type]


@pytest.fixture
def fine_progress(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Progress after every part (of 4 trials at most), collected."""
    monkeypatch.setattr(rollout_module, "PART", 4)
    monkeypatch.setattr(rollout_module, "PROGRESS_EVERY", 0.0)
    seen: list[str] = []
    token = PROGRESS.set(seen.append)
    yield seen
    PROGRESS.reset(token)


def test_rollout_of_the_best_plays(
    service: Service, script: deque[int], fine_progress: list[str]
) -> None:
    expert_game(service, script)
    reply = service.hint(ALICE, DM, rollout=12, truncate=2)
    lines = reply.text.splitlines()
    assert reply.ephemeral and reply.image is None
    assert "Rollout of the best plays for 3-1: 12 trials, cut after 2 plies" in lines[0]
    assert len(lines) == 4 and all(" ± " in line and line.endswith("%") for line in lines[1:])
    # A first part of 2 trials (to time one), then parts of at most 4.
    assert fine_progress == [f"🎲 Rolling out… {n} of 12 trials" for n in (2, 6, 10)]


def test_rollout_before_the_roll(
    service: Service, script: deque[int], fine_progress: list[str]
) -> None:
    expert_game(service, script, 5, 2)  # then the computer's 5-2
    service.move(ALICE, DM, "8/5 6/5")
    reply = service.hint(ALICE, DM, rollout=4, truncate=1)
    assert "position before the roll: 4 trials, cut after 1 ply" in reply.text
    assert "Your equity" in reply.text and fine_progress == ["🎲 Rolling out… 2 of 4 trials"]


def test_same_rollout_same_figures(service: Service, script: deque[int]) -> None:
    expert_game(service, script)
    first = service.hint(ALICE, DM, rollout=3, truncate=1)
    assert service.hint(ALICE, DM, rollout=3, truncate=1).text == first.text


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"rollout": 5000}, "A rollout takes 2 to 1296 trials (one trial has no standard error)."),
        ({"rollout": 1}, "A rollout takes 2 to 1296 trials (one trial has no standard error)."),
        (
            {"rollout": 4, "truncate": 0},
            "A rollout is cut after at least one ply (truncate:1 or more).",
        ),
    ],
)
def test_bad_rollouts_are_refused(
    service: Service, script: deque[int], options: dict[str, int], message: str
) -> None:
    expert_game(service, script)
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
    assert texts[-1] == "A rollout takes 2 to 1296 trials (one trial has no standard error)."


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


def test_the_same_seed_gives_the_same_figures_and_says_so(
    service: Service, script: deque[int]
) -> None:
    expert_game(service, script)
    # Cut after one ply with variance reduction, every trial gives the same (the 1-ply average):
    # the dice show without it.
    first = service.hint(ALICE, DM, rollout=3, truncate=3, seed=7, vr=False)
    assert "seed 7" in first.text.splitlines()[0]
    assert service.hint(ALICE, DM, rollout=3, truncate=3, seed=7, vr=False).text == first.text
    other = service.hint(ALICE, DM, rollout=3, truncate=3, seed=8, vr=False)
    assert other.text.splitlines()[1:] != first.text.splitlines()[1:]


def test_variance_reduction_can_be_turned_off(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.analysis import rollout as engine_rollout

    expert_game(service, script)
    asked: list[bool] = []
    trial = engine_rollout._trial

    def spy(position, player, rolls, settings, *cube):  # type: ignore[no-untyped-def]
        asked.append(settings.variance_reduction)
        return trial(position, player, rolls, settings, *cube)

    monkeypatch.setattr(engine_rollout, "_trial", spy)
    reply = service.hint(ALICE, DM, rollout=2, truncate=1, vr=False)
    assert "without variance reduction" in reply.text.splitlines()[0]
    assert asked and not any(asked)
    asked.clear()
    reply = service.hint(ALICE, DM, rollout=2, truncate=1)
    assert "with variance reduction" in reply.text.splitlines()[0] and all(asked)


def test_the_time_limit_stops_with_the_trials_done_and_says_so(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake clock: every reading is 4 seconds after the last (readings at 0, 4, 8, 12): 2
    trials by 4 s, 2 more by 8 s (2 s a trial: one more fits before 10 s), 1 by 12 s, when
    another would end past 10 s."""
    ticks = iter(range(0, 10_000, 4))
    monkeypatch.setattr(rollout_module, "clock", lambda: float(next(ticks)))
    monkeypatch.setattr(rollout_module, "PART", 2)
    expert_game(service, script)
    reply = service.hint(ALICE, DM, rollout=20, truncate=1, seconds=10)
    lines = reply.text.splitlines()
    assert "5 trials" in lines[0]
    assert lines[-1] == "⏱ Stopped at the time limit of 10 seconds: 5 of 20 trials done."
    ticks = iter(range(0, 10_000, 4))
    whole = service.hint(ALICE, DM, rollout=4, truncate=1, seconds=10)
    assert "4 trials" in whole.text and "Stopped" not in whole.text


def test_the_default_time_limit_stops_a_long_rollout(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = iter(range(0, 10_000, 30))
    monkeypatch.setattr(rollout_module, "clock", lambda: float(next(ticks)))
    monkeypatch.setattr(rollout_module, "PART", 1)
    expert_game(service, script)
    reply = service.hint(ALICE, DM, rollout=10, truncate=1)  # readings at 0, 30, 60 seconds
    assert reply.text.splitlines()[-1] == (
        "⏱ Stopped at the time limit of 60 seconds: 2 of 10 trials done."
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seed": -1}, "A rollout's seed is a whole number from 0 to 2147483647."),
        ({"seed": 2**31}, "A rollout's seed is a whole number from 0 to 2147483647."),
        ({"seconds": 0}, "A rollout's time limit is 1 to 300 seconds."),
        ({"seconds": 301}, "A rollout's time limit is 1 to 300 seconds."),
    ],
)
def test_bad_rollout_options_are_refused(
    service: Service, script: deque[int], options: dict[str, int], message: str
) -> None:
    expert_game(service, script)
    reply = service.hint(ALICE, DM, **options)
    assert reply.ephemeral and reply.text == message


def test_the_rollout_messages_exist_in_french() -> None:
    from bot.i18n import t

    assert (
        t("rollout.seed", "fr", most=9)
        == "La graine d’une simulation est un nombre entier de 0 à 9."
    )
    assert t("rollout.seconds", "fr", most=300).startswith("La limite de temps")
    assert "2 parties sur 10" in t("rollout.stopped", "fr", seconds=60, done=2, trials=10)


def test_any_rollout_option_sends_the_hint_to_the_analysis_lane() -> None:
    command = by_name("hint")
    for key in ("seed", "vr", "seconds"):
        values: dict[str, object] = {"rollout": None, "truncate": None, key: None}
        assert command.lane_for(values) == "hints"
        values[key] = 1
        assert command.lane_for(values) == "analysis"


def test_the_terminal_takes_the_rollout_options(service: Service, script: deque[int]) -> None:
    import io
    import json
    from pathlib import Path

    from bot.terminal import Terminal

    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    script.extend([3, 1])
    term.run(["/play level:expert", "/hint rollout:2 truncate:1 vr:false seed:5 seconds:30"])
    texts = [json.loads(line).get("text", "") for line in out.getvalue().splitlines()]
    assert "without variance reduction, seed 5" in texts[-1]


def test_a_money_game_rolls_out_cubeful_unless_asked_not_to(
    service: Service, script: deque[int]
) -> None:
    expert_game(service, script)
    cubeful = service.hint(ALICE, DM, rollout=2, truncate=2)
    assert "cubeful (equity per the present cube)" in cubeful.text.splitlines()[0]
    cubeless = service.hint(ALICE, DM, rollout=2, truncate=2, cubeful=False)
    assert ", cubeless," in cubeless.text.splitlines()[0]


@pytest.mark.parametrize("options", [{"points": 3}, {"cube": False}])
def test_matches_and_games_without_cube_roll_out_cubeless(
    service: Service, script: deque[int], options: dict[str, object]
) -> None:
    expert_game(service, script, **options)
    reply = service.hint(ALICE, DM, rollout=2, truncate=1)
    assert ", cubeless," in reply.text.splitlines()[0]
    # In a match it is money play: the reply says the score is not counted (a new player read
    # a match's take rolled out at -0.675 against a pass's -1 where the hint said pass).
    in_match = "in money equity, the match score not counted" in reply.text.splitlines()[0]
    assert in_match == ("points" in options), reply.text
    refused = service.hint(ALICE, DM, rollout=2, truncate=1, cubeful=True)
    assert refused.ephemeral and refused.text == (
        "Cubeful rollouts are for money games with the cube; this one rolls out cubeless."
    )


def test_cubeful_is_an_option_of_hint_in_both_languages() -> None:
    from bot.i18n import t

    assert [o.name for o in by_name("hint").options][-1] == "cubeful"
    assert t("cmd.hint.opt.cubeful.name", "fr") == "videau"
    assert t("rollout.cubeful_money", "fr").startswith("La simulation avec videau")


@pytest.mark.usefixtures("quick_reviews")  # where the rollouts show, at any depth
def test_a_review_rolls_out_the_worst_plays(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.bot.conftest import play_out

    start = service.play(ALICE, DM, level="beginner")
    play_out(service, ALICE, DM, start)
    plain = service.review(ALICE, DM)
    rolled: list[tuple[int, int]] = []
    real = rollout_module.rollout_mistakes

    def spy(decisions, trials, lang, cube):  # type: ignore[no-untyped-def]
        out = real(decisions, trials, lang, cube)
        rolled.append((len(decisions), len(out)))
        return out

    monkeypatch.setattr("bot.service.analysis.rollout_mistakes", spy)
    reply = service.review(ALICE, DM, rollout=2)
    lines = [x for x in reply.text.splitlines() if "Rolled out (" in x]
    assert rolled and rolled[0][1] == len(lines) >= 1
    assert len(lines) <= rollout_module.REVIEW_ROLLOUTS
    for line in lines:
        assert "2 trials" in line and "better " in line and "played " in line
        # And what it says of the review's mistake, by its own figures (two combined SE).
        found = re.search(r"better ([-+][\d.]+) ± ([\d.]+), played ([-+][\d.]+) ± ([\d.]+)", line)
        assert found, line
        best, best_se, made, made_se = (float(x) for x in found.groups())
        margin = 2 * math.hypot(best_se, made_se)
        verdicts = [words for words in ("confirms", "prefers", "does not settle") if words in line]
        assert len(verdicts) == 1, line
        if abs(abs(best - made) - margin) < 0.003:
            continue  # on the edge by the rounded figures: the code decides on exact ones
        said = {"confirms": best - made > margin, "prefers": made - best > margin}
        said["does not settle"] = not any(said.values())
        assert said[verdicts[0]], line
    # Each rollout line follows its mistake's line; without the option, no rollout.
    text = reply.text.splitlines()
    for k, x in enumerate(text):
        if "Rolled out (" in x:
            assert text[k - 1].startswith("Mistake ")
    assert "Rolled out (" not in plain.text


def test_a_review_rollout_needs_a_sensible_count(service: Service) -> None:
    from tests.bot.conftest import play_out

    start = service.play(ALICE, DM, level="beginner")
    play_out(service, ALICE, DM, start)
    reply = service.review(ALICE, DM, rollout=5000)
    assert (
        reply.ephemeral
        and reply.text == "A rollout takes 2 to 1296 trials (one trial has no standard error)."
    )


def test_a_rollout_facing_a_double_is_of_the_take_against_a_pass(service: Service) -> None:
    # It was titled "the position before the roll" and gave one equity, to compare with
    # nothing: the taker now reads taking against passing, and what the rollout says.
    xgid = "XGID=--aB-bDBB-a-c--C-aaeA-Aa--:0:0:1:D:0:0:0:0:6"  # Alice to take or pass a 2
    started = service.play(ALICE, DM, level="expert", position_id=xgid)
    assert "Take" in [b.label for b in started.buttons], started.text
    reply = service.hint(ALICE, DM, rollout=4, truncate=1, seed=3)
    first, second = reply.text.splitlines()[:2]
    assert first.startswith("🎲 Rollout of the take (the cube at 2, then yours): 4 trials"), first
    verdict = second.split("passing -1.000: **")[1].rstrip("*")
    assert verdict in ("take", "pass", "too close to call (within two standard errors)")
    taking = float(second.split("Your equity taking ")[1].split(" ±")[0])
    se = float(second.split(" ± ")[1].split(" ")[0])
    if verdict != "too close to call (within two standard errors)":
        assert (verdict == "take") == (taking > -1.0) and abs(taking + 1.0) > 2 * se


@pytest.mark.parametrize(
    ("xgid", "options"),
    [
        ("XGID=--aB-bDBB-a-c--C-aaeA-Aa--:0:0:1:D:0:0:0:0:6", {"cubeful": False}),  # money
        ("XGID=--aB-bDBB-a-c--C-aaeA-Aa--:0:0:1:D:0:0:0:7:6", {}),  # a 7-point match
    ],
)
def test_a_cubeless_rollout_of_a_double_gives_no_verdict(
    service: Service, xgid: str, options: dict[str, bool]
) -> None:
    # Per unit cube (and, in a match, a pass costs points at the score): its figure does not
    # compare with -1, and it had said "take" where taking cost twice as much.
    service.play(ALICE, DM, level="expert", position_id=xgid)
    reply = service.hint(ALICE, DM, rollout=4, truncate=1, seed=3, **options)
    assert "Rollout of the take" not in reply.text and "passing -1.000" not in reply.text
    # It had been titled "the position before the roll": it is the taker's, after his take.
    first, second = reply.text.splitlines()[:2]
    assert first.startswith("🎲 Rollout of the position once you have taken, before your"), first
    assert "per unit of the cube" in second and "(no take or pass:" in second, second

"""``/hint rollout:N``: the current decision rolled out (:mod:`engine.analysis.rollout`).

A rollout plays the position out ``N`` times by GNU Backgammon's network at 0-ply against
itself, the player of GNU Backgammon's own rollouts (bgsage at 1-ply where gnubg-nn is not
installed: :func:`~engine.analysis.rollout.rollout_player`) (cubeless,
with GNU Backgammon's variance reduction, played to the end or cut after ``truncate`` plies and
evaluated), and answers with each candidate's equity and standard error: the three best plays of
the 2-ply hint when the player has rolled, the position itself before a roll or on a double.

It is heavy: the command table sends such a hint to the analysis lane (the reviews' lane and
limits, :mod:`bot.heavy`), and the rollout runs in parts of :data:`PART` trials, each in a worker
process when the bot has them (:meth:`bot.heavy.Pools.analyse`: mostly Python, it would hold the
GIL), with a progress line shown in place of the answer between parts (:func:`report_progress`),
and it stops after :data:`SECONDS` seconds (or the ``seconds`` asked) with the trials done, and
says so. The dice are seeded by the game and the moment, so asking again gives the same figures,
or by the ``seed`` asked (the same seed, the same figures); ``vr`` False turns variance
reduction off. The time is read from :data:`clock` (a test gives its own).

In a money game with the cube the rollout is *cubeful* by default, as GNU Backgammon's: each
trial plays the cube from the game's cube (:mod:`engine.analysis.rollout`), and the equities
are per the cube's present value (on a double: the doubled cube owned by the taker, to compare
with the pass, -1); ``cubeful`` False asks for a cubeless one. Matches and games without the
cube roll out cubeless (``cubeful`` True there is refused).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

from bot import heavy
from bot.i18n import number, t
from bot.service.model import Table, high_first
from bot.service.refusal import Refusal
from bot.service.replies import Reply, report_progress
from engine import Phase, Play, Position
from engine.analysis import hint
from engine.analysis.review import Decision
from engine.analysis.rollout import (
    RolloutResult,
    RolloutSettings,
    rollout_player,
    rollout_plays,
    rollout_position,
)

__all__ = [
    "CANDIDATES",
    "MAX_SECONDS",
    "MAX_SEED",
    "MAX_TRIALS",
    "MIN_TRIALS",
    "PART",
    "REVIEW_ROLLOUTS",
    "SECONDS",
    "check_trials",
    "rollout_hint",
    "rollout_mistakes",
]

MIN_TRIALS = 2  # one trial has no standard error: its "± 0.000" read as exact
MAX_TRIALS = 1296
DEFAULT_TRIALS = 36
CANDIDATES = 3
PART = 12
FIRST_PART = 2  # trials of the first part, after which the time of a trial is known
SECONDS = 60
"""The time limit of a rollout when none is asked."""
MAX_SECONDS = 300
"""The longest time limit one may ask (the analysis lane is shared with the reviews)."""
MAX_SEED = 2**31 - 1
REVIEW_ROLLOUTS = 3
"""The most mistakes of a review rolled out (``/review rollout:N``)."""
PROGRESS_EVERY = 2.0  # seconds between two progress lines
clock: Callable[[], float] = time.monotonic
"""Where the rollout reads the time (seconds, any origin)."""


def rollout_hint(
    table: Table,
    seat: int,
    lang: str,
    trials: int | None,
    truncate: int | None,
    plies: int,
    *,
    seed: int | None = None,
    vr: bool | None = None,
    seconds: int | None = None,
    cubeful: bool | None = None,
) -> Reply:
    """The rollout answer for the player ``seat`` on his turn (see the module docstring);
    ``trials`` None (only other options given): :data:`DEFAULT_TRIALS`."""
    trials = DEFAULT_TRIALS if trials is None else trials
    _check_options(trials, truncate, seed, seconds)
    game = table.game
    money = game.match_length == 0 and game.cube_enabled
    if cubeful and not money:
        raise Refusal("rollout.cubeful_money")
    cubeful = money if cubeful is None else cubeful
    reduced = True if vr is None else vr
    settings = RolloutSettings(
        trials=trials,
        truncate=truncate,
        variance_reduction=reduced,
        seed=f"{table.game_id}/{game.position_id()}/{game.match_id()}" if seed is None else seed,
        time_limit=float(SECONDS if seconds is None else seconds),
        cubeful=cubeful,
        jacoby=game.jacoby,
    )
    how = _how(lang, truncate, cubeful, reduced, seed, match=game.match_length > 0)
    if game.phase is Phase.MOVE:
        return _plays_reply(table, seat, lang, settings, how, plies)
    if game.phase is Phase.ROLL or game.phase is Phase.DOUBLED:
        return _position_reply(table, seat, lang, settings, how)
    raise Refusal("hint.nothing")


def check_trials(trials: int) -> None:
    """Refuses a count of trials out of :data:`MIN_TRIALS` to :data:`MAX_TRIALS`."""
    if not MIN_TRIALS <= trials <= MAX_TRIALS:
        raise Refusal("rollout.trials", least=MIN_TRIALS, most=MAX_TRIALS)


def _check_options(
    trials: int, truncate: int | None, seed: int | None, seconds: int | None
) -> None:
    """Refuses a rollout's options out of their bounds."""
    check_trials(trials)
    if truncate is not None and truncate < 1:
        raise Refusal("rollout.truncate")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise Refusal("rollout.seed", most=MAX_SEED)
    if seconds is not None and not 1 <= seconds <= MAX_SECONDS:
        raise Refusal("rollout.seconds", most=MAX_SECONDS)


def _how(
    lang: str,
    truncate: int | None,
    cubeful: bool,
    reduced: bool,
    seed: int | None,
    *,
    match: bool = False,
) -> str:
    """How the rollout is run, for the reply: its cut, cube, variance reduction and seed. In a
    match the rollout is of money play without the cube: the reply says the score does not
    count (a new player compared a match's take, rolled out at -0.675, with a pass's -1, where
    the match-aware hint said pass)."""
    parts = [t("rollout.cut", lang, plies=truncate) if truncate else t("rollout.to_end", lang)]
    parts.append(t(_cube_key(cubeful, match=match), lang))
    parts.append(t("rollout.vr_on" if reduced else "rollout.vr_off", lang))
    if seed is not None:
        parts.append(t("rollout.seed_used", lang, seed=seed))
    return ", ".join(parts)


def _cube_key(cubeful: bool, *, match: bool) -> str:
    """How a rollout treats the cube, as a message key (see :func:`_how`)."""
    if cubeful:
        return "rollout.cubeful"
    return "rollout.cubeless_match" if match else "rollout.cubeless"


def _plays_reply(
    table: Table, seat: int, lang: str, settings: RolloutSettings, how: str, plies: int
) -> Reply:
    """The best plays of the hint at ``plies``, rolled out."""
    game = table.game
    dice = game.partial.dice
    best = hint(game.position, dice, game.context(seat), n=CANDIDATES, plies=plies)
    plays = [h.play for h in best]
    settings = replace(settings, cube_owner=game.context(seat).cube_owner)  # 0: the mover
    results, stopped = _rolled(lambda s, k: _plays_part(game.position, plays, s, k), settings, lang)
    trials = max(r.trials for r in results)
    title = t("rollout.title_plays", lang, trials=trials, how=how, **high_first(dice))
    lines = [title, *_lines(results, lang), *_stopped(settings, trials, stopped, lang)]
    return Reply(text="\n".join(lines), ephemeral=True)


def _position_reply(
    table: Table, seat: int, lang: str, settings: RolloutSettings, how: str
) -> Reply:
    """The position before the roll (or the double), rolled out; the asker's equity."""
    game = table.game
    position = game.position  # seen by the player on roll (the doubler on a double)
    if game.phase is Phase.DOUBLED:  # taken: the doubled cube, owned by the taker
        settings = replace(settings, cube_value=2, cube_owner=1)
    else:  # equities per the cube's present value
        settings = replace(settings, cube_owner=game.context(game.on_roll).cube_owner)
    (result,), stopped = _rolled(lambda s, k: [_position_part(position, s, k)], settings, lang)
    mine = game.on_roll == seat
    equity = result.equity if mine else -result.equity
    figures = {
        "trials": result.trials,
        "how": how,
        "equity": number(equity, "+.3f", lang),
        "se": number(result.se, ".3f", lang),
        "win": number(100 * (result.probs[0] if mine else 1.0 - result.probs[0]), ".1f", lang),
    }
    # The taker's decision, rolled out with the cube: the take against a pass's -1. A cubeless
    # rollout's equity is per unit cube and a match's pass costs points at the score: neither
    # compares with -1, so they get no verdict.
    if game.phase is Phase.DOUBLED and not mine and settings.cubeful:
        verdict = _take_or_pass(equity, result.se, lang)
        passing = number(-1.0, "+.3f", lang)
        value = 2 * game.cube_value
        text = t("rollout.take", lang, value=value, pass_equity=passing, verdict=verdict, **figures)
    elif game.phase is Phase.DOUBLED and not mine:  # the take, but per unit cube: no verdict
        text = t("rollout.take_cubeless", lang, **figures)
    else:
        text = t("rollout.position", lang, **figures)
    text = "\n".join([text, *_stopped(settings, result.trials, stopped, lang)])
    return Reply(text=text, ephemeral=True)


def _take_or_pass(taking: float, se: float, lang: str) -> str:
    """What the rollout says of a take worth ``taking`` (± ``se``) against a pass's -1: a
    difference within two standard errors decides nothing."""
    if abs(taking + 1.0) <= 2 * se:
        return t("rollout.verdict_close", lang)
    return t("rollout.verdict_take" if taking > -1.0 else "rollout.verdict_pass", lang)


def _plays_part(
    position: Position, plays: Sequence[Play], s: RolloutSettings, first: int
) -> list[RolloutResult]:
    return heavy.POOLS.analyse(_plays_job, position, list(plays), s, first)


def _position_part(position: Position, s: RolloutSettings, first: int) -> RolloutResult:
    return heavy.POOLS.analyse(_position_job, position, s, first)


def _plays_job(
    position: Position, plays: list[Play], settings: RolloutSettings, first: int
) -> list[RolloutResult]:
    """One part, in a worker process (module-level: it is pickled)."""
    return rollout_plays(position, plays, rollout_player(), settings, first_trial=first)


def _position_job(position: Position, settings: RolloutSettings, first: int) -> RolloutResult:
    return rollout_position(position, rollout_player(), settings, first_trial=first)


def _stopped(settings: RolloutSettings, done: int, stopped: bool, lang: str) -> list[str]:
    """The line saying the time limit cut the rollout short, if it did."""
    if not stopped:
        return []
    limit = round(settings.time_limit or SECONDS)
    return [t("rollout.stopped", lang, seconds=limit, done=done, trials=settings.trials)]


def _rolled(
    part: Callable[[RolloutSettings, int], list[RolloutResult]],
    settings: RolloutSettings,
    lang: str,
) -> tuple[list[RolloutResult], bool]:
    """The rollout run in parts of at most :data:`PART` trials, progress told between parts,
    until the trials are done or the time limit would be passed by one more trial (then True
    with the trials done so far). The first part is short, and the next ones sized to end
    within the limit by the time a trial took so far: ``seconds:1`` had run a whole part of
    12 trials (7 seconds) before looking at the clock."""
    limit = settings.time_limit if settings.time_limit is not None else float(SECONDS)
    started = last = now = clock()
    total: list[RolloutResult] | None = None
    done = 0
    while done < settings.trials:
        size = _part_size(settings.trials - done, done, now - started, limit)
        results = part(_sized(settings, size), done)
        if total is None:
            total = results
        else:
            for mine, more in zip(total, results, strict=True):
                mine.merge(more)
        done += size
        now = clock()
        elapsed = now - started
        if done < settings.trials and elapsed + elapsed / done > limit:
            assert total is not None
            return total, True
        if done < settings.trials and now - last >= PROGRESS_EVERY:
            report_progress(t("rollout.progress", lang, done=done, trials=settings.trials))
            last = now
    assert total is not None
    return total, False


def _part_size(left: int, done: int, elapsed: float, limit: float) -> int:
    """How many trials the next part runs: :data:`FIRST_PART` first (how long a trial takes
    is not known yet), then as many as end within ``limit`` at the pace so far, one at least,
    :data:`PART` at most."""
    if not done:
        return min(FIRST_PART, PART, left)
    fits = int((limit - elapsed) / (elapsed / done)) if elapsed > 0 else PART
    return max(1, min(PART, left, fits))


def _sized(settings: RolloutSettings, trials: int) -> RolloutSettings:
    """A part of the rollout: its time limit is the whole rollout's (:func:`_rolled`)."""
    return replace(settings, trials=trials, time_limit=None)


def _lines(results: Sequence[RolloutResult], lang: str) -> list[str]:
    ranked = sorted(results, key=lambda r: -r.equity)
    return [
        t(
            "rollout.line",
            lang,
            rank=i,
            play=str(r.play),
            equity=number(r.equity, "+.3f", lang),
            se=number(r.se, ".3f", lang),
            win=number(100 * r.probs[0], ".1f", lang),
        )
        for i, r in enumerate(ranked, start=1)
    ]


def rollout_mistakes(
    decisions: Sequence[Decision], trials: int, lang: str, cube: bool = True
) -> dict[int, str]:
    """``/review rollout:N``: the checker-play mistakes among ``decisions`` (the review's worst,
    at most :data:`REVIEW_ROLLOUTS`) rolled out, the played play against the best with the same
    dice, ``trials`` each, cubeful in money games with the cube (``cube``) as
    :func:`rollout_hint`, all within one time
    limit of :data:`SECONDS`; a line for each, by its index in ``decisions`` (cube decisions are
    not rolled out, nor those the time limit left out)."""
    check_trials(trials)
    started = clock()
    lines: dict[int, str] = {}
    for k, d in enumerate(decisions[:REVIEW_ROLLOUTS]):
        played, best = d.played_play, d.best_play
        left = SECONDS - (clock() - started)
        if d.kind != "move" or played is None or best is None or played == best or left <= 0:
            continue
        lines[k] = _mistake_line(d, played, best, trials, left, lang, cube)
    return lines


def _mistake_line(
    d: Decision, played: Play, best: Play, trials: int, left: float, lang: str, cube: bool
) -> str:
    """:func:`rollout_mistakes`' line for the mistake ``d``: ``played`` and ``best`` rolled out
    within the ``left`` seconds."""
    money = cube and d.context.match_length == 0
    settings = RolloutSettings(
        trials=trials,
        seed=f"review/{d.position_id}/{d.match_id}",
        time_limit=left,
        cubeful=money,
        cube_owner=d.context.cube_owner,
        jacoby=d.context.jacoby,
    )
    part = partial(_plays_part, d.position, [best, played])
    results, stopped = _rolled(part, settings, lang)
    done = min(r.trials for r in results)
    mine, better = results[1], results[0]
    line = t(
        "rollout.mistake",
        lang,
        trials=done,
        how=t(_cube_key(money, match=d.context.match_length > 0), lang),
        best=number(better.equity, "+.3f", lang),
        best_se=number(better.se, ".3f", lang),
        played=number(mine.equity, "+.3f", lang),
        played_se=number(mine.se, ".3f", lang),
    )
    line += " " + t(f"rollout.mistake_{_settled(better, mine)}", lang)
    if stopped:
        line += " " + t("rollout.mistake_stopped", lang)
    return line


def _settled(better: RolloutResult, played: RolloutResult) -> str:
    """Whether the rollout bears out the review's mistake: ``confirmed``, ``reversed`` (the
    play made came out ahead), or ``unsettled`` (within two combined standard errors)."""
    margin = 2 * math.hypot(better.se, played.se)
    if better.equity - played.equity > margin:
        return "confirmed"
    return "reversed" if played.equity - better.equity > margin else "unsettled"

"""``/hint rollout:N``: the current decision rolled out (:mod:`engine.analysis.rollout`).

A rollout plays the position out ``N`` times by the 1-ply evaluator against itself (cubeless,
with GNU Backgammon's variance reduction, played to the end or cut after ``truncate`` plies and
evaluated), and answers with each candidate's equity and standard error: the three best plays of
the 2-ply hint when the player has rolled, the position itself before a roll or on a double.

It is heavy: the command table sends such a hint to the analysis lane (the reviews' lane and
limits, :mod:`bot.heavy`), and the rollout runs in parts of :data:`PART` trials, each in a worker
process when the bot has them (:meth:`bot.heavy.Pools.analyse`: mostly Python, it would hold the
GIL), with a progress line shown in place of the answer between parts (:func:`report_progress`),
and it stops after ``seconds`` (at most and by default :data:`SECONDS`) with the trials done,
saying so. The dice are seeded by the game and the moment unless a ``seed`` is given (then by
it alone), so asking again gives the same figures; variance reduction can be turned off.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from bot import heavy
from bot.i18n import number, t
from bot.service.model import Table, high_first
from bot.service.refusal import Refusal
from bot.service.replies import Reply, report_progress
from engine import Phase, Play, Position, legal_plays
from engine.analysis import hint
from engine.analysis.review import Review
from engine.analysis.rollout import (
    RolloutResult,
    RolloutSettings,
    rollout_player,
    rollout_plays,
    rollout_position,
)

__all__ = [
    "CANDIDATES",
    "MAX_SEED",
    "MAX_TRIALS",
    "PART",
    "SECONDS",
    "rollout_hint",
    "rollout_worst_play",
]

MAX_TRIALS = 1296
DEFAULT_TRIALS = 36
CANDIDATES = 3
PART = 12
SECONDS = 60.0
PROGRESS_EVERY = 2.0  # seconds between two progress lines
MAX_SEED = 999_999_999
CLOCK: Callable[[], float] = time.monotonic
"""The clock the time limit is read on (tests put a fake one)."""


def rollout_hint(
    table: Table,
    seat: int,
    lang: str,
    trials: int | None,
    truncate: int | None,
    plies: int,
    *,
    seed: int | None = None,
    variance_reduction: bool | None = None,
    seconds: int | None = None,
) -> Reply:
    """The rollout answer for the player ``seat`` on his turn (see the module docstring);
    ``trials`` None (only other options given): :data:`DEFAULT_TRIALS`; ``seconds`` None:
    :data:`SECONDS`; ``variance_reduction`` None: on."""
    trials = DEFAULT_TRIALS if trials is None else trials
    if not 1 <= trials <= MAX_TRIALS:
        raise Refusal("rollout.trials", most=MAX_TRIALS)
    if truncate is not None and truncate < 1:
        raise Refusal("rollout.truncate")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise Refusal("rollout.seed", most=MAX_SEED)
    if seconds is not None and not 1 <= seconds <= SECONDS:
        raise Refusal("rollout.seconds", most=int(SECONDS))
    game = table.game
    chosen = f"{table.game_id}/{game.position_id()}/{game.match_id()}" if seed is None else seed
    reduced = variance_reduction is not False
    settings = RolloutSettings(
        trials=trials,
        truncate=truncate,
        seed=chosen,
        variance_reduction=reduced,
        time_limit=float(SECONDS if seconds is None else seconds),
    )
    how = t("rollout.cut", lang, plies=truncate) if truncate else t("rollout.to_end", lang)
    how += ", " + t("rollout.vr_on" if reduced else "rollout.vr_off", lang)
    if seed is not None:
        how += ", " + t("rollout.seeded", lang, seed=seed)
    if game.phase is Phase.MOVE:
        return _plays_reply(table, seat, lang, settings, how, plies)
    if game.phase is Phase.ROLL or game.phase is Phase.DOUBLED:
        return _position_reply(table, seat, lang, settings, how)
    raise Refusal("hint.nothing")


def rollout_worst_play(
    review: Review, player: int, game_id: int, trials: int, lang: str
) -> list[str]:
    """``/review rollout:N``: the worst checker play of ``player`` in the review, the play
    made and the best one rolled out ``trials`` times each (to the end, variance reduction,
    dice seeded by the game and the decision): lines to add to the review, or a line saying
    there is no checker-play error to roll out."""
    if not 1 <= trials <= MAX_TRIALS:
        raise Refusal("rollout.trials", most=MAX_TRIALS)
    worst = next(
        (d for d in review.worst(player, n=len(review.decisions)) if d.kind == "move"), None
    )
    if worst is None or worst.dice is None:
        return [t("rollout.review_none", lang)]
    position, dice = worst.position, worst.dice
    wanted = [worst.best, worst.played]
    found = {str(p): p for p in legal_plays(position, dice) if str(p) in wanted}
    plays = [found[w] for w in wanted if w in found]
    seed = f"review/{game_id}/{worst.game}/{worst.move}"
    settings = RolloutSettings(trials=trials, seed=seed, time_limit=SECONDS)
    results = _rolled(lambda s, k: _plays_part(position, plays, s, k), settings, lang)
    done = max(r.trials for r in results)
    title = t(
        "rollout.review_title",
        lang,
        game=worst.game + 1,
        move=worst.move,
        played=worst.played,
        trials=done,
        **high_first(dice),
    )
    return [title, *_lines(results, lang), *_stopped(settings, done, lang)]


def _stopped(settings: RolloutSettings, done: int, lang: str) -> list[str]:
    """The line saying the time limit cut the rollout short, if it did."""
    if done >= settings.trials:
        return []
    limit = int(settings.time_limit or SECONDS)
    return [t("rollout.stopped", lang, seconds=limit, done=done, trials=settings.trials)]


def _plays_reply(
    table: Table, seat: int, lang: str, settings: RolloutSettings, how: str, plies: int
) -> Reply:
    """The best plays of the hint at ``plies``, rolled out."""
    game = table.game
    dice = game.partial.dice
    best = hint(game.position, dice, game.context(seat), n=CANDIDATES, plies=plies)
    plays = [h.play for h in best]
    results = _rolled(lambda s, k: _plays_part(game.position, plays, s, k), settings, lang)
    trials = max(r.trials for r in results)
    title = t("rollout.title_plays", lang, trials=trials, how=how, **high_first(dice))
    lines = [title, *_lines(results, lang), *_stopped(settings, trials, lang)]
    return Reply(text="\n".join(lines), ephemeral=True)


def _position_reply(
    table: Table, seat: int, lang: str, settings: RolloutSettings, how: str
) -> Reply:
    """The position before the roll (or the double), rolled out; the asker's equity."""
    game = table.game
    position = game.position  # seen by the player on roll (the doubler on a double)
    (result,) = _rolled(lambda s, k: [_position_part(position, s, k)], settings, lang)
    mine = game.on_roll == seat
    win = result.probs[0] if mine else 1.0 - result.probs[0]
    text = t(
        "rollout.position",
        lang,
        trials=result.trials,
        how=how,
        equity=number(result.equity if mine else -result.equity, "+.3f", lang),
        se=number(result.se, ".3f", lang),
        win=number(100 * win, ".1f", lang),
    )
    return Reply(text="\n".join([text, *_stopped(settings, result.trials, lang)]), ephemeral=True)


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


def _rolled(
    part: Callable[[RolloutSettings, int], list[RolloutResult]],
    settings: RolloutSettings,
    lang: str,
) -> list[RolloutResult]:
    """The rollout run in parts of :data:`PART` trials, progress told between parts, until the
    trials are done or the settings' time limit has passed (on :data:`CLOCK`)."""
    limit = SECONDS if settings.time_limit is None else settings.time_limit
    started = last = CLOCK()
    total: list[RolloutResult] | None = None
    done = 0
    while done < settings.trials:
        size = min(PART, settings.trials - done)
        results = part(_sized(settings, size), done)
        if total is None:
            total = results
        else:
            for mine, more in zip(total, results, strict=True):
                mine.merge(more)
        done += size
        now = CLOCK()
        if now - started >= limit:
            break
        if done < settings.trials and now - last >= PROGRESS_EVERY:
            report_progress(t("rollout.progress", lang, done=done, trials=settings.trials))
            last = now
    assert total is not None
    return total


def _sized(settings: RolloutSettings, trials: int) -> RolloutSettings:
    return RolloutSettings(
        trials=trials,
        truncate=settings.truncate,
        variance_reduction=settings.variance_reduction,
        seed=settings.seed,
    )


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

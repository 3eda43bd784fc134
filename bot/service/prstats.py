"""PR (XG's Performance Rating, :mod:`engine.analysis.pr`) where players see it: a line beside
the error rates of ``/review``, and in ``/stats`` the PR over the player's recent reviewed games
with its trend chart. Games with fewer than ten non-obvious decisions (short or abandoned) are
left out of the trend."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from bot.drawers import DRAWERS
from bot.i18n import t
from db.models import Game as GameRow
from engine.analysis import Review
from engine.analysis.pr import PerformanceRating, performance_rating, pooled
from render.chart import line_chart

__all__ = ["TREND_GAMES", "counted_prs", "pr_line", "pr_trend"]

TREND_GAMES = 50  # the trend covers the player's last this many reviewed games


def pr_line(review: Review, player: int, lang: str) -> str | None:
    """``PR 6.1 (Expert) over 41 non-obvious decisions`` (None without any decision)."""
    return _line(performance_rating(review, player), lang)


def _line(pr: PerformanceRating, lang: str) -> str | None:
    if pr.value is None or pr.band is None:
        return None
    band = t(f"pr.band.{pr.band}", lang)
    return t("pr.line", lang, pr=float(pr.value), band=band, decisions=pr.decisions)


def counted_prs(rows: Sequence[GameRow], player_id: int) -> list[PerformanceRating]:
    """The PR of each game among ``rows`` (newest first, their reviews cached) that counts in
    the trend, oldest first."""
    counted: list[PerformanceRating] = []
    for row in reversed(rows):
        seat = row.seat_of(player_id)
        if seat is None or not row.review:
            continue
        with contextlib.suppress(KeyError, ValueError, TypeError):
            pr = performance_rating(Review.from_dict(row.review), seat)
            if pr.counts_in_trend and pr.value is not None:
                counted.append(pr)
    return counted


def pr_trend(rows: Sequence[GameRow], player_id: int, lang: str) -> tuple[str | None, bytes | None]:
    """The pooled PR over the counted games among ``rows`` (newest first, their reviews cached)
    and the chart of each game's PR, oldest first."""
    counted = counted_prs(rows, player_id)
    if not counted:
        return None, None
    total = pooled(counted)
    if total.value is None or total.band is None:
        return None, None
    band = t(f"pr.band.{total.band}", lang)
    text = t("pr.stats", lang, games=len(counted), pr=float(total.value), band=band)
    chart = None
    if len(counted) >= 2:
        values = [r.value for r in counted if r.value is not None]
        chart = DRAWERS.call(line_chart, values, title=t("pr.chart_title", lang), baseline=5.0)
    return text, chart

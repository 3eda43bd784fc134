"""A tournament as a Discord scheduled event: what to publish when it is created with a start
time (an external event at the tournament's start, its channel as the location, an end that
the format makes likely), and how the event follows the tournament (started, completed,
cancelled). The adapter carries these out where the bot may manage events; the tournament never
depends on them."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from bot.i18n import t
from bot.service.replies import TournamentEvent
from bot.tournaments.formats import format_of
from bot.tournaments.running.view import rules_text
from db.models import Tournament

__all__ = ["event_end", "event_step", "publish_event"]


def publish_event(tour: Tournament) -> TournamentEvent | None:
    """The event to publish for a new tournament: None without a start time (it starts when
    the organizer presses Start, and there is nothing to remind anyone of)."""
    if tour.starts_at is None or tour.guild_id is None or tour.channel_id is None:
        return None
    lang = tour.lang
    rules = rules_text(tour, lang)
    join = t("tournament.event_join", lang)
    return TournamentEvent(
        tour.id,
        "publish",
        name=tour.name[:100],
        description=f"{rules}\n{join}"[:1000],
        location=f"https://discord.com/channels/{tour.guild_id}/{tour.channel_id}",
        start=tour.starts_at,
        end=event_end(tour, tour.starts_at),
    )


def event_end(tour: Tournament, start: datetime) -> datetime:
    """When the tournament should be over, as its format expects (an arena: its window; the
    others: their likely number of rounds times a match's likely length, at least an hour and
    at most a week: :meth:`~bot.tournaments.formats.base.TournamentFormat.duration`).

    >>> from datetime import UTC
    >>> start = datetime(2026, 12, 4, 20, tzinfo=UTC)
    >>> tour = Tournament(format="swiss", rounds=5, match_length=3, max_players=32)
    >>> str(event_end(tour, start))
    '2026-12-04 23:00:00+00:00'
    >>> str(event_end(Tournament(format="arena", minutes=90), start))
    '2026-12-04 21:30:00+00:00'
    """
    return start + format_of(tour.format).duration(tour)


def event_step(
    tour: Tournament, action: Literal["start", "complete", "cancel"]
) -> TournamentEvent | None:
    """The published event (if any) started, completed or cancelled with its tournament."""
    if tour.event_id is None:
        return None
    return TournamentEvent(tour.id, action, event_id=tour.event_id)

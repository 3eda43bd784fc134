"""A tournament format is one object in one place: a toy format (a double round robin: every
pair meets twice) registered here, with its name in both catalogs, is offered by the creation,
paired, ranked, drawn and finished through the service with nothing else written for it."""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.i18n import CATALOGS
from bot.service import Service, Where
from bot.tournaments.formats import base, format_names, format_of, formats
from bot.tournaments.formats.base import TournamentFormat, by_rounds, register
from bot.tournaments.pairing import round_robin_schedule
from bot.tournaments.pictures import Standing
from bot.tournaments.plan import Pairing, State, round_pairings
from bot.tournaments.standings import round_robin_standings
from db import tournaments as repo
from db.models import MatchStatus, Tournament, TournamentStatus
from tests.bot.conftest import Clock
from tests.bot.tournament_players import ORGANIZER, people, play_some, tournament_of

HERE = Where(channel_id=7300, guild_id=9300, guild_locale="en-US")


class DoubleRoundRobin(TournamentFormat):
    """Every pair plays twice: the round robin schedule, then once more."""

    name = "double_round_robin"
    order = 9
    table = "round_robin"  # the round robin's columns

    def next_pairings(self, state: State, now: datetime) -> list[Pairing]:
        if state.playing:
            return []
        schedule = round_robin_schedule(state.seeded) * 2
        rnd = state.last_round + 1
        return round_pairings(rnd, schedule[rnd], state.active) if rnd < len(schedule) else []

    def standings(self, state: State) -> list[Standing]:
        return list(round_robin_standings(state.seeded, state.results()))

    def duration(self, tour: Tournament) -> timedelta:
        return by_rounds(tour, 2 * (min(max(2, tour.max_players or 256), 16) - 1))


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> TournamentFormat:
    """The toy format, registered for this test only, with its name in both languages."""
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    for lang, word in (("en", "double round robin"), ("fr", "double toutes rondes")):
        catalog = dict(CATALOGS[lang]) | {"tournament.format.double_round_robin": word}
        monkeypatch.setitem(CATALOGS, lang, catalog)
    return register(DoubleRoundRobin())


def test_the_built_in_formats_come_from_the_registry() -> None:
    assert [f.name for f in formats()] == ["knockout", "round_robin", "swiss", "arena"]
    assert format_names() == ("arena", "knockout", "round_robin", "swiss")
    with pytest.raises(ValueError, match="two tournament formats"):
        register(_NamedSwiss())  # a name taken: refused, the Swiss stays
    assert format_of("swiss") is not None and not isinstance(format_of("swiss"), _NamedSwiss)


class _NamedSwiss(DoubleRoundRobin):
    name = "swiss"


def test_a_registered_format_runs_a_whole_tournament(
    factory: sessionmaker[Session], toy: TournamentFormat
) -> None:
    clock, players = Clock(), people(3)
    service = Service(factory, clock=clock)
    created = service.tournament(
        ORGANIZER, HERE, "create", name="Twice", format="double_round_robin"
    )
    assert not created.ephemeral, created.text
    assert "double round robin" in created.text, created.text
    assert format_of("double_round_robin") is toy
    tid = int(created.buttons[0].custom_id.split(":")[1])
    for p in players:
        assert not service.tournament(p, HERE, "join").ephemeral
    started = service.tournament(ORGANIZER, HERE, "start")
    assert not started.ephemeral, started.text
    by_id = {p.id: p for p in players}
    play_some(service, factory, tid, by_id, HERE, games=100, rng=random.Random(3))
    tour = tournament_of(factory, tid)
    assert tour.status is TournamentStatus.FINISHED, tour.status
    with factory() as s:
        matches = [m for m in repo.matches(s, tid) if m.player1_id is not None]
    assert all(m.status is MatchStatus.FINISHED for m in matches)
    pairs = Counter(frozenset((m.player0_id, m.player1_id)) for m in matches)
    assert sorted(pairs.values()) == [2, 2, 2]  # each of the three pairs twice
    standings = service.tournament(players[0], HERE, "standings", tournament=tid)
    assert standings.image and standings.image_name == "standings.png"
    with factory() as s:
        state = State(tour, repo.entrants(s, tid), repo.matches(s, tid))
        assert tour.champion_id == toy.standings(state)[0].player

"""Computer-driven tournament players for the tests: they register, and whoever is to move in a
tournament game resigns it (a single game, or a gammon now and then), which his opponent
accepts, all through the service's public actions. The results therefore come from real games
ended through the service; the database is only read to know whose turn it is."""

from __future__ import annotations

import random
from collections.abc import Callable

from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Reply, Service, Where
from db import tournaments as repo
from db.games import get_game
from db.models import MatchStatus, Tournament, TournamentStatus

ORGANIZER = Actor(1, "Olga", locale="en-US", organizer=True)


def people(count: int, first: int = 1000) -> list[Actor]:
    return [Actor(first + i, f"Player {i + 1:02d}", locale="en-US") for i in range(count)]


def tournament_of(factory: sessionmaker[Session], tid: int) -> Tournament:
    with factory() as s:
        tour = repo.get_tournament(s, tid)
        assert tour is not None
        return tour


def playing(factory: sessionmaker[Session], tid: int) -> list[tuple[int, int, int]]:
    """The games being played: (game id, the player to move, his opponent)."""
    out = []
    with factory() as s:
        for m in repo.matches(s, tid):
            if m.status is MatchStatus.PLAYING and m.game_id is not None:
                row = get_game(s, m.game_id)
                if row.turn is None:
                    continue
                mover = row.player_id(row.turn)
                other = row.player_id(1 - row.turn)
                assert mover is not None and other is not None
                out.append((m.game_id, mover, other))
    return out


def resign_one(
    service: Service, by_id: dict[int, Actor], where: Where, game: tuple[int, int, int], value: int
) -> Reply:
    """The player to move resigns; his opponent presses Accept on the offer."""
    _, mover, other = game
    offer = service.resign(by_id[mover], where, value=value)
    while offer.ephemeral and "would not change the result" in offer.text and value > 1:
        value -= 1  # more than the match needs is not offered: the most that counts
        offer = service.resign(by_id[mover], where, value=value)
    assert not offer.ephemeral, offer.text
    accept = next(b for b in offer.buttons if b.custom_id.endswith(":accept"))
    reply = service.press(by_id[other], where, accept.custom_id)
    assert not reply.ephemeral, reply.text
    return reply


def play_some(
    service: Service,
    factory: sessionmaker[Session],
    tid: int,
    by_id: dict[int, Actor],
    where: Where,
    *,
    games: int,
    rng: random.Random,
    on_reply: Callable[[Reply], None] = lambda r: None,
) -> int:
    """End up to ``games`` games of the tournament; returns how many ended."""
    ended = 0
    while ended < games:
        now = playing(factory, tid)
        if not now:
            break
        game = rng.choice(now)
        on_reply(resign_one(service, by_id, where, game, rng.choice((1, 1, 1, 2))))
        ended += 1
    return ended


def finished(factory: sessionmaker[Session], tid: int) -> bool:
    return tournament_of(factory, tid).status is TournamentStatus.FINISHED

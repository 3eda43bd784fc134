"""Helpers for the ladder tests: read a ladder's rungs and its games in play, and play a
challenge to its end through the service (the player to move resigns, the other accepts), so
that every result comes from a real game ended through the service's actions."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Reply, Service, Where
from db import ladders as repo
from db.games import get_game
from db.models import Ladder, LadderChallenge


def ladder_of(factory: sessionmaker[Session], lid: int) -> Ladder:
    with factory() as s:
        ladder = repo.get_ladder(s, lid)
        assert ladder is not None
        return ladder


def rungs(factory: sessionmaker[Session], lid: int) -> list[int]:
    """The members, top first; checks the stored rungs are 1 to N, each once."""
    with factory() as s:
        members = repo.members(s, lid)
    assert [m.rung for m in members] == list(range(1, len(members) + 1))
    return [m.player_id for m in members]


def challenges(factory: sessionmaker[Session], lid: int) -> list[LadderChallenge]:
    with factory() as s:
        from sqlalchemy import select

        stmt = select(LadderChallenge).where(LadderChallenge.ladder_id == lid)
        return list(s.scalars(stmt.order_by(LadderChallenge.id)))


def in_play(factory: sessionmaker[Session], lid: int) -> list[tuple[int, int, int]]:
    """The challenges' games being played: (game id, the player to move, his opponent)."""
    out = []
    with factory() as s:
        for c in repo.in_play(s, lid):
            assert c.game_id is not None
            row = get_game(s, c.game_id)
            if row.turn is None:
                continue
            mover, other = row.player_id(row.turn), row.player_id(1 - row.turn)
            assert mover is not None and other is not None
            out.append((c.game_id, mover, other))
    return out


def lose(service: Service, loser: Actor, winner: Actor, where: Where) -> Reply:
    """``loser`` resigns his challenge's game (a single game; on roll or not) and ``winner``
    accepts. Returns the reply of the Accept (its follow-ups hold what the ladder posts)."""
    offer = service.resign(loser, where, value=1)
    assert not offer.ephemeral, offer.text
    accept = next(b for b in offer.buttons if b.custom_id.endswith(":accept"))
    reply = service.press(winner, where, accept.custom_id)
    assert not reply.ephemeral, reply.text
    return reply

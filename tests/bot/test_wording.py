"""What a new player reads in a challenge and in /history, in English and French."""

from __future__ import annotations

from collections import deque
from dataclasses import replace

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Service, Where
from db.models import Game as GameRow
from db.models import ResultKind
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, press

LANGS = [
    ("en-US", "no cube in a 1-point match", "with the doubling cube"),
    ("fr", "pas de videau dans un match en 1 point", "avec videau"),
]


@pytest.mark.parametrize(("locale", "one_point", "cube"), LANGS)
def test_a_one_point_challenge_does_not_promise_the_cube(
    service: Service, locale: str, one_point: str, cube: str
) -> None:
    # In a 1-point match the cube is dead from the first roll: "with the doubling cube" in
    # the invitation promised something the game then refuses. A longer match still says it.
    here = Where(CHANNEL.channel_id, CHANNEL.guild_id, guild_locale=locale)
    alice = replace(ALICE, locale=locale)
    short = service.challenge(alice, here, BOB, points=1, rated=False)
    assert one_point in short.text and cube not in short.text, short.text
    other = Where(CHANNEL.channel_id + 1, CHANNEL.guild_id, guild_locale=locale)
    bob = replace(BOB, locale=locale)  # another challenger: Alice waits between two challenges
    longer = service.challenge(bob, other, CAROL, points=3, rated=False)
    assert cube in longer.text and one_point not in longer.text, longer.text


def test_a_match_lost_is_its_score_not_its_last_games_gammon(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    made = service.challenge(ALICE, CHANNEL, BOB, points=3, rated=False)
    script.extend([5, 2])
    press(service, BOB, made, "Accept")
    offered = service.resign(ALICE, CHANNEL, 3)  # a backgammon: 3 points end the match
    over = press(service, BOB, offered, "Accept")
    assert over.game_id is not None
    with factory() as s, s.begin():  # as if the deciding game had been played out: a gammon
        row = s.get(GameRow, over.game_id)
        assert row is not None and row.match_length == 3
        row.result_kind = ResultKind.GAMMON
    line = next(x for x in service.history(ALICE, CHANNEL).text.splitlines() if "0–3" in x)
    assert "lost 0–3" in line and "gammon" not in line, line
    with factory() as s, s.begin():  # a money game keeps how it was won
        row = s.get(GameRow, over.game_id)
        assert row is not None
        row.match_length = 0
    assert "by gammon" in service.history(ALICE, CHANNEL).text

"""Ids from outside (a command option, a forged button) that no row can have: negative, or past
the 32-bit id columns. Every entry point that carries an id answers them as it answers an
unknown id, and the id never reaches the database (on PostgreSQL a comparison with a wider
number fails the whole statement with DataError instead of finding nothing; issue 27, item 2).

On SQLite and on PostgreSQL (``TEST_POSTGRES_URL``), with the fuzzing tests' database fixture.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Reply, Service
from tests.bot.conftest import ALICE, CHANNEL
from tests.bot.test_fuzz_service import factory  # noqa: F401 (SQLite and PostgreSQL)

WIDE = (2**31, 2**63, -1)
UNKNOWN = 2**31 - 1  # the largest id a row can have: none has it here

Entry = Callable[[Service, int], Reply]

ENTRIES: dict[str, Entry] = {
    "/board": lambda service, i: service.board(ALICE, CHANNEL, game_id=i),
    "/review": lambda service, i: service.review(ALICE, CHANNEL, game_id=i),
    "/export": lambda service, i: service.export(ALICE, CHANNEL, game_id=i),
    "/verify": lambda service, i: service.verify(ALICE, CHANNEL, game_id=i),
    "/watch": lambda service, i: service.watch(ALICE, CHANNEL, game_id=i),
    "/tournament info": lambda service, i: service.tournament(
        ALICE, CHANNEL, action="info", tournament=i
    ),
    "/tournament join": lambda service, i: service.tournament(
        ALICE, CHANNEL, action="join", tournament=i
    ),
    "/tournament standings": lambda service, i: service.tournament(
        ALICE, CHANNEL, action="standings", tournament=i
    ),
    "Roll": lambda service, i: service.press(ALICE, CHANNEL, f"bg:{i}:1:roll"),
    "Refresh (watch)": lambda service, i: service.press(ALICE, CHANNEL, f"bg:{i}:1:refresh"),
    "Rematch": lambda service, i: service.press(ALICE, CHANNEL, f"bg:{i}:1:rematch"),
    "challenge Accept": lambda service, i: service.press(ALICE, CHANNEL, f"ch:{i}:accept"),
    "tournament Join": lambda service, i: service.press(ALICE, CHANNEL, f"tn:{i}:join"),
    "tournament Standings": lambda service, i: service.press(ALICE, CHANNEL, f"tn:{i}:standings"),
    "puzzle answer": lambda service, i: service.press(ALICE, CHANNEL, f"pz:{i}:0"),
    "puzzle menu": lambda service, i: service.press(ALICE, CHANNEL, f"pz:{i}:m", "0"),
    "daily vote": lambda service, i: service.press(ALICE, CHANNEL, f"pd:{i}:0"),
}


@pytest.fixture
def sent(factory: sessionmaker[Session]) -> Iterator[list[object]]:  # noqa: F811
    """Every parameter of every statement sent to the database during the test."""
    values: list[object] = []
    engine = factory.kw["bind"]

    def record(conn: object, cursor: object, sql: str, params: object, *rest: object) -> None:
        for row in params if isinstance(params, list) else [params]:
            values.extend(row.values() if isinstance(row, dict) else row or ())

    event.listen(engine, "before_cursor_execute", record)
    yield values
    event.remove(engine, "before_cursor_execute", record)


def _said(reply: Reply, row_id: int) -> tuple[str, bool]:
    """What the reply says, with the id it names written N (an unknown game names it)."""
    return reply.text.replace(str(row_id), "N"), reply.ephemeral


@pytest.mark.parametrize("wide", WIDE)
@pytest.mark.parametrize("entry", list(ENTRIES))
def test_an_id_no_row_can_have_is_answered_as_an_unknown_one(
    service: Service, sent: list[object], entry: str, wide: int
) -> None:
    unknown = ENTRIES[entry](service, UNKNOWN)
    assert unknown.ephemeral and unknown.text, unknown  # refused: no such row
    sent.clear()
    reply = ENTRIES[entry](service, wide)
    assert _said(reply, wide) == _said(unknown, UNKNOWN)
    assert wide not in sent, "the id reached the database"

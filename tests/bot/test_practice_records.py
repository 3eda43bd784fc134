"""Practice games (issue 20, item 7): a game started from a Position ID proves nothing about
the players (ten wins "against world class" from a one-checker-left position showed publicly as
"10 won, 0 lost"). It counts in no record, rating or leaderboard, and /stats shows it apart."""

from __future__ import annotations

from collections import deque

from sqlalchemy.orm import Session, sessionmaker

from bot.service import Actor, Service
from db.models import ComputerRecord, Rating
from tests.bot.conftest import ALICE, DM, press

ONE_CHECKER_LEFT = "4P8PAAABAAAAAA"  # Alice: one checker on her ace point; 15 against her


def win_practice(service: Service, script: deque[int], actor: Actor = ALICE) -> None:
    board = service.play(actor, DM, level="world_class", position_id=ONE_CHECKER_LEFT)
    assert "Practice from Position ID" in board.text
    script.extend([2, 1])
    over = press(service, actor, board, "Roll", DM)
    assert "Alice** wins a **gammon**" in over.text, over.text


def test_practice_wins_count_in_no_record(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    for _ in range(3):
        win_practice(service, script)
    with factory() as s:
        assert s.get(ComputerRecord, (ALICE.id, "world class")) is None
        assert s.query(Rating).count() == 0
    stats = service.stats(ALICE, DM)
    assert "Against the computer" not in stats.text
    assert "Practice from positions: 3 games" in stats.text
    fr = service.stats(Actor(ALICE.id, "Alice", locale="fr"), DM)
    assert "Entraînement sur des positions : 3 parties" in fr.text
    history = service.history(ALICE, DM)
    assert history.text.count("· practice") == 3


def test_an_ordinary_game_still_counts_next_to_practice(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    win_practice(service, script)
    script.extend([3, 1])
    service.play(ALICE, DM, level="world_class")
    assert "accepts the resignation" in service.resign(ALICE, DM, 3).text
    with factory() as s:
        record = s.get(ComputerRecord, (ALICE.id, "world class"))
        assert record is not None and (record.wins, record.losses) == (0, 1)
        assert record.points_lost == 3
    stats = service.stats(ALICE, DM).text
    assert "(world class): 0 won, 1 lost" in stats and "Practice from positions: 1" in stats
    history = service.history(ALICE, DM).text
    assert history.count("· practice") == 1

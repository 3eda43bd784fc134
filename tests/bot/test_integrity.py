"""Provably fair dice: commitments, revealed seeds, offline verification, dice statistics."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from collections import Counter, deque

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from bot.dice import GameDice, commitment, derive_die, dice_of_events, verify_rolls
from bot.service import Service
from bot.stats import chi_square, chi_square_sf, summarize_rolls
from db.models import Game as GameRow
from db.models import GameEvent
from tests.bot.conftest import ALICE, CHANNEL, DM, play_out


def finished_game(service: Service) -> int:
    """A game against the computer, resigned at once: its seed is revealed."""
    reply = service.play(ALICE, DM, level="beginner")
    assert reply.game_id is not None
    service.resign(ALICE, DM, 1)
    return reply.game_id


@pytest.fixture
def fair_service(factory: sessionmaker[Session]) -> Service:
    """The production dice: fresh seeds from the OS, nothing scripted."""
    return Service(factory)


def test_commitment_published_at_start_and_seed_revealed_at_end(
    fair_service: Service, factory
) -> None:  # type: ignore[no-untyped-def]
    start = fair_service.play(ALICE, DM, level="beginner")
    with factory() as s:
        row = s.get(GameRow, start.game_id)
        assert row.dice_commitment in start.text
        assert row.dice_seed not in start.text  # secret while the game runs
        assert hashlib.sha256(bytes.fromhex(row.dice_seed)).hexdigest() == row.dice_commitment
    end = fair_service.resign(ALICE, DM, 1)
    assert row.dice_seed in end.text


def test_verify_a_finished_game(fair_service: Service) -> None:
    game_id = finished_game(fair_service)
    reply = fair_service.verify(ALICE, DM, game_id)
    assert "✅" in reply.text and f"game #{game_id}" in reply.text


def test_verify_detects_a_changed_die(fair_service: Service, factory) -> None:  # type: ignore[no-untyped-def]
    game_id = finished_game(fair_service)
    with factory.begin() as s:
        first = s.scalars(
            select(GameEvent).where(GameEvent.game_id == game_id, GameEvent.kind == "opening")
        ).first()
        s.execute(
            update(GameEvent)
            .where(GameEvent.game_id == game_id, GameEvent.seq == first.seq)
            .values(die1=first.die1 % 6 + 1)
        )
    reply = fair_service.verify(ALICE, DM, game_id)
    assert "does NOT match" in reply.text and "die #0" in reply.text


def test_verify_refuses_a_running_game(fair_service: Service) -> None:
    reply = fair_service.play(ALICE, DM, level="beginner")
    refused = fair_service.verify(ALICE, DM, reply.game_id or 0)
    assert refused.ephemeral and "not finished" in refused.text
    assert "No game #999999." in fair_service.verify(ALICE, DM, 999999).text


def test_every_die_of_a_game_comes_from_the_seed(
    service: Service, script: deque[int], factory
) -> None:  # type: ignore[no-untyped-def]
    # Scripted dice are NOT the seed's: verification must fail on them (a test of the check).
    script.extend([6, 1])
    game_id = finished_game(service)
    assert "does NOT match" in service.verify(ALICE, DM, game_id).text


def test_derivation_is_uniform_and_matches_the_documented_formula() -> None:
    seed = bytes(range(32))
    import hmac

    digest = hmac.new(seed, b"die:0:0", hashlib.sha256).digest()
    first = next(b for b in digest if b < 252) % 6 + 1
    assert derive_die(seed, 0) == first
    counts = Counter(derive_die(seed, n) for n in range(6000))
    assert chi_square([counts[f] for f in range(1, 7)], [1 / 6] * 6).p_value > 0.001


def test_game_dice_continue_from_the_counter() -> None:
    seed = bytes(32)
    a = GameDice(seed)
    rolls = [a.roll() for _ in range(5)]
    b = GameDice(seed, counter=4)
    assert [b.roll() for _ in range(3)] == rolls[2:]
    with pytest.raises(ValueError):
        GameDice(b"short")


def test_verify_rolls_reports_each_problem() -> None:
    seed = bytes(32)
    dice = [derive_die(seed, n) for n in range(10)]
    assert verify_rolls(seed, commitment(seed), dice) == []
    bad = list(dice)
    bad[3] = bad[3] % 6 + 1
    assert verify_rolls(seed, commitment(seed), bad) == [
        f"die #3 is {bad[3]}, the seed gives {dice[3]}"
    ]
    assert "commitment" in verify_rolls(seed, "00" * 32, dice)[0]


def test_dice_of_events_takes_openings_and_rolls_in_order() -> None:
    events = [
        ("opening", (3, 3)),
        ("opening", (5, 2)),
        ("move", (5, 2)),
        ("roll", (6, 4)),
        ("double", None),
        ("roll", (1, 1)),
    ]
    assert dice_of_events(events) == [3, 3, 5, 2, 6, 4, 1, 1]


def test_offline_verification_command() -> None:
    seed = bytes(range(32))
    dice = ",".join(str(derive_die(seed, n)) for n in range(8))
    ok = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "verify",
            "--seed",
            seed.hex(),
            "--commitment",
            commitment(seed),
            "--dice",
            dice,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and "OK" in ok.stdout
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "verify",
            "--seed",
            seed.hex(),
            "--commitment",
            "ab" * 32,
            "--dice",
            dice,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1 and "MISMATCH" in bad.stdout
    junk = subprocess.run(
        [sys.executable, "-m", "bot", "verify", "--seed", "xyz", "--commitment", "00"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert junk.returncode == 2 and "64 hexadecimal" in junk.stderr


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (11.070, 5, 0.05),
        (15.086, 5, 0.01),
        (31.410, 20, 0.05),
        (45.315, 20, 0.001),
        (0.554, 5, 0.99),
        (100.0, 20, 1.6e-12),
    ],
)
def test_chi_square_survival_against_tables(x: float, df: int, p: float) -> None:
    assert chi_square_sf(x, df) == pytest.approx(p, rel=0.02)


def test_dice_statistics_command(fair_service: Service) -> None:
    assert "No roll recorded" in fair_service.dice_stats(ALICE, DM).text
    play_out(fair_service, ALICE, DM, fair_service.play(ALICE, DM, level="beginner"))
    mine = fair_service.dice_stats(ALICE, DM)
    assert "Dice of Alice" in mine.text and "χ²" in mine.text and "Doubles:" in mine.text
    rolls = int(mine.text.split("\n")[1].split()[0])
    assert rolls > 3
    assert "No roll recorded" in fair_service.dice_stats(ALICE, CHANNEL).text  # that server


def test_summarize_rolls_flags_loaded_dice() -> None:
    fair = summarize_rolls({(a, b): 100 for a in range(1, 7) for b in range(1, 7)})
    assert fair.faces_test is not None and fair.faces_test.p_value > 0.99
    loaded = summarize_rolls(
        {(6, 6): 400, **{(a, b): 100 for a in range(1, 7) for b in range(1, 6)}}
    )
    assert loaded.faces_test is not None and loaded.faces_test.p_value < 0.001
    assert loaded.doubles_rate > 0.2

"""The composition root: both adapters get the service built one way from the configuration,
and the bounds of the commands come from the running service's settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.__main__ import build_service
from bot.config import Config
from bot.discord_app import create_bot, open_service
from bot.service import Service, Settings


def _points_bounds(bot: Any, name: str) -> int | None:
    command = bot.tree.get_command(name)
    points = next(p for p in command.parameters if p.name == "points")
    return int(points.max_value) if points.max_value is not None else None


async def test_a_configured_match_length_bounds_the_points_of_the_commands(
    factory: sessionmaker[Session],
) -> None:
    service = Service(factory, settings=Settings(max_match_length=7))
    bot = create_bot(Config(shard_count=1), service=service)
    async with bot:
        await bot.setup_hook()
        assert _points_bounds(bot, "play") == 7
        assert _points_bounds(bot, "tournament") == 7
        assert _points_bounds(bot, "challenge") == 7


@pytest.mark.parametrize("adapter", ["terminal", "discord"])
def test_both_adapters_build_the_same_service_from_the_configuration(
    tmp_path: Path, adapter: str
) -> None:
    config = Config(
        database_url=f"sqlite:///{tmp_path / 'bot.sqlite3'}",
        tournament_role="Organizers",
        challenge_minutes=3,
        puzzle_min_error=80,
        web_port=8080,
    )
    if adapter == "terminal":
        service = build_service(config)
    else:
        service, engine = open_service(config)
        engine.dispose()
    settings = service.settings
    assert settings.organizer_role == "Organizers"  # the terminal's service once lacked it
    assert settings.challenge_ttl.total_seconds() == 180
    assert settings.puzzle_min_error == pytest.approx(0.080)
    assert settings.review_finished_games
    assert settings.announce_games  # the web board on: other processes' pages hear of changes

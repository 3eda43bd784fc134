"""The composition root: the service, on the configured database and under the configured
settings, built here for both adapters (the Discord bot and the terminal), so that they never
drift apart. An operator setting is a field of :class:`~bot.config.Config` (and, when the
service reads it, of :class:`~bot.service.Settings`, handed over in :func:`service_settings`)."""

from __future__ import annotations

from sqlalchemy import Engine

from bot.clockfile import FileClock
from bot.config import Config
from bot.service import Service, Settings
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade

__all__ = ["open_service", "service_settings"]


def service_settings(config: Config) -> Settings:
    """The service's settings from the configuration (Discord registers its commands' bounds
    from them too)."""
    return Settings(
        challenge_ttl=config.challenge_ttl,
        move_timeout=config.move_timeout,
        organizer_role=config.tournament_role,
        review_finished_games=True,  # the timer sweep reviews finished games: puzzles
        puzzle_min_error=config.puzzle_min_error / 1000,
        announce_games=config.web_port is not None,  # other processes' pages hear of changes
    )


def open_service(config: Config, db_url: str | None = None) -> tuple[Service, Engine]:
    """The service on the configured database (or ``db_url``), upgraded to the latest schema
    first, and the database engine its owner disposes of."""
    engine = make_engine(db_url or config.database_url)
    upgrade(engine)
    settings = service_settings(config)
    factory = make_session_factory(engine)
    if config.clock_file is None:
        return Service(factory, settings=settings), engine
    return Service(factory, settings=settings, clock=FileClock(config.clock_file)), engine

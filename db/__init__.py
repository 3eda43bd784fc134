"""Persistence: SQLAlchemy 2.0 models, repositories and Alembic migrations.

The bot's start-up::

    engine = db.make_engine()          # DATABASE_URL, or ./backgammon.sqlite3
    db.upgrade(engine)                 # migrations, on every start
    factory = db.make_session_factory(engine)

and one unit of work per user action (run it in a thread: the calls are synchronous)::

    with factory.begin() as s:
        row = db.games.get_game(s, game_id, expected_version=v)
        match = db.gamestate.load_match(row)
        ...                            # the engine applies the action
        db.gamestate.save_match(s, row, match)

Modules: :mod:`db.models` (tables), :mod:`db.players`, :mod:`db.games`, :mod:`db.challenges`,
:mod:`db.gamestate` (the engine's Match in a game row), :mod:`db.ratings` (FIBS),
:mod:`db.stats` (leaderboards, histories), :mod:`db.together` (server settings, a game's
thread and board message, turn notices, a player's games everywhere),
:mod:`db.resilience` (time limits, outages as :class:`DatabaseUnavailable`), :mod:`db.migrate`.
"""

from db import challenges, games, gamestate, players, ratings, stats
from db.connection import DEFAULT_URL, database_url, make_engine, make_session_factory
from db.errors import ChallengeClosed, DatabaseUnavailable, DbError, GameMovedOn, GameNotFound
from db.migrate import upgrade

__all__ = [
    "DEFAULT_URL",
    "ChallengeClosed",
    "DatabaseUnavailable",
    "DbError",
    "GameMovedOn",
    "GameNotFound",
    "challenges",
    "database_url",
    "games",
    "gamestate",
    "make_engine",
    "make_session_factory",
    "players",
    "ratings",
    "stats",
    "upgrade",
]

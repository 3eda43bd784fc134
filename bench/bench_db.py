"""Persistence (issue 5): a full human action (load, apply, commit) p95 <= 10 ms on SQLite; no
slowdown with 1,000 open games; history, stats and leaderboard queries over 1,000,000 moves.

The action is the bot's real unit of work: load the game row, restore the engine's Match, apply
a roll or a play (a random legal one), store state, IDs and move-log rows, commit (SQLite in WAL
mode with synchronous=FULL, so the commit waits for the disk). PostgreSQL figures are added when
``TEST_POSTGRES_URL`` is set (in a schema of their own, dropped afterwards).
"""

from __future__ import annotations

import itertools
import os
import random
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Engine, insert, make_url, text
from sqlalchemy.orm import Session, sessionmaker

from bench.common import Figure, check, percentile
from db import games, stats
from db.connection import make_engine, make_session_factory
from db.games import NewGame
from db.gamestate import create_match_game, load_match, save_match
from db.migrate import upgrade
from db.models import Game, GameEvent, GameStatus, Player, Rating, RatingHistory
from db.players import ensure_player
from db.types import utcnow
from engine import Match, Phase

NAME = "db"
PLAYERS = 2_000
GUILDS = 20
MOVES_PER_GAME = 50
DEPTH = 100  # actions in an open game, at most: about one whole game


# -- the action ---------------------------------------------------------------------------------


def _act(match: Match, rng: random.Random) -> None:
    game = match.game
    if game.is_over:
        match.next_game().opening_roll(*rng.sample(range(1, 7), 2))
    elif game.phase is Phase.ROLL:
        game.roll((rng.randint(1, 6), rng.randint(1, 6)))
    else:
        plays = game.legal_plays()
        game.play(plays[rng.randrange(len(plays))])


_CHANNELS = itertools.count(1)


def _new_games(factory: sessionmaker[Session], n: int, rng: random.Random) -> list[int]:
    """``n`` open games, each already played a random number of actions (0 to ``DEPTH``) in
    memory: the same spread of game lengths whatever the number of open games."""
    ids = []
    with factory.begin() as s:
        for pid in (1, 2):
            ensure_player(s, pid, f"p{pid}")
        for _ in range(n):
            m = Match(length=7)
            m.game.opening_roll(*rng.sample(range(1, 7), 2))
            for _ in range(rng.randrange(DEPTH)):
                _act(m, rng)
            # A channel per game: a player has one active game per channel.
            new = NewGame(
                player0_id=1, player1_id=2, rated=True, guild_id=1,
                channel_id=next(_CHANNELS), deadline=utcnow() + timedelta(hours=1),
            )  # fmt: skip
            row = create_match_game(s, m, new)
            ids.append(row.id)
    return ids


class OpenGames:
    """``count`` open games in one database, played one random action at a time. A game that
    has received ``DEPTH`` actions (or whose match ended) is closed and replaced by a fresh one,
    so the number of open games stays the same."""

    def __init__(self, factory: sessionmaker[Session], count: int, rng: random.Random) -> None:
        self.factory, self.rng = factory, rng
        self.pool = _new_games(factory, count, rng)
        self.versions: dict[int, int] = {}
        self.commit_ms: list[float] = []  # the commit alone: on SQLite, mostly the fsync

    def act(self) -> float:
        """One user action on a random open game: its milliseconds, load to commit."""
        game_id = self.rng.choice(self.pool)
        start = time.perf_counter()
        with self.factory() as s, s.begin():
            row = games.get_game(s, game_id, expected_version=self.versions.get(game_id))
            match = load_match(row)
            _act(match, self.rng)
            row.deadline = utcnow() + timedelta(hours=1)  # the move timer restarts
            save_match(s, row, match)
            s.flush()
            before_commit = time.perf_counter()
        done = time.perf_counter()
        elapsed = (done - start) * 1000
        self.commit_ms.append((done - before_commit) * 1000)
        self.versions[game_id] = row.version
        if row.status is GameStatus.ACTIVE and row.event_count >= DEPTH:
            with self.factory.begin() as s:
                games.expire_game(s, games.get_game(s, game_id))
        if row.status is not GameStatus.ACTIVE or row.event_count >= DEPTH:
            self.pool.remove(game_id)
            self.pool.extend(_new_games(self.factory, 1, self.rng))
        return elapsed


# -- a million moves ----------------------------------------------------------------------------


def _rows(
    n_moves: int, first_id: int, rng: random.Random
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Players, ratings, finished games with their move logs and rating history, in chunks."""
    now = utcnow()
    yield "players", [
        {"id": 10_000 + i, "display_name": f"player{i}", "preferences": {}, "created_at": now,
         "seen_at": now}
        for i in range(PLAYERS)
    ]  # fmt: skip
    yield "ratings", [
        {"player_id": 10_000 + i, "rating": rng.gauss(1500, 150), "experience": rng.randrange(2000),
         "wins": rng.randrange(100), "losses": rng.randrange(100), "updated_at": now}
        for i in range(PLAYERS)
    ]  # fmt: skip
    n_games = n_moves // MOVES_PER_GAME
    for first in range(first_id, first_id + n_games, 2_000):
        chunk = range(first, min(first_id + n_games, first + 2_000))
        game_rows, history, events = [], [], []
        for gid in chunk:
            p0, p1 = rng.sample(range(10_000, 10_000 + PLAYERS), 2)
            vs_computer = gid % 10 == 0
            game_rows.append(_game_row(gid, p0, None if vs_computer else p1, rng, now))
            if not vs_computer:
                for pid, opp, won in ((p0, p1, True), (p1, p0, False)):
                    history.append(
                        {"player_id": pid, "game_id": gid, "opponent_id": opp, "won": won,
                         "match_length": 5, "rating_before": 1500.0, "rating_after": 1510.0,
                         "experience_after": 5, "created_at": now}
                    )  # fmt: skip
            for seq in range(MOVES_PER_GAME):
                seat = seq // 2 % 2
                roll = seq % 2 == 0
                events.append(
                    {"game_id": gid, "seq": seq, "game_no": 1, "player": seat,
                     "actor_id": (p0, None if vs_computer else p1)[seat],
                     "kind": "roll" if roll else "move", "die1": rng.randint(1, 6),
                     "die2": rng.randint(1, 6), "play": None if roll else "13/7 8/7",
                     "cube_value": None, "points": None, "position_id": "4HPwATDgc/ABMA",
                     "match_id": "cAkAAAAAAAAA", "created_at": now}
                )  # fmt: skip
        yield "games", game_rows
        yield "rating_history", history
        yield "game_events", events


def _game_row(gid: int, p0: int, p1: int | None, rng: random.Random, now: Any) -> dict[str, Any]:
    return {
        "id": gid, "player0_id": p0, "player1_id": p1,
        "computer_level": None if p1 else "expert", "guild_id": rng.randrange(GUILDS) or None,
        "channel_id": 5, "match_length": 5, "cube": True, "rated": bool(p1),
        "position_id": "4HPwATDgc/ABMA", "match_id": "cAkAAAAAAAAA", "state": {"v": 1},
        "turn": None, "event_count": MOVES_PER_GAME, "version": 1, "status": "finished",
        "winner": rng.randrange(2), "points": 1, "result_kind": "single", "created_at": now,
        "updated_at": now, "finished_at": now, "deadline": None, "dice_commitment": None,
        "dice_seed": None, "dice_counter": 0, "dice_revealed_at": None,
    }  # fmt: skip


_MODELS = {
    "players": Player,
    "ratings": Rating,
    "games": Game,
    "rating_history": RatingHistory,
    "game_events": GameEvent,
}


def fill(engine: Engine, n_moves: int, rng: random.Random) -> tuple[float, range]:
    """Bulk-load ``n_moves`` move-log rows (and what they belong to); returns the seconds and
    the ids of the games loaded."""
    start = time.perf_counter()
    with engine.begin() as conn:
        first_id = 1 + (conn.execute(text("SELECT max(id) FROM games")).scalar() or 0)
        for table, rows in _rows(n_moves, first_id, rng):
            if rows:
                conn.execute(insert(_MODELS[table]), rows)
        members = [
            {"guild_id": g, "player_id": 10_000 + i, "games_played": 1, "first_seen": utcnow(),
             "last_seen": utcnow()}
            for i in range(PLAYERS) for g in {i % GUILDS, (i * 7) % GUILDS}
        ]  # fmt: skip
        conn.execute(insert(_MODELS["players"].metadata.tables["guild_members"]), members)
        if engine.dialect.name == "postgresql":
            # The identity sequence did not see the explicit ids; autovacuum would ANALYZE soon.
            conn.execute(text("SELECT setval('games_id_seq', (SELECT max(id) FROM games))"))
    with engine.begin() as conn:
        conn.execute(text("ANALYZE"))
    return time.perf_counter() - start, range(first_id, first_id + n_moves // MOVES_PER_GAME)


def _timer_sweep(s: Session, now: Any) -> object:
    """The query of the move timer's sweep (a day per move, reminded an hour before)."""
    return games.games_with_timer_due(
        s,
        remind_from=now + timedelta(hours=1),
        now=now,
        expire_from=now - timedelta(days=1),
        limit=100,
    )


def query_times(
    factory: sessionmaker[Session], game_ids: range, rng: random.Random, n: int
) -> dict[str, float]:
    """p95 milliseconds of each query, over ``n`` calls with random players and games."""

    def player() -> int:
        return 10_000 + rng.randrange(PLAYERS)

    def game() -> int:
        return rng.choice(game_ids)

    queries: dict[str, Callable[[Session], object]] = {
        "game history (20 newest)": lambda s: stats.game_history(s, player()),
        "move log of one game": lambda s: games.game_events(s, game()),
        "personal stats": lambda s: stats.player_stats(s, player()),
        "rating history (100)": lambda s: stats.rating_history(s, player()),
        "leaderboard global top 10": lambda s: stats.leaderboard(s),
        "leaderboard server, page 3": lambda s: stats.leaderboard(
            s, guild_id=1 + rng.randrange(GUILDS - 1), offset=20
        ),
        "rank of a player": lambda s: stats.player_rank(s, player()),
        "dice counts of a player": lambda s: stats.roll_counts(s, player_id=player()),
        "timer sweep (notices due)": lambda s: _timer_sweep(s, utcnow()),
    }
    out = {}
    with factory() as s:
        for name, fn in queries.items():
            times = []
            for _ in range(n):
                start = time.perf_counter()
                fn(s)
                times.append((time.perf_counter() - start) * 1000)
                s.expunge_all()  # no help from the identity map between calls
            out[name] = percentile(times, 95)
    return out


# -- the run ------------------------------------------------------------------------------------


@contextmanager
def _postgres() -> Iterator[URL | None]:
    raw = os.environ.get("TEST_POSTGRES_URL")
    if not raw:
        yield None
        return
    base = make_url(raw)
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    admin = make_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield base.update_query_dict({"options": f"-csearch_path={schema}"})
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def _measure(label: str, urls: tuple[URL, URL], quick: bool, *, targets: bool) -> list[Figure]:
    """Actions with 1 and with 1,000 open games (two databases, actions interleaved so that
    the load of the machine weighs on both alike), then a million moves and the queries."""
    rng = random.Random(1)
    n_actions = 200 if quick else 1_000
    n_moves = 100_000 if quick else 1_000_000
    engines = [make_engine(url) for url in urls]
    try:
        for engine in engines:
            upgrade(engine)
        factory = make_session_factory(engines[1])
        one = OpenGames(make_session_factory(engines[0]), 1, rng)
        many = OpenGames(factory, 1_000, rng)
        times_one, times_many = [], []
        for _ in range(n_actions):
            times_one.append(one.act())
            times_many.append(many.act())
        p95_one, p95_many = percentile(times_one, 95), percentile(times_many, 95)
        bound = 10.0 if targets else None
        figures = [
            check(NAME, f"{label}: action p95, 1 open game", p95_one, "ms", at_most=bound),
            check(NAME, f"{label}: action p50, 1 open game", percentile(times_one, 50), "ms"),
            check(
                NAME,
                f"{label}: commit alone p95 (the fsync), 1 open game",
                percentile(one.commit_ms, 95),
                "ms",
            ),
            check(NAME, f"{label}: action p95, 1,000 open games", p95_many, "ms", at_most=bound),
            check(
                NAME,
                f"{label}: p95 ratio 1,000 / 1 open games",
                p95_many / p95_one,
                "x",
                at_most=1.5 if targets else None,
            ),
        ]
        seconds, loaded = fill(engines[1], n_moves, rng)
        figures.append(check(NAME, f"{label}: bulk load {n_moves:,} moves", seconds, "s"))
        full = [many.act() for _ in range(n_actions)]
        figures.append(
            check(
                NAME,
                f"{label}: action p95, 1,000 open games, {n_moves:,} moves stored",
                percentile(full, 95),
                "ms",
                at_most=bound,
            )
        )
        for name, p95 in query_times(factory, loaded, rng, 30 if quick else 200).items():
            figures.append(
                check(NAME, f"{label}: {name} p95", p95, "ms", at_most=20.0 if targets else None)
            )
        return figures
    finally:
        for engine in engines:
            engine.dispose()


def run(quick: bool = False) -> list[Figure]:
    with tempfile.TemporaryDirectory() as tmp:
        urls = (make_url(f"sqlite:///{Path(tmp) / 'one.sqlite3'}"),
                make_url(f"sqlite:///{Path(tmp) / 'many.sqlite3'}"))  # fmt: skip
        figures = _measure("SQLite", urls, quick, targets=True)
    if not quick:
        with _postgres() as one, _postgres() as many:
            if one is not None and many is not None:
                figures += _measure("PostgreSQL", (one, many), quick, targets=False)
    return figures

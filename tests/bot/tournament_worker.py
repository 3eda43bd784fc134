"""One bot process playing its half of a tournament's games (for the PostgreSQL test):
``python -m tests.bot.tournament_worker --db URL --tournament ID --half 0|1 --players N``."""

from __future__ import annotations

import argparse
import sys

from bot.service import Service
from db.connection import make_engine, make_session_factory
from tests.bot.test_tournaments_pg import drive
from tests.bot.tournament_players import people


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--tournament", type=int, required=True)
    parser.add_argument("--half", type=int, required=True)
    parser.add_argument("--players", type=int, required=True)
    args = parser.parse_args(argv)
    factory = make_session_factory(make_engine(args.db, pool_size=2))
    failures: list[BaseException] = []
    by_id = {p.id: p for p in people(args.players)}
    drive(Service(factory), factory, args.tournament, args.half, by_id, failures)
    for failure in failures:
        print(repr(failure), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

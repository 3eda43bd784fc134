"""A scripted bot for the crash test: plays matches, one unit of work per action, and prints
``ack`` lines only after each commit, like the bot acknowledging a move to the player.

    python -m tests.db.crash_worker URL SEED

It first continues the games left active by an earlier (killed) run, then starts new ones, and
plays until it is killed.
"""

from __future__ import annotations

import random
import sys

from sqlalchemy import select

from db.connection import make_engine, make_session_factory
from db.games import NewGame, get_game
from db.gamestate import create_match_game, load_match, save_match
from db.migrate import upgrade
from db.models import Game, GameStatus
from db.players import ensure_player
from engine import Match, Phase

PLAYERS = (1, 2)


def act(match: Match, rng: random.Random) -> None:
    """One player action, whatever the game waits for."""
    game = match.game
    if game.is_over:
        match.next_game().opening_roll(*rng.sample(range(1, 7), 2))
    elif game.phase is Phase.OPENING:
        game.opening_roll(*rng.sample(range(1, 7), 2))
    elif game.phase is Phase.ROLL:
        game.roll((rng.randint(1, 6), rng.randint(1, 6)))
    else:
        plays = game.legal_plays()
        game.play(plays[rng.randrange(len(plays))])


def main(url: str, seed: int) -> None:
    engine = make_engine(url)
    upgrade(engine)
    factory = make_session_factory(engine)
    rng = random.Random(seed)
    with factory.begin() as s:
        for pid in PLAYERS:
            ensure_player(s, pid, f"p{pid}")
        active = list(s.scalars(select(Game.id).where(Game.status == GameStatus.ACTIVE)))
    print("ready", flush=True)
    while True:
        if not active:
            with factory.begin() as s:
                m = Match(length=3)
                m.game.opening_roll(*rng.sample(range(1, 7), 2))
                row = create_match_game(s, m, NewGame(player0_id=1, player1_id=2, rated=True))
                active.append(row.id)
            print(f"ack {row.id} {row.event_count} {row.position_id} {row.match_id}", flush=True)
        game_id = active[0]
        with factory.begin() as s:
            row = get_game(s, game_id)
            m = load_match(row)
            act(m, rng)
            save_match(s, row, m)
        # Printed only once the commit has returned: this is the acknowledgement.
        print(f"ack {row.id} {row.event_count} {row.position_id} {row.match_id}", flush=True)
        if row.status is not GameStatus.ACTIVE:
            active.pop(0)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

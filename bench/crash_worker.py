"""A scripted player process, for the crash-safety and multi-process checks.

It plays a game between two people (Ann and Ben) through the service, pressing buttons with a
fixed policy, and prints one JSON line per action *after* the service returned, that is after
the action committed: ``{"step", "game", "version", "position_id", "match_id"}``. Killing it at
any moment may lose only the action in flight, never a printed one.

    python -m bench.crash_worker --db URL --channel 7 [--seed HEX] [--only Ann|Ben] [--max N]

``--only`` makes the process act for one player and wait for the other (two processes on one
database, as two bot shards would). ``--seed`` fixes the dice seed of a new game (the reference
run); without it the production CSPRNG picks one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import timedelta

from bot.dice import GameDice
from bot.service import Actor, Reply, Service, Settings, Where
from bot.service.customid import GameAction
from db.connection import make_engine, make_session_factory
from db.migrate import upgrade

ANN = Actor(11, "Ann")
BEN = Actor(22, "Ben")
PEOPLE = {ANN.id: ANN, BEN.id: BEN}


def choose(reply: Reply) -> str | None:
    """The policy: confirm, take, roll, reject; else the highest movable point."""
    labels = [b.label for b in reply.buttons if not b.disabled]
    for wanted in ("Confirm", "Take", "Roll", "Reject", "Accept"):
        if wanted in labels:
            return wanted
    points = [x for x in labels if x.isdigit() or x == "Bar"]
    return points[0] if points else None


def version_of(reply: Reply) -> int | None:
    for button in reply.buttons:
        action = GameAction.parse(button.custom_id)
        if action is not None:
            return action.version
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--db", required=True)
    p.add_argument("--channel", type=int, required=True)
    p.add_argument("--seed")
    p.add_argument("--only", choices=("Ann", "Ben"))
    p.add_argument("--max", type=int, default=2000)
    args = p.parse_args(argv)
    engine = make_engine(args.db)
    upgrade(engine)
    seed = bytes.fromhex(args.seed) if args.seed else None
    service = Service(
        make_session_factory(engine),
        # Ann challenges Ben in every channel, one game after the other: no pause between two
        # challenges (the anti-flood rule is not what this harness tests).
        settings=Settings(challenge_cooldown=timedelta(0)),
        new_dice=(lambda: GameDice(seed)) if seed else GameDice.fresh,
    )
    where = Where(channel_id=args.channel, guild_id=1)
    me = {"Ann": ANN, "Ben": BEN}.get(args.only or "")
    board = service.board(ANN, where)
    if board.ephemeral:  # no game in this channel yet: Ann challenges, Ben accepts
        if me is BEN:
            board = _wait_for_game(service, where)
        else:
            made = service.challenge(ANN, where, BEN, points=1, rated=False)
            accept = next(b for b in made.buttons if b.label == "Accept")
            board = service.press(BEN, where, accept.custom_id)
            _ack(0, board)
    for step in range(1, args.max):
        if not board.rows or any(b.label == "Rematch" for b in board.buttons):
            return 0
        turn = PEOPLE.get(board.mentions[0]) if board.mentions else None
        if turn is None:
            return 0
        if me is not None and turn is not me:
            _wait_for_change(service, version_of(board))
            board = service.board(me, where)
            continue
        label = choose(board)
        if label is None:
            return 0
        button = next(b for b in board.buttons if b.label == label and not b.disabled)
        reply = service.press(turn, where, button.custom_id)
        if reply.ephemeral:  # the other process moved first (or a stale board): look again
            board = service.board(me or ANN, where)
            continue
        _ack(step, reply)
        board = reply
    return 0


# The other process may be slow to start or to act on a busy machine: the waits below end when
# it has acted, and give up only after this long, which only a hung process takes.
HANG = 900.0  # seconds


def _wait_for_change(service: Service, seen: int | None) -> None:
    """Sleep until the game row's version moves (a cheap query, not a redrawn board)."""
    from sqlalchemy import func, select

    from db.models import Game

    give_up = time.monotonic() + HANG
    while time.monotonic() < give_up:
        with service.factory() as s:
            if s.scalar(select(func.max(Game.version))) != seen:
                return
        time.sleep(0.005)
    raise SystemExit("the other player did not act")


def _wait_for_game(service: Service, where: Where) -> Reply:
    give_up = time.monotonic() + HANG
    while time.monotonic() < give_up:
        board = service.board(BEN, where)
        if not board.ephemeral:
            return board
        time.sleep(0.01)
    raise SystemExit("no game appeared")


def _ack(step: int, reply: Reply) -> None:
    print(
        json.dumps(
            {
                "step": step,
                "game": reply.game_id,
                "version": version_of(reply),
                "position_id": reply.position_id,
                "match_id": reply.match_id,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())

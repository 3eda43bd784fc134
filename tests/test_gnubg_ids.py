"""The engine's Position IDs and Match IDs agree with GNU Backgammon's after every action.

tests/data/gnubg-ids.jsonl.gz (made by tests/tools/make_gnubg_ids.py) holds matches and money
games that GNU Backgammon 1.07 played with its own dice and randomly chosen actions, with its
Position ID and Match ID after each action. The engine replays each one with the same dice and
choices and must show the same IDs at every step, and refuse the doubles gnubg refused.

What must match, and does: everything, from the opening roll to the end of the match. The one
moment with no gnubg counterpart is the engine's opening phase before the opening roll (gnubg rolls
it as it starts a game), so no recorded step shows it. At the end of a game the Match ID follows
gnubg's command-line program, where the turn, the resignation value and the dice stay where the
last action left them (:meth:`engine.Game.match_key`).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import (
    Game,
    GameState,
    GameStateError,
    Match,
    Position,
    ResultReason,
    decode_match_id,
    encode_match_id,
)
from tests.conftest import load_jsonl_gz
from tests.test_position import board
from tests.tools._gnubg import gnubg_binary

SEQUENCES = load_jsonl_gz("gnubg-ids.jsonl.gz")


def _differences(ours: str, gnubg: str) -> str:
    a, b = decode_match_id(ours), decode_match_id(gnubg)
    fields = [f.name for f in dataclasses.fields(a) if getattr(a, f.name) != getattr(b, f.name)]
    return ", ".join(f"{name} {getattr(a, name)!r} vs {getattr(b, name)!r}" for name in fields)


def _act(match: Match, step: dict[str, Any], first: bool) -> None:
    game, action = match.game, step["action"]
    if action == "new game":
        if not first:
            game = match.next_game()
        game.opening_roll(*step["opening"])
    elif action == "roll":
        game.roll((step["dice"][0], step["dice"][1]))
    elif action == "move":
        game.play_text(step["play"])  # gnubg's notation (tests/test_gnubg_notation.py)
    elif action == "double":
        game.double()
    elif action == "take":
        game.take()
    elif action == "drop":
        game.drop()
    elif action == "resign":
        assert game.turn is not None  # gnubg lets the player whose turn it is resign
        game.resign(game.turn, step["value"])
    elif action == "accept":
        game.accept_resignation()
    elif action == "reject":
        game.reject_resignation()
    else:
        raise AssertionError(f"unknown action {action!r}")


def replay(sequence: dict[str, Any]) -> list[str]:
    """Every step where the engine's IDs (or its refusals) differ from gnubg's."""
    match = Match(length=sequence["match_length"], jacoby=sequence["jacoby"])
    name = f"{sequence['style']} {sequence['match_length']}-point seed {sequence['seed']}"
    problems = []
    for i, step in enumerate(sequence["steps"]):
        where = f"{name} step {i} ({step['action']})"
        if step.get("refused"):
            # The recorder only ever has gnubg refuse doubles (Crawford, cube owner, dead cube).
            assert step["action"] == "double", step
            if match.game.can_double():
                problems.append(f"{where}: gnubg refused the double, the engine allows it")
            continue
        try:
            _act(match, step, first=i == 0)
        except (ValueError, AssertionError) as exc:
            return [*problems, f"{where}: the engine cannot follow: {exc!r}"]
        game = match.game
        if game.position_id() != step["position_id"]:
            problems.append(f"{where}: Position ID {game.position_id()} vs {step['position_id']}")
        if game.match_id() != step["match_id"]:
            detail = _differences(game.match_id(), step["match_id"])
            problems.append(f"{where}: Match ID {game.match_id()} vs {step['match_id']}: {detail}")
    return problems


@pytest.mark.slow
def test_engine_ids_agree_with_gnubg_after_every_action() -> None:
    problems = [p for sequence in SEQUENCES for p in replay(sequence)]
    total = sum(len(s["steps"]) for s in SEQUENCES)
    assert not problems, f"{len(problems)} of {total} steps differ:\n" + "\n".join(problems[:40])


def test_a_difference_is_reported() -> None:
    # The replay must be able to fail: alter gnubg's score in one recorded Match ID.
    sequence = json.loads(json.dumps(SEQUENCES[0]))
    step = sequence["steps"][1]
    key = decode_match_id(step["match_id"])
    step["match_id"] = encode_match_id(dataclasses.replace(key, score=(0, 1)))
    (problem,) = replay(sequence)
    assert "step 1" in problem and "score (0, 0) vs (0, 1)" in problem


def test_recorded_sequences_cover_every_kind_of_action() -> None:
    seen: Counter[str] = Counter()
    for sequence in SEQUENCES:
        money = sequence["match_length"] == 0
        before = None
        for step in sequence["steps"]:
            key = decode_match_id(step["match_id"])
            seen[step["action"] + (" refused" if step.get("refused") else "")] += 1
            if step["action"] == "roll" and key.dice == (0, 0):
                seen["pass"] += 1  # the roll could not be played
            if (
                before is not None
                and before.game_state == GameState.PLAYING
                and key.game_state != GameState.PLAYING
            ):  # this action ended the game: how, and for how many times the cube
                won = sum(key.score) - sum(before.score)
                seen[f"end {key.game_state.name} x{won // key.cube_value}"] += 1
                if money and sequence["jacoby"] and key.cube_owner is None:
                    seen[f"jacoby end {key.game_state.name} x{won}"] += 1
            if step["action"] == "double" and not step.get("refused") and before is not None:
                seen["redouble" if before.cube_value > 1 else "first double"] += 1
                n = before.match_length
                if n > 1 and max(before.score) == n - 1 and not before.crawford:
                    seen["post-Crawford double"] += 1
            if key.crawford and key.game_state == GameState.PLAYING:
                seen["Crawford game"] += 1
            before = key
    for kind in (
        "pass",
        "take",
        "drop",
        "reject",
        "double refused",
        "redouble",
        "post-Crawford double",
        "Crawford game",
        "end OVER x1",
        "end OVER x2",
        "end OVER x3",
        "end RESIGNED x1",
        "end RESIGNED x2",
        "end RESIGNED x3",
        "end DROPPED x1",
        "jacoby end OVER x1",
        "jacoby end RESIGNED x2",
    ):
        assert seen[kind] > 0, kind
    assert {s["match_length"] for s in SEQUENCES} == {0, 1, 3, 5, 7}


# -- the rules behind the fixes, one by one ---------------------------------------------------


def started(**kwargs: Any) -> Game:
    game = Game(**kwargs)
    game.opening_roll(3, 1)
    game.play_text("8/5 6/5")
    return game  # player 1 to roll


def owned_by_player_0(score: tuple[int, int]) -> Game:
    """A 5-point game at ``score`` where player 0 has taken a 2-cube and is on roll."""
    g = started(match_length=5, score=score)
    g.double()
    g.take()
    g.roll((6, 5))
    g.play_text("24/13")
    assert (g.on_roll, g.cube_value, g.cube_owner) == (0, 2, 0)
    return g


def test_no_double_with_a_dead_cube() -> None:
    # gnubg 1.07 refuses ("The cube is dead; you can't double any more.") when winning the game
    # at the current stake already gives the doubler the match: score + cube >= length.
    dead = owned_by_player_0((3, 0))  # 3 + 2 >= 5
    assert not dead.can_double()
    with pytest.raises(GameStateError) as refused:
        dead.double()
    assert refused.value.code == "cube.dead"
    assert owned_by_player_0((2, 0)).can_double()  # 2 + 2 < 5: live
    # The other side of a dead cube is not concerned: at 0-3 player 1 (0 points) may double.
    assert started(match_length=5, score=(3, 0)).can_double()


def test_a_resignation_counts_what_was_offered_under_jacoby() -> None:
    # gnubg scores an accepted resignation at its value times the cube, Jacoby or not; the
    # Jacoby rule only stops played-out gammons counting on a centred cube.
    g = started(jacoby=True)
    g.resign(1, 2)
    g.accept_resignation()
    assert g.result is not None and g.result.points == 2
    assert decode_match_id(g.match_id()).score == (2, 0)


def test_match_id_after_a_bear_off() -> None:
    cells = board(p1=1, o20=-15)
    g = Game(match_length=3, score=(1, 0), position=Position.from_board(cells))
    g.opening_roll(6, 1)
    (play,) = g.legal_plays()
    g.play(play)  # player 0 bears off his last checker: a gammon, 2 points, 3-0
    key = decode_match_id(g.match_id())
    assert key.game_state is GameState.OVER and key.score == (3, 0)
    # The loser is on roll, as after any play, and the Position ID is seen by him.
    assert (key.player_on_roll, key.turn) == (1, 1)
    assert g.position_id() == Position.from_board(cells).apply(play).position_id()


def test_match_id_after_a_drop_sets_the_next_crawford_game() -> None:
    g = started(match_length=3, score=(1, 0))
    g.double()  # player 1 doubles
    g.drop()  # and wins 1 point: 1-1
    key = decode_match_id(g.match_id())
    assert key.game_state is GameState.DROPPED and key.score == (1, 1)
    assert (key.player_on_roll, key.turn) == (1, 0)  # the doubler on roll, the dropper's turn
    assert not key.crawford
    g = started(match_length=3, score=(0, 1))
    g.double()
    g.drop()  # player 1 reaches 2, one short of 3, for the first time: next is the Crawford game
    assert decode_match_id(g.match_id()).crawford


def test_match_id_after_a_resignation_keeps_its_value_and_the_dice() -> None:
    g = started(match_length=5)
    g.roll((6, 4))
    g.resign(1, 3)
    g.accept_resignation()
    key = decode_match_id(g.match_id())
    assert key.game_state is GameState.RESIGNED and key.score == (3, 0)
    assert (key.turn, key.resignation, key.dice) == (0, 3, (6, 4))
    assert g.result is not None and g.result.reason is ResultReason.RESIGN
    g = started(match_length=5)
    g.forfeit(1, 2)  # scored as a resignation of a gammon, before any roll
    key = decode_match_id(g.match_id())
    assert key.game_state is GameState.RESIGNED
    assert (key.turn, key.resignation, key.dice) == (0, 2, (0, 0))


# -- live, where GNU Backgammon is installed ---------------------------------------------------

# Sequences gnubg plays afresh for the live test, in the recorder's terms
# (match length, Jacoby, style, seed): seeds the data file does not hold.
LIVE = [[3, False, "mixed", 5001], [0, True, "resign", 5002], [5, False, "cube", 5003]]


def first_difference(stored: dict[str, Any], live: dict[str, Any]) -> str | None:
    """Why a live recording of a stored sequence differs where it may not, or None.

    Both are the same seeded dice and the same random choices, so they agree step by step until
    gnubg picks a play: its "best play" and the order of its hint list come from its neural
    network, whose floating point differs between machines, so two near-equal plays can swap.
    The first difference must therefore be a move step whose play differs (the same roll in the
    same position, since every earlier step agrees); any other difference is a stale or edited
    data file. After it the games go their own ways and are not compared.
    """
    for i, (ours, theirs) in enumerate(zip(stored["steps"], live["steps"], strict=False)):
        if ours == theirs:
            continue
        if ours["action"] == theirs["action"] == "move" and ours["play"] != theirs["play"]:
            return None
        return f"seed {stored['seed']} step {i}: stored {ours} but gnubg now records {theirs}"
    if len(stored["steps"]) != len(live["steps"]):
        counts = f"{len(stored['steps'])} steps stored, {len(live['steps'])} now"
        return f"seed {stored['seed']}: {counts}"
    return None


def test_a_stale_data_file_is_reported() -> None:
    sequence = SEQUENCES[0]
    edited = json.loads(json.dumps(sequence))
    edited["steps"][1]["match_id"] = edited["steps"][2]["match_id"]
    assert first_difference(sequence, sequence) is None
    assert "step 1" in (first_difference(edited, sequence) or "")
    moves = [i for i, step in enumerate(sequence["steps"]) if step["action"] == "move"]
    other = json.loads(json.dumps(sequence))
    other["steps"][moves[0]]["play"] += " (another play)"  # gnubg chose otherwise here
    other["steps"][moves[0] + 1 :] = [{"action": "roll"}]  # and the game went its own way
    assert first_difference(sequence, other) is None
    other["steps"][moves[0]]["play"] = sequence["steps"][moves[0]]["play"]
    assert first_difference(sequence, other) is not None  # same play, then a different step
    assert first_difference(sequence, {**sequence, "steps": sequence["steps"][:-1]}) is not None


@pytest.mark.slow
@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_engine_follows_what_gnubg_plays_now(tmp_path: Path) -> None:
    # gnubg records fresh sequences and three stored ones again, on this machine; the engine
    # must show gnubg's IDs after every step of what gnubg did now. The stored ones must also be
    # what gnubg records, up to the first play it chooses differently here (first_difference):
    # gnubg's choices are not the same on every machine, its IDs and rules are.
    from tests.tools.make_gnubg_ids import main

    chosen = random.Random(3).sample(SEQUENCES, 3)
    only = [[s["match_length"], s["jacoby"], s["style"], s["seed"]] for s in chosen] + LIVE
    out = tmp_path / "ids.jsonl.gz"
    main(["--out", str(out), "--only", json.dumps(only)])
    live = load_jsonl_gz(str(out))
    assert [[s["match_length"], s["jacoby"], s["style"], s["seed"]] for s in live] == only
    problems = [p for sequence in live for p in replay(sequence)]
    total = sum(len(s["steps"]) for s in live)
    assert not problems, f"{len(problems)} of {total} steps differ:\n" + "\n".join(problems[:40])
    stale = [d for a, b in zip(chosen, live, strict=False) if (d := first_difference(a, b))]
    assert not stale, "\n".join(stale)

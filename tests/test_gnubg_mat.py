""".mat files travel between the engine and GNU Backgammon both ways.

* gnubg -> engine (always runs): tests/data/gnubg-mat/*.mat were played and exported by GNU
  Backgammon 1.07 itself (tests/tools/gnubg_mat.py selfplay), with its report on each in
  expected.json; ``read_mat`` must replay every one to the same games, score and final IDs.
* engine -> gnubg (needs gnubg, skipped without it): matches the engine plays at random (every
  kind of cube action, resignation and ending) are written with ``write_mat`` and imported by
  gnubg, which must find the same games, score and final position.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import EventKind, Game, Match, Phase, ResultReason, Variant, read_mat, write_mat
from tests.conftest import DATA
from tests.tools._gnubg import gnubg_binary

GNUBG_MATS = DATA / "gnubg-mat"
EXPECTED: dict[str, dict[str, Any]] = json.loads(
    (GNUBG_MATS / "expected.json").read_text(encoding="utf-8")
)


def summary(match: Match) -> dict[str, Any]:
    """The engine's match in the terms of tests/tools/gnubg_mat.py's report."""
    games = []
    for game in match.games:
        result = game.result
        games.append(
            {
                "score": list(game.score),
                "winner": None if result is None else result.winner,
                "points": 0 if result is None else result.points,
                "resigned": result is not None and result.reason is ResultReason.RESIGN,
            }
        )
    return {
        "length": match.length,
        "games": games,
        "score": list(match.score),
        "position_id": match.game.position_id(),
        "match_id": match.game.match_id(),
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_engine_replays_gnubg_exports(name: str) -> None:
    replayed = read_mat((GNUBG_MATS / name).read_text(encoding="utf-8"))
    assert replayed.names == ("gnubg", "root")  # the players' names in the committed files
    assert summary(replayed.match) == EXPECTED[name]


_ENTRY_AFTER_OVERFLOW = re.compile(r" (?=\d\d:| Doubles| Takes| Drops| Wins)")


def layout(text: str) -> list[list[tuple[object, ...]]]:
    """Per game, each entry of a .mat file with its row and column: what GNU Backgammon's
    importer reads."""
    games: list[list[tuple[object, ...]]] = []
    for line in text.splitlines():
        if re.match(r"^\s*Game \d+", line):
            games.append([])
            continue
        row = re.match(r"^\s*(\d+)\) ", line)
        if row:
            split = 32
            if len(line) > split and line[split] != " ":  # a left entry wider than 27
                found = _ENTRY_AFTER_OVERFLOW.search(line, split)
                split = found.start() if found else len(line)
            for column, part in ((0, line[5:split]), (1, line[split + 1 :])):
                if part.strip():
                    games[-1].append((int(row.group(1)), column, *_entry(part)))
        elif "Wins" in line:
            games[-1].append(("wins", int(line.index("Wins") > 20), line.strip()))
    return games


def _entry(text: str) -> tuple[object, ...]:
    roll = re.match(r"^\s*(\d)(\d):(.*)$", text)
    if roll is None:
        return (text.strip(),)
    # A play as its net checker flow and the points where it hits: one play has several
    # spellings ("9/8 8/6" and "9/7 7/6"; "13/7 8/7*" and "13/7* 8/7" when two checkers
    # land on a blot), and gnubg's importer reads any of them as the same play.
    flow: Counter[int] = Counter()
    hits = []
    for step in roll.group(3).split():
        src, dst = step.rstrip("*").split("/")
        flow[int(src)] -= 1
        flow[int(dst)] += 1
        if step.endswith("*"):
            hits.append(int(dst))
    net = sorted((point, n) for point, n in flow.items() if n)
    return (roll.group(1) + roll.group(2), net, sorted(hits))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_engine_writes_gnubg_exports_back_the_same_way(name: str) -> None:
    # Read gnubg's file and write it again: every entry must land on the same row and in the
    # same column, with the dice in the same order and the same plays.
    text = (GNUBG_MATS / name).read_text(encoding="utf-8")
    replayed = read_mat(text)
    assert layout(write_mat(replayed.match, replayed.names)) == layout(text)


def test_gnubg_exports_cover_the_endings() -> None:
    # The committed self-play matches end games every way gnubg's players do.
    endings = Counter(
        (g["resigned"], g["points"] > 1) for report in EXPECTED.values() for g in report["games"]
    )
    assert endings[(True, False)] and endings[(True, True)] and endings[(False, True)]
    assert {r["length"] for r in EXPECTED.values()} == {0, 3, 5, 7, 9}
    text = "".join(p.read_text(encoding="utf-8") for p in GNUBG_MATS.glob("*.mat"))
    assert "Doubles" in text and "Takes" in text and "Drops" in text


def test_rolls_are_written_larger_die_first() -> None:
    # gnubg records and exports every roll with the larger die first ("62:", not "26:").
    match = Match(length=1)
    match.game.opening_roll(3, 1)
    match.game.play_text("8/5 6/5")
    match.game.roll((2, 6))
    match.game.play_text("24/18 13/11")
    text = write_mat(match)
    assert "31: 8/5 6/5" in text and "62: 24/18 13/11" in text


# -- engine -> gnubg -------------------------------------------------------------------------

# (match length, seed, chance to double when allowed, chance to resign at each decision, share
# of greedy plays): random plays end most games with gammons, greedy ones (the least pips left)
# give races and single games.
ENGINE_MATCHES = [
    (3, 1, 0.15, 0.01, 0.0),
    (5, 2, 0.25, 0.01, 0.5),
    (5, 3, 0.0, 0.03, 0.5),
    (7, 4, 0.1, 0.005, 0.9),
    (7, 10, 0.0, 0.01, 0.9),
    (1, 5, 0.0, 0.0, 0.9),
    (0, 6, 0.2, 0.0, 0.0),  # money games, written as 0-point matches
    (0, 7, 0.0, 0.02, 0.5),
    (0, 8, 0.0, 0.0, 0.9),
    (9, 9, 0.2, 0.01, 0.5),
    (3, 11, 0.0, 0.0, 0.9),  # a Crawford game and a post-Crawford one
]


def random_match(
    length: int,
    seed: int,
    p_double: float,
    p_resign: float,
    greedy: float,
    variant: Variant = Variant.STANDARD,
) -> Match:
    """A match the engine plays with seeded random dice and choices."""
    rng = random.Random(seed)
    match = Match(length=length, variant=variant)
    for _ in range(100_000):
        game = match.game
        if game.is_over:
            if match.is_over:
                return match
            match.next_game()
            continue
        _decide(game, rng, p_double, p_resign, greedy)
    raise AssertionError("the match did not end")


def _decide(
    game: Game, rng: random.Random, p_double: float, p_resign: float, greedy: float
) -> None:
    r = rng.random()
    if game.phase is Phase.OPENING:
        game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
    elif game.phase is Phase.DOUBLED:
        game.take() if r < 0.6 else game.drop()
    elif game.phase is Phase.RESIGNED:
        game.accept_resignation() if r < 0.7 else game.reject_resignation()
    elif r < p_resign:
        game.resign(game.on_roll, rng.randint(1, 3))
    elif game.phase is Phase.ROLL:
        if game.can_double() and rng.random() < p_double:
            game.double()
        else:
            game.roll((rng.randint(1, 6), rng.randint(1, 6)))
    elif rng.random() < greedy:
        # The play leaving the mover the fewest pips (he is second in the result's view).
        game.play(min(game.legal_plays(), key=lambda p: p.result_position().pip_counts()[1]))
    else:
        game.play(rng.choice(game.legal_plays()))


def test_engine_matches_cover_every_action() -> None:
    # The matches handed to gnubg below hold every action a .mat file can carry.
    matches = [random_match(*spec) for spec in ENGINE_MATCHES]
    events = Counter(e.kind for m in matches for g in m.games for e in g.events)
    passes = sum(
        1
        for m in matches
        for g in m.games
        for e in g.events
        if e.kind is EventKind.MOVE and not e.play
    )
    endings = Counter(
        (g.result.reason, g.result.value) for m in matches for g in m.games if g.result
    )
    redoubles = sum(
        1
        for m in matches
        for g in m.games
        for e in g.events
        if e.kind is EventKind.DOUBLE and (e.value or 0) > 2
    )
    assert passes and redoubles and events[EventKind.TAKE] and events[EventKind.DROP]
    assert events[EventKind.REJECT]
    for value in (1, 2, 3):
        assert endings[(ResultReason.RESIGN, value)], value
    assert endings[(ResultReason.BEAR_OFF, 1)] and endings[(ResultReason.BEAR_OFF, 2)]
    assert any(g.crawford for m in matches for g in m.games)


@pytest.mark.slow
@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_gnubg_imports_what_the_engine_writes(tmp_path: Path) -> None:
    from tests.tools.gnubg_mat import import_mats

    matches = {}
    for spec in ENGINE_MATCHES:
        path = tmp_path / f"engine-{spec[0]}pt-{spec[1]}.mat"
        matches[str(path)] = random_match(*spec)
        path.write_text(write_mat(matches[str(path)], ("Alice", "Bob")), encoding="utf-8")
    reports = import_mats(list(map(Path, matches)), tmp_path / "report.json")
    problems = []
    for path, match in matches.items():
        ours, theirs = summary(match), reports[path]
        for field in ("length", "games", "score", "position_id"):
            if ours[field] != theirs[field]:
                problems.append(
                    f"{Path(path).name} {field}: {ours[field]} vs gnubg {theirs[field]}"
                )
    assert not problems, "\n".join(problems)


# Variant matches: the header names the variation as gnubg writes it, and gnubg replays them
# from its own variant starting position.
VARIANT_MATCHES = [
    (Variant.NACKGAMMON, (5, 21, 0.2, 0.01, 0.5)),
    (Variant.NACKGAMMON, (0, 22, 0.0, 0.0, 0.9)),
    (Variant.HYPERGAMMON, (5, 23, 0.2, 0.01, 0.5)),
    (Variant.HYPERGAMMON, (7, 24, 0.0, 0.0, 0.0)),
    (Variant.HYPERGAMMON, (0, 25, 0.1, 0.0, 0.9)),
]


def test_variant_matches_name_their_variation_and_read_back() -> None:
    for variant, spec in VARIANT_MATCHES:
        match = random_match(*spec, variant=variant)
        text = write_mat(match, ("Alice", "Bob"))
        assert text.startswith(f'; [Variation "{variant.mat_name}"]\n\n'), text[:60]
        back = read_mat(text).match
        assert back.variant is variant
        assert summary(back) == summary(match)
    assert "Variation" not in write_mat(Match(length=1))


def test_an_unknown_variation_is_refused() -> None:
    from engine import MatFileError

    text = '; [Variation "Hypergammon (2)"]\n\n 1 point match\n'
    with pytest.raises(MatFileError, match="Hypergammon"):
        read_mat(text)


@pytest.mark.slow
@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_gnubg_imports_the_variant_matches_the_engine_writes(tmp_path: Path) -> None:
    from tests.tools.gnubg_mat import import_mats

    matches = {}
    for variant, spec in VARIANT_MATCHES:
        path = tmp_path / f"engine-{variant.value}-{spec[1]}.mat"
        matches[str(path)] = random_match(*spec, variant=variant)
        path.write_text(write_mat(matches[str(path)], ("Alice", "Bob")), encoding="utf-8")
    reports = import_mats(list(map(Path, matches)), tmp_path / "report.json")
    problems = []
    for path, match in matches.items():
        ours, theirs = summary(match), reports[path]
        for field in ("length", "games", "score", "position_id"):
            if ours[field] != theirs[field]:
                problems.append(
                    f"{Path(path).name} {field}: {ours[field]} vs gnubg {theirs[field]}"
                )
    assert not problems, "\n".join(problems)

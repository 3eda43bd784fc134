"""GNU Backgammon's notation is understood by the engine, and the engine writes it the same way.

tests/data/gnubg-notation.jsonl.gz (made by tests/tools/make_gnubg_notation.py) holds plays as
gnubg 1.07 writes them (its hint list and ``movetupletostring``) with the position each leads to.
Players paste gnubg's hints into the bot, and .mat files from gnubg hold its notation, so
``parse_play`` must read every one of them as the same play.
"""

from __future__ import annotations

from typing import Any

from engine import Position, parse_play
from tests.conftest import load_jsonl_gz

ROWS = load_jsonl_gz("gnubg-notation.jsonl.gz")

# Where the engine's str(play) may differ from gnubg's FormatMove: nowhere. (Two checkers making
# the same journey, one hitting on the way, used to come out as "9/7*/5 9/5"; gnubg's
# "9/7*/5(2)" is written now, and this stays empty.)
KNOWN_FORMAT_DIFFERENCES: dict[str, str] = {}


def _read(row: dict[str, Any]) -> tuple[str, str]:
    """The Position ID after the play gnubg's text means to the engine, and its engine text."""
    pos = Position.from_position_id(row["position_id"])
    play = parse_play(row["gnubg"], pos, (row["dice"][0], row["dice"][1]))
    return pos.apply(play).position_id(), str(play)


def test_engine_reads_gnubg_notation_as_the_same_play() -> None:
    wrong = []
    for row in ROWS:
        where = f"{row['position_id']} {row['dice']} {row['gnubg']!r}"
        try:
            after, _ = _read(row)
        except ValueError as exc:  # the engine's parse errors are ValueError subclasses
            wrong.append(f"{where}: {exc}")
            continue
        if after != row["after"]:
            wrong.append(f"{where}: leads to {after}, gnubg's play to {row['after']}")
    assert not wrong, f"{len(wrong)} of {len(ROWS)} gnubg plays misread:\n" + "\n".join(wrong)


def test_engine_writes_plays_as_gnubg_does() -> None:
    differences = {}
    for row in ROWS:
        if row["source"] == "hint":  # the hint list is gnubg's canonical FormatMove text
            written = _read(row)[1]
            if written != row["gnubg"]:
                differences[row["gnubg"]] = written
    assert differences == KNOWN_FORMAT_DIFFERENCES


def test_sample_covers_every_notation_feature() -> None:
    texts = [r["gnubg"] for r in ROWS]
    assert len(ROWS) >= 3000
    for feature in ("bar/", "/off", "*", "(2)", "(3)", "(4)"):
        assert sum(feature in t for t in texts) >= 50, feature
    # Hits on an intermediate point ("13/7*/5") and the other order of movetupletostring.
    assert sum("*/" in t for t in texts) >= 50
    assert sum(r["source"] == "tuple" for r in ROWS) >= 50

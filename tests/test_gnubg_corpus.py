"""The engine agrees with GNU Backgammon on the larger corpus, case by case.

tests/data/gnubg-corpus.jsonl.gz was recorded from GNU Backgammon 1.07 by
tests/tools/make_gnubg_corpus.py (its docstring says how the plays were obtained and checked).
The comparison reads only the file, so it always runs; the last test re-asks gnubg about a sample
of it and is skipped where gnubg is not installed.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine import Position, legal_plays
from tests.conftest import load_corpus, load_jsonl_gz
from tests.tools._gnubg import gnubg_binary

ROLLS = {(a, b) for a in range(1, 7) for b in range(a, 7)}

Case = dict[str, Any]


CASES = load_jsonl_gz("gnubg-corpus.jsonl.gz")


def mismatches(cases: list[Case]) -> list[str]:
    """One line per case where the engine's results differ from gnubg's, saying how."""
    out = []
    for case in cases:
        pos = Position.from_position_id(case["position_id"])
        dice = (case["dice"][0], case["dice"][1])
        got = sorted(pos.apply(p).position_id() for p in legal_plays(pos, dice))
        if got != case["plays"]:
            missing = sorted(set(case["plays"]) - set(got))
            extra = sorted(set(got) - set(case["plays"]))
            dupes = len(got) - len(set(got))
            out.append(
                f"{case['kind']} {case['position_id']} {dice[0]}-{dice[1]}: "
                f"gnubg {len(case['plays'])} plays, engine {len(got)}; "
                f"missing {missing} extra {extra}" + (f" ({dupes} duplicates)" if dupes else "")
            )
    return out


@pytest.mark.slow
def test_engine_agrees_with_gnubg_on_every_case() -> None:
    # One pass over all cases, reporting every difference at once rather than stopping at the
    # first: a movegen bug tends to show up in a family of positions.
    bad = mismatches(CASES)
    assert not bad, f"{len(bad)} of {len(CASES)} cases differ:\n" + "\n".join(bad[:50])


def test_a_difference_is_reported_with_its_details() -> None:
    # The comparison above must be able to fail: pretend gnubg had one play fewer and one
    # bogus play more; the engine then "misses" the bogus one and has the dropped one "extra".
    case = next(c for c in CASES if len(c["plays"]) > 2)
    altered = dict(case, plays=sorted([*case["plays"][1:], "AAAAAAAAAAAAAA"]))
    (report,) = mismatches([case, altered])
    assert case["position_id"] in report
    missing, extra = report.split("missing", 1)[1].split("extra", 1)
    assert "AAAAAAAAAAAAAA" in missing
    assert case["plays"][0] in extra


def test_corpus_covers_every_family_and_roll() -> None:
    assert 10_000 <= len(CASES) <= 20_000
    kinds = Counter(c["kind"] for c in CASES)
    assert set(kinds) == {
        "self-play",
        "bear-off",
        "contact-bear-off",
        "bar-heavy",
        "blocked-doubles",
        "partial-roll",
        "race",
        "random-board",
    }
    for kind in kinds:
        rolls = {(min(c["dice"]), max(c["dice"])) for c in CASES if c["kind"] == kind}
        expected = {r for r in ROLLS if r[0] == r[1]} if kind == "blocked-doubles" else ROLLS
        assert rolls == expected, kind
    # Passes (no legal play) and one-die plays are both well represented.
    assert sum(1 for c in CASES if not c["plays"]) >= 500
    assert kinds["partial-roll"] >= 1000


def test_cases_are_new() -> None:
    # Distinct from each other and from the shared corpus, so the two files add up.
    keys = [(c["position_id"], tuple(sorted(c["dice"]))) for c in CASES]
    shared = {(str(c["position_id"]), tuple(sorted(c["dice"]))) for c in load_corpus()}  # type: ignore[arg-type]
    assert len(set(keys)) == len(keys)
    assert not set(keys) & shared


@pytest.mark.slow
@pytest.mark.skipif(gnubg_binary() is None, reason="GNU Backgammon (gnubg) is not installed")
def test_stored_cases_are_what_gnubg_says(tmp_path: Path) -> None:
    # Guards the data file itself (a hand edit, a stale file): gnubg recomputes a sample, and
    # plays a share of the sample's moves with its own `move` command as well.
    from tests.tools.make_gnubg_corpus import main

    sample = random.Random(7).sample(CASES, 300)
    path = tmp_path / "sample.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in sample), encoding="utf-8")
    main(["--verify", str(path), "--cross-check-every", "10"])

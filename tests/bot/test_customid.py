"""The component-id grammar (``bot.service.customid``), checked from outside: the ids are written
here by hand, since their text is a stored contract (the buttons of a message posted long ago
must keep working after a restart); and no other module of the bot or of the benchmarks writes
or reads one on its own."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.service.customid import (
    KINDS,
    MAX_ROW_ID,
    Answer,
    ChallengeAction,
    ComponentId,
    GameAction,
    LadderAction,
    LadderPress,
    PageAction,
    Press,
    PuzzleAction,
    TournamentAction,
    TournamentPress,
    action_word,
    kind_of,
    parse,
)

ROOT = Path(__file__).resolve().parents[2]

# Every kind of id, as posted messages carry them.
STORED: dict[str, ComponentId] = {
    "bg:42:17:roll": GameAction(42, 17, Press.ROLL),
    "bg:42:17:pt:13-6": GameAction(42, 17, Press.POINT, "13-6"),
    "bg:42:17:resign:2": GameAction(42, 17, Press.RESIGN, "2"),
    "bg:42:17:resign_menu": GameAction(42, 17, Press.RESIGN_MENU),
    "bg:42:17:play": GameAction(42, 17, Press.PLAY),
    "bg:42:17:refresh": GameAction(42, 17, Press.REFRESH),
    "ch:7:accept": ChallengeAction(7, Answer.ACCEPT),
    "ch:7:decline": ChallengeAction(7, Answer.DECLINE),
    "ch:7:cancel": ChallengeAction(7, Answer.CANCEL),
    "tn:5:join": TournamentAction(5, TournamentPress.JOIN),
    "tn:5:leave": TournamentAction(5, TournamentPress.LEAVE),
    "tn:5:start": TournamentAction(5, TournamentPress.START),
    "tn:5:standings": TournamentAction(5, TournamentPress.STANDINGS),
    "tn:5:withdraw": TournamentAction(5, TournamentPress.WITHDRAW),
    "ld:4:join": LadderAction(4, LadderPress.JOIN),
    "ld:4:leave": LadderAction(4, LadderPress.LEAVE),
    "ld:4:show": LadderAction(4, LadderPress.SHOW),
    "gl:2": PageAction(2),
    "pz:3:0": PuzzleAction(3, "0"),
    "pz:3:m": PuzzleAction(3, "m"),
    "pd:9:12": PuzzleAction(9, "12", daily=True),
}


@pytest.mark.parametrize("text", list(STORED))
def test_an_id_is_built_and_read_as_messages_store_it(text: str) -> None:
    made = STORED[text]
    assert made.custom_id == text
    assert parse(text) == made
    assert type(made).parse(text) == made
    assert kind_of(text) is type(made)
    # Discord's adapter registers the template: it must take every id the service writes.
    assert re.fullmatch(type(made).TEMPLATE, text)


def test_every_kind_is_stored_above() -> None:
    assert {type(made) for made in STORED.values()} == set(KINDS)


@pytest.mark.parametrize(
    "text",
    ["bg:42:17:fly", "ch:7:steal", "tn:5:fly", "gl:x", "pz:3:x", "bg:42:roll", "xx:1:2", ""],
)
def test_a_malformed_id_is_none_but_keeps_its_kind(text: str) -> None:
    """Refused as an unknown button; the adapter still hands it to the service (its kind's
    class carries it), so the refusal is said."""
    assert parse(text) is None
    assert action_word(text) is None
    prefix = text.partition(":")[0]
    assert (kind_of(text) is None) == (prefix not in {"bg", "ch", "tn", "gl", "pz", "pd"})


@pytest.mark.parametrize("wide", [0, -1, MAX_ROW_ID + 1, 2**63])
def test_an_id_no_row_can_have_parses_but_is_not_known(wide: int) -> None:
    """The range check of ids lives in the parser: answered as an unknown row's, the database
    never asked."""
    for text in (f"bg:{wide}:1:roll", f"ch:{wide}:accept", f"tn:{wide}:join", f"pd:{wide}:0"):
        found = parse(text)
        assert found is not None and not isinstance(found, PageAction), text
        assert not found.known, text
    for text in (f"bg:{MAX_ROW_ID}:1:roll", f"ch:{MAX_ROW_ID}:accept", f"tn:{MAX_ROW_ID}:join"):
        found = parse(text)
        assert found is not None and not isinstance(found, PageAction) and found.known, text


def test_action_word_names_the_action_of_an_id() -> None:
    assert action_word("bg:3:7:take") == "take"
    assert action_word("bg:3:7:die:2") == "die"
    assert action_word("ch:7:decline") == "decline"
    assert action_word("tn:5:standings") == "standings"
    assert action_word("gl:2") is None
    assert action_word("pz:3:m") is None


# -- no one else writes or reads an id ------------------------------------------------------

_PREFIXES = ("bg:", "ch:", "tn:", "gl:", "pz:", "pd:")
_READS = {"split", "rsplit", "partition", "rpartition", "startswith", "endswith", "removeprefix"}
_MATCHES = {"match", "fullmatch", "search", "findall", "finditer", "sub", "split"}


def _names_an_id(node: ast.expr) -> bool:
    return (isinstance(node, ast.Name) and node.id == "custom_id") or (
        isinstance(node, ast.Attribute) and node.attr == "custom_id"
    )


def _offences(tree: ast.AST) -> list[str]:
    """An id's prefix written as a string (``"ch:"``, ``f"tn:{...}"``, a regex ``r"tn:(..."``)
    or an id taken apart (``custom_id.startswith``, ``re.findall(..., custom_id)``)."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and str(node.value).startswith(_PREFIXES):
            found.append(f"line {node.lineno}: {node.value!r}")
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        reads = node.func.attr in _READS and _names_an_id(node.func.value)
        matches = node.func.attr in _MATCHES and any(_names_an_id(a) for a in node.args)
        if reads or matches:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_finder_finds_an_id_written_or_read_by_hand() -> None:
    written = 'if custom_id.startswith("ch:"):\n    x = f"tn:{i}:{a}"\n'
    read = 're.findall(r"(?<=:)[a-z_]+", button.custom_id)\n_B.fullmatch(custom_id)\n'
    assert len(_offences(ast.parse(written))) == 3
    assert len(_offences(ast.parse(read))) == 2
    assert _offences(ast.parse('GameAction.parse(custom_id)\n"bag:1"\n')) == []


def test_only_the_grammar_module_writes_or_reads_an_id() -> None:
    """The adapters, the terminal, the use cases and the benchmarks ask
    ``bot.service.customid``; docstrings (their examples) are free to show ids."""
    grammar = ROOT / "bot" / "service" / "customid.py"
    files = [p for d in ("bot", "bench") for p in sorted((ROOT / d).rglob("*.py"))]
    assert len(files) > 50
    offences = {
        str(path.relative_to(ROOT)): found
        for path in files
        if path != grammar and (found := _offences(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert offences == {}

"""Functions stay small: none in ``engine/``, ``render/``, ``db/`` (migrations aside) and ``bot/``
is over 40 lines, from its ``def`` to its last line, docstring included. The few older ones still
over it are listed with their length, which may only go down: a list that only shrinks."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "render", "db", "bot")
MOST_LINES = 40

# Older functions not split yet, each with its length today: it may shrink, never grow, and
# its entry goes once it fits. The move generator's inner loop is left whole for speed (it runs
# for every move the bots weigh).
STILL_LONG = {
    "engine/movegen.py:_generate_non_double_contact": 44,
}


def function_lengths(root: Path = ROOT) -> dict[str, int]:
    """``path:name`` of every function and method (nested ones too) and its number of lines."""
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            where = path.relative_to(root).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    key = f"{where}:{node.name}"
                    found[key] = max(lines, found.get(key, 0))
    return found


def test_no_function_is_over_40_lines() -> None:
    lengths = function_lengths()
    assert len(lengths) > 1000  # the walk found the code
    too_long = {key: n for key, n in lengths.items() if n > STILL_LONG.get(key, MOST_LINES)}
    assert not too_long, f"over {MOST_LINES} lines (split them): {too_long}"


def test_the_list_of_long_functions_only_shrinks() -> None:
    lengths = function_lengths()
    fits = sorted(key for key in STILL_LONG if lengths.get(key, 0) <= MOST_LINES)
    assert not fits, f"now {MOST_LINES} lines or fewer (or gone): remove from STILL_LONG {fits}"


def test_the_walk_counts_a_docstring_and_a_nested_function(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(37))
    (tmp_path / "bot" / "m.py").write_text(
        f'def f():\n    """Doc."""\n{body}\n    return x0\n\n'
        "def g():\n    def h():\n        return 1\n    return h\n",
        encoding="utf-8",
    )
    for package in ("engine", "render", "db"):
        (tmp_path / package).mkdir()
    assert function_lengths(tmp_path) == {"bot/m.py:f": 40, "bot/m.py:g": 4, "bot/m.py:h": 2}

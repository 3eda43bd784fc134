"""No import cycle anywhere: between the modules of every package of the project, within one
package or across them. Every import counts, at module level, inside a function (a
function-local import is a cycle postponed, not removed) or under ``if TYPE_CHECKING:`` (a
type-only import still ties the two modules: neither can be read, moved or typed without the
other)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))
"""Every package of the project: ``engine``, ``render``, ``db``, ``bot``, and ``bench`` and
``tests`` too."""


def _module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(node: ast.AST, files: dict[str, Path]) -> list[str]:
    """The modules ``node`` imports, if it is an import (``from pkg import sub`` names
    ``pkg.sub`` when ``sub`` is a module, else the package's ``__init__``)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and not node.level:
        subs = (f"{node.module}.{alias.name}" for alias in node.names)
        return [sub if sub in files else node.module for sub in subs]
    return []


def import_graph(*packages: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of ``packages`` it imports, type-only imports included."""
    files = {_module_name(p, root): p for pkg in packages for p in (root / pkg).rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _imported(node, files):
                if target in files and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_anywhere() -> None:
    assert {"engine", "render", "db", "bot"} <= set(PACKAGES)
    graph = import_graph(*PACKAGES)
    assert len(graph) > 200
    assert cycles(graph) == []


def test_a_type_only_import_counts(tmp_path: Path) -> None:
    """``engine.position`` named ``engine.movegen.Play`` under ``if TYPE_CHECKING:``, and
    ``engine.movegen`` imports ``engine.position``: a cycle all the same."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import B\n")
    (tmp_path / "pkg" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import A\n"
    )
    assert cycles(import_graph("pkg", root=tmp_path)) == [["pkg.a", "pkg.b"]]


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_palette_does_not_import_the_samples_script() -> None:
    graph = import_graph("render")
    assert "render.write_samples" not in graph["render.board"]
    assert "render.board" not in graph["render.samples"]

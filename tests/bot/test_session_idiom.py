"""The service opens its sessions one way, :meth:`bot.service.deps.Deps.unit` (commits at the
end, rolls back on any error, a lost race said as ``GameMovedOn``), reads included: no use case
opens a bare ``factory()`` session of its own."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[2] / "bot" / "service"


def _factory_calls(path: Path) -> list[str]:
    """``file:line`` of every ``<something>.factory()`` call in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.name}:{node.lineno}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "factory"
    ]


def test_the_service_opens_sessions_only_through_unit() -> None:
    found = [site for path in sorted(SERVICE.rglob("*.py")) for site in _factory_calls(path)]
    assert found == []

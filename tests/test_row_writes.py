"""The service writes no database row itself: a write of a row's column (``row.status = ...``,
``match.bank0 += ...``) is a named function of a repository in ``db/`` that says what happens
(``db.tournaments.start_tournament``, ``db.games.hold_clock``), beside the other writes of that
row. Building a new row with keyword arguments (``Tournament(name=...)``) is not such a write.

A name counts as a row unless the code declares it something else: a parameter or a variable
annotated with a class that is not a ``db.models`` table (a ``Table`` or a ``Reply`` has columns'
names too)."""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

from sqlalchemy import inspect as sa_inspect

from bot.service.model import Table
from db import models
from tests.test_import_cycles import ROOT, _module_name

PLACES = ("bot/service", "bot/tournaments", "bot/ladders")

ALLOWED = {
    # A tournament format is one file (issue #28): the format's own settings (a Swiss's
    # rounds, an arena's minutes and closing time) are its to set, through the protocol's
    # two hooks, on the row the running code then stores through the repository.
    ("bot/tournaments/formats", "configure"): "a format's settings, at creation",
    ("bot/tournaments/formats", "started"): "a format's settings, at the start",
}

ROWS = {
    cls
    for cls in vars(models).values()
    if isinstance(cls, type) and issubclass(cls, models.Base) and hasattr(cls, "__table__")
}
COLUMNS = {attr.key for cls in ROWS for attr in sa_inspect(cls).attrs}


def _targets(node: ast.AST) -> Iterator[ast.expr]:
    """What an assignment (plain, augmented, annotated, or to a tuple) writes to."""
    if isinstance(node, ast.Assign):
        pending = list(node.targets)
    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
        pending = [node.target]
    else:
        return
    while pending:
        target = pending.pop()
        if isinstance(target, ast.Tuple | ast.List):
            pending += target.elts
        else:
            yield target


def _not_rows(function: ast.AST, module: object) -> set[str]:
    """The names ``function`` declares of a type that is not a table (its parameters and
    annotated variables), resolved in its module."""
    declared: dict[str, ast.expr] = {}
    if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
        args = function.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            if arg.annotation is not None:
                declared[arg.arg] = arg.annotation
    for node in ast.walk(function):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            declared[node.target.id] = node.annotation
    return {
        name
        for name, annotation in declared.items()
        if isinstance(annotation, ast.Name) and getattr(module, annotation.id, None) not in ROWS
    }


def _functions(tree: ast.Module) -> Iterator[ast.AST]:
    """The module's body, then every function in it (a write is judged in its innermost
    function: the names it declares)."""
    yield tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


def _own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``function`` outside the functions nested in it."""
    for child in ast.iter_child_nodes(function):
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield child
            yield from _own_nodes(child)
        elif isinstance(child, ast.ClassDef):
            yield from _own_nodes(child)


def row_writes(path: Path) -> list[str]:
    """``file:line: row.column`` for each write of a row's column in the file."""
    rel = path.relative_to(ROOT)
    module = importlib.import_module(_module_name(path))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{rel}:{w}" for w in writes_in(tree, module, rel.parent.as_posix())]


def writes_in(tree: ast.Module, module: object, folder: str) -> list[str]:
    """``line: row.column`` for each write of a row's column in ``tree``, the source of
    ``module`` in ``folder``."""
    found = []
    for function in _functions(tree):
        if (folder, getattr(function, "name", "")) in ALLOWED:
            continue
        not_rows = _not_rows(function, module) | {"self", "cls"}
        for node in _own_nodes(function):
            for target in _targets(node):
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr in COLUMNS
                    and not (isinstance(target.value, ast.Name) and target.value.id in not_rows)
                ):
                    found.append(f"{target.lineno}: {ast.unparse(target)}")
    return found


def test_the_service_writes_no_row_itself() -> None:
    files = [p for place in PLACES for p in sorted((ROOT / place).rglob("*.py"))]
    assert len(files) > 20  # the walk sees the service (a wrong root would see nothing)
    writes = [w for path in files for w in row_writes(path)]
    assert writes == [], "move these writes into a repository function of db/"


SAMPLE = """
def start(tour: Tournament, table: Table, entrants: list[TournamentEntrant]) -> None:
    for e in entrants:
        e.seed, e.rating = 1, 1500.0
    tour.status = "running"
    table.version = 3  # a Table is no row
    tour.name = "Cup"
    def nested(match):
        match.bank0 += 1.0
    new = Tournament(name="Friday Cup", rounds=3)

class Format:
    def configure(self, tour: Tournament) -> None:
        tour.rounds = 5
"""


def test_the_walk_finds_each_kind_of_write() -> None:
    """The check sees a plain, an augmented and a tuple write of a row (nested functions and
    methods included), and spares a table built with keywords, a name declared as something
    else, and a format's own hook."""
    module = SimpleNamespace(Table=Table, Tournament=models.Tournament)
    tree = ast.parse(SAMPLE)
    found = sorted(w.split(": ", 1)[1] for w in writes_in(tree, module, "bot/service"))
    assert found == ["e.rating", "e.seed", "match.bank0", "tour.name", "tour.rounds", "tour.status"]
    in_formats = writes_in(tree, module, "bot/tournaments/formats")
    assert sorted(w.split(": ", 1)[1] for w in in_formats) == [
        "e.rating",
        "e.seed",
        "match.bank0",
        "tour.name",
        "tour.status",
    ]

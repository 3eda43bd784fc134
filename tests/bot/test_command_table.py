"""The command table against the service: every row's use case is a method the service runs,
and the row's options are keywords it takes (it needs no other)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from bot.service import Actor, Service, Where
from bot.service.command_spec import Command, Surface, usage
from bot.service.commands import COMMANDS

RUN = [c for c in COMMANDS if c.method is not None]


@pytest.mark.parametrize("command", RUN, ids=lambda c: c.name)
def test_every_row_runs_a_method_of_a_feature_of_the_service(
    service: Service, command: Command
) -> None:
    assert command.method is not None
    bound = service.bind(command.method)
    assert bound.__func__ is command.method  # type: ignore[attr-defined]
    assert bound.__self__ in service._owners.values()  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", RUN, ids=lambda c: c.name)
def test_a_rows_options_are_the_keywords_of_its_method(command: Command) -> None:
    assert command.method is not None
    parameters = list(inspect.signature(command.method).parameters.values())
    assert [p.name for p in parameters[:3]] == ["self", "actor", "where"]
    keywords = {p.name: p for p in parameters[3:] if p.kind is not p.VAR_KEYWORD}
    # /tournament takes its many options as **options, each action reading its own.
    takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters)
    options = {o.keyword for o in command.options}
    unknown = set() if takes_any else options - keywords.keys()
    assert not unknown, f"/{command.name}: no keyword for {unknown}"
    # The others are for the buttons (a page) or the adapter (the terminal's /help): a
    # command leaves them out.
    others = keywords.keys() - options
    required = {name for name in others if keywords[name].default is inspect.Parameter.empty}
    assert not required, f"/{command.name}: no option for {required}"


def test_run_calls_the_rows_method_on_the_services_feature(service: Service) -> None:
    rules = next(c for c in COMMANDS if c.name == "rules")
    actor, where = Actor(1, "Ann", locale="fr"), Where(channel_id=5)
    assert service.run(rules, actor, where).text == service.rules(actor, where).text


def test_the_terminals_own_commands_are_not_run_by_the_service(service: Service) -> None:
    quit_ = next(c for c in COMMANDS if c.name == "quit")
    with pytest.raises(ValueError, match="/quit"):
        service.run(quit_, Actor(1, "Ann"), Where())


def test_a_method_of_no_feature_is_refused(service: Service) -> None:
    with pytest.raises(KeyError):
        service.bind(Service.warm_up)


def _readme_commands() -> dict[str, tuple[str, str]]:
    """The README's table of commands: each command's English and French cells, by name."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("### Commands", 1)[1].split("\n|---", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.splitlines()[1:]:
        english, french = (cell.strip().strip("`") for cell in line.split("|")[1:3])
        rows[english.split()[0].removeprefix("/")] = (english, french)
    return rows


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.name)
def test_the_readme_names_the_options_in_the_order_of_help(command: Command) -> None:
    """The README's table writes each command as /help does (the order of the command's
    options, which Discord shows too): ``/hint``'s were written in another order."""
    rows = _readme_commands()
    if command.surface is Surface.TERMINAL:
        assert command.name not in rows  # the terminal's own, in its section
        return
    for lang, cell in zip(("en", "fr"), rows[command.name], strict=True):
        assert cell.lower() == usage(command, lang).lower(), (lang, cell)

"""The command table against the service: every row's use case is a method the service runs,
and the row's options are keywords it takes (it needs no other)."""

from __future__ import annotations

import inspect

import pytest

from bot.service import Actor, Service, Where
from bot.service.command_spec import Command
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

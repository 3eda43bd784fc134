"""The README's two commands are the ones CI runs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_readme_opens_with_two_commands() -> None:
    install_run, install_test = _readme_commands()
    assert install_run.endswith(".venv/bin/backgammon-bot")
    assert "'.[test]'" in install_test and install_test.endswith("-m pytest")


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert _readme_commands()[1] in ci


def _mypy_packages(lines: list[str]) -> list[str]:
    """The packages after ``mypy --strict`` on the first line that runs it."""
    line = next(line for line in lines if "mypy --strict" in line)
    return line.split("mypy --strict", 1)[1].split("#", 1)[0].split()


def test_ci_types_what_the_readme_says() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    developing = readme.split("## Developing", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    packages = _mypy_packages(ci)
    assert packages == _mypy_packages(developing.splitlines())
    assert {"engine", "render", "db", "bench"} <= set(packages)
    assert all((ROOT / name / "__init__.py").is_file() for name in packages)


def test_ci_checks_the_formatting() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ".venv/bin/ruff format --check ." in ci

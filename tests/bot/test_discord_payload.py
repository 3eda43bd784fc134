"""The slash command payload: what ``backgammon-bot sync`` sends, linted against Discord's limits
(discord.py checks only some of them) and compared with the committed snapshot, so that a change
never reaches Discord unnoticed. Regenerate the snapshot after a deliberate change with::

    .venv/bin/python -m bot.discord_app.payload > tests/data/commands.json
"""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import bot
from bot.discord_app import BackgammonBot
from bot.discord_app.payload import command_payload
from bot.i18n import LANGUAGES, t
from engine.bots import LEVELS

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "tests" / "data" / "commands.json"
REGENERATE = "regenerate it: .venv/bin/python -m bot.discord_app.payload > tests/data/commands.json"

OPTION_TYPES_WITH_CHOICES = {3, 4, 10}  # string, integer, number
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


@pytest.fixture
async def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[BackgammonBot]:
    """The bot as ``bot.create_bot()`` builds it from the environment, set up, not connected."""
    monkeypatch.chdir(tmp_path)  # no .env from the developer's checkout
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'bot.sqlite3'}")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "1,2")
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    made = bot.create_bot()
    async with made:
        await made.setup_hook()
        yield made


@pytest.fixture
async def payload(built: BackgammonBot) -> list[dict[str, Any]]:
    return await command_payload(built)


def test_the_bot_is_built_from_the_environment_without_connecting(built: BackgammonBot) -> None:
    assert built.shard_count == 4 and built.shard_ids == [1, 2]
    assert built.user is None and not built.is_ready()
    assert (Path.cwd() / "bot.sqlite3").exists()  # the database was migrated
    assert built.service.settings.challenge_ttl.total_seconds() == 15 * 60


def test_import_bot_stays_light() -> None:
    code = "import bot, sys; assert 'discord' not in sys.modules; assert callable(bot.create_bot)"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_payload_matches_the_snapshot(payload: list[dict[str, Any]]) -> None:
    expected = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert json.loads(json.dumps(payload)) == expected, f"the command payload changed: {REGENERATE}"


# -- Discord's limits ---------------------------------------------------------------------------


def valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case where a letter
    has a lower case (the standard library has no \\p classes: Unicode categories instead)."""

    def allowed(ch: str) -> bool:
        code = ord(ch)
        return (
            ch in "-_"
            or unicodedata.category(ch)[0] in "LN"
            or 0x0900 <= code <= 0x097F  # Devanagari
            or 0x0E00 <= code <= 0x0E7F  # Thai
        )

    return 1 <= len(name) <= 32 and all(allowed(c) for c in name) and name == name.lower()


def localized(obj: dict[str, Any], field: str) -> dict[str, str]:
    """``{locale: text}`` for the default (key "") and every localization of ``field``."""
    out = {"": obj[field]}
    out.update(obj.get(f"{field}_localizations") or {})
    return out


def walk_options(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for option in command.get("options") or []:
        yield option
        yield from walk_options(option)


def locales_of(command: dict[str, Any]) -> set[str]:
    found = {""}
    for obj in [command, *walk_options(command)]:
        for field in ("name", "description"):
            found |= set(obj.get(f"{field}_localizations") or {})
        for choice in obj.get("choices") or []:
            found |= set(choice.get("name_localizations") or {})
    return found


def text_size(command: dict[str, Any], locale: str) -> int:
    """Characters of every name, description and choice (name and value) in one locale."""

    def pick(obj: dict[str, Any], field: str) -> str:
        return str(localized(obj, field).get(locale) or obj[field])

    total = len(pick(command, "name")) + len(pick(command, "description"))
    for option in walk_options(command):
        total += len(pick(option, "name")) + len(pick(option, "description"))
        for choice in option.get("choices") or []:
            total += len(pick(choice, "name")) + len(str(choice["value"]))
    return total


def lint(payload: list[dict[str, Any]]) -> list[str]:
    """Every way ``payload`` breaks Discord's rules for global chat-input commands."""
    problems: list[str] = []
    if len(payload) > 100:
        problems.append(f"{len(payload)} global commands (100 at most)")
    seen: dict[str, set[str]] = {}
    for command in payload:
        where = f"/{command['name']}"
        for locale, name in localized(command, "name").items():
            if name in seen.setdefault(locale, set()):
                problems.append(
                    f"{where}: name {name!r} used twice in locale {locale or 'default'}"
                )
            seen[locale].add(name)
        if command.get("integration_types") is None or command.get("contexts") is None:
            problems.append(f"{where}: integration_types and contexts must be explicit")
        for locale in locales_of(command):
            size = text_size(command, locale)
            if size > 4000:
                problems.append(f"{where}: {size} characters of text in locale {locale!r}")
        problems += _lint_node(command, where)
        options = command.get("options") or []
        required = [o.get("required", False) for o in options]
        if required != sorted(required, reverse=True):
            problems.append(f"{where}: a required option follows an optional one")
    return problems


def _lint_node(node: dict[str, Any], where: str) -> list[str]:
    problems = []
    for locale, name in localized(node, "name").items():
        if not valid_name(name):
            problems.append(f"{where}: bad name {name!r} ({locale or 'default'})")
    for locale, text in localized(node, "description").items():
        if not 1 <= len(text) <= 100:
            problems.append(f"{where}: description of {len(text)} chars ({locale or 'default'})")
    options = node.get("options") or []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (25 at most)")
    for option in options:
        at = f"{where} {option['name']}"
        problems += _lint_node(option, at)
        choices = option.get("choices") or []
        if choices and option.get("autocomplete"):
            problems.append(f"{at}: choices and autocomplete together")
        if choices and option["type"] not in OPTION_TYPES_WITH_CHOICES:
            problems.append(f"{at}: choices on an option of type {option['type']}")
        if len(choices) > 25:
            problems.append(f"{at}: {len(choices)} choices (25 at most)")
        for choice in choices:
            for locale, name in localized(choice, "name").items():
                if not 1 <= len(name) <= 100:
                    problems.append(f"{at}: choice name {name!r} ({locale or 'default'})")
            if isinstance(choice["value"], str) and len(choice["value"]) > 100:
                problems.append(f"{at}: choice value {choice['value']!r} too long")
        if option.get("max_length", 0) > 6000:
            problems.append(f"{at}: max_length over 6000")
    return problems


def test_payload_is_within_discords_limits(payload: list[dict[str, Any]]) -> None:
    assert lint(payload) == []


def test_the_linter_catches_what_discord_rejects(payload: list[dict[str, Any]]) -> None:
    broken = json.loads(json.dumps(payload))
    play = broken[0]
    play["description_localizations"]["fr"] = "x" * 101
    play["name_localizations"]["fr"] = "Jouer Vite"
    play["options"][0]["autocomplete"] = True
    play["options"][0]["choices"] *= 5
    broken[1]["contexts"] = None
    broken[2]["name_localizations"]["fr"] = "défi"  # the French name of /challenge
    broken[3]["options"] = [dict(broken[0]["options"][1], name=f"o{i}") for i in range(26)]
    settings = next(c for c in broken if c["name"] == "settings")["options"][0]
    settings["choices"] = [{"name": "n" * 100, "value": "v" * 101} for _ in range(25)]
    found = "\n".join(lint(broken))
    for expected in (
        "description of 101 chars (fr)",
        "bad name 'Jouer Vite'",
        "choices and autocomplete",
        "30 choices",
        "must be explicit",
        "used twice in locale fr",
        "/undo: 26 options",
        "choice value 'vvvv",
        "/settings: 5",  # characters of text: 25 choices of 200 characters
    ):
        assert expected in found


# -- what the payload says ----------------------------------------------------------------------

COMMANDS = ["play", "challenge", "move", "undo", "board", "resign", "hint", "review", "export"]
COMMANDS += ["replay"]
COMMANDS += ["leaderboard", "stats", "history", "rules", "help", "verify", "dice", "tournament"]
COMMANDS += ["ladder", "settings"]
COMMANDS += ["watch", "games", "server"]  # playing together
COMMANDS += ["puzzle", "puzzle_leaderboard", "daily"]
COMMANDS += ["drill"]  # drills of one's own blunders (issue 32)
COMMANDS += ["consult", "vote"]  # the server against the computer (issue 32)
MANAGERS_ONLY = {"server", "daily"}  # Discord shows them to members who may manage the server
GUILD_ONLY = (
    "challenge",
    "tournament",
    "ladder",
    "server",
    "puzzle_leaderboard",
    "daily",
    "consult",
    "vote",
)  # a server's


def test_every_command_is_there_in_english_and_french(payload: list[dict[str, Any]]) -> None:
    assert [c["name"] for c in payload] == COMMANDS
    for command in payload:
        key = f"cmd.{command['name']}"
        assert command["name"] == t(f"{key}.name", "en")
        assert command["name_localizations"] == {"fr": t(f"{key}.name", "fr")}
        assert command["description_localizations"] == {"fr": t(f"{key}.description", "fr")}
        for option in walk_options(command):
            assert set(option["name_localizations"]) == {"fr"}, option["name"]
            assert set(option["description_localizations"]) == {"fr"}, option["name"]
            for choice in option.get("choices") or []:
                assert set(choice["name_localizations"]) == {"fr"}, choice["name"]
    french = {c["name"]: c["name_localizations"]["fr"] for c in payload}
    assert french["play"] == "jouer" and french["challenge"] == "défi"
    assert french["rules"] == "règles" and french["settings"] == "réglages"


def test_where_commands_can_be_used(payload: list[dict[str, Any]]) -> None:
    for command in payload:
        assert command["integration_types"] == [GUILD_INSTALL, USER_INSTALL]
        if command["name"] in GUILD_ONLY:  # a challenge waits in a channel both players see
            assert command["contexts"] == [GUILD] and command["dm_permission"] is False
        else:
            assert command["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL]
        # Server settings and the position of the day: for its managers (Manage Server: 1 << 5).
        expected = 1 << 5 if command["name"] in MANAGERS_ONLY else None
        assert command.get("default_member_permissions") == expected


def test_options(payload: list[dict[str, Any]]) -> None:
    by_name = {c["name"]: {o["name"]: o for o in c.get("options") or []} for c in payload}
    assert [c["value"] for c in by_name["play"]["level"]["choices"]] == list(LEVELS)
    points = by_name["play"]["points"]
    assert (points["min_value"], points["max_value"]) == (0, 25)
    play = by_name["move"]["play"]
    assert play["required"] and play["autocomplete"] and play["max_length"] == 100
    assert [c["value"] for c in by_name["resign"]["value"]["choices"]] == [1, 2, 3]
    assert [c["value"] for c in by_name["leaderboard"]["scope"]["choices"]] == ["server", "global"]
    assert (
        by_name["challenge"]["opponent"]["type"] == 6
        and by_name["challenge"]["opponent"]["required"]
    )
    assert [c["value"] for c in by_name["settings"]["language"]["choices"]] == [
        *LANGUAGES,
        "auto",
    ]


def test_the_commands_come_from_the_service_table(payload: list[dict[str, Any]]) -> None:
    # One table: every command of it (but the terminal's own) is a slash command, with its
    # options in the table's order of required-first, and nothing else is.
    from bot.service.command_spec import Surface
    from bot.service.commands import COMMANDS as TABLE

    table = [c for c in TABLE if c.surface is not Surface.TERMINAL]
    assert [c["name"] for c in payload] == [c.name for c in table]
    for command, spec in zip(payload, table, strict=True):
        wanted = sorted(spec.options, key=lambda o: not o.required)
        assert [o["name"] for o in command.get("options", [])] == [o.name for o in wanted]
        assert [o["required"] for o in command.get("options", [])] == [o.required for o in wanted]

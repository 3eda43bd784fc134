"""``/rules``: the rules as the bot plays them, its variants included, in messages Discord
can show."""

from __future__ import annotations

import re

import pytest

from bot.i18n import t
from bot.service import Service
from bot.service.command_spec import Surface
from bot.service.info import MESSAGE_LIMIT
from engine import Variant
from tests.bot.conftest import ALICE, CHANNEL, Actor

FRENCH = Actor(ALICE.id, ALICE.name, locale="fr")


def _whole(service: Service, actor: Actor) -> str:
    reply = service.rules(actor, CHANNEL)
    parts = [reply, *reply.followups]
    assert all(part.ephemeral and 0 < len(part.text) <= MESSAGE_LIMIT for part in parts)
    return "\n".join(part.text for part in parts)


@pytest.mark.parametrize(("actor", "lang"), [(ALICE, "en"), (FRENCH, "fr")], ids=["en", "fr"])
def test_the_rules_come_whole_in_messages_discord_can_show(
    service: Service, actor: Actor, lang: str
) -> None:
    """The French rules are longer than one message: they come in private follow-ups, cut
    between paragraphs, nothing lost."""
    assert _whole(service, actor) == t("rules.text", lang) + "\n" + t("rules.variants", lang)


@pytest.mark.parametrize(
    ("actor", "word"), [(ALICE, r"(\d+)-(?:point)?"), (FRENCH, r"(\d+)")], ids=["en", "fr"]
)
def test_the_rules_give_each_variant_its_own_start(
    service: Service, actor: Actor, word: str
) -> None:
    """A hypergammon player reads rules that hold for his three checkers (bearing off with
    all of them home, not "all 15"), and each variant's start is the engine's: the points
    named in its sentence are those its starting position fills."""
    whole = _whole(service, actor)
    assert "15 checkers home" not in whole and "15 dames sont rentrées" not in whole
    for variant in (Variant.NACKGAMMON, Variant.HYPERGAMMON):
        name = variant.value.capitalize()
        sentence = whole.split(f"**{name}**", 1)[1].split("**", 1)[0]
        board = variant.initial_position().board
        filled = {p for p in range(1, 25) if board[p] > 0}
        assert {int(n) for n in re.findall(word, sentence)} == filled, sentence


def test_the_terminal_prints_the_rules_in_one_reply(service: Service) -> None:
    """The terminal has no message length: the French rules come whole, in one private reply,
    as the terminal's /help does."""
    whole = service.rules(FRENCH, CHANNEL, Surface.TERMINAL)
    assert whole.ephemeral and not whole.followups
    assert whole.text == t("rules.text", "fr") + "\n" + t("rules.variants", "fr")
    assert service.rules(FRENCH, CHANNEL).followups  # in Discord: two messages


def test_the_terminals_rules_command_asks_for_them_whole(service: Service) -> None:
    import io
    import json
    from pathlib import Path

    from bot.terminal import Terminal

    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, lang="fr", images=Path("/tmp/unused"))
    term.run(["/règles"])
    texts = [json.loads(line)["text"] for line in out.getvalue().splitlines()]
    (whole,) = texts  # one reply (without the markdown: the terminal's text is plain)
    assert whole.startswith("Les règles") and whole.endswith("cases 24, 23 et 22.")

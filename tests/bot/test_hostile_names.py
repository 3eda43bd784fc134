"""Names are plain text in every message (issue 20, item 6): a nickname full of Discord
markdown (a masked link, a fake role mention, @everyone, a heading, bold, spoilers, code) must
not format anything, in English or French. Generated over every catalog message that takes a
name, then through the public messages of whole games."""

from __future__ import annotations

import re
import string
from collections import deque

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.i18n import CATALOGS, LANGUAGES, t
from bot.i18n.markdown import NAME_PARAMS, RAW_MESSAGES
from bot.service import Actor, Service, Where
from tests.bot.conftest import press

HOSTILE = (
    "@everyone [Free Nitro](https://evil.example/x) <@&555> # BIG",
    "# BIG **bold** ||spoiler|| `code` __under__ ~~gone~~",
    "> quoted -# small [a](<https://evil.example>) @here <:e:1> <#9>",
    "1. listed \\*",
    "-# small",
)


def formatting_found(text: str) -> list[str]:
    """What in ``text`` Discord would render as something other than the hostile names'
    letters: a masked link, a mention, @everyone, a bare link, a heading, quote or list line,
    bold, spoilers, code, underline or strike made of the names' marks."""
    problems = []
    # Nothing renders inside a code block (the leaderboard): only a backtick could end it.
    blocks = re.findall(r"```\n(.*?)\n```", text, flags=re.S)
    if any("`" in block for block in blocks):
        problems.append("code block broken")
    text = re.sub(r"```\n.*?\n```", "", text, flags=re.S)
    unescaped = r"(?<!\\)"
    checks = {
        "masked link": unescaped + r"\]\(",
        "mention": unescaped + r"<(@&|#|:)",  # (the bot's own <@user> mentions are fine)
        "mass mention": r"@(everyone|here)",
        "bare link": r"https?://",
        "heading": r"(?m)^\s*#+ ",
        "subtext": r"(?m)^\s*-# small",  # (the bot's own -# lines are fine)
        "quote": r"(?m)^\s*> ",
        "numbered list": r"(?m)^\s*\d+\. ",
        "spoiler": unescaped + r"\|\|",
        "code": unescaped + r"`code",
        "underline": unescaped + r"__under",
        "strike": unescaped + r"~~gone",
        "bold from a name": unescaped + r"\*\*bold",
    }
    for what, pattern in checks.items():
        if re.search(pattern, text):
            problems.append(what)
    return problems


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


NAMED = sorted(
    (lang, key)
    for lang in LANGUAGES
    for key, template in CATALOGS[lang].items()
    if _fields(template) & NAME_PARAMS and key not in RAW_MESSAGES
)


def test_the_generated_cases_cover_the_public_messages() -> None:
    keys = {key for _, key in NAMED}
    for key in (
        "challenge.made",
        "note.challenge_accepted",
        "game.headline",
        "note.rolled",
        "note.played_you",
        "note.resigns",
        "game.won_single",
        "game.match_over",
        "stats.title",
        "history.title",
        "review.title",
        "timer.expired",
        "note.claimed",
    ):
        assert key in keys, key


@pytest.mark.parametrize(("lang", "key"), NAMED)
@pytest.mark.parametrize("hostile", HOSTILE)
def test_every_message_with_a_name_keeps_it_plain(lang: str, key: str, hostile: str) -> None:
    params: dict[str, object] = {
        f: (hostile if f in NAME_PARAMS else "1") for f in _fields(CATALOGS[lang][key])
    }
    text = t(key, lang, **params)
    assert formatting_found(text) == [], text
    # The name is still all there for a reader (the escapes are invisible on Discord).
    visible = re.sub(r"\\(.)", r"\1", text).replace("\u200b", "")
    assert hostile in visible


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("key", ["caption.played", "caption.forced", "replay.move", "replay.end"])
def test_names_drawn_in_pictures_are_written_as_they_are(lang: str, key: str) -> None:
    """A picture's caption is no markdown: an escape would be drawn as a backslash."""
    params = {f: "1" for f in _fields(CATALOGS[lang][key])}
    assert "a_b*c" in t(key, lang, **{**params, "name": "a_b*c"})


@pytest.mark.parametrize("locale", ["en-US", "fr"])
@pytest.mark.parametrize("hostile", HOSTILE[:2])
def test_whole_games_between_hostile_names(
    service: Service,
    script: deque[int],
    factory: sessionmaker[Session],
    locale: str,
    hostile: str,
) -> None:
    where = Where(channel_id=5000, guild_id=9000, guild_locale=locale)
    evil = Actor(111, hostile, locale=locale)
    other = Actor(222, hostile[::-1], locale=locale)
    texts = []

    def seen(reply):  # type: ignore[no-untyped-def]
        texts.append(reply.text)
        return reply

    made = seen(service.challenge(evil, where, other, rated=True))
    script.extend([5, 2])
    accept = "Accept" if locale == "en-US" else "Accepter"
    board = seen(press(service, other, made, accept, where))
    board = seen(service.move(evil, where, "13/8 13/11"))
    seen(service.resign(other, where, 1))
    over = seen(service.board(evil, where))
    accept_resign = over.buttons[0].label
    seen(press(service, evil, over, accept_resign, where))
    script.extend([3, 1])
    seen(service.play(evil, where, level="beginner"))
    seen(service.resign(evil, where, 3))
    seen(service.leaderboard(evil, where))
    seen(service.stats(evil, where))
    seen(service.stats(evil, where, other))
    seen(service.history(evil, where))
    seen(service.dice_stats(evil, where, other))
    assert board.game_id is not None
    for text in texts:
        assert formatting_found(text) == [], text
    assert any("wins" in x or "gagne" in x for x in texts)
    assert any("```" in x for x in texts)  # the leaderboard, with both names


def test_a_refused_move_echoes_the_input_inside_its_code_span(
    service: Service, script: deque[int]
) -> None:
    # The sibling: an engine refusal quotes the player's input in `...`; a backtick in it
    # closed the span and let the rest format.
    script.extend([5, 2])
    where = Where(channel_id=6000)
    service.play(Actor(111, "Eve"), where, level="beginner")
    reply = service.move(Actor(111, "Eve"), where, "24/18` **[x](https://e.example)** `")
    assert reply.ephemeral
    # The input's backtick is a quote now: the span still ends where the bot ends it.
    assert "I cannot read `24/18'`." in reply.text, reply.text

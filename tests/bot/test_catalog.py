"""The message catalog: complete in both languages, and the only source of what users read."""

from __future__ import annotations

import re
import string
from collections import deque
from pathlib import Path

import pytest

from bot import i18n
from bot.i18n import CATALOGS, en, fr
from bot.service import Reply, Service
from db.models import ResultKind
from engine import Phase
from engine.bots import LEVELS
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, press

ROOT = Path(__file__).resolve().parents[2]


def fields(message: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(message) if f}


def test_both_languages_have_the_same_keys() -> None:
    assert set(en.MESSAGES) == set(fr.MESSAGES), set(en.MESSAGES) ^ set(fr.MESSAGES)


@pytest.mark.parametrize("key", sorted(en.MESSAGES))
def test_same_parameters_in_both_languages(key: str) -> None:
    assert fields(en.MESSAGES[key]) == fields(fr.MESSAGES[key])


def test_french_is_not_english() -> None:
    same = [
        k
        for k in en.MESSAGES
        if en.MESSAGES[k] == fr.MESSAGES[k]
        and len(en.MESSAGES[k]) > 12
        and k
        not in (
            "game.ids",
            "game.ids_only",
            "game.score",
            "board.layout",
            "board.row",
            "hint.line",
            "rollout.line",
            "web.resign_offer",  # "Gammon (2 points)" in both
        )
    ]
    assert same == []


def _keys_used_in_code() -> set[str]:
    pattern = re.compile(r"""(?:\bt|Text|Refusal|\.add)\(\s*["']([a-z_]+\.[a-z_.]+)["']""")
    keys: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        if "i18n" in path.parts:
            continue
        keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def test_every_key_used_by_the_bot_exists() -> None:
    used = _keys_used_in_code()
    assert len(used) > 100
    missing = sorted(k for k in used if k not in en.MESSAGES)
    assert missing == []


def test_key_families_built_at_run_time_exist() -> None:
    families = [f"level.{name}" for name in LEVELS]
    families += [f"resign.{v}" for v in ("single", "gammon", "backgammon")]
    families += [f"history.kind_{k.value}" for k in ResultKind]
    families += [f"settings.lang_{v}" for v in ("en", "fr", "auto")]
    families += [f"error.resign_counts_no_more_{why}" for why in ("score", "jacoby")]
    families += [f"web.kind.end_{v}" for v in ("single", "gammon", "backgammon")]
    assert [k for k in families if k not in en.MESSAGES] == []


def _engine_codes() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes.update(re.findall(r'code\s*=\s*"([a-z_.]+)"', text))
        codes.update(re.findall(r'"(illegal\.[a-z_]+)" if', text))
    codes.update(f"state.{phase.value}" for phase in Phase)
    return codes


def test_every_engine_refusal_has_a_message() -> None:
    codes = _engine_codes()
    assert len(codes) > 40
    assert sorted(c for c in codes if f"engine.{c}" not in en.MESSAGES) == []


def test_long_texts_fit_in_a_discord_message() -> None:
    for catalog in CATALOGS.values():
        for key, message in catalog.items():
            assert len(message) <= 1900, key


# -- nothing shown comes from outside the catalog --------------------------------------------------

OPEN, CLOSE = "⟦", "⟧"


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every English message wrapped in markers: text outside them was not built from it."""
    wrapped = {k: OPEN + v + CLOSE for k, v in en.MESSAGES.items()}
    monkeypatch.setitem(i18n.CATALOGS, "en", wrapped)


def unmarked(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", "", text)
    return text


def check(reply: Reply) -> Reply:
    assert unmarked(reply.text).strip() == "", reply.text
    for button in reply.buttons:
        # Point buttons show a point number: numbers are not words.
        assert button.label.isdigit() or unmarked(button.label) == "", button.label
    for select in reply.selects:
        assert unmarked(select.placeholder) == ""
    return reply


def test_replies_are_built_from_the_catalog(
    marked: None, service: Service, script: deque[int]
) -> None:
    script.extend([3, 1])
    check(service.play(ALICE, DM, level="expert"))
    check(service.move(ALICE, DM, "24/18"))
    check(service.move(ALICE, DM, "nonsense"))
    check(service.play(ALICE, DM))
    check(service.challenge(ALICE, CHANNEL, ALICE))
    made = check(service.challenge(ALICE, CHANNEL, BOB, points=3))
    script.extend([5, 2])
    board = check(press(service, BOB, made, f"{OPEN}Accept{CLOSE}"))
    check(press(service, BOB, board, "13"))
    board = check(service.move(ALICE, CHANNEL, "13/8 13/11"))
    doubled = check(press(service, BOB, board, f"{OPEN}Double{CLOSE}"))
    check(press(service, ALICE, doubled, f"{OPEN}Drop{CLOSE}"))
    for reply in (
        service.leaderboard(ALICE, CHANNEL),
        service.stats(ALICE, CHANNEL),
        service.history(ALICE, CHANNEL),
        service.rules(ALICE, CHANNEL),
        service.help(ALICE, CHANNEL),
        service.settings_command(ALICE, CHANNEL),
    ):
        check(reply)


def test_a_whole_french_game_in_the_terminal_reads_french(
    monkeypatch: pytest.MonkeyPatch, service: Service
) -> None:
    """From /jouer to the game-over message, every word comes from the French catalog, and
    every picture is drawn with French labels."""
    import io
    import json

    import bot.drawers as drawers  # where the service's pictures are drawn
    from bot.terminal import Terminal

    wrapped = {k: OPEN + v + CLOSE for k, v in fr.MESSAGES.items()}
    monkeypatch.setitem(i18n.CATALOGS, "fr", wrapped)
    langs: list[str] = []
    draw = drawers.render_board

    def spy(position, *, view):  # type: ignore[no-untyped-def]
        langs.append(view.lang)
        return draw(position, view=view)

    monkeypatch.setattr(drawers, "render_board", spy)
    out = io.StringIO()
    term = Terminal(
        service, out=out, json_mode=True, lang="fr", images=Path("/tmp/unused-fr"), user="Zoé"
    )
    term.handle("/jouer niveau:débutant")
    for _ in range(600):
        reply = json.loads(out.getvalue().splitlines()[-1])
        assert not reply.get("ephemeral"), reply["text"]
        assert unmarked(reply["text"]).strip() == "", reply["text"]
        for label in reply["buttons"]:
            assert label.isdigit() or unmarked(label) == "", label
        if f"{OPEN}Revanche{CLOSE}" in reply["buttons"]:
            break
        buttons = reply["buttons"]
        for wanted in ("Confirmer", "Accepter", "Lancer"):
            if f"{OPEN}{wanted}{CLOSE}" in buttons:
                term.handle(f"{OPEN}{wanted}{CLOSE}")
                break
        else:
            points = [b for b in buttons if b.isdigit() or b == f"{OPEN}Barre{CLOSE}"]
            term.handle(points[0])
    else:
        pytest.fail("the game did not end")
    assert "gagne" in reply["text"]
    assert langs and set(langs) == {"fr"}


def test_help_names_the_levels_in_the_players_language(service: Service) -> None:
    from bot.service import Actor

    zoe = Actor(505, "Zoé", locale="fr")
    text = service.help(zoe, CHANNEL).text
    assert "débutant" in text and "classe mondiale" in text
    assert "beginner" not in text and "world class" not in text
    assert "beginner" in service.help(ALICE, CHANNEL).text


def test_a_french_resignation_offer_agrees_in_gender(service: Service, script: deque[int]) -> None:
    # "partie" is feminine: "une partie simple", "un gammon".
    from bot.service import Actor, Where

    zoe, yves = Actor(505, "Zoé", locale="fr"), Actor(606, "Yves", locale="fr")
    salon = Where(channel_id=7000, guild_id=9100, guild_locale="fr")
    made = service.challenge(zoe, salon, yves)
    script.extend([5, 2])
    press(service, yves, made, "Accepter", salon)
    single = service.resign(yves, salon, 1).text
    assert "Yves propose d’abandonner (une partie simple)." in single
    assert "propose d’abandonner (une partie simple, 1 point)" in single
    press(service, zoe, service.board(zoe, salon), "Refuser", salon)
    assert "(un gammon)" in service.resign(yves, salon, 2).text

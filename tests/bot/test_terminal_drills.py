"""Drills in the terminal as a new member meets them: ``/drill`` before any blunder says where
drills come from; ``/settings drills:`` with a bad hour is refused; the day's drill appears
after a command once its hour has come, once; its answer typed as a play in any notation, a
second answer refused; in French with the French names."""

from __future__ import annotations

import io
from pathlib import Path

from bot.service import Actor, Service
from bot.terminal import Terminal, user_id
from tests.bot.conftest import Clock
from tests.bot.terminal_json import replies
from tests.bot.test_drills import give_blunders


def session(service: Service, tmp_path: Path, user: str = "Dana", lang: str = "en") -> Terminal:
    return Terminal(
        service, out=io.StringIO(), json_mode=True, lang=lang, images=tmp_path, user=user
    )


def test_a_new_member_drills_in_the_terminal(service: Service, tmp_path: Path) -> None:
    term = session(service, tmp_path)
    (none,) = replies(term, "/drill")
    assert none["ephemeral"] and "no drill yet" in str(none["text"])
    (refused,) = replies(term, "/settings drills:noon")
    assert "“noon” is not an hour" in str(refused["text"])
    give_blunders(service.factory, Actor(user_id("Dana"), "Dana"), 3)
    saved, daily = replies(term, "/settings drills:0")  # 12:00 UTC: past the hour
    assert "Daily drill message of your blunders: 00:00" in str(saved["text"])
    assert "Your drill of the day" in str(daily["text"]) and daily["plays"]
    plays = [str(p) for p in daily["plays"]]
    (answered,) = replies(term, plays[0])
    assert "the best answer is" in str(answered["text"])  # the menu's first: a wrong one
    assert "Back on 2026-12-01 · streak 1 day (best 1) · 2 left today" in str(answered["text"])
    (following,) = replies(term, "Next drill")  # the answer's button, by its label
    assert "2 left today" in str(following["text"]) and following["plays"]
    later = replies(term, "/rules", "/settings")
    assert len(later) == 2 and all("drill of the day" not in str(r["text"]) for r in later)


def test_in_french(service: Service, tmp_path: Path, clock: Clock) -> None:
    give_blunders(service.factory, Actor(user_id("Zoé"), "Zoé"), 2)
    term = session(service, tmp_path, user="Zoé", lang="fr")
    (asked,) = replies(term, "/exercice")
    assert "une de vos propres erreurs" in str(asked["text"])
    (bad,) = replies(term, "/move 24/1")
    assert bad["ephemeral"]
    (answered,) = replies(term, str(asked["plays"][0]))  # type: ignore[index]
    assert "série" in str(answered["text"])
    (week,) = replies(term, "/exercice semaine:oui")
    assert "Votre semaine d’exercices" in str(week["text"]) and week["image"]


def test_a_drill_is_answered_after_other_messages(service: Service, tmp_path: Path) -> None:
    """Once another message came after the question, the play typed (or with /move) still
    answers the drill."""
    give_blunders(service.factory, Actor(user_id("Dana"), "Dana"), 2)
    term = session(service, tmp_path)
    (asked,) = replies(term, "/drill")
    (created,) = replies(term, "/ladder create name:Evenings")  # a public message, with buttons
    assert not created.get("ephemeral") and created["buttons"], created
    (answered,) = replies(term, str(asked["plays"][0]))  # type: ignore[index]
    assert "Back on" in str(answered["text"]) and "1 left today" in str(answered["text"])
    (asked,) = replies(term, "/drill")
    replies(term, "/ladder join")
    (answered,) = replies(term, "/move " + str(asked["plays"][0]))  # type: ignore[index]
    assert "no drill left today" in str(answered["text"])

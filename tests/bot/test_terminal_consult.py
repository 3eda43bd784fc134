"""A consultation game in the terminal as a new member meets it: ``/consult`` shows the board
and the numbered answers; typing a number (or ``/vote N``, or a play) votes as the person
acting (``/as`` switches); a second vote replaces the first; the vote closes after a command
once its time has passed, or by ``/vote close:true`` of who started it; in French too."""

from __future__ import annotations

import io
from collections import deque
from pathlib import Path

from bot.service import Service
from bot.terminal import Terminal
from tests.bot.conftest import Clock
from tests.bot.terminal_json import replies


def session(service: Service, tmp_path: Path, user: str = "Ann", lang: str = "en") -> Terminal:
    return Terminal(
        service, out=io.StringIO(), json_mode=True, lang=lang, images=tmp_path, user=user
    )


def test_a_consultation_in_the_terminal(
    service: Service, tmp_path: Path, clock: Clock, script: deque[int]
) -> None:
    term = session(service, tmp_path)
    script.extend([5, 2])
    (started,) = replies(term, "/consult level:expert minutes:2")
    poll = started["poll"]
    assert isinstance(poll, dict) and started["image"]
    answers = poll["answers"]
    assert 2 <= len(answers) <= 10 and "Another play" in answers[-1]
    assert f"1. {answers[0]}" in str(started["text"])
    assert started["buttons"] == []  # the team's decisions are votes, never buttons
    (voted,) = replies(term, "2")
    assert voted["ephemeral"] and f"Your vote on vote 1: {answers[1]}" in str(voted["text"])
    replies(term, "/as Bob")
    (bob,) = replies(term, "/vote 1")
    assert f"Your vote on vote 1: {answers[0]}" in str(bob["text"])
    (changed,) = replies(term, "/vote 2")
    assert "changed from" in str(changed["text"])
    (bad,) = replies(term, "/vote 42")
    assert bad["ephemeral"] and "number" in str(bad["text"])
    (early,) = replies(term, "/vote close:true")
    assert "close a vote early" in str(early["text"])
    clock.advance(minutes=2)
    _rules, closed = replies(term, "/rules")  # any command: the vote past its time closes
    assert f"Vote 1: {answers[1]} with 2 of 2 votes" in str(closed["text"])
    assert "Vote 2" in str(closed["text"]) or "The voters" in str(closed["text"])
    replies(term, "/as Ann")
    (shut,) = replies(term, "/vote close:true")
    assert not shut.get("ephemeral") and "nobody voted" in str(shut["text"])


def test_in_french(service: Service, tmp_path: Path, clock: Clock, script: deque[int]) -> None:
    term = session(service, tmp_path, user="Zoé", lang="fr")
    script.extend([5, 2])
    (started,) = replies(term, "/consulter niveau:expert minutes:3")
    assert "lance une partie en consultation" in str(started["text"])
    assert "Quel coup ?" in str(started["text"])
    (voted,) = replies(term, "/voter 1")
    assert "Votre vote au vote 1" in str(voted["text"])
    (again,) = replies(term, "/consulter")
    assert "déjà en cours" in str(again["text"])
    (shut,) = replies(term, "/voter clore:oui")
    assert "1 voix sur 1" in str(shut["text"])


def test_the_text_terminal_lists_the_answers(
    service: Service, tmp_path: Path, script: deque[int]
) -> None:
    out = io.StringIO()
    term = Terminal(service, out=out, lang="en", images=tmp_path, user="Ann")
    script.extend([5, 2])
    term.run(["/consult level:expert"])
    text = out.getvalue()
    assert "Vote 1: Which play?" in text and "\n1. " in text and "\n2. " in text

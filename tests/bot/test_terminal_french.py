"""A French player in the terminal: whatever the French help says to type works, in French
words, and the messages are written in French (the new player's report)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from bot.service import Service
from bot.terminal import Terminal


def session(service: Service, lang: str = "fr", user: str = "Ann") -> Terminal:
    return Terminal(
        service, out=io.StringIO(), json_mode=True, lang=lang, images=Path("/tmp/unused"), user=user
    )


def replies(term: Terminal, *lines: str) -> list[dict[str, object]]:
    out = term.out
    assert isinstance(out, io.StringIO)
    start = len(out.getvalue().splitlines())
    term.run(lines)
    return [json.loads(line) for line in out.getvalue().splitlines()[start:]]


def test_every_command_the_french_help_names_is_taken(service: Service) -> None:
    term = session(service)
    (help_reply,) = replies(term, "/aide")
    text = str(help_reply["text"])
    assert "/roll" not in text and "/lancer, /doubler, /accepter, /refuser" in text
    typed = set(re.findall(r"(?<![\w/])/[^\W\d][\w]*", text))
    assert "/lancer" in typed and "/confirmer" in typed
    for word in sorted(typed - {"/quitter"}):  # /quitter ends the session (tested elsewhere)
        got = replies(term, word)
        assert got and "Commande inconnue" not in str(got[0]["text"]), word


def test_french_press_commands_press_the_buttons(service: Service, script) -> None:  # type: ignore[no-untyped-def]
    term = session(service)
    script.extend([5, 2])
    got = replies(term, "/défi Ben points:1", "/as Ben", "/lancer", "/accepter")
    assert "Pas de bouton « /lancer »" in str(got[2]["text"])  # a challenge has no Roll
    assert "Ben accepte le défi" in str(got[3]["text"])


def test_unknown_command_points_to_the_help_in_french(service: Service) -> None:
    (reply,) = replies(session(service), "/truc")
    assert reply["text"] == "Commande inconnue : /truc. Tapez /aide."

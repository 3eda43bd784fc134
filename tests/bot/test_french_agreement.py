"""French as members read it: *classé* agrees with what is rated (*un match … classé*, *une
partie libre … classée*; the headline said "match en 5 points · classée", a challenge "partie
libre (classé, …)"), and a public card is in the server's language, a private answer in the
member's."""

from __future__ import annotations

from collections import deque

import pytest

from bot.service import Actor, Service, Where
from tests.bot.conftest import press

ALICE, BOB = Actor(101, "Alice", locale="fr"), Actor(202, "Bob", locale="fr")
SALON = Where(channel_id=5000, guild_id=9000, guild_locale="fr")  # a French server


@pytest.mark.parametrize(
    ("points", "rated", "said"),
    [
        (0, True, "partie libre (classée, "),
        (0, False, "partie libre (amicale, "),
        (5, True, "match en 5 points (classé, "),
        (5, False, "match en 5 points (amical, "),
    ],
)
def test_a_challenge_agrees_with_its_kind(
    service: Service, points: int, rated: bool, said: str
) -> None:
    made = service.challenge(ALICE, SALON, BOB, points=points, rated=rated)
    assert said in made.text, made.text


@pytest.mark.parametrize(
    ("points", "said"), [(0, "partie libre · classée"), (5, "score 0–0 · classé")]
)
def test_the_headline_agrees_with_the_kind(
    service: Service, script: deque[int], points: int, said: str
) -> None:
    made = service.challenge(ALICE, SALON, BOB, points=points)
    script.extend([5, 2])
    board = press(service, BOB, made, "Accepter", SALON)
    headline = board.text.splitlines()[0]
    assert said in headline and not headline.endswith(said + "e"), headline


def test_a_public_stats_card_follows_the_servers_language(service: Service) -> None:
    # In an English server a French member's /stats came in French, /leaderboard in English.
    english = Where(channel_id=5001, guild_id=9001, guild_locale="en-US")
    service.play(ALICE, english, level="beginner")  # so that Alice is known
    card = service.stats(ALICE, english)
    assert not card.ephemeral and "Rating **" in card.text and "Cote" not in card.text
    assert "Cote **" in service.stats(ALICE, SALON).text  # a French server
    private = service.stats(ALICE, english, Actor(303, "otherbot", is_bot=True))
    assert private.ephemeral and "compte de bot" in private.text  # his own language


def test_a_replay_posted_in_a_server_is_in_its_language(service: Service) -> None:
    english = Where(channel_id=5002, guild_id=9002, guild_locale="en-US")
    service.play(ALICE, english, level="beginner")
    shown = service.replay(ALICE, english)
    assert not shown.ephemeral and shown.text.startswith("🎞️ Game #1"), shown.text
    assert service.replay(ALICE, SALON, game_id=1).text.startswith("🎞️ La partie n° 1")

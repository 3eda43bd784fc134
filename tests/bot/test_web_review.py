"""The review on a finished game's web page (issue 29): each decision's error and its mark,
the better play as arrows, each player's PR and the winning chances; asked for from the page
through ``/review``'s service call, with its refusals (no analysis of a game between people
while it is played, from the page's data as from its request)."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from bot.i18n import t
from bot.service import Service
from bot.web.links import Links
from db import games as game_repo
from engine.analysis import Review, error_size
from tests.bot.conftest import ALICE, CHANNEL, DM, accepted_challenge, play_out

# What is checked here is where a review shows, which holds at any depth.
pytestmark = pytest.mark.usefixtures("quick_reviews")

MARKS = {"doubtful", "error", "blunder"}


@pytest.fixture
def links() -> Links:
    return Links(b"r" * 32, "http://board.test")


def finished(service: Service) -> int:
    start = service.play(ALICE, DM, level="beginner", points=1)
    play_out(service, ALICE, DM, start)
    assert start.game_id is not None
    return start.game_id


def kept_review(service: Service, game_id: int) -> Review | None:
    with service.factory() as s:
        row = game_repo.get_game(s, game_id)
        return Review.from_dict(row.review) if row.review else None


def people_in_progress(service: Service, script: deque[int], rated: bool = True) -> int:
    game = accepted_challenge(service, script, rated=rated).game_id
    assert game is not None
    return game


def test_each_decision_of_a_reviewed_game_shows_on_its_step(service: Service) -> None:
    game = finished(service)
    before = service.web_state(game, None, "en", at=3)
    assert before["review"] is None  # not reviewed yet: the page offers to ask
    assert before["review_ask"]["label"] == t("web.review.ask", "en")
    assert not service.review(ALICE, DM, game).ephemeral
    review = kept_review(service, game)
    assert review is not None
    count = service.web_state(game, None, "en")["actions_count"]
    marked = []
    for at in range(count + 1):
        state = service.web_state(game, ALICE.id, "en", at=at)
        assert state["review_ask"] is None
        decision = state["review"]["decision"]
        if decision is not None and decision["mark"] is not None:
            marked.append((at, state))
    assert marked, "a beginner's game has an error worth a mark"
    at, state = marked[0]
    decision = state["review"]["decision"]
    assert decision["mark"] in MARKS
    assert decision["mark_text"] == t(f"review.size.{decision['mark']}", "en")
    worst = [round(1000 * d.error) for d in review.decisions if error_size(d.error)]
    assert decision["error"] in worst
    assert f"−{decision['error']} millipoint" in decision["text"]
    assert at in state["review"]["marks"]
    # The decision shown is the one of this action: its play is the one the log holds.
    events = service_events(service, game)
    played = events[at - 1]
    if played.kind == "move":
        assert f"played {played.play}" in decision["text"]
        assert state["best_arrows"], "the better play is drawn"
        assert all(a["by"] in ("me", "them") for a in state["best_arrows"])
    # Each player's PR, the viewer's first; the chances over the game, in percent.
    players = state["review"]["players"]
    assert players[0].startswith("Alice") and players[1].startswith("Computer")
    assert "PR **" in players[0]
    points = state["review"]["chart"]["points"]
    assert len(points) >= len(review.chances) - 2
    assert points[0] == [0, 50.0]
    assert all(0 <= x <= count and 0 <= y <= 100 for x, y in points)
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    # In French, the mark and the text too.
    fr = service.web_state(game, ALICE.id, "fr", at=at)["review"]["decision"]
    assert fr["mark_text"] == t(f"review.size.{decision['mark']}", "fr")
    assert fr["text"] != decision["text"]


def service_events(service: Service, game: int) -> list[Any]:
    with service.factory() as s:
        return list(game_repo.game_events(s, game))


async def test_the_page_asks_for_the_review_through_the_service(
    service: Service, links: Links, client: TestClient[Any, Any]
) -> None:
    game = finished(service)
    url = links.game_path(game)
    state = await (await client.get(url + "/state?at=5")).json()
    assert state["review"] is None and state["review_ask"] is not None
    # A form of another site cannot ask (not JSON).
    refused = await client.post(url + "/review", data="x")
    assert refused.status == 400
    asked = await client.post(url + "/review?at=5&lang=fr", json={})
    body = await asked.json()
    assert asked.status == 200 and body["ok"], body
    assert body["state"]["at"] == 5 and body["state"]["review"]["players"]
    assert body["state"]["review"]["title"] == t("web.review.title", "fr")
    assert kept_review(service, game) is not None  # kept, as /review keeps it
    again = await client.post(url + "/review", json={})
    assert again.status == 200 and (await again.json())["ok"]


@pytest.mark.parametrize("rated", [True, False])
async def test_no_analysis_of_a_game_between_people_in_progress(
    service: Service,
    links: Links,
    client: TestClient[Any, Any],
    script: deque[int],
    rated: bool,
) -> None:
    game = people_in_progress(service, script, rated)
    for viewer in (None, ALICE.id):
        state = service.web_state(game, viewer, "en")
        assert state["review"] is None and state["review_ask"] is None
        assert state["best_arrows"] == []
    # The service refuses as /review does, for a player and for anyone watching.
    said = service.review(ALICE, CHANNEL, game).text
    assert service.web_review(game, ALICE.id, "en") == said
    assert service.web_review(game, None, "en") == t("error.not_your_game", "en")
    # And so does the page's request, and its data shows nothing of the kind.
    url = links.game_path(game)
    asked = await client.post(url + "/review", json={})
    assert asked.status == 403
    assert (await asked.json())["text"] == t("error.not_your_game", "en")
    mine = links.player_url(game, ALICE.id).removeprefix(links.public_url)
    asked = await client.post(mine.replace("?", "/review?", 1), json={})
    assert asked.status == 403 and (await asked.json())["text"] == said
    state = await (await client.get(url + "/state?at=1")).json()
    assert state["review"] is None and state["review_ask"] is None and state["at"] is None
    assert kept_review(service, game) is None


def test_a_game_against_the_computer_in_progress_is_reviewed_once_over(
    service: Service, script: deque[int]
) -> None:
    script.extend([3, 1])
    game = service.play(ALICE, DM, level="beginner").game_id
    assert game is not None
    assert service.web_review(game, ALICE.id, "en") == t("web.review_after", "en", id=game)
    assert kept_review(service, game) is None


def test_a_kept_review_tells_the_open_pages(service: Service) -> None:
    game = finished(service)
    told: list[int] = []
    service.on_game_changed(told.append)
    assert service.web_review(game, None, "en") is None
    assert told == [game]  # the pages' shared state is read again, with the review
    assert service.web_review(game, None, "en") is None  # kept: not computed again
    assert told == [game]


def test_every_decision_of_a_match_has_its_step(service: Service) -> None:
    """Checker plays and cube decisions (a roll without a double, a double, a take), in
    every game of a match, each on the action that was it."""
    start = service.play(ALICE, DM, level="beginner", points=5)
    play_out(service, ALICE, DM, start, limit=5000)
    game = start.game_id
    assert game is not None
    assert not service.review(ALICE, DM, game).ephemeral
    review = kept_review(service, game)
    assert review is not None and review.games >= 2
    kinds = {d.kind for d in review.decisions}
    assert {"move", "no double"} <= kinds, kinds
    events = service_events(service, game)
    count = len(events)
    shown = {}
    for at in range(count + 1):
        decision = service.web_state(game, None, "en", at=at)["review"]["decision"]
        if decision is not None:
            shown[at] = decision
    assert len(shown) == len(review.decisions)
    cube = {"roll": "did not double", "double": "doubled", "take": "took", "drop": "passed"}
    for at, decision in shown.items():
        kind = events[at - 1].kind
        if kind == "move":
            said = decision["text"]
            assert "played" in said or "could not move" in said, decision
        else:
            assert cube[kind] in decision["text"], (kind, decision)


def test_a_turn_that_could_not_move_says_so_and_is_not_graded() -> None:
    # The replay said "Action 20: Computer (beginner) plays" and the review "played no move:
    # the best play" ("a joué aucun coup" in French).
    from types import SimpleNamespace

    from bot.service import webboard

    seats = (SimpleNamespace(name="Alice"), SimpleNamespace(name="Computer (beginner)"))
    event = SimpleNamespace(seq=19, player=1, kind="move", play="", die1=6, die2=6)
    table: Any = SimpleNamespace(seats=seats)
    line = webboard._replay_line(event, table, "en")  # type: ignore[arg-type]
    assert line == "Action 20: Computer (beginner) rolled 6-6 and could not move."
    decision: Any = SimpleNamespace(
        kind="move", player=1, played="", best="", dice=(6, 6), error=0.0, best_play=None
    )
    names = ("Alice", "Ordinateur (débutant)")
    view, arrows = webboard._decision_view(decision, names, 0, "fr")
    assert view["text"] == "Ordinateur (débutant) n’a pu jouer aucun coup (6-6)."
    assert (view["error"], view["mark"], arrows) == (0, None, [])


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", {
            "opening": "Action 1: Alice wins the opening roll, 5-2",
            "tie": "Action 1: Opening roll: a tie, rolled again",
            "move": "Action 2: Alice plays 5-2: 13/8 13/11",
            "roll": "Action 2: Alice rolls 5-2",
            "double": "Action 2: Alice doubles",
            "take": "Action 2: Alice takes",
            "drop": "Action 2: Alice drops",
            "resign": "Action 2: Alice offers to resign",
            "accept": "Action 2: Alice accepts",
            "reject": "Action 2: Alice rejects",
            "forfeit": "Action 2: Alice forfeits",
            "end": "Action 2: Alice wins the game",
            "end_gammon": "Action 2: Alice wins a gammon: 4 points",
            "end_single": "Action 2: Alice wins a single game: 1 point",
        }),
        ("fr", {
            "opening": "Action 1 : Alice remporte le lancer d’ouverture, 5-2",
            "tie": "Action 1 : Lancer d’ouverture : égalité, on relance",
            "move": "Action 2 : Alice joue 5-2 : 13/8 13/11",
            "roll": "Action 2 : Alice fait 5-2",
            "double": "Action 2 : Alice double",
            "take": "Action 2 : Alice prend",
            "drop": "Action 2 : Alice passe",
            "resign": "Action 2 : Alice propose d’abandonner",
            "accept": "Action 2 : Alice accepte",
            "reject": "Action 2 : Alice refuse",
            "forfeit": "Action 2 : Alice déclare forfait",
            "end": "Action 2 : Alice gagne la partie",
            "end_gammon": "Action 2 : Alice gagne un gammon : 4 points",
            "end_single": "Action 2 : Alice gagne une partie simple : 1 point",
        }),
    ],
)  # fmt: skip
def test_every_replay_caption_reads_as_a_sentence(lang: str, expected: dict[str, str]) -> None:
    # "Action 1 : Alice lancer d'ouverture" had no verb (nor "Alice end of the game"); a roll
    # and a play say their dice, which the picture of the moment after a play does not. The
    # end says what the live message said ("wins a gammon: 4 points", not "wins the game");
    # an end row without its points (none is written so) keeps the plain words.
    from types import SimpleNamespace

    from bot.service import webboard

    table: Any = SimpleNamespace(
        seats=(SimpleNamespace(name="Alice"), SimpleNamespace(name="B")),
        match=SimpleNamespace(variant="standard"),
    )
    for name, line in expected.items():
        kind = "opening" if name == "tie" else name.split("_")[0]
        first = kind == "opening"
        points, cube = {"end_gammon": (4, 2), "end_single": (1, 1)}.get(name, (None, None))
        event = SimpleNamespace(
            seq=0 if first else 1,
            player=-1 if name == "tie" else 0,
            kind=kind,
            play="13/8 13/11" if kind == "move" else "",
            die1=2,
            die2=5,
            points=points,
            cube_value=cube,
            position_id="4HPwATDgc/ABMA",  # a game not played out: a pass or a resignation
        )
        assert webboard._replay_line(event, table, lang) == line  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("position_id", "points", "cube", "line"),
    [
        # Played out, the loser's fifteen checkers still on his side: a gammon, scoring one
        # point under the Jacoby rule with the cube centred (the live message's words).
        ("/38AAAAAAAAAAA", 1, 1, "Action 9: Alice wins a gammon: 1 point"),
        # The same gammon at a cube of 2 without the rule.
        ("/38AAAAAAAAAAA", 4, 2, "Action 9: Alice wins a gammon: 4 points"),
        # A checker left in the winner's home board: a backgammon.
        ("AACA/z8AAAAAAA", 3, 1, "Action 9: Alice wins a backgammon: 3 points"),
        # Not played out (a double passed at 2): what was given up, a single game.
        ("4HPwATDgc/ABMA", 2, 2, "Action 9: Alice wins a single game: 2 points"),
    ],
)
def test_the_replay_end_says_how_the_game_was_won(
    position_id: str, points: int, cube: int, line: str
) -> None:
    from types import SimpleNamespace

    from bot.service import webboard

    table: Any = SimpleNamespace(
        seats=(SimpleNamespace(name="Alice"), SimpleNamespace(name="B")),
        match=SimpleNamespace(variant="standard"),
    )
    event = SimpleNamespace(
        seq=8, player=0, kind="end", play="", die1=None, die2=None,
        points=points, cube_value=cube, position_id=position_id,
    )  # fmt: skip
    assert webboard._replay_line(event, table, "en") == line  # type: ignore[arg-type]

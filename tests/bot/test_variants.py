"""Nackgammon and hypergammon in the bot: chosen on /play and /challenge, stored with the game,
shown with the kind of game, exported as gnubg names them, rated apart from the standard game;
hints and reviews refused in hypergammon, puzzles from standard games only."""

from __future__ import annotations

from collections import deque

from sqlalchemy.orm import Session, sessionmaker

from bot.i18n import t
from bot.service import Service
from db.models import Game as GameRow
from db.models import Rating, RatingHistory, VariantRating
from db.puzzles import unreviewed_games
from engine import Position, Variant
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, press
from tests.bot.tournament_players import ORGANIZER


def stored(factory: sessionmaker[Session], game_id: int) -> GameRow:
    with factory() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        s.expunge(game)
        return game


def test_play_hypergammon_against_the_computer(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    script.extend([6, 1])  # Alice opens with 6-1
    reply = service.play(ALICE, DM, level="expert", variant="hypergammon")
    assert not reply.ephemeral and "money game · hypergammon" in reply.text
    start = Position.from_position_id(reply.position_id or "", checkers=3)
    assert start == Variant.HYPERGAMMON.initial_position()
    assert "XGID" not in reply.text  # XG has no hypergammon
    assert reply.game_id is not None
    row = stored(factory, reply.game_id)
    assert row.variant == "hypergammon" and row.state["variant"] == "hypergammon"
    # Hints need the 15-checker evaluations: refused, clearly.
    hint = service.hint(ALICE, DM)
    assert hint.ephemeral and "not available in hypergammon" in hint.text
    # The checkers move as in hypergammon: 24/18 23/22 is a legal 6-1.
    moved = service.move(ALICE, DM, "24/18 23/22")
    assert "Alice played **24/18 23/22**" in moved.text, moved.text


def test_play_nackgammon_and_its_export(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    script.extend([3, 1])
    reply = service.play(ALICE, DM, level="beginner", points=3, variant="nack")
    assert "3-point match · nackgammon" in reply.text
    assert reply.position_id == "4Dl4ADbgOXgANg"
    exported = service.export(ALICE, DM)
    mat = next(a for a in exported.attachments if a.name.endswith(".mat"))
    assert mat.data.decode().startswith('; [Variation "NackGammon"]\n\n 3 point match')


def test_unknown_variant_is_refused_in_both_languages(service: Service) -> None:
    refused = service.play(ALICE, DM, variant="chouette")
    assert refused.ephemeral and "Unknown variant `chouette`" in refused.text
    assert "standard, nackgammon or hypergammon" in refused.text
    assert "Variante inconnue `chouette`" in t("error.variant_unknown", "fr", value="chouette")


def test_a_rated_variant_match_never_changes_the_standard_rating(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    made = service.challenge(ALICE, CHANNEL, BOB, points=1, rated=True, variant="hypergammon")
    assert "hypergammon" in made.text
    script.extend([5, 2])
    board = press(service, BOB, made, "Accept")
    assert "1-point match · hypergammon" in board.text
    resigned = service.resign(BOB, CHANNEL, 1)
    accepted = press(service, ALICE, resigned, "Accept")
    assert "wins the 1-point match" in accepted.text
    with factory() as s:
        assert s.query(Rating).count() == 0  # the standard ratings are untouched
        ratings = {r.player_id: r for r in s.query(VariantRating).all()}
        assert set(ratings) == {ALICE.id, BOB.id}
        assert {r.variant for r in ratings.values()} == {"hypergammon"}
        assert ratings[ALICE.id].rating > 1500 > ratings[BOB.id].rating
        assert {h.variant for h in s.query(RatingHistory).all()} == {"hypergammon"}
        # Its blunders make no puzzles: the background review leaves variant games out.
        assert accepted.game_id not in unreviewed_games(s, 10)
    board_of = service.leaderboard(ALICE, CHANNEL, scope="server", variant="hypergammon")
    assert "Alice" in board_of.text and "hypergammon" in board_of.text
    standard = service.leaderboard(ALICE, CHANNEL, scope="server")
    assert "Alice" not in standard.text
    mine = service.stats(ALICE, CHANNEL)
    assert "Rating in hypergammon **1" in mine.text
    assert "Rating **1500.0**" in mine.text  # the standard rating, untouched
    # Its 0-0 says it is the standard game's, not that the variant's win did not count.
    assert "Rated matches in the standard game: 0 won, 0 lost" in mine.text


def test_a_tournament_refuses_a_variant_outside_its_creation(service: Service) -> None:
    refused = service.tournament(ALICE, CHANNEL, action="join", variant="hypergammon")
    assert refused.ephemeral and "chosen when it is created" in refused.text


def test_a_hypergammon_tournament_plays_hypergammon(
    service: Service, factory: sessionmaker[Session]
) -> None:
    from tests.bot.test_tournaments import HERE
    from tests.bot.tournament_players import people, playing

    refused = service.tournament(ORGANIZER, HERE, "create", name="Odd night", variant="chouette")
    assert refused.ephemeral and "Unknown variant `chouette`" in refused.text
    created = service.tournament(
        ORGANIZER, HERE, "create", name="Hyper night", variant="hypergammon"
    )
    assert "hypergammon" in created.text
    tid = int(created.buttons[0].custom_id.split(":")[1])
    for p in people(2):
        service.tournament(p, HERE, "join")
    started = service.tournament(ORGANIZER, HERE, "start")
    assert not started.ephemeral, started.text
    games = playing(factory, tid)
    assert games
    for game_id, _, _ in games:
        assert stored(factory, game_id).variant == "hypergammon"


def test_a_standard_position_is_refused_for_hypergammon(service: Service) -> None:
    refused = service.play(ALICE, DM, variant="hypergammon", position_id="4HPwATDgc/ABMA")
    assert refused.ephemeral
    assert "gives a side 15 checkers; this game has 3 a side" in refused.text
    french = t("engine.position_id.checkers", "fr", count=15, limit=3)
    assert "15 dames" in french

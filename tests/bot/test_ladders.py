"""Ladders through the service: a season played with real games (the loser resigns, the
winner accepts), every refusal changing nothing, a restart in the middle, the deadline and the
inactivity drop by a fake clock, the season closed and archived, both languages, the terminal,
and two challenges for the same rung racing on one database."""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path

import pytest
from sqlalchemy.orm import Session, sessionmaker

from bot.i18n import t
from bot.ladders.rules import after_result
from bot.ladders.view import rules_text
from bot.service import Actor, Reply, Service, Where
from bot.terminal import Terminal, user_id
from db import ladders as repo
from db.games import get_game
from db.models import ChallengeState, GameStatus, LadderStatus
from tests.bot.conftest import Clock
from tests.bot.ladder_players import challenges, in_play, ladder_of, lose, rungs

HERE = Where(channel_id=7100, guild_id=9200, guild_locale="en-US")
ICI = Where(channel_id=7200, guild_id=9300, guild_locale="fr")
ORGANIZER = Actor(1, "Olga", locale="en-US", organizer=True)


@pytest.fixture
def db_factory(factory: sessionmaker[Session]) -> sessionmaker[Session]:
    """The test's migrated SQLite database (tests/bot/conftest.py's ``factory``)."""
    return factory


def people(count: int, first: int = 2000, locale: str = "en-US") -> list[Actor]:
    return [Actor(first + i, f"Member {i + 1}", locale=locale) for i in range(count)]


def open_ladder(
    service: Service, players: list[Actor], where: Where = HERE, **options: object
) -> int:
    created = service.ladder(ORGANIZER, where, "create", name="Club ladder", **options)
    assert not created.ephemeral, created.text
    lid = int(created.text.split("#")[1].split(")")[0])
    for p in players:
        joined = service.ladder(p, where, "join")
        assert not joined.ephemeral, joined.text
    return lid


def refused(reply: Reply, words: str) -> None:
    assert reply.ephemeral and words in reply.text, reply.text


def test_members_join_at_the_bottom_and_the_picture_follows(
    db_factory: sessionmaker[Session],
) -> None:
    service = Service(db_factory, clock=Clock())
    players = people(5)
    lid = open_ladder(service, players, points=3, reach=2)
    assert rungs(db_factory, lid) == [p.id for p in players]
    shown = service.ladder(players[4], HERE, "show")
    shown.draw_later()
    assert not shown.ephemeral and shown.image and shown.image[:4] == b"\x89PNG"
    assert "Club ladder, season 1" in shown.text
    refused(service.ladder(players[0], HERE, "join"), "already (rung 1)")
    gone = service.ladder(players[1], HERE, "leave")
    assert "those below move up" in gone.text and gone.channel_id == HERE.channel_id
    assert rungs(db_factory, lid) == [p.id for p in players if p is not players[1]]


def test_bad_challenges_are_refused_and_change_nothing(db_factory: sessionmaker[Session]) -> None:
    service = Service(db_factory, clock=Clock())
    a, b, c, d, e = players = people(5)
    lid = open_ladder(service, players, reach=2)
    stranger = Actor(5000, "Stranger", locale="en-US")
    before = rungs(db_factory, lid)
    refused(service.ladder(e, HERE, "challenge", player=b), "more than 2 rungs above you")
    refused(service.ladder(c, HERE, "challenge", player=e), "is below you")
    refused(service.ladder(c, HERE, "challenge", player=c), "cannot challenge yourself")
    refused(service.ladder(c, HERE, "challenge"), "Say whom to challenge")
    refused(service.ladder(stranger, HERE, "challenge", player=a), "not on this ladder")
    refused(service.ladder(c, HERE, "challenge", player=stranger), "Stranger is not on")
    refused(service.ladder(c, HERE, "frobnicate"), "Unknown action")
    refused(service.ladder(c, HERE, "show", ladder=99), "No such ladder")
    refused(service.ladder(c, HERE, "show", ladder=2**40), "No such ladder")
    refused(service.ladder(c, HERE, "close"), "Only the ladder's organizer")
    refused(service.ladder(ORGANIZER, HERE, "create", name="club LADDER "), "already called")
    refused(service.ladder(ORGANIZER, HERE, "create", name="X", reach=0), "1 to 10 rungs")
    # French, to a French member: the same refusal in his language.
    francois = Actor(e.id, e.name, locale="fr")
    refused(service.ladder(francois, HERE, "challenge", player=b), "plus de 2 échelons")
    assert service.ladder(d, HERE, "challenge", player=c).ephemeral is False
    refused(service.ladder(e, HERE, "challenge", player=c), "already playing a challenge")
    refused(service.ladder(d, HERE, "challenge", player=b), "You are already playing")
    refused(service.ladder(d, HERE, "leave"), "finish it before you leave")
    assert rungs(db_factory, lid) == before
    assert len(challenges(db_factory, lid)) == 1


def test_a_season_played_through_with_a_restart(db_factory: sessionmaker[Session]) -> None:
    """Challenges won from below move the rungs, won from above change nothing; a new Service
    (a restart) in the middle; the season closes with the rungs kept; a new season starts."""
    clock = Clock()
    players = people(6)
    by_id = {p.id: p for p in players}
    service = Service(db_factory, clock=clock)
    lid = open_ladder(service, players, points=1, reach=3)
    plan = [(5, 2, True), (4, 1, False), (3, 0, True), (5, 3, True), (1, 0, False)]
    for step, (low, high, climbs) in enumerate(plan):
        if step == 2:
            service = Service(db_factory, clock=clock)  # the restart: nothing in memory
        order = rungs(db_factory, lid)
        challenger, defender = by_id[order[low]], by_id[order[high]]
        made = service.ladder(challenger, HERE, "challenge", player=defender)
        assert not made.ephemeral, made.text
        assert "challenges" in made.text and len(made.followups) == 1  # the board
        board = made.followups[0]
        assert board.mentions == (challenger.id, defender.id)
        winner, loser = (challenger, defender) if climbs else (defender, challenger)
        ended = lose(service, loser, winner, HERE)
        posted = [f for f in ended.followups if f.channel_id == HERE.channel_id]
        assert posted and ("takes rung" in posted[-1].text) == climbs, posted[-1].text
        assert rungs(db_factory, lid) == list(after_result(tuple(order), winner.id, loser.id))
        clock.advance(hours=1)
    done = [c for c in challenges(db_factory, lid) if c.state is ChallengeState.FINISHED]
    assert len(done) == len(plan) and ladder_of(db_factory, lid).results == len(plan)
    final = rungs(db_factory, lid)
    closed = service.ladder(ORGANIZER, HERE, "close")
    assert "is closed" in closed.text and by_id[final[0]].name in closed.text
    assert ladder_of(db_factory, lid).status is LadderStatus.CLOSED
    assert rungs(db_factory, lid) == final  # archived as it was
    refused(service.ladder(players[0], HERE, "join", ladder=lid), "is closed")
    shown = service.ladder(players[0], HERE, "show", ladder=lid)
    assert not shown.ephemeral and "season is closed" in shown.text
    # Without its number too: it said "no such ladder" while /ladder list shows it closed.
    refused(service.ladder(players[0], HERE, "join"), "is closed")
    assert "season is closed" in service.ladder(players[0], HERE, "show").text
    assert closed.text.startswith("🪜 Season 1 of **")
    again = service.ladder(ORGANIZER, HERE, "create", name="Club ladder")
    assert "is open" in again.text and not again.ephemeral
    listed = service.ladder(players[0], HERE, "list")
    assert "season 2: open" in listed.text and "season 1: closed" in listed.text


def test_a_challenge_not_played_by_its_deadline_is_forfeited(
    db_factory: sessionmaker[Session],
) -> None:
    clock = Clock()
    service = Service(db_factory, clock=clock)
    players = people(3)
    lid = open_ladder(service, players, hours=24)
    service.ladder(players[2], HERE, "challenge", player=players[0])
    game_id, mover, other = in_play(db_factory, lid)[0]
    clock.advance(hours=23)
    assert service.ladder_sweep() == [] and len(in_play(db_factory, lid)) == 1
    clock.advance(hours=2)
    notices = service.ladder_sweep()
    assert any("not played by its deadline" in n.reply.text for n in notices)
    assert all(n.channel_id == HERE.channel_id for n in notices)
    (challenge,) = challenges(db_factory, lid)
    assert challenge.state is ChallengeState.FINISHED and challenge.forfeit
    assert challenge.winner_id == other  # the player to move forfeited
    with db_factory() as s:
        assert get_game(s, game_id).status is not GameStatus.ACTIVE
    assert service.ladder_sweep() == []  # once
    expected = after_result((players[0].id, players[1].id, players[2].id), other, mover)
    assert rungs(db_factory, lid) == list(expected)


def test_inactive_members_drop_a_rung_per_period(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    service = Service(db_factory, clock=clock)
    a, b, c, d = players = people(4)
    lid = open_ladder(service, players, inactive=7)
    clock.advance(days=3)
    service.ladder(d, HERE, "challenge", player=c)
    lose(service, c, d, HERE)  # d and c played: active again
    assert rungs(db_factory, lid) == [a.id, b.id, d.id, c.id]
    clock.advance(days=5)  # a and b: 8 days idle; d and c: 5
    notices = service.ladder_sweep()
    assert len(notices) == 1 and "Member 1, Member 2" in notices[0].reply.text
    assert rungs(db_factory, lid) == [d.id, a.id, b.id, c.id]
    assert service.ladder_sweep() == []  # the period starts again
    clock.advance(days=3)  # d and c: 8 days; a and b: 3
    (notice,) = service.ladder_sweep()
    assert rungs(db_factory, lid) == [a.id, d.id, b.id, c.id]
    assert "Member 4 played no challenge for 7 days and drops" in notice.reply.text  # c: bottom


def test_a_ladder_in_french(db_factory: sessionmaker[Session]) -> None:
    service = Service(db_factory, clock=Clock())
    players = people(3, locale="fr")
    created = service.ladder(ORGANIZER, ICI, "create", name="Échelle du club", points=3)
    assert "est ouverte dans ce salon" in created.text
    for p in players:
        assert "rejoint" in service.ladder(p, ICI, "join").text
    made = service.ladder(players[2], ICI, "challenge", player=players[1])
    assert "défie" in made.text
    made.draw_later()
    assert made.image is not None
    refused(service.ladder(players[2], ICI, "challenge", player=players[0]), "Vous jouez déjà")
    shown = service.ladder(players[0], ICI, "show")
    assert "saison 1" in shown.text and "matchs en 3 points" not in shown.text  # in the picture


def test_the_ladder_is_found_by_channel_or_number(db_factory: sessionmaker[Session]) -> None:
    service = Service(db_factory, clock=Clock())
    member = people(1)[0]
    service.ladder(ORGANIZER, HERE, "create", name="First")
    other = Where(channel_id=7101, guild_id=HERE.guild_id, guild_locale="en-US")
    service.ladder(ORGANIZER, other, "create", name="Second")
    assert "First" in service.ladder(member, HERE, "join").text
    assert "Second" in service.ladder(member, other, "join").text
    elsewhere = Where(channel_id=7102, guild_id=HERE.guild_id, guild_locale="en-US")
    refused(service.ladder(member, elsewhere, "show"), "several ladders")
    assert "Second" in service.ladder(member, elsewhere, "show", ladder=2).text
    foreign = Where(channel_id=1, guild_id=1, guild_locale="en-US")
    refused(service.ladder(member, foreign, "show", ladder=1), "No such ladder")


def test_two_challenges_for_the_same_rung_at_once(db_factory: sessionmaker[Session]) -> None:
    """Two members below challenge the same one at the same instant, each through his own
    Service (as two processes would): one challenge is made, the other refused."""
    clock = Clock()
    players = people(4)
    lid = open_ladder(Service(db_factory, clock=clock), players)
    barrier = threading.Barrier(2)
    replies: list[Reply] = []

    def go(who: Actor) -> None:
        service = Service(db_factory, clock=clock)
        barrier.wait()
        replies.append(service.ladder(who, HERE, "challenge", player=players[0]))

    threads = [threading.Thread(target=go, args=(p,)) for p in players[2:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.ephemeral for r in replies) == [False, True]
    assert "already playing a challenge" in next(r.text for r in replies if r.ephemeral)
    assert len(challenges(db_factory, lid)) == 1


def test_a_season_typed_in_the_terminal(db_factory: sessionmaker[Session], tmp_path: Path) -> None:
    """As a new member would: ``/as NAME`` switches player, the typed commands do the rest."""
    service = Service(db_factory, clock=Clock())
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=tmp_path, user="Olga")
    term.run(["/ladder create name:Evenings points:1 reach:2"])
    for name in ("Ann", "Bob", "Cy"):
        term.run([f"/as {name}", "/ladder join"])
    term.run(["/as Cy", "/ladder challenge player:Bob"])
    term.run(["/as Bob", "/resign single", "/as Cy", "Accept"])
    term.run(["/as Ann", "/ladder challenge player:Ann", "/ladder show", "/as Olga"])
    term.run(["/ladder close", "/ladder list", "/ladder create name:Hyper variant:hyper"])
    term.run(["/ladder join variant:nack"])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    texts = [r["text"] for r in replies]
    assert any("takes rung 2" in x for x in texts), texts
    assert any(r.get("ephemeral") and "cannot challenge yourself" in r["text"] for r in replies)
    assert any(r.get("image") and Path(r["image"]).exists() for r in replies)
    assert "season 1: closed" in texts[-3]
    assert "money games · hypergammon" in texts[-2]
    assert replies[-1].get("ephemeral") and "chosen when it is created" in texts[-1]
    assert rungs(db_factory, 1) == [user_id("Ann"), user_id("Cy"), user_id("Bob")]


def test_the_terminal_tells_a_late_challenge_and_only_its_own(
    db_factory: sessionmaker[Session], tmp_path: Path
) -> None:
    """The terminal sweeps its own server's ladders after each command: a challenge past its
    deadline is forfeited and told there; another server's late challenge is left to its bot."""
    clock = Clock()
    service = Service(db_factory, clock=clock)
    players = people(2)
    elsewhere = open_ladder(service, players, hours=1)
    service.ladder(players[1], HERE, "challenge", player=players[0])
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=tmp_path, user="Olga")
    term.run(["/ladder create name:Nightly hours:1", "/as Ann", "/ladder join"])
    term.run(["/as Bob", "/ladder join", "/ladder challenge player:Ann"])
    clock.advance(hours=2)
    term.run(["/ladder show"])
    texts = [json.loads(line)["text"] for line in out.getvalue().splitlines()]
    assert sum("not played by its deadline" in x for x in texts) == 1
    assert [c.state for c in challenges(db_factory, elsewhere)] == [ChallengeState.PLAYING]
    assert len(service.ladder_sweep()) >= 1  # the Discord bot's sweep takes the other one
    assert [c.state for c in challenges(db_factory, elsewhere)] == [ChallengeState.FINISHED]


@pytest.mark.parametrize("rated", [True, False])
def test_a_rated_ladder_moves_the_ratings_and_an_unrated_one_does_not(
    db_factory: sessionmaker[Session], rated: bool
) -> None:
    from db.tournaments import ratings_of

    service = Service(db_factory, clock=Clock())
    a, b = players = people(2)
    open_ladder(service, players, points=1, rated=rated)
    service.ladder(b, HERE, "challenge", player=a)
    lose(service, a, b, HERE)
    with db_factory() as s:
        ratings = ratings_of(s, [a.id, b.id])
    assert (ratings[b.id] > 1500 > ratings[a.id]) is rated
    assert (ratings == {a.id: 1500.0, b.id: 1500.0}) is not rated


def test_the_buttons_join_leave_and_show(db_factory: sessionmaker[Session]) -> None:
    service = Service(db_factory, clock=Clock())
    ann, bob = people(2)
    created = service.ladder(ORGANIZER, HERE, "create", name="Buttons")
    assert [b.label for b in created.buttons] == ["Join", "Leave", "Show"]
    join, leave, show = (b.custom_id for b in created.buttons)
    assert join == "ld:1:join"
    assert not service.press(ann, HERE, join).ephemeral
    refused(service.press(ann, HERE, join), "already (rung 1)")
    mine = service.press(ann, HERE, show)
    assert mine.ephemeral and mine.image is not None  # privately: his rung in blue
    refused(service.press(bob, HERE, leave), "not on this ladder")
    assert "leaves" in service.press(ann, HERE, leave).text
    for bogus in ("ld:0:join", "ld:-5:join", "ld:99999999999:show", "ld:7:join"):
        refused(service.press(ann, HERE, bogus), "No such ladder")
    refused(service.press(ann, HERE, "ld:1:frob"), "")
    assert rungs(db_factory, 1) == []
    closed = service.ladder(ORGANIZER, HERE, "close")
    assert closed.buttons == []  # a closed season has none
    refused(service.press(ann, HERE, join), "is closed")


def test_the_top_rung_has_nobody_to_challenge(db_factory: sessionmaker[Session]) -> None:
    service = Service(db_factory, clock=Clock())
    a, b, c = players = people(3)
    open_ladder(service, players, reach=1)
    refused(service.ladder(a, HERE, "challenge", player=b), "You are on the top rung")
    refused(service.ladder(b, HERE, "challenge", player=c), "up to rung 1")
    refused(service.ladder(c, HERE, "challenge", player=a), "you may challenge up to rung 2")


def test_a_hypergammon_ladder_plays_hypergammon_and_moves_the_rungs(
    db_factory: sessionmaker[Session],
) -> None:
    """The variant chosen at creation is stored and named; every challenge's game is played in
    it (3 checkers a side); its result moves the rungs; a rated one rates the variant only."""
    from db.models import Rating, VariantRating
    from engine import Position, Variant

    service = Service(db_factory, clock=Clock())
    a, b, c = players = people(3)
    lid = open_ladder(service, players, points=1, rated=True, variant="hyper")
    assert ladder_of(db_factory, lid).variant == "hypergammon"
    shown = service.ladder(c, HERE, "show")
    assert "Club ladder, season 1 · hypergammon" in shown.text
    shown.draw_later()
    assert shown.image and shown.image[:4] == b"\x89PNG"
    assert "1-point matches · hypergammon · with the cube" in rules_text(
        ladder_of(db_factory, lid), "en"
    )
    made = service.ladder(c, HERE, "challenge", player=a)
    assert not made.ephemeral, made.text
    board = made.followups[0]
    assert "1-point match · hypergammon" in board.text
    start = Position.from_position_id(board.position_id or "", checkers=3)
    assert start == Variant.HYPERGAMMON.initial_position()  # 3 checkers a side
    assert sum(n for n in start.board if n > 0) == -sum(n for n in start.board if n < 0) == 3
    ((game_id, _, _),) = in_play(db_factory, lid)
    with db_factory() as s:
        assert get_game(s, game_id).variant == "hypergammon"
    ended = lose(service, a, c, HERE)
    assert any("takes rung 1" in f.text for f in ended.followups), ended.followups
    assert rungs(db_factory, lid) == [c.id, a.id, b.id]
    with db_factory() as s:
        assert s.query(Rating).count() == 0  # the standard ratings are untouched
        rated = {r.player_id: r.variant for r in s.query(VariantRating).all()}
    assert rated == {a.id: "hypergammon", c.id: "hypergammon"}


def test_a_variant_is_refused_outside_a_ladders_creation(
    db_factory: sessionmaker[Session],
) -> None:
    service = Service(db_factory, clock=Clock())
    a, b = players = people(2)
    lid = open_ladder(service, players)
    refused(service.ladder(b, HERE, "join", variant="hypergammon"), "chosen when it is created")
    refused(  # nackgammon typed: the answer names no other variant
        service.ladder(b, HERE, "challenge", player=a, variant="nackgammon"),
        "the `variant:` option of `/ladder create`",
    )
    french = Actor(b.id, b.name, locale="fr")
    refused(service.ladder(french, HERE, "show", variant="hypergammon"), "se choisit à sa création")
    refused(service.ladder(ORGANIZER, HERE, "create", name="Odd", variant="chouette"),
            "Unknown variant `chouette`")  # fmt: skip
    assert challenges(db_factory, lid) == [] and ladder_of(db_factory, lid).variant == "standard"
    with db_factory() as s:
        from db import ladders as repo

        assert [x.name for x in repo.guild_ladders(s, HERE.guild_id or 0)] == ["Club ladder"]


def test_a_nackgammon_ladder_in_french(db_factory: sessionmaker[Session]) -> None:
    service = Service(db_factory, clock=Clock())
    created = service.ladder(
        ORGANIZER, ICI, "create", name="Échelle nack", points=3, variant="nackgammon"
    )
    assert "est ouverte dans ce salon" in created.text
    assert "matchs en 3 points · nackgammon · avec le videau" in created.text
    shown = service.ladder(Actor(2100, "Zoé", locale="fr"), ICI, "show")
    assert "Échelle nack, saison 1 · variante nackgammon" in shown.text
    a, b = people(2, locale="fr")
    for p in (a, b):
        service.ladder(p, ICI, "join")
    made = service.ladder(b, ICI, "challenge", player=a)
    assert "match en 3 points · variante nackgammon" in made.followups[0].text


def test_a_forfeit_is_no_activity_for_its_loser_and_all_idle_stay_put(
    db_factory: sessionmaker[Session],
) -> None:
    """The terminal session's case: a forfeit, then a day with nobody playing. The forfeit's
    loser has not played; all three idle, nobody moves (the drops used to rotate the ladder
    and put the forfeit's loser on top)."""
    clock = Clock()
    service = Service(db_factory, clock=clock)
    players = people(3)
    lid = open_ladder(service, players, hours=2, inactive=1)
    service.ladder(players[2], HERE, "challenge", player=players[0])
    _, mover, other = in_play(db_factory, lid)[0]
    clock.advance(hours=3)
    assert any("not played by its deadline" in n.reply.text for n in service.ladder_sweep())
    with db_factory() as s:
        active = {m.player_id: m.active_at for m in repo.members(s, lid)}
    assert active[other] > active[mover]  # the loser of a forfeit stays as idle as before
    before = rungs(db_factory, lid)
    clock.advance(days=1, hours=1)
    assert service.ladder_sweep() == []
    assert rungs(db_factory, lid) == before


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("en-US", "Only a member with Manage Server (or the organizers' role) can create {}."),
        ("fr", "Seul un membre qui peut gérer le serveur (ou qui a le rôle des organisateurs)"),
    ],
)
def test_creating_without_the_right_names_no_organizer_yet(
    db_factory: sessionmaker[Session], locale: str, words: str
) -> None:
    # Refused a /ladder create, a member was told that "only the ladder's organizer" could do
    # it: there is no ladder yet, hence no organizer. The same for a tournament.
    service = Service(db_factory, clock=Clock())
    member = people(1, locale=locale)[0]
    ladder = service.ladder(member, HERE, "create", name="Club ladder")
    tournament = service.tournament(member, HERE, "create", name="Club night")
    for reply, thing in (
        (ladder, ("a ladder", "une échelle")),
        (tournament, ("a tournament", "un tournoi")),
    ):
        refused(reply, words.format(thing[0]))
        assert "organizer or" not in reply.text and "l’organisateur" not in reply.text
        assert thing[locale == "fr"] in reply.text
    assert "No ladder" in service.ladder(ORGANIZER, HERE, "list").text  # nothing made


def test_a_ladder_game_has_no_rematch(db_factory: sessionmaker[Session]) -> None:
    # Rematch on a finished ladder game posted an ordinary rated challenge that counted
    # nowhere on the ladder, without a word: the press says to challenge through the ladder.
    service = Service(db_factory, clock=Clock())
    a, b = players = people(2)
    open_ladder(service, players, points=1)
    service.ladder(b, HERE, "challenge", player=a)
    over = lose(service, a, b, HERE)
    rematch = next(btn for btn in over.buttons if btn.label == "Rematch")
    refused = service.press(b, HERE, rematch.custom_id)
    assert refused.ephemeral and refused.text == t("error.ladder_rematch", "en")

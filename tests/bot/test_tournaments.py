"""Whole tournaments through the service: computer-driven players register, the organizer
starts, every game is played to its end through the service's actions (the player to move
resigns, the other accepts), the bot restarts in the middle (a new Service over the same
database), and the tournament reaches its champion with everything consistent."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from bot.i18n import t
from bot.service import Actor, Reply, Service, Where
from bot.service.customid import GameAction, Press
from bot.service.refusal import aware
from bot.terminal import Terminal, user_id
from bot.tournaments import SwissStanding, formats, plan, swiss_standings
from db import tournaments as repo
from db.games import get_game
from db.gamestate import load_match
from db.models import EntrantStatus, GameStatus, MatchStatus, TournamentStatus
from db.models import Game as GameRow
from tests.bot.conftest import Clock, open_transactions
from tests.bot.tournament_players import (
    ORGANIZER,
    people,
    play_some,
    playing,
    resign_one,
    tournament_of,
)

HERE = Where(channel_id=7000, guild_id=9100, guild_locale="en-US")


@pytest.fixture
def db_factory(factory: sessionmaker[Session]) -> sessionmaker[Session]:
    """The test's migrated SQLite database (tests/bot/conftest.py's ``factory``)."""
    return factory


def open_tournament(service: Service, players: list[Actor], **options: object) -> tuple[int, Reply]:
    created = service.tournament(ORGANIZER, HERE, "create", name="Club night", **options)
    assert not created.ephemeral, created.text
    tid = int(created.buttons[0].custom_id.split(":")[1])
    for p in players:
        joined = service.tournament(p, HERE, "join")
        assert not joined.ephemeral, joined.text
    started = service.tournament(ORGANIZER, HERE, "start")
    assert not started.ephemeral, started.text
    return tid, started


def check_consistent(factory: sessionmaker[Session], tid: int) -> None:
    """Every result comes from its game; nobody plays twice in a round; nothing half done."""
    with factory() as s:
        tour = repo.get_tournament(s, tid)
        assert tour is not None
        matches = repo.matches(s, tid)
        for m in matches:
            if m.status is MatchStatus.FINISHED and m.game_id is not None:
                row = get_game(s, m.game_id)
                assert row.status in (GameStatus.FINISHED, GameStatus.ABANDONED)
                assert row.winner is not None and row.player_id(row.winner) == m.winner_id
            if m.status is MatchStatus.PLAYING:
                assert m.game_id is not None
                assert get_game(s, m.game_id).status is GameStatus.ACTIVE
        per_round = Counter(
            (m.round, p) for m in matches for p in (m.player0_id, m.player1_id) if p is not None
        )
        assert max(per_round.values()) == 1, "a player paired twice in one round"
        numbers = sorted(m.result_no for m in matches if m.result_no is not None)
        assert numbers == list(range(1, tour.results + 1))


def run_to_the_end(
    factory: sessionmaker[Session],
    clock: Clock,
    tid: int,
    players: list[Actor],
    *,
    restart_after: int,
    seed: int,
) -> int:
    """Play every game; a new Service (a restart) after ``restart_after`` games. Returns the
    number of match results."""
    by_id = {p.id: p for p in players}
    rng = random.Random(seed)
    ended = play_some(Service(factory, clock=clock), factory, tid, by_id, HERE,
                      games=restart_after, rng=rng)  # fmt: skip
    check_consistent(factory, tid)
    again = Service(factory, clock=clock)  # the restart: nothing in memory survives
    ended += play_some(again, factory, tid, by_id, HERE, games=10_000, rng=rng)
    assert ended >= tournament_of(factory, tid).results  # a longer match takes several games
    return tournament_of(factory, tid).results


def test_a_16_player_knockout(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    players = people(16)
    tid, started = open_tournament(Service(db_factory, clock=clock), players, format="knockout")
    assert len(started.followups) == 8  # the eight boards of the first round
    ended = run_to_the_end(db_factory, clock, tid, players, restart_after=9, seed=1)
    tour = tournament_of(db_factory, tid)
    assert ended == 15 and tour.status is TournamentStatus.FINISHED
    check_consistent(db_factory, tid)
    with db_factory() as s:
        final = max(repo.matches(s, tid), key=lambda m: m.round)
    assert final.round == 3 and tour.champion_id == final.winner_id
    # The bracket shows each viewer his own rows in blue, as a table does; the organizer, who
    # did not play, none.
    service = Service(db_factory, clock=clock)
    player = service.tournament(players[0], HERE, "standings", tournament=tid)
    organizer = service.tournament(ORGANIZER, HERE, "standings", tournament=tid)
    assert _blue(player.image) > 5000 and _blue(organizer.image) == 0


def _blue(png: bytes | None) -> int:
    """How many pixels of ``png`` are the viewer's blue (40, 72, 112), give or take 4."""
    from PIL import Image

    assert png is not None
    rgb = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(
        n
        for n, (r, g, b) in rgb.getcolors(1 << 20) or []
        if abs(r - 40) <= 4 and abs(g - 72) <= 4 and abs(b - 112) <= 4
    )


def test_an_8_player_round_robin(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    players = people(8)
    tid, _ = open_tournament(Service(db_factory, clock=clock), players, format="round_robin")
    ended = run_to_the_end(db_factory, clock, tid, players, restart_after=13, seed=2)
    assert ended == 28
    check_consistent(db_factory, tid)
    with db_factory() as s:
        pairs = Counter(frozenset((m.player0_id, m.player1_id)) for m in repo.matches(s, tid))
        wins = Counter(m.winner_id for m in repo.matches(s, tid))
    assert len(pairs) == 28 and set(pairs.values()) == {1}
    tour = tournament_of(db_factory, tid)
    assert tour.status is TournamentStatus.FINISHED
    assert wins[tour.champion_id] == max(wins.values())


def test_a_20_player_5_round_swiss(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    players = people(20)
    tid, _ = open_tournament(
        Service(db_factory, clock=clock), players, format="swiss", rounds=5, points=3
    )
    ended = run_to_the_end(db_factory, clock, tid, players, restart_after=23, seed=3)
    assert ended == 50
    check_consistent(db_factory, tid)
    with db_factory() as s:
        matches = repo.matches(s, tid)
    pairs = Counter(frozenset((m.player0_id, m.player1_id)) for m in matches)
    assert max(pairs.values()) == 1, "a Swiss pairing repeated"
    assert {m.round for m in matches} == set(range(5))
    results = [__import__("bot.tournaments.plan", fromlist=["_result"])._result(m) for m in matches]
    with db_factory() as s:  # ties end in seed order: the tournament's own (a random draw)
        seeded = sorted(repo.entrants(s, tid), key=lambda e: (e.seed or 10**6, e.joined))
    table = swiss_standings([e.player_id for e in seeded], results)
    tour = tournament_of(db_factory, tid)
    assert tour.status is TournamentStatus.FINISHED
    assert tour.champion_id == table[0].player


def _swiss_table(factory: sessionmaker[Session], tid: int) -> dict[int, SwissStanding]:
    with factory() as s:
        tour = repo.get_tournament(s, tid)
        assert tour is not None
        state = plan.State(tour, repo.entrants(s, tid), repo.matches(s, tid))
        rows = formats.standings(state)
    return {row.player: row for row in rows if isinstance(row, SwissStanding)}


def test_a_swiss_bye_counts_once_its_round_is_over(db_factory: sessionmaker[Session]) -> None:
    """Three players, two rounds: the loser of round 1 sits out round 2. While round 2 is being
    played he is last with his one match played, not second with "Played 2" as if his bye were
    a win already; when the round ends, it is."""
    players = people(3)
    service = Service(db_factory, clock=Clock())
    tid, _ = open_tournament(service, players, format="swiss", rounds=2)
    game = playing(db_factory, tid)[0]
    resign_one(service, {p.id: p for p in players}, HERE, game, 1)
    loser = game[1]  # the player to move resigned
    with db_factory() as s:
        byes = {m.round: m.player0_id for m in repo.matches(s, tid) if m.player1_id is None}
    assert byes[1] == loser and len(playing(db_factory, tid)) == 1  # round 2 is on
    mid = _swiss_table(db_factory, tid)[loser]
    assert (mid.rank, mid.score, mid.played, mid.byes) == (3, 0, 1, 0)
    last = playing(db_factory, tid)[0]
    resign_one(service, {p.id: p for p in players}, HERE, last, 1)
    assert tournament_of(db_factory, tid).status is TournamentStatus.FINISHED
    end = _swiss_table(db_factory, tid)[loser]
    assert (end.score, end.played, end.byes) == (1, 1, 1)


def test_a_12_player_arena(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    players = people(12)
    service = Service(db_factory, clock=clock)
    tid, started = open_tournament(service, players, format="arena", minutes=30)
    assert len(started.followups) == 6
    by_id = {p.id: p for p in players}
    rng = random.Random(4)
    ended = play_some(service, db_factory, tid, by_id, HERE, games=20, rng=rng)
    service = Service(db_factory, clock=clock)  # a restart in the middle
    ended += play_some(service, db_factory, tid, by_id, HERE, games=20, rng=rng)
    assert ended == 40  # free players are paired again at once: the arena goes on
    clock.advance(minutes=31)
    assert service.tournament_sweep() == []  # the time is up, games still going: no post
    assert tournament_of(db_factory, tid).status is TournamentStatus.RUNNING
    ended += play_some(service, db_factory, tid, by_id, HERE, games=100, rng=rng)
    assert playing(db_factory, tid) == []
    tour = tournament_of(db_factory, tid)
    assert tour.status is TournamentStatus.FINISHED and tour.results == ended
    check_consistent(db_factory, tid)
    standings = service.tournament(players[0], HERE, "standings", tournament=tid)
    assert standings.image is not None and standings.image[:4] == b"\x89PNG"


def test_withdrawal_disqualification_and_cancel(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    players = people(4)
    service = Service(db_factory, clock=clock)
    tid, _ = open_tournament(service, players, format="knockout")
    game_id, mover, other = playing(db_factory, tid)[0]
    by_id = {p.id: p for p in players}
    # Mid-match, leaving asks first (privately), and changes nothing until confirmed.
    asked = service.tournament(by_id[mover], HERE, "leave")
    assert asked.ephemeral and "forfeit" in asked.text and by_id[other].name in asked.text
    assert [b.label for b in asked.buttons] == ["Withdraw"]
    with db_factory() as s:
        assert get_game(s, game_id).status is GameStatus.ACTIVE
    left = service.press(by_id[mover], HERE, asked.buttons[0].custom_id)
    assert not left.ephemeral and not left.edit, left.text
    assert left.text == (
        f"{by_id[mover].name} withdraws from the tournament and forfeits the match in "
        f"progress against {by_id[other].name}."
    )
    with db_factory() as s:
        row = get_game(s, game_id)
        match = repo.match_of_game(s, game_id)
        assert row.status is GameStatus.ABANDONED and match is not None
        assert match.winner_id == other  # the withdrawn player forfeits his match
    again = service.press(by_id[mover], HERE, asked.buttons[0].custom_id)
    assert again.ephemeral  # once
    info = service.tournament(by_id[other], HERE, "info").text
    assert "Players (4; 1 withdrawn): " in info
    assert f"{by_id[mover].name} (withdrawn)" in info
    # A player who is not the organizer may not disqualify; the organizer may.
    target = by_id[playing(db_factory, tid)[0][1]]
    refused = service.tournament(by_id[other], HERE, "disqualify", player=target)
    assert refused.ephemeral
    done = service.tournament(ORGANIZER, HERE, "disqualify", player=target)
    assert not done.ephemeral, done.text
    assert done.text.startswith(f"{target.name} is disqualified and forfeits the match")
    info = service.tournament(by_id[other], HERE, "info").text
    assert "Players (4; 1 withdrawn, 1 disqualified): " in info
    assert f"{target.name} (disqualified)" in info
    check_consistent(db_factory, tid)
    # The final is under way between the two winners: cancelling voids it, no result.
    final = playing(db_factory, tid)
    assert len(final) == 1
    cancelled = service.tournament(ORGANIZER, HERE, "cancel")
    assert not cancelled.ephemeral
    with db_factory() as s:
        assert get_game(s, final[0][0]).status is GameStatus.EXPIRED
        assert {m.status for m in repo.matches(s, tid)} <= {MatchStatus.FINISHED, MatchStatus.VOID}
    assert tournament_of(db_factory, tid).status is TournamentStatus.CANCELLED
    assert service.tournament(by_id[other], HERE, "join").ephemeral


def test_refusals_change_nothing(db_factory: sessionmaker[Session]) -> None:
    service = Service(db_factory, clock=Clock())
    member = Actor(55, "Member")
    assert service.tournament(member, HERE, "create", name="Mine").ephemeral  # no permission
    assert service.tournament(ORGANIZER, HERE, "create", name="", format="knockout").ephemeral
    assert service.tournament(ORGANIZER, HERE, "create", name="x", format="bridge").ephemeral
    assert service.tournament(ORGANIZER, HERE, "create", name="x", clock="soon").ephemeral
    assert service.tournament(ORGANIZER, HERE, "create", name="x", points=99).ephemeral
    assert service.tournament(member, HERE, "join").ephemeral  # there is none
    assert service.tournament(ORGANIZER, Where(channel_id=1), "list").ephemeral  # a DM
    with db_factory() as s:
        assert repo.guild_tournaments(s, HERE.guild_id) == []
    created = service.tournament(ORGANIZER, HERE, "create", name="Open", limit=2)
    assert not created.ephemeral
    assert not service.tournament(member, HERE, "join").ephemeral
    assert service.tournament(member, HERE, "join").ephemeral  # twice
    assert service.tournament(member, HERE, "start").ephemeral  # not the organizer
    assert service.tournament(ORGANIZER, HERE, "start").ephemeral  # one player
    assert not service.tournament(Actor(56, "Other"), HERE, "join").ephemeral
    assert service.tournament(Actor(57, "Third"), HERE, "join").ephemeral  # full


def test_a_no_show_forfeits_after_the_deadline(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    players = people(2)
    service = Service(db_factory, clock=clock)
    tid, _ = open_tournament(service, players, format="knockout")
    _, _, other = playing(db_factory, tid)[0]
    assert service.tournament_sweep() == []
    clock.advance(hours=25)
    notices = service.tournament_sweep()
    assert notices and all(n.channel_id == HERE.channel_id for n in notices)
    tour = tournament_of(db_factory, tid)
    assert tour.status is TournamentStatus.FINISHED and tour.champion_id == other
    assert service.tournament_sweep() == []  # once


def test_start_time_and_buttons(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    service = Service(db_factory, clock=clock)
    created = service.tournament(ORGANIZER, HERE, "create", name="Timed", start=30)
    join = next(b for b in created.buttons if b.custom_id.endswith(":join"))
    for p in people(3):
        reply = service.press(p, HERE, join.custom_id)
        assert reply.edit and not reply.ephemeral
    assert service.tournament_sweep() == []
    clock.advance(minutes=31)
    notices = service.tournament_sweep()
    assert len(notices) == 2  # the announcement, now under way, and the one board
    tid = int(join.custom_id.split(":")[1])
    assert tournament_of(db_factory, tid).status is TournamentStatus.RUNNING
    game = playing(db_factory, tid)[0]
    by_id = {p.id: p for p in people(3)}
    reply = resign_one(service, by_id, HERE, game, 1)
    assert any(f.image for f in reply.followups)  # standings after the result


def test_a_whole_tournament_in_the_terminal(
    db_factory: sessionmaker[Session], tmp_path: Path
) -> None:
    """Without Discord: ``/as NAME`` switches player, the typed commands do the rest."""
    service = Service(db_factory, clock=Clock())
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=tmp_path, user="Olga")
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    term.run(["/tournament create name:Weekly format:knockout points:1"])
    for name in names:
        term.run([f"/as {name}", "/tournament join"])
    term.run(["/as Olga", "/tournament start"])
    by_id = {user_id(n): n for n in names}
    for _ in range(4):  # five players, four matches
        game = playing(db_factory, 1)
        assert len(game) >= 1
        _, mover, other = game[0]
        term.run([f"/as {by_id[mover]}", "/resign single", f"/as {by_id[other]}", "Accept"])
    term.run(["/tournament standings", "/tournament list"])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert not [r for r in replies if r.get("ephemeral") and "now" not in r["text"]]
    assert any("is the champion" in r["text"] for r in replies)
    assert replies[-1]["text"].startswith("Tournaments on this server")
    assert "🏆" in replies[-1]["text"]
    assert replies[-2]["image"] and Path(replies[-2]["image"]).exists()
    assert tournament_of(db_factory, 1).status is TournamentStatus.FINISHED


def test_a_clock_charges_the_bank_and_an_empty_bank_loses(
    db_factory: sessionmaker[Session],
) -> None:
    """12 s a move + 2 min a point: a move after 100 s costs 88 s of the bank; a player who
    lets his whole bank run out loses the match."""
    clock = Clock()
    players = people(2)
    service = Service(db_factory, clock=clock)
    tid, _ = open_tournament(service, players, format="knockout", clock="12+2")
    game_id, mover, other = playing(db_factory, tid)[0]
    with db_factory() as s:
        row = get_game(s, game_id)
        seat = row.seat_of(mover)
        assert seat is not None
        assert row.deadline is not None
        assert aware(row.deadline) - clock.now == timedelta(seconds=132)  # delay + bank
        play = str(load_match(row).game.legal_plays()[0])
    clock.advance(seconds=100)
    moved = service.move(next(p for p in players if p.id == mover), HERE, play)
    assert not moved.ephemeral, moved.text
    with db_factory() as s:
        match = repo.match_of_game(s, game_id)
        assert match is not None
        banks = (match.bank0, match.bank1)
        row = get_game(s, game_id)
        assert row.turn == 1 - seat and row.deadline is not None
        assert aware(row.deadline) - clock.now == timedelta(seconds=132)  # his full bank
    assert banks[seat] == pytest.approx(120 - 88) and banks[1 - seat] == 120
    clock.advance(seconds=131)
    assert service.tournament_sweep() == []  # a second left
    clock.advance(seconds=2)
    assert service.tournament_sweep()
    tour = tournament_of(db_factory, tid)
    assert tour.status is TournamentStatus.FINISHED and tour.champion_id == mover
    assert other != mover


def test_the_command_offers_every_action_and_format() -> None:
    from bot.service.commands import by_name
    from bot.service.tournaments import ACTIONS
    from bot.tournaments.formats import format_names

    command = by_name("tournament")
    assert command is not None
    options = {o.name: o for o in command.options}
    assert tuple(c.value for c in options["action"].choices) == ACTIONS
    assert {c.value for c in options["format"].choices} == set(format_names())


def test_a_rated_tournament_feeds_the_ratings(db_factory: sessionmaker[Session]) -> None:
    clock = Clock()
    players = people(2)
    service = Service(db_factory, clock=clock)
    tid, _ = open_tournament(service, players, format="knockout", rated=True, points=1)
    game = playing(db_factory, tid)[0]
    resign_one(service, {p.id: p for p in players}, HERE, game, 1)
    with db_factory() as s:
        ratings = repo.ratings_of(s, [game[1], game[2]])
    assert ratings[game[2]] > 1500 > ratings[game[1]]  # the one who resigned lost
    assert service.tournament(players[0], HERE, "standings", tournament=-1).ephemeral


def test_a_tournament_match_offers_no_rematch(db_factory: sessionmaker[Session]) -> None:
    """The tournament pairs the next match itself: no Rematch button at the end of a
    tournament game, and an old Rematch press (typed in the terminal) is refused."""
    clock = Clock()
    players = people(4)
    service = Service(db_factory, clock=clock)
    tid, _ = open_tournament(service, players, format="knockout")
    game = playing(db_factory, tid)[0]
    by_id = {p.id: p for p in players}
    ended = resign_one(service, by_id, HERE, game, 1)
    labels = [b.label for b in ended.buttons] + [
        b.label for f in ended.followups for b in f.buttons
    ]
    assert "Rematch" not in labels
    with db_factory() as s:
        version = get_game(s, game[0]).version
    press = GameAction(game[0], version, Press.REMATCH).custom_id
    refused = service.press(by_id[game[2]], HERE, press)
    assert refused.ephemeral and "tournament" in refused.text
    # A casual game between the same two people still offers one.
    challenge = service.challenge(by_id[game[1]], HERE, by_id[game[2]])
    accept = next(b for b in challenge.buttons if b.custom_id.endswith(":accept"))
    board = service.press(by_id[game[2]], HERE, accept.custom_id)
    assert not board.ephemeral, board.text
    with db_factory() as s:
        casual = max(r.id for r in s.scalars(select(GameRow)))
    mover = get_game_turn(db_factory, casual)
    offer = service.resign(by_id[mover], HERE, value=1)
    other = game[1] if mover == game[2] else game[2]
    accept = next(b for b in offer.buttons if b.custom_id.endswith(":accept"))
    done = service.press(by_id[other], HERE, accept.custom_id)
    assert "Rematch" in [b.label for b in done.buttons]


def get_game_turn(factory: sessionmaker[Session], game_id: int) -> int:
    with factory() as s:
        row = get_game(s, game_id)
        assert row.turn is not None
        player = row.player_id(row.turn)
        assert player is not None
        return player


def test_the_list_gives_each_tournament_one_clean_line(db_factory: sessionmaker[Session]) -> None:
    """Number, name, format and a status of a word or two: no instruction, one colon."""
    clock = Clock()
    service = Service(db_factory, clock=clock)
    open_tournament(service, people(2), format="knockout")  # "Club night", under way
    assert not service.tournament(
        ORGANIZER, HERE, "create", name="Summer", format="arena"
    ).ephemeral
    english = service.tournament(ORGANIZER, HERE, "list").text.splitlines()
    assert english[1:] == [
        "#2 Summer (arena): registration open",
        "#1 Club night (knockout): under way",
    ]
    french = service.tournament(Actor(77, "Zoé", locale="fr"), HERE, "list").text.splitlines()
    assert french[1:] == [
        "n° 2 Summer (arène) : inscriptions ouvertes",
        "n° 1 Club night (élimination directe) : en cours",
    ]


def test_a_name_is_taken_until_its_tournament_is_over(db_factory: sessionmaker[Session]) -> None:
    service = Service(db_factory, clock=Clock())
    assert not service.tournament(ORGANIZER, HERE, "create", name="Coupe d'Été").ephemeral
    twice = service.tournament(ORGANIZER, HERE, "create", name="  coupe d'été ")
    assert twice.ephemeral
    assert twice.text == (
        "Tournament #1 is already called Coupe d'Été and is not over yet: choose another name."
    )
    french = service.tournament(
        Actor(1, "Olga", locale="fr", organizer=True), HERE, "create", name="COUPE D'ÉTÉ"
    )
    assert french.ephemeral and french.text.startswith("Le tournoi n° 1 s’appelle déjà")
    with db_factory() as s:
        assert len(repo.guild_tournaments(s, HERE.guild_id)) == 1  # nothing made
    elsewhere = Where(channel_id=7001, guild_id=9101, guild_locale="en-US")
    assert not service.tournament(ORGANIZER, elsewhere, "create", name="Coupe d'été").ephemeral
    assert not service.tournament(ORGANIZER, HERE, "cancel").ephemeral
    again = service.tournament(ORGANIZER, HERE, "create", name="Coupe d'été")
    assert not again.ephemeral, again.text  # the first one is over


def test_two_creations_racing_open_one_tournament(
    db_factory: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loser of a race passed the check before the winner committed: the database's unique
    index (migration 0012) refuses its insert, and it is told the name is taken, as usual."""
    service = Service(db_factory, clock=Clock())
    assert not service.tournament(ORGANIZER, HERE, "create", name="Friday Cup").ephemeral
    real = repo.named
    blind = [True]  # the first check of the loser saw no other tournament yet

    def racing(session: Session, guild_id: int | None, name: str):  # type: ignore[no-untyped-def]
        if blind:
            blind.pop()
            return None
        return real(session, guild_id, name)

    monkeypatch.setattr(repo, "named", racing)
    lost = service.tournament(ORGANIZER, HERE, "create", name="FRIDAY cup ")
    assert lost.ephemeral and lost.text == (
        "Tournament #1 is already called Friday Cup and is not over yet: choose another name."
    )
    with db_factory() as s:
        assert len(repo.guild_tournaments(s, HERE.guild_id)) == 1


def test_standings_and_next_boards_are_drawn_once_the_result_is_committed(
    db_factory: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match's end posts the standings and pairs the next match from inside the game's write
    transaction; their pictures are drawn after it commits (on SQLite, drawing inside would
    hold the write lock of every other game while the drawing worker works)."""
    import bot.drawers

    engine = db_factory.kw["bind"]
    open_now = open_transactions(engine)
    seen: list[int] = []
    real = bot.drawers.Drawers.call

    def spy(self: bot.drawers.Drawers, picture: Any, *args: Any, **kwargs: Any) -> bytes:
        seen.append(open_now[0])
        return real(self, picture, *args, **kwargs)

    players = people(4)
    service = Service(db_factory, clock=Clock())
    tid, _ = open_tournament(service, players, format="knockout")
    by_id = {p.id: p for p in players}
    monkeypatch.setattr(bot.drawers.Drawers, "call", spy)
    first, second = playing(db_factory, tid)
    posted = resign_one(service, by_id, HERE, first, 1).followups
    posted += resign_one(service, by_id, HERE, second, 1).followups
    assert [f.image_name for f in posted].count("standings.png") == 2
    assert any(f.game_id not in (None, first[0], second[0]) for f in posted)  # the final
    assert all(f.image for f in posted if f.image_name in ("standings.png", "board.png"))
    assert seen and set(seen) == {0}, seen


@pytest.mark.parametrize("sweep_first", ["tournament", "timers"])
def test_a_resignation_left_unanswered_is_accepted_whichever_sweep_comes_first(
    db_factory: sessionmaker[Session], sweep_first: str
) -> None:
    """The player who offered to resign loses as he offered, never wins on time: the
    tournament's no-show sweep did forfeit the player asked to answer. When the move timer's
    sweep gets there first, the result's posts (standings, the final's board) come with it."""
    clock = Clock()
    players = people(4)
    service = Service(db_factory, clock=clock)
    tid, _ = open_tournament(service, players, format="knockout")
    by_id = {p.id: p for p in players}
    (game_id, offerer, answerer), other = playing(db_factory, tid)
    resign_one(service, by_id, HERE, other, 1)  # the other semi-final is over
    offer = service.resign(by_id[offerer], HERE, value=1)
    assert not offer.ephemeral, offer.text
    clock.advance(hours=24, minutes=1)
    first = service.tournament_sweep if sweep_first == "tournament" else service.sweep
    notices = first()
    with db_factory() as s:
        row = get_game(s, game_id)
        assert row.status is not GameStatus.ACTIVE and row.winner is not None
        assert row.player_id(row.winner) == answerer  # the offer taken, not a no-show
        final = [m for m in repo.matches(s, tid) if m.status is MatchStatus.PLAYING]
    assert len(final) == 1 and answerer in (final[0].player0_id, final[0].player1_id)
    posted = [n.reply for n in notices]
    assert any(r.image_name == "standings.png" and r.image for r in posted), posted
    assert any(r.game_id == final[0].game_id and r.image for r in posted), posted


def test_a_picture_that_fails_after_the_commit_costs_only_itself(
    db_factory: sessionmaker[Session], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The standings are drawn once the result is committed; if drawing fails then, the
    player still gets his answer and the posts go without that picture."""
    import bot.tournaments.pictures as pictures

    def broken(*args: object, **kwargs: object) -> bytes:
        raise ValueError("cannot draw this bracket")

    players = people(4)
    service = Service(db_factory, clock=Clock())
    tid, _ = open_tournament(service, players, format="knockout")
    by_id = {p.id: p for p in players}
    first, second = playing(db_factory, tid)
    resign_one(service, by_id, HERE, first, 1)
    monkeypatch.setattr(pictures, "render_bracket", broken)
    reply = resign_one(service, by_id, HERE, second, 1)  # the final is paired
    standings = [f for f in reply.followups if f.image_name == "standings.png"]
    assert standings and standings[0].image is None
    assert any(f.game_id not in (None, first[0], second[0]) and f.image for f in reply.followups)


def test_without_its_number_an_action_goes_to_the_tournament_it_can_be_about(
    db_factory: sessionmaker[Session],
) -> None:
    # With Friday under way and Saturday registering, the newest (Saturday) was taken for
    # everything: its standings said "not started yet", and cancel cancelled it unasked.
    service = Service(db_factory, clock=Clock())
    players = people(2)
    friday, _ = open_tournament(service, players)
    made = service.tournament(ORGANIZER, HERE, "create", name="Saturday")
    saturday = int(made.buttons[0].custom_id.split(":")[1])
    standings = service.tournament(players[0], HERE, "standings")
    assert not standings.ephemeral and "Club night" in standings.text  # the one under way
    joined = service.tournament(Actor(77, "Newcomer"), HERE, "join")  # the one registering
    assert not joined.ephemeral and "Newcomer" in joined.text
    asked = service.tournament(ORGANIZER, HERE, "cancel")  # either: which one?
    assert asked.ephemeral and f"#{friday} Club night" in asked.text
    assert f"#{saturday} Saturday" in asked.text
    with db_factory() as s:
        statuses = {x.id: x.status for x in repo.guild_tournaments(s, HERE.guild_id)}
    assert statuses == {friday: TournamentStatus.RUNNING, saturday: TournamentStatus.REGISTERING}
    cancelled = service.tournament(ORGANIZER, HERE, "cancel", tournament=saturday)
    assert not cancelled.ephemeral  # named: done


def test_a_stale_announcements_registration_buttons_show_what_became_of_it(
    db_factory: sessionmaker[Session],
) -> None:
    # Join, Leave and Start stayed on the announcement after the start (and after a cancel):
    # its Leave then started a withdrawal from the tournament under way, its Join answered
    # only "closed". Now the press brings the message up to date and does nothing else.
    service = Service(db_factory, clock=Clock())
    players = people(2)
    created = service.tournament(ORGANIZER, HERE, "create", name="Club night")
    for p in players:
        service.tournament(p, HERE, "join")
    service.tournament(ORGANIZER, HERE, "start")
    for label in ("Leave", "Join", "Start"):
        button = next(b for b in created.buttons if b.label == label)
        pressed = service.press(players[0], HERE, button.custom_id)
        assert pressed.edit and not pressed.ephemeral, pressed.text
        assert t("tournament.status.running", "en") in pressed.text
        assert [b.label for b in pressed.buttons] == ["Standings"]
    tid = int(created.buttons[0].custom_id.split(":")[1])
    with db_factory() as s:
        assert all(e.status is EntrantStatus.ACTIVE for e in repo.entrants(s, tid))
    later = service.tournament(ORGANIZER, HERE, "create", name="Cancelled one")
    service.tournament(
        ORGANIZER, HERE, "cancel", tournament=int(later.buttons[0].custom_id.split(":")[1])
    )
    join = next(b for b in later.buttons if b.label == "Join")
    pressed = service.press(players[1], HERE, join.custom_id)
    assert pressed.edit and t("tournament.status.cancelled", "en") in pressed.text
    assert pressed.buttons == []


def test_withdrawing_twice_says_he_already_has(db_factory: sessionmaker[Session]) -> None:
    # The second Withdraw answered "You are not playing in this tournament."
    service = Service(db_factory, clock=Clock())
    players = people(3)
    open_tournament(service, players)
    gone = service.tournament(players[2], HERE, "leave")  # a bye or a match: asked or done
    if gone.ephemeral:
        gone = service.press(players[2], HERE, gone.buttons[0].custom_id)
    assert not gone.ephemeral, gone.text
    again = service.tournament(players[2], HERE, "leave")
    assert again.ephemeral
    assert again.text == t("tournament.error.already_withdrawn", "en", name="Club night")

"""Loading a game for an action (bot.service.tables, db.games.get_game): one query reads the
game, its two seats' players and whether it is a tournament's match (issue 30: a press asked
the players and the tournament's table apart, up to six queries before its write), and a
typical press is that read, its writes and one commit."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session, sessionmaker

from bot.service import Reply, Service, Where
from db.games import get_game
from db.players import get_player
from tests.bot.conftest import ALICE, BOB, CHANNEL, labels, press
from tests.bot.tournament_players import ORGANIZER, people, playing

STEP_WRITES = ["UPDATE games"]  # a checker moved or a die chosen: the turn's draft, saved
LOGGED_WRITES = ["UPDATE games", "INSERT INTO game_events"]  # a roll or a play, logged


def _game(service: Service, script: deque[int]) -> Reply:
    script.extend([3, 1])  # the opening roll: Alice (the challenger's seat) starts with 3-1
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    return press(service, BOB, made, "Accept")


def _statements(engine: Engine) -> tuple[list[str], Callable[[], None]]:
    """Each statement sent (its first words: ``SELECT games``, ``UPDATE games``...) and each
    ``COMMIT``, recorded until the returned function is called."""
    seen: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        words = sql.split()
        verb = words[0].upper()
        if verb == "SELECT":
            seen.append(f"SELECT {_outer_table(words)}")
        else:
            seen.append(" ".join(words[:3] if verb == "INSERT" else words[:2]))

    def commit(_conn: object) -> None:
        seen.append("COMMIT")

    event.listen(engine, "before_cursor_execute", record)
    event.listen(engine, "commit", commit)

    def stop() -> None:
        event.remove(engine, "before_cursor_execute", record)
        event.remove(engine, "commit", commit)

    return seen, stop


def _outer_table(words: list[str]) -> str:
    """The table of the outer query (a subquery in the select list opens its own FROM)."""
    depth = 0
    for i, word in enumerate(words):
        depth += word.count("(") - word.count(")")
        if word.upper() == "FROM" and depth == 0:
            return words[i + 1]
    return "?"


def test_a_press_is_one_read_its_writes_and_one_commit(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    """A checker step, the Confirm that ends the turn, the other's Roll: the game with its
    players and its tournament membership in one SELECT, the writes the action needs, one
    COMMIT. A query added to the path of every press fails this test."""
    board = _game(service, script)  # Alice to play 3-1
    seen, stop = _statements(factory.kw["bind"])
    try:
        steps: list[tuple[str, list[str]]] = []
        for _ in range(2):  # a die or a checker, twice: the draft of the turn
            wanted = next(n for n in labels(board) if n.isdigit() or n.startswith("Die"))
            seen.clear()
            board = press(service, ALICE, board, wanted)
            steps.append((wanted, list(seen)))
        assert "Confirm" in labels(board), labels(board)
        seen.clear()
        board = press(service, ALICE, board, "Confirm")
        steps.append(("Confirm", list(seen)))
        assert "Roll" in labels(board), labels(board)  # Bob rolls himself (he may double)
        script.extend([6, 5])
        seen.clear()
        board = press(service, BOB, board, "Roll")
        steps.append(("Roll", list(seen)))
    finally:
        stop()
    assert not board.ephemeral, board.text
    read = ["SELECT games"]
    assert steps == [
        (steps[0][0], [*read, *STEP_WRITES, "COMMIT"]),
        (steps[1][0], [*read, *STEP_WRITES, "COMMIT"]),
        ("Confirm", [*read, *LOGGED_WRITES, "COMMIT"]),
        ("Roll", [*read, *LOGGED_WRITES, "COMMIT"]),
    ]


def test_the_game_is_read_with_its_seats_and_its_tournament(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    """``get_game`` reads whether the game is a tournament's match with its row: True for a
    match of a tournament, False for a challenge's game; and the seats' players come with it
    (no query of the players' table follows)."""
    here = Where(channel_id=7100, guild_id=9100, guild_locale="en-US")
    players = people(2)
    assert not service.tournament(ORGANIZER, here, "create", name="Duel").ephemeral
    for p in players:
        assert not service.tournament(p, here, "join").ephemeral
    assert not service.tournament(ORGANIZER, here, "start").ephemeral
    [(match_game, _, _)] = playing(factory, _tournament_id(factory))
    challenge_game = _game(service, script).game_id
    assert challenge_game is not None
    seen, stop = _statements(factory.kw["bind"])
    try:
        with factory() as s:
            match = get_game(s, match_game)
            other = get_game(s, challenge_game)
            seats = [get_player(s, g.player_id(n)) for g in (match, other) for n in (0, 1)]
            names = [p.display_name if p else None for p in seats]
    finally:
        stop()
    assert (match.in_tournament, other.in_tournament) == (True, False)
    assert sorted(map(str, names[:2])) == ["Player 01", "Player 02"]
    assert names[2:] == ["Alice", "Bob"]
    assert seen == ["SELECT games", "SELECT games"]


def _tournament_id(factory: sessionmaker[Session]) -> int:
    from sqlalchemy import select

    from db.models import Tournament

    with factory() as s:
        return s.scalars(select(Tournament.id)).one()


def test_a_typed_play_is_routed_in_one_read_then_played_as_a_press(
    service: Service, script: deque[int], factory: sessionmaker[Session]
) -> None:
    """``/move`` first asks where a typed play goes (a consultation's vote, a drill's answer,
    or the game), all in one unit, then plays it as a press does: two commits, not three."""
    _game(service, script)  # Alice to play 3-1
    seen, stop = _statements(factory.kw["bind"])
    try:
        reply = service.move(ALICE, CHANNEL, "8/5 6/5")
    finally:
        stop()
    assert not reply.ephemeral, reply.text
    assert seen.count("COMMIT") == 2, seen
    route, play = seen[: seen.index("COMMIT") + 1], seen[seen.index("COMMIT") + 1 :]
    assert all(s.startswith("SELECT") for s in route[:-1]), route
    assert play == ["SELECT games", *LOGGED_WRITES, "COMMIT"], play

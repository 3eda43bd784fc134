"""Hints, reviews, exports and practice positions through the service."""

from __future__ import annotations

from collections import deque
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

import bot.service.puzzles as puzzles
from bot.service import Service
from bot.service.analysis import REVIEW_PLIES
from db.models import Game as GameRow
from engine import Position, decode_match_id, read_mat
from engine.xgid import Xgid
from tests.bot.conftest import ALICE, BOB, CHANNEL, DM, labels, play_out, press


def test_hint_lists_the_best_plays_with_a_picture(service: Service, script: deque[int]) -> None:
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    reply = service.hint(ALICE, DM)
    assert reply.ephemeral and reply.image is not None and reply.image[:4] == b"\x89PNG"
    lines = reply.text.splitlines()
    assert "Best plays for 3-1" in lines[0] and len(lines) == 6
    assert lines[1].startswith("1. **8/5 6/5**")  # the opening 3-1 everyone knows


def test_a_hint_in_the_middle_of_a_move_says_its_plays_are_whole(
    service: Service, script: deque[int]
) -> None:
    # After 8/5 of a 3-1, the list still gave 8/5 6/5 with no word that it starts over.
    script.extend([3, 1])
    board = service.play(ALICE, DM, level="expert")
    assert "Whole plays" not in service.hint(ALICE, DM).text
    press(service, ALICE, board, "8", DM)
    lines = service.hint(ALICE, DM).text.splitlines()
    assert lines[1].startswith("(Whole plays from the start of your turn"), lines
    assert lines[2].startswith("1. **8/5 6/5**"), lines


def test_a_hints_differences_are_those_of_the_figures_shown(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # +0.010 then +0.006 (-0.005): the difference of the unrounded figures (-0.0048) did not
    # subtract as read; it is now that of the figures shown, -0.004.
    from bot.service import analysis
    from engine import legal_plays
    from engine.analysis.hints import HintMove

    def two(
        position: Position, dice: tuple[int, int], *args: object, **kw: object
    ) -> list[HintMove]:
        a, b = legal_plays(position, dice)[:2]
        probs = (0.5, 0.1, 0.0, 0.1, 0.0)
        return [
            HintMove(a, 0.0104, 0.0, probs, None, 2),
            HintMove(b, 0.0056, -0.0048, probs, None, 2),
        ]

    monkeypatch.setattr(analysis, "hint", two)
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    lines = service.hint(ALICE, DM).text.splitlines()
    assert "** +0.010 · " in lines[1] and "** +0.006 (-0.004) · " in lines[2], lines


def test_cube_hints(service: Service, script: deque[int]) -> None:
    script.extend([3, 1, 5, 2])
    service.play(ALICE, DM, level="expert")
    service.move(ALICE, DM, "8/5 6/5")
    reply = service.hint(ALICE, DM)  # Alice to roll or double after the computer's move
    assert reply.ephemeral and "Cube: **no double**" in reply.text


def test_no_hints_in_rated_games(service: Service, script: deque[int]) -> None:
    made = service.challenge(ALICE, CHANNEL, BOB, rated=True)
    script.extend([5, 2])
    press(service, BOB, made, "Accept")
    assert "No hints in rated games" in service.hint(ALICE, CHANNEL).text
    unrated = Service(service.factory)  # a second, unrated game in another channel
    del unrated


def test_hint_only_on_ones_own_turn(service: Service, script: deque[int]) -> None:
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    script.extend([5, 2])
    press(service, BOB, made, "Accept")
    assert "your own turn" in service.hint(BOB, CHANNEL).text
    assert "Best plays for 5-2" in service.hint(ALICE, CHANNEL).text


def test_review_of_a_finished_game_is_cached(
    service: Service, factory: sessionmaker[Session]
) -> None:
    start = service.play(ALICE, DM, level="beginner")
    play_out(service, ALICE, DM, start)
    first = service.review(ALICE, DM)
    assert not first.ephemeral and "Review of game" in first.text
    assert "millipoints lost per decision" in first.text
    assert first.image is not None  # the winning chances chart
    assert len(first.attachments) <= 3 and all(a.data[:4] == b"\x89PNG" for a in first.attachments)
    with factory() as s:
        row = s.get(GameRow, start.game_id)
        assert row is not None and row.review is not None
    second = service.review(ALICE, DM, start.game_id)
    assert second.text == first.text


@pytest.mark.review_depth
def test_review_looks_as_deep_as_the_bot_says(
    service: Service, factory: sessionmaker[Session], script: deque[int]
) -> None:
    # The other tests review at 2 plies (tests/bot/conftest.py): this one, on a game of two
    # moves (a review's cost grows with the game), checks the bot's own depth.
    script.extend([3, 1, 5, 2])
    start = service.play(ALICE, DM, level="beginner")
    service.move(ALICE, DM, "8/5 6/5")
    service.resign(ALICE, DM, 1)
    review = service.review(ALICE, DM, start.game_id)
    assert not review.ephemeral and "Review of game" in review.text
    with factory() as s:
        row = s.get(GameRow, start.game_id)
        assert row is not None and row.review is not None
        assert row.review["plies"] == REVIEW_PLIES == 3
    assert puzzles.CONFIRM_PLIES == 3  # and its blunders are confirmed as deep


def test_review_refusals(service: Service, script: deque[int]) -> None:
    assert "no finished game" in service.review(ALICE, DM).text
    assert "No game #1000000." in service.review(ALICE, DM, 10**6).text
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    script.extend([5, 2])
    game = press(service, BOB, made, "Accept").game_id
    # A game between people is never analysed while it is played, by either of them.
    for who in (ALICE, BOB):
        refused = service.review(who, CHANNEL)
        assert refused.ephemeral and f"Game #{game} between two people" in refused.text
        assert f"Game #{game} between two people" in service.review(who, CHANNEL, game).text


def test_review_and_export_take_the_same_game(service: Service, script: deque[int]) -> None:
    # Issue 15.12: without a number both take the game in progress here, else the last
    # finished one; a game against the computer can be reviewed as it goes, never cached.
    first = service.play(ALICE, DM, level="beginner", points=1)
    play_out(service, ALICE, DM, first)
    assert f"Review of game #{first.game_id}" in service.review(ALICE, DM).text
    over = service.export(ALICE, DM).text
    assert f"Game #{first.game_id} as a .mat" in over
    assert "At the end: Position ID" in over and not over.endswith("· `-`")  # no XGID: over
    script.extend([3, 1])
    second = service.play(ALICE, DM, level="beginner")
    review = service.review(ALICE, DM)
    assert f"Review of game #{second.game_id}" in review.text
    assert "still in progress" in review.text.splitlines()[0]
    going = service.export(ALICE, DM).text
    assert f"Game #{second.game_id} as a .mat" in going and "`XGID=" in going
    # Elsewhere (no game in progress in that channel) both fall back to the finished game.
    assert f"Review of game #{first.game_id}" in service.review(ALICE, CHANNEL).text
    assert f"Game #{first.game_id} as a .mat" in service.export(ALICE, CHANNEL).text


def test_export_replays_in_the_engine(service: Service) -> None:
    start = service.play(ALICE, DM, level="beginner", points=1)
    end = play_out(service, ALICE, DM, start)
    reply = service.export(ALICE, DM)
    assert reply.ephemeral
    mat, ids = reply.attachments
    assert mat.name.endswith(".mat") and ids.name.endswith("-ids.txt")
    replayed = read_mat(mat.data.decode())
    assert replayed.match.is_over
    assert replayed.match.game.position_id() == end.position_id
    # Every logged action has its IDs.
    lines = ids.data.decode().splitlines()[2:]
    assert len(lines) > 5 and all("->" in line for line in lines)
    for line in lines:
        ids_part, xgid = line.split("-> ")[1].split("  ")  # and the XGID of the same moment
        pid, mid = ids_part.split(":")
        Position.from_position_id(pid)
        decode_match_id(mid)
        assert xgid == "-" or (Xgid.parse(xgid).position_id(), Xgid.parse(xgid).match_id()) == (
            pid,
            mid,
        )


def test_practice_from_a_position(service: Service, script: deque[int]) -> None:
    script.extend([6, 4])
    reply = service.play(
        ALICE, DM, level="expert", position_id="4HPwATDgc/ABMA", match_id="MAEgASAAIAAE"
    )
    assert not reply.ephemeral and "9-point match · score 2–4" in reply.text
    assert "Practice from Position ID" in reply.text


@pytest.mark.parametrize(
    ("position", "match", "message"),
    [
        ("nonsense", None, "not a valid GNU Backgammon Position ID"),
        ("4HPwATDgc/ABMA", "nonsense", "not a valid GNU Backgammon Match ID"),
        (None, "MAEgASAAIAAE", "goes with a Position ID"),
        ("4HPwATDgc/ABMA", "MAKgAFAAEAAE", "is over"),
        # Every checker of a side borne off: nobody can ever move, the game could not go on.
        ("AAAAAAAAAAAAAA", None, "has borne off all his checkers"),
        ("AAAAAAEAAAAAAA", None, "has borne off all his checkers"),
        ("AQAAAAAAAAAAAA", "cAkgAAAAAAAA", "has borne off all his checkers"),
        ("27YBANC2bQMAEA", None, "Nobody could ever move"),  # both sides shut out on the bar
    ],
)
def test_practice_refusals(
    service: Service, position: str | None, match: str | None, message: str
) -> None:
    reply = service.play(ALICE, DM, position_id=position, match_id=match)
    assert reply.ephemeral and message in reply.text


def test_review_shows_the_mistakes_of_the_player_who_asks(
    service: Service, script: deque[int]
) -> None:
    # Between two people, /review shows "your three worst mistakes": Bob's for Bob, not
    # always those of the first player (Alice, the challenger).
    made = service.challenge(ALICE, CHANNEL, BOB, points=1, rated=False)
    script.extend([5, 2])
    reply = press(service, BOB, made, "Accept")
    people = {ALICE.id: ALICE, BOB.id: BOB}
    for _ in range(600):
        if not reply.mentions:
            break
        actor = people[reply.mentions[0]]
        names = [b.label for b in reply.buttons if not b.disabled]
        wanted = next((w for w in ("Confirm", "Take", "Roll") if w in names), None)
        if wanted is None:
            wanted = next(n for n in names if n.isdigit() or n == "Bar")
        reply = press(service, actor, reply, wanted)
        assert not reply.ephemeral, reply.text
    assert "wins the 1-point match" in reply.text
    for person in (ALICE, BOB):
        review = service.review(person, CHANNEL)
        mistakes = [line for line in review.text.splitlines() if line.startswith("Mistake")]
        assert mistakes, review.text
        assert all(f"({person.name})" in line for line in mistakes), (person.name, mistakes)


def test_the_hint_is_drawn_in_the_players_theme(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.drawers
    from render import BoardView, render_board

    views: list[BoardView] = []

    def spy(position: Position, *, view: BoardView) -> bytes:
        views.append(view)
        return render_board(position, view=view)

    monkeypatch.setattr(bot.drawers, "render_board", spy)
    service.settings_command(ALICE, DM, theme="redblack", mirrored=True)
    script.extend([3, 1])
    service.play(ALICE, DM, level="expert")
    views.clear()  # the game's own board: every board is drawn through bot.drawers
    assert service.hint(ALICE, DM).image is not None
    (view,) = views
    assert view.theme == "redblack" and view.mirrored and view.colors == ("red", "black")
    # A still of the advice, not the live board (a new player took it for the game).
    assert view.caption[0].startswith("Hint: the best play is ") and not view.turn_marker


def test_a_reviews_pictures_are_drawn_by_the_drawing_workers(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The chances chart and the mistake cards go where game boards go (bot.drawers): in the
    bot, to worker processes, so that four reviews at once do not hold the event loop's GIL."""
    import bot.drawers

    drawn: list[bytes] = []
    real = bot.drawers.Drawers.call

    def spy(self: bot.drawers.Drawers, picture: Any, *args: Any, **kwargs: Any) -> bytes:
        png = real(self, picture, *args, **kwargs)
        drawn.append(png)
        return png

    start = service.play(ALICE, DM, level="beginner")
    play_out(service, ALICE, DM, start)
    monkeypatch.setattr(bot.drawers.Drawers, "call", spy)
    review = service.review(ALICE, DM)
    assert review.image is not None and review.attachments, review.text
    assert {review.image, *(a.data for a in review.attachments)} <= set(drawn)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            "Mistake 1 (Bob): doubled, when the right action was not to double"
            " (−70 millipoints, doubtful)",
        ),
        ("fr", "Erreur 1 (Bob) : a doublé ; il fallait ne pas doubler (−70 millipoints, douteux)"),
    ],
)
def test_a_cube_mistake_reads_as_a_sentence(lang: str, expected: str) -> None:
    """Not "played double, better no double", as a new player read it."""
    from bot.service.analysis import _mistakes
    from engine.analysis import Decision
    from engine.context import MatchContext

    cube = Decision(
        game=0,
        move=11,
        player=1,
        kind="double",
        position_id="4HPwATDgc/ABMA",
        match_id="cAkAAAAAAAAA",
        context=MatchContext(),
        dice=None,
        played="double",
        best="no double",
        equity=-0.1,
        best_equity=-0.03,
        unforced=True,
    )

    class OneMistake:
        def worst(self, player: int, count: int) -> list[Decision]:
            return [cube]

    lines: list[str] = []
    cards = _mistakes(OneMistake(), 1, ("Ann", "Bob"), lang, lines, 7)  # type: ignore[arg-type]
    assert lines == [expected]
    assert [c.name for c in cards] == ["game-7-mistake-1.png"]


def test_a_practice_game_is_exported_as_ids_without_a_mat_file(service: Service) -> None:
    """A .mat file starts from the opening: GNU Backgammon refused the one of a game started
    from a position ("Invalid move")."""
    xgid = "XGID=-A----------------------a-:0:0:1:21:0:0:0:0:10"
    started = service.play(ALICE, DM, position_id=xgid)
    assert not started.ephemeral, started.text
    export = service.export(ALICE, DM)
    assert [a.name for a in export.attachments] == [f"game-{started.game_id}-ids.txt"]
    assert "no .mat file" in export.text


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en-US", "**Alice**: no decision to judge ("),
        ("fr", "**Alice** : aucune décision à juger ("),
    ],
)
def test_a_review_of_a_game_without_decisions_says_so(
    service: Service, script: deque[int], locale: str, expected: str
) -> None:
    # A game resigned before its first move: no play and no cube decision to judge. The
    # review said "— millipoints lost per decision, **—** (checker play — over 0 moves ...".
    from dataclasses import replace

    alice = replace(ALICE, locale=locale)
    made = service.challenge(alice, CHANNEL, BOB, points=1, rated=False)
    script.extend([5, 2])
    press(service, BOB, made, "Accept")
    offered = service.resign(alice, CHANNEL, 1)
    over = press(service, BOB, offered, "Accept")
    assert "🏁" in over.text
    text = service.review(alice, CHANNEL, over.game_id).text
    assert expected in text
    assert "over 0" not in text and "sur 0" not in text and "—" not in text


@pytest.mark.parametrize(
    ("language", "said", "unsaid"),
    [
        ("en", "no decision to judge (", "over 0"),
        ("fr", "aucune décision à juger (", "sur 0"),
    ],
)
def test_review_of_a_player_without_decisions_says_so(
    service: Service, script: deque[int], language: str, said: str, unsaid: str
) -> None:
    """Reviewed before any decision of hers, Alice reads that, not rates of "—" over 0 moves."""
    script.extend([6, 1])  # Alice opens with 6-1 and reviews before moving
    service.settings_command(ALICE, DM, language=language)
    service.play(ALICE, DM, level="beginner")
    line = next(x for x in service.review(ALICE, DM).text.splitlines() if "**Alice**" in x)
    assert said in line and unsaid not in line and "—" not in line, line


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "(no checker play to judge: every play was forced or there was none; cube "),
        ("fr", "(aucun jeu des dames à juger : chaque coup était forcé ou il n’y en a pas eu ; "),
    ],
)
def test_review_of_a_player_with_only_a_cube_decision(
    service: Service, script: deque[int], language: str, said: str
) -> None:
    """Bob doubles on his first turn, Alice takes, Bob resigns: his review judges his double
    and says he had no checker play, not "checker play — over 0 moves"."""
    script.extend([3, 1])  # Alice opens with 3-1
    service.settings_command(BOB, DM, language=language)
    made = service.challenge(ALICE, CHANNEL, BOB, rated=False)
    press(service, BOB, made, "Accept")
    played = service.move(ALICE, CHANNEL, "8/5 6/5")
    press(service, ALICE, press(service, BOB, played, "Double"), "Take")
    over = press(service, ALICE, service.resign(BOB, CHANNEL, 1), "Accept")
    assert "🏁" in over.text
    bob = next(
        line
        for line in service.review(BOB, CHANNEL, over.game_id).text.splitlines()
        if line.startswith("**Bob**")
    )
    assert said in bob and "over 0" not in bob and "sur 0" not in bob


def test_a_reviews_progress_is_told_game_by_game(service: Service, script: deque[int]) -> None:
    """A review is computed a game at a time, each step told in place (a match's review takes
    a minute or more, and the terminal showed nothing meanwhile); a kept review tells nothing."""
    from bot.service.replies import PROGRESS

    seen: list[str] = []
    token = PROGRESS.set(seen.append)
    try:
        script.extend([3, 1, 5, 2])
        start = service.play(ALICE, DM, level="beginner", points=2, cube=False)
        service.move(ALICE, DM, "8/5 6/5")
        second = service.resign(ALICE, DM, 1)  # 0-1: a second game
        assert not second.ephemeral and "score 0–1" in second.text, second.text
        over = service.resign(ALICE, DM, 1)  # 0-2: the match is over
        assert not over.ephemeral and "Rematch" in labels(over), over.text
        first = service.review(ALICE, DM, start.game_id)
        assert seen == ["🔍 Reviewing… game 1 of 2", "🔍 Reviewing… game 2 of 2"]
        again = service.review(ALICE, DM, start.game_id)
        assert again.text == first.text and len(seen) == 2
    finally:
        PROGRESS.reset(token)

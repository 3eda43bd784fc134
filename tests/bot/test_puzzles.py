"""Puzzles (issue 18): Glicko-2 against Glickman's worked example, puzzles made of a real
review and graded as the review graded the decision, streaks, nobody served his own blunder
unless he asks, and XGIDs in /play and /export."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import delete, select
from sqlalchemy.orm import Session, sessionmaker

import bot.service.puzzles as puzzles
from bot.maths.glicko import Glicko
from bot.service import Reply, Service
from bot.service.customid import PuzzleAction
from bot.service.puzzles import choice_index
from bot.service.puzzleview import answer_lines, components, grade
from bot.service.refusal import Refusal
from bot.service.replies import Select
from bot.terminal import _plain as terminal_text
from db.models import Game as GameRow
from db.models import Puzzle, PuzzleRating
from engine.analysis import Review
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    open_transactions,
    play_out,
    within_discord_limits,
)

# -- Glicko-2 -------------------------------------------------------------------------------------


def test_glicko2_is_glickmans_example() -> None:
    """Glickman, "Example of the Glicko-2 system" (2012): 1500 / 200 / 0.06 against 1400 / 30
    (won), 1550 / 100 (lost) and 1700 / 300 (lost) becomes 1464.06 / 151.52 / 0.05999. The
    paper rounds its intermediate values (mu' = -0.2069): unrounded, the rating is 1464.051."""
    me = Glicko(1500, 200, 0.06)
    games = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    new = me.updated(games)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.005)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)  # exactly 0.0599960


def test_provisional_and_bounds() -> None:
    assert Glicko().provisional and Glicko().shown() == "1500?"
    assert Glicko(1612.4, 80).shown() == "1612"
    assert Glicko(1500, 10).bounded().rd == 45.0 and Glicko(1500, 400).bounded().rd == 350.0


# -- helpers --------------------------------------------------------------------------------------


def _puzzle_of(factory: sessionmaker[Session], reply: Reply) -> dict[str, Any]:
    ids = [c.custom_id for row in reply.rows for c in row]
    action = PuzzleAction.parse(ids[0])
    assert action is not None
    with factory() as s:
        row = s.get(Puzzle, action.id)
        assert row is not None
        return {"id": row.id, "choices": row.choices["choices"], "source": row.source_player_id}


def _answer(service: Service, actor: Any, reply: Reply, index: int) -> Reply:
    """Answer the puzzle shown in ``reply`` with its candidate ``index`` (0: the best)."""
    within_discord_limits(reply)
    puzzle = _puzzle_of(service.factory, reply)
    if reply.selects:
        value = puzzle["choices"][index]["answer"]
        return service.press(actor, CHANNEL, reply.selects[0].custom_id, value)
    button = next(b for b in reply.buttons if b.custom_id.endswith(f":{index}"))
    return service.press(actor, CHANNEL, button.custom_id)


def _rating(factory: sessionmaker[Session], player_id: int) -> PuzzleRating:
    with factory() as s:
        row = s.get(PuzzleRating, player_id)
        assert row is not None
        s.expunge(row)
        return row


# -- the starter set, answers, ratings, streaks ---------------------------------------------------


def test_a_new_installation_has_the_starter_puzzles(factory: sessionmaker[Session]) -> None:
    with factory() as s:
        rows = list(s.scalars(select(Puzzle)))
    assert len(rows) == 200
    assert all(r.source_player_id is None and r.source_game_id is None for r in rows)
    assert {r.kind for r in rows} == {"checker", "cube"}


def _offered(row: Puzzle, lang: str, *, daily: bool) -> list[str]:
    """The answers the question offers: the menu's values, or the buttons' candidates."""
    rows = components(row, row.id, lang, daily=daily)
    offered: list[str] = []
    choices = [str(c["answer"]) for c in row.choices["choices"]]
    for component in (c for r in rows for c in r):
        if isinstance(component, Select):
            offered.extend(o.value for o in component.choices)
        else:
            action = PuzzleAction.parse(component.custom_id)
            assert action is not None
            offered.append(choices[int(action.arg)])
    return offered


def check_menu_and_grade(row: Puzzle) -> None:
    """The menu holds every candidate, so the best answer and the blunder played; the blunder
    loses the puzzle's error, the best answer nothing."""
    choices = [str(c["answer"]) for c in row.choices["choices"]]
    for lang in ("en", "fr"):
        for daily in (False, True):
            offered = _offered(row, lang, daily=daily)
            assert sorted(offered) == sorted(choices), (row.id, offered)
            assert choices[0] in offered and row.played in offered
    answer, lost, correct = grade(row, choices.index(row.played))
    assert (answer, correct) == (row.played, False)
    assert lost == pytest.approx(row.error, abs=0.001)
    assert grade(row, 0) == (choices[0], 0.0, True)


def test_every_starter_puzzle_offers_the_best_answer_and_the_blunder(
    factory: sessionmaker[Session],
) -> None:
    with factory() as s:
        rows = list(s.scalars(select(Puzzle)))
    assert len(rows) == 200
    for row in rows:
        check_menu_and_grade(row)


def test_answers_rate_and_the_streak_resets_on_a_miss(service: Service) -> None:
    reply = service.puzzle(BOB, CHANNEL)
    assert not reply.ephemeral or reply.rows, reply.text
    assert reply.image and "XGID=" in reply.text and "1500?" in reply.text
    first = _puzzle_of(service.factory, reply)
    with service.factory() as s:
        before = s.get(Puzzle, first["id"])
        assert before is not None
        it = Glicko(before.rating, before.rd, before.volatility)
    answer = _answer(service, BOB, reply, 0)
    assert "is the best answer" in answer.text and answer.image
    row = _rating(service.factory, BOB.id)
    expected = Glicko().updated([(it, 1.0)]).bounded()
    assert (row.rating, row.rd, row.volatility) == pytest.approx(
        (expected.rating, expected.rd, expected.volatility)
    )
    assert (row.streak, row.solved, row.attempts) == (1, 1, 1)
    again = _answer(service, BOB, reply, 1)  # a second answer is shown, not rated
    assert "only your first answer counts" in again.text
    assert _rating(service.factory, BOB.id).attempts == 1
    _answer(service, BOB, service.puzzle(BOB, CHANNEL), 0)
    assert _rating(service.factory, BOB.id).streak == 2
    missed = service.puzzle(BOB, CHANNEL)
    wrong = len(_puzzle_of(service.factory, missed)["choices"]) - 1
    text = _answer(service, BOB, missed, wrong).text
    assert "loses" in text
    after = _rating(service.factory, BOB.id)
    assert (after.streak, after.best_streak, after.solved, after.attempts) == (0, 2, 2, 3)
    assert after.rating < row.rating + 400  # moved down from its peak
    board = service.puzzle_leaderboard(BOB, CHANNEL)
    assert "Bob" in board.text and "2 solved of 3" in board.text


def test_bad_answers_are_refused(service: Service) -> None:
    reply = service.puzzle(BOB, CHANNEL)
    puzzle = _puzzle_of(service.factory, reply)
    for custom_id, value in (
        (f"pz:{puzzle['id']}:m", "24/1 1/off"),
        (f"pz:{puzzle['id']}:9", None),
        ("pz:999999:0", None),
        ("pd:999999:0", None),
    ):
        refused = service.press(BOB, CHANNEL, custom_id, value)
        assert refused.ephemeral, refused.text
    with service.factory() as s:
        assert s.get(PuzzleRating, BOB.id) is None


def _stars_left(markdown: str) -> str:
    """The ``*`` Discord would read as markup: neither escaped nor a bold mark."""
    return re.sub(r"[^*]", "", re.sub(r"\\\*", "", markdown).replace("**", ""))


def test_the_answer_writes_each_play_as_the_menu_does_with_its_hits(
    factory: sessionmaker[Session],
) -> None:
    """The verdict, the candidates and the refusal of a play that is not offered write the plays
    of the menu, ``*`` and all: escaped for Discord (two stars on a message's lines were read as
    italics and vanished), shown as typed in the terminal."""
    with factory() as s:
        rows = [r for r in s.scalars(select(Puzzle)) if "*" in str(r.choices["choices"])]
    assert len(rows) > 10
    for row in rows:
        plays = [str(c["answer"]) for c in row.choices["choices"]]
        for lang in ("en", "fr"):
            text = "\n".join(answer_lines(row, len(plays) - 1, lang))
            assert _stars_left(text) == "", text
            for rank, play in enumerate(plays, start=1):  # "1. 7/5* 7/4: ", "1. 7/5* 7/4 : "
                assert re.search(rf"(?m)^{rank}\. {re.escape(play)} ?:", terminal_text(text))
        with pytest.raises(Refusal) as refused:
            choice_index(row, PuzzleAction(row.id, "m", False), "24/1 1/off")
        shown = refused.value.text.render("en")
        [[menu]] = components(row, 1, "en", daily=False)
        assert isinstance(menu, Select)
        offered = [choice.value for choice in menu.choices]  # the menu's order, not the ranking
        assert _stars_left(shown) == "" and " | ".join(offered) in terminal_text(shown), shown


def test_a_refused_answer_lists_the_plays_in_the_menus_order_not_best_first(
    factory: sessionmaker[Session],
) -> None:
    """Listed best first, the refusal of a mistyped answer gave the puzzle away."""
    with factory() as s:
        rows = [r for r in s.scalars(select(Puzzle)) if r.kind != "cube"]
    leaked = 0
    for row in rows:
        plays = [str(c["answer"]) for c in row.choices["choices"]]
        with pytest.raises(Refusal) as refused:
            choice_index(row, PuzzleAction(row.id, "m", False), "xyz")
        listed = terminal_text(refused.value.text.render("en")).split(": ", 1)[1].rstrip(".")
        assert sorted(listed.split(" | ")) == sorted(plays)
        leaked += listed.split(" | ")[0] == plays[0]
    assert len(rows) > 50 and leaked < len(rows) / 2  # the best play first only by chance


def test_french(service: Service) -> None:
    from bot.service import Actor

    bob_fr = Actor(BOB.id, "Bob", locale="fr")
    reply = service.puzzle(bob_fr, CHANNEL)
    assert "Problème" in reply.text
    assert "meilleure réponse" in _answer(service, bob_fr, reply, 0).text


# -- puzzles of a real game -----------------------------------------------------------------------


@pytest.fixture
def reviewed(service: Service) -> tuple[Service, Review, int, int]:
    """Alice plays a game against the computer as a careless player does, then reviews it: her
    blunders become puzzles. Only her puzzles are left in the database."""
    reply = service.play(ALICE, CHANNEL, level="expert")
    play_out(service, ALICE, CHANNEL, reply)
    review_reply = service.review(ALICE, CHANNEL)
    assert not review_reply.ephemeral, review_reply.text
    with service.factory() as s:
        row = s.scalars(select(GameRow).order_by(GameRow.id.desc())).first()
        assert row is not None and row.review
        review, game_id, seat = Review.from_dict(row.review), row.id, row.seat_of(ALICE.id)
        assert seat is not None
    with service.factory.begin() as s:
        s.execute(delete(Puzzle).where(Puzzle.source_game_id.is_(None)))  # the starter set
    return service, review, game_id, seat


def test_puzzles_are_the_confirming_analysis_of_the_reviews_blunders(
    reviewed: tuple[Service, Review, int, int],
) -> None:
    service, review, game_id, seat = reviewed
    with service.factory() as s:
        rows = list(s.scalars(select(Puzzle).where(Puzzle.source_game_id == game_id)))
    assert rows, "a careless game leaves blunders"
    decisions = {(d.position_id, d.match_id, d.kind): d for d in review.decisions}
    for row in rows:
        d = decisions[(row.position_id, row.match_id, row.decision)]
        assert d.error >= 0.050 and d.unforced
        choices = row.choices["choices"]
        assert choices[0]["answer"] == d.best  # same best play
        assert choices[0]["equity"] - choices[1]["equity"] >= 0.020  # clear
        played = [c["answer"] for c in choices].index(row.played)
        answer, lost, correct = grade(row, played)
        assert answer == row.played and not correct
        # Graded with the confirming analysis' numbers: still a blunder there.
        assert lost == pytest.approx(row.error, abs=1e-6) and lost >= 0.050
        assert grade(row, 0)[1:] == (0.0, True)
        assert row.choices["plies"] == max(review.plies, puzzles.CONFIRM_PLIES)  # (as run)
        check_menu_and_grade(row)
        assert row.source_player_id == (ALICE.id if d.player == seat else None)  # the computer


def test_nobody_is_served_his_own_blunder(reviewed: tuple[Service, Review, int, int]) -> None:
    service = reviewed[0]
    with service.factory() as s:
        mine = set(s.scalars(select(Puzzle.id).where(Puzzle.source_player_id == ALICE.id)))
        others = set(s.scalars(select(Puzzle.id))) - mine
    assert mine
    served: set[int] = set()
    for _ in range(len(others) + 1):
        reply = service.puzzle(ALICE, CHANNEL)
        if not reply.rows:
            assert "answered them all" in reply.text
            break
        pid = _puzzle_of(service.factory, reply)["id"]
        served.add(pid)
        _answer(service, ALICE, reply, 0)
    assert served == others and not served & mine
    own = service.puzzle(ALICE, CHANNEL, mine=True)  # unless he chose it
    assert _puzzle_of(service.factory, own)["id"] in mine
    carol = service.puzzle(CAROL, CHANNEL)  # anyone else gets them
    assert _puzzle_of(service.factory, carol)["id"] in mine | others


def test_a_player_may_opt_out(service: Service) -> None:
    service.settings_command(ALICE, CHANNEL, puzzles=False)
    reply = service.play(ALICE, CHANNEL, level="expert")
    play_out(service, ALICE, CHANNEL, reply)
    service.review(ALICE, CHANNEL)
    with service.factory() as s:
        mine = list(s.scalars(select(Puzzle).where(Puzzle.source_player_id == ALICE.id)))
    assert mine == []
    assert "None of your own blunders" in service.puzzle(ALICE, CHANNEL, mine=True).text


# -- XGID -----------------------------------------------------------------------------------------

XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"  # the opening, X to play 5-2


def test_play_takes_an_xgid_and_export_writes_them(service: Service) -> None:
    reply = service.play(ALICE, CHANNEL, level="expert", position_id=XGID)
    assert not reply.ephemeral, reply.text
    assert "XGID=" in reply.text  # under the board
    assert not service.move(ALICE, CHANNEL, "13/8 6/4").ephemeral  # X's 5-2 is Alice's
    exported = service.export(ALICE, CHANNEL)
    ids = next(a for a in exported.attachments if a.name.endswith("-ids.txt")).data.decode()
    lines = [line for line in ids.splitlines() if not line.startswith("#")]
    assert lines and all("XGID=" in line for line in lines)
    assert "XGID=" in exported.text


def test_a_bad_xgid_is_refused_clearly(service: Service) -> None:
    reply = service.play(ALICE, CHANNEL, position_id="XGID=-b----E-C:0:0")
    assert reply.ephemeral and "10 fields" in reply.text
    reply = service.play(ALICE, CHANNEL, position_id=XGID, match_id="cIkKAAAAAAAA")
    assert reply.ephemeral and "without a Match ID" in reply.text


# -- PR -------------------------------------------------------------------------------------------


def test_pr_in_review_and_in_stats_with_its_trend(service: Service) -> None:
    from engine.analysis.pr import performance_rating

    prs = []
    for _ in range(2):
        play_out(service, ALICE, CHANNEL, service.play(ALICE, CHANNEL, level="expert"))
        review = service.review(ALICE, CHANNEL)
        assert "PR **" in review.text and "non-obvious decision" in review.text
        with service.factory() as s:
            row = s.scalars(select(GameRow).order_by(GameRow.id.desc())).first()
            assert row is not None and row.review
            seat = row.seat_of(ALICE.id)
            assert seat is not None
            prs.append(performance_rating(Review.from_dict(row.review), seat))
    assert f"PR **{prs[-1].value:.1f}**" in review.text
    counted = [p for p in prs if p.counts_in_trend]
    stats = service.stats(ALICE, CHANNEL)
    if counted:
        assert f"PR over your last {len(counted)} reviewed games long enough to count" in stats.text
    if len(counted) == 2:
        assert any(a.name == "pr.png" for a in stats.attachments) or stats.image


def test_the_sweep_reviews_finished_games_into_puzzles(
    factory: sessionmaker[Session], script: object, clock: object
) -> None:
    """The bot's timer sweep reviews the latest finished game nobody reviewed: every game's
    blunders become puzzles, not only those of games someone asked to review."""
    from bot.service import Settings

    service = Service(factory, settings=Settings(review_finished_games=True))
    play_out(service, ALICE, CHANNEL, service.play(ALICE, CHANNEL, level="expert"))
    with factory() as s:
        row = s.scalars(select(GameRow).order_by(GameRow.id.desc())).first()
        assert row is not None and not row.review
        game_id = row.id
    service.sweep()
    with factory() as s:
        row = s.get(GameRow, game_id)
        assert row is not None and row.review  # cached: /review answers at once
        made = s.scalars(select(Puzzle).where(Puzzle.source_game_id == game_id)).all()
    assert made
    service.sweep()  # nothing left to review: nothing changes
    with factory() as s:
        assert len(s.scalars(select(Puzzle).where(Puzzle.source_game_id == game_id)).all()) == len(
            made
        )


def test_puzzle_pictures_wait_for_no_transaction(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The question, the answer and the position of the day are drawn once their unit of work
    has ended: on SQLite an open write transaction would hold the lock while the picture waits
    for the drawing worker (up to its timeout when the worker hangs)."""
    import bot.service.puzzleview as puzzleview
    from tests.bot.test_daily import MANAGED, daily

    engine = service.factory.kw["bind"]
    open_now = open_transactions(engine)
    seen: list[int] = []

    class Drawer:
        def draw(self, position: object, view: object) -> bytes:
            seen.append(open_now[0])
            return b"picture"

    monkeypatch.setattr(puzzleview, "DRAWERS", Drawer())
    question = service.puzzle(BOB, CHANNEL)
    answer = _answer(service, BOB, question, 0)
    service.daily(ALICE, MANAGED, hour=0, timezone="UTC")
    post = daily(service.sweep())
    assert question.image == answer.image == post[0].reply.image == b"picture"
    assert seen == [0, 0, 0]


@pytest.mark.parametrize(
    ("length", "equity", "said"),
    [
        (0, 1.0, "1. Double (they should pass): +1.000"),
        (0, 0.83, "1. Double (they should take): +0.830"),
        (5, 1.0, "1. Double: +1.000"),  # a match's pass is worth what the score makes it
    ],
)
def test_a_cube_puzzles_answer_says_what_the_double_should_get(
    length: int, equity: float, said: str
) -> None:
    # "Double: +1.000" alone did not tell a learner it was double/pass.
    from types import SimpleNamespace

    from bot.service.puzzleview import answer_lines
    from engine import MatchContext

    choices = [{"answer": "double", "equity": equity}, {"answer": "no double", "equity": 0.71}]
    puzzle: Any = SimpleNamespace(
        kind="cube",
        choices={"choices": choices},
        context=MatchContext(match_length=length).to_dict(),
    )
    lines = answer_lines(puzzle, 1, "en")
    assert lines[1] == said and lines[2].startswith("2. No double: +0.710"), lines

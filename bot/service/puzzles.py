"""``/puzzle``: the blunders of finished games as puzzles, rated with Glicko-2 (issue 18).

A finished game's review (:mod:`bot.service.analysis`) hands its decisions to :meth:`harvest`:
each one that lost at least ``Settings.puzzle_min_error`` is analysed again at the confirming
depth (:data:`CONFIRM_PLIES`) and becomes a puzzle when that analysis confirms it: the same best
answer, clear by 0.020, the played decision still losing the threshold
(:func:`engine.analysis.puzzle.confirmed`); the puzzle keeps that analysis' candidates and
equities. Puzzles are anonymous; a player may opt out (``/settings puzzles:false``).
``/puzzle`` serves one near the player's rating, never one of his own blunders unless he asks
for them (``mine``); the first answer is graded with the puzzle's numbers, rates the player and
the puzzle, and keeps the streak.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from bot import heavy
from bot.i18n import t
from bot.i18n.markdown import escape_code, escape_play
from bot.maths.glicko import Glicko
from bot.service.customid import PuzzleAction
from bot.service.deps import Deps, answers
from bot.service.model import Seat
from bot.service.people import Actor, Prefs, Where
from bot.service.puzzleview import (
    answer_lines,
    answers_of,
    best_picture,
    components,
    dice_of,
    dice_text,
    grade,
    menu_order,
    question_picture,
    question_text,
)
from bot.service.refusal import Refusal
from bot.service.replies import Reply
from db import players as player_repo
from db import puzzles as puzzle_repo
from db.models import Puzzle, PuzzleRating
from engine import BackgammonError, Position, parse_play
from engine.analysis import Review
from engine.analysis.puzzle import review_puzzles

__all__ = ["ANSWER_PICTURE", "Puzzles", "choice_index", "drawn_later"]

log = logging.getLogger(__name__)

ANSWER_PICTURE = "puzzle-answer.png"
"""The name of an answer's picture: an adapter knows by it that the puzzle was answered (its
menu stays, to see the other answers, but stray text is no longer an answer to it)."""

CONFIRM_PLIES = 3
"""A reviewed decision becomes a puzzle only when an analysis at this depth (bgsage's numbering:
GNU Backgammon's 2-ply "world class", the starter set's depth too) finds the same best answer,
clearly, with the played decision still losing the threshold
(:func:`engine.analysis.puzzle.confirmed`); the puzzle keeps that analysis' equities."""


def drawn_later(
    draw: Callable[[Puzzle, str], bytes | None], puzzle: Puzzle, lang: str
) -> Callable[[Reply], None]:
    """The puzzle's picture, drawn once the action's unit of work has ended (:attr:`Reply.later`):
    on SQLite a write transaction (the rating, the day's claim) would hold the lock while the
    picture waits for the drawing worker. The puzzle row stays readable after its commit
    (expire_on_commit=False)."""

    def picture(reply: Reply) -> None:
        reply.image = draw(puzzle, lang)

    return picture


def choice_index(puzzle: Puzzle, action: PuzzleAction, value: str | None) -> int:
    """The candidate a press chose: a button's index, or the menu's value (the answer)."""
    choices = answers_of(puzzle)
    if action.arg == "m":
        names = [str(c["answer"]) for c in choices]
        if value is None or not value.strip():
            raise Refusal("puzzle.bad_answer")
        if value.strip() in names:
            return names.index(value.strip())
        return _play_index(puzzle, names, value.strip())
    index = int(action.arg)
    if not 0 <= index < len(choices):
        raise Refusal("puzzle.bad_answer")
    return index


def _play_index(puzzle: Puzzle, names: list[str], typed: str) -> int:
    """The menu's play that ``typed`` writes in any notation the engine reads (``25/24`` for
    ``bar/24``, another order, ``*`` left out); else refused with the menu's plays, in the
    menu's order (``names`` are best first: listed so, they would give the answer away)."""
    position, dice = Position.from_position_id(puzzle.position_id), dice_of(puzzle)
    wanted = _parsed(typed, position, dice)
    for index, name in enumerate(names):
        if wanted is not None and _parsed(name, position, dice) == wanted:
            return index
    plays = " | ".join(escape_play(names[k]) for k in menu_order(puzzle))
    raise Refusal("puzzle.bad_play", typed=escape_code(typed), plays=plays)


def _parsed(text: str, position: Position, dice: tuple[int, int] | None) -> str | None:
    if dice is None:
        return None
    try:
        return str(parse_play(text, position, dice))
    except BackgammonError:
        return None


class Puzzles:
    """``/puzzle``, its answers, the puzzle leaderboard, and making puzzles of reviews."""

    def __init__(self, deps: Deps, rng: random.Random | None = None) -> None:
        self.deps = deps
        self.rng = rng or random.Random()

    @answers
    def puzzle(self, actor: Actor, where: Where, mine: bool = False) -> Reply:
        """``/puzzle [mine]``: a puzzle near the player's puzzle rating."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            row = puzzle_repo.puzzle_rating(s, actor.id)
            me = _glicko(row)
            puzzle = puzzle_repo.pick_puzzle(s, actor.id, me.rating, own=mine, rng=self.rng)
            if puzzle is None:
                raise Refusal("puzzle.none_mine" if mine else "puzzle.none")
            text = t(
                "puzzle.question_cube" if puzzle.kind == "cube" else "puzzle.question",
                lang,
                number=puzzle.id,
                dice=dice_text(puzzle),
                rating=me.shown(),
                puzzle_rating=_glicko_of_puzzle(puzzle).shown(),
                xgid=puzzle.xgid,
            )
            rows = components(puzzle, puzzle.id, lang, daily=False)
            ids = (puzzle.position_id, puzzle.match_id)
        return Reply(
            text=text,
            later=drawn_later(question_picture, puzzle, lang),
            image_name="puzzle.png",
            board_text=question_text(puzzle, lang),
            rows=rows,
            ephemeral=True,
            position_id=ids[0],
            match_id=ids[1],
        )

    @answers
    def answer(self, actor: Actor, where: Where, action: PuzzleAction, value: str | None) -> Reply:
        """An answer to ``/puzzle``: graded, rated once (a second answer is only shown)."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            puzzle = puzzle_repo.get_puzzle(s, action.id)
            if puzzle is None:
                raise Refusal("puzzle.gone")
            index = choice_index(puzzle, action, value)
            answer, lost, correct = grade(puzzle, index)
            first = puzzle_repo.record_attempt(
                s,
                player_id=actor.id,
                puzzle_id=puzzle.id,
                guild_id=where.guild_id,
                answer=answer,
                lost=lost,
                correct=correct,
                created_at=self.deps.clock(),
            )
            lines = answer_lines(puzzle, index, lang)
            lines.append(
                self._rate(s, actor, puzzle, correct, lang) if first else t("puzzle.again", lang)
            )
        return Reply(
            text="\n".join(lines),
            later=drawn_later(best_picture, puzzle, lang),
            image_name=ANSWER_PICTURE,
            ephemeral=True,
        )

    def _rate(self, s: Session, actor: Actor, puzzle: Puzzle, correct: bool, lang: str) -> str:
        """Rate the player and the puzzle (one game between them) and keep the streak."""
        row = puzzle_repo.puzzle_rating(s, actor.id, lock=True) or _new_rating(actor.id)
        me, it = _glicko(row), _glicko_of_puzzle(puzzle)
        score = 1.0 if correct else 0.0
        new_me = me.updated([(it, score)]).bounded()
        new_it = it.updated([(me, 1.0 - score)]).bounded()
        puzzle_repo.rate_answer(
            s,
            row,
            puzzle,
            player=(new_me.rating, new_me.rd, new_me.volatility),
            of_puzzle=(new_it.rating, new_it.rd, new_it.volatility),
            correct=correct,
            now=self.deps.clock(),
        )
        return t(
            "puzzle.rated",
            lang,
            rating=new_me.shown(),
            change=f"{new_me.rating - me.rating:+.0f}",
            streak=row.streak,
            best=row.best_streak,
        )

    @answers
    def puzzle_leaderboard(self, actor: Actor, where: Where) -> Reply:
        """``/puzzle_leaderboard``: this server's best puzzle ratings."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            if where.guild_id is None:
                raise Refusal("puzzle.guild_only")
            rows = puzzle_repo.leaderboard(s, where.guild_id)
            lines = [t("puzzle.board_title", lang)]
            for rank, (name, r) in enumerate(rows, start=1):
                lines.append(
                    t(
                        "puzzle.board_line",
                        lang,
                        rank=rank,
                        name=name,
                        rating=_glicko(r).shown(),
                        solved=r.solved,
                        attempts=r.attempts,
                        streak=r.best_streak,
                    )
                )
        if not rows:
            lines.append(t("puzzle.board_empty", lang))
        return Reply(text="\n".join(lines))

    # -- making puzzles of reviews ----------------------------------------------------------

    def harvest(self, game_id: int, seats: tuple[Seat, Seat], review: Review) -> int:
        """Store the puzzles of a reviewed game (its players' blunders, unless they opted out);
        returns how many are new. Never raises: puzzles are a by-product of the review."""
        try:
            return self._harvest(game_id, seats, review)
        except Exception:
            log.exception("making puzzles of game %s failed", game_id)
            return 0

    def _harvest(self, game_id: int, seats: tuple[Seat, Seat], review: Review) -> int:
        threshold = self.deps.settings.puzzle_min_error
        # Confirmed at depth (a worker process when the bot runs them, as the review).
        confirm = max(review.plies, CONFIRM_PLIES)
        found = heavy.POOLS.analyse(review_puzzles, review, threshold, confirm)
        stored = 0
        with self.deps.unit() as s:
            contributes = {i: self._contributes(s, seat) for i, seat in enumerate(seats)}
            for player, record in found:
                if not contributes[player]:
                    continue
                if puzzle_repo.add_puzzle(
                    s, **_row(record, game_id, seats[player].user_id, record["plies"])
                ):
                    stored += 1
        return stored

    @staticmethod
    def _contributes(s: Session, seat: Seat) -> bool:
        if seat.user_id is None:
            return True  # the computer's blunders are puzzles too
        row = player_repo.get_player(s, seat.user_id)
        return Prefs.from_json(row.preferences if row else None).puzzles


def _row(record: dict[str, Any], game_id: int, player_id: int | None, plies: int) -> dict[str, Any]:
    dice = record["dice"]
    return {
        "key": f"{record['position_id']}:{record['match_id']}:{record['decision']}",
        "kind": record["kind"],
        "decision": record["decision"],
        "position_id": record["position_id"],
        "match_id": record["match_id"],
        "xgid": record["xgid"],
        "dice": f"{dice[0]}-{dice[1]}" if dice else None,
        "context": record["context"],
        "played": record["played"],
        "choices": {"choices": record["choices"], "plies": plies},
        "error": record["error"],
        "source_game_id": game_id,
        "source_player_id": player_id,
        "rating": 1500.0,
        "rd": 350.0,
        "volatility": 0.06,
        "attempts": 0,
    }


def _glicko(row: PuzzleRating | None) -> Glicko:
    return Glicko() if row is None else Glicko(row.rating, row.rd, row.volatility)


def _glicko_of_puzzle(puzzle: Puzzle) -> Glicko:
    return Glicko(puzzle.rating, puzzle.rd, puzzle.volatility)


def _new_rating(player_id: int) -> PuzzleRating:
    new = Glicko()
    return PuzzleRating(
        player_id=player_id,
        rating=new.rating,
        rd=new.rd,
        volatility=new.volatility,
        solved=0,
        attempts=0,
        streak=0,
        best_streak=0,
    )

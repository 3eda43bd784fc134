"""How a puzzle looks: the question (a board with the dice or the cube on offer, and the menu of
answers), and the answer (the equity lost, the top plays with their equities, the best play as
arrows). Shared by ``/puzzle`` and the position of the day."""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from typing import Any

from bot.drawers import DRAWERS
from bot.i18n import number, t
from bot.i18n.markdown import escape_play
from bot.service.customid import PuzzleAction
from bot.service.replies import Button, Choice, Component, Select
from db.models import Puzzle
from engine import Move, Play, Position
from engine.context import MatchContext
from render import BoardView, text_board

__all__ = [
    "answer_label",
    "answer_lines",
    "answers_of",
    "best_picture",
    "components",
    "dice_text",
    "grade",
    "menu_order",
    "question_picture",
    "question_text",
]

log = logging.getLogger(__name__)

CUBE_LABELS = {
    "double": "puzzle.double",
    "no double": "puzzle.no_double",
    "take": "puzzle.take",
    "pass": "puzzle.pass",
}


def answers_of(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The candidates, best first (the review's analysis)."""
    return list(puzzle.choices["choices"])


def grade(puzzle: Puzzle, index: int) -> tuple[str, float, bool]:
    """The answer ``index``, the equity it loses against the best one and whether it is the best:
    the review's own numbers, so a puzzle is graded as the review graded the decision."""
    choices = answers_of(puzzle)
    chosen = choices[index]
    lost = round(float(choices[0]["equity"]) - float(chosen["equity"]), 6)
    return str(chosen["answer"]), max(0.0, lost), index == 0


def menu_order(puzzle: Puzzle) -> list[int]:
    """The candidates' indexes in the order the puzzle offers them: shuffled, the same way each
    time, so that neither the menu nor a refusal listing the answers gives away the best one
    (the candidates are stored best first)."""
    order = list(range(len(answers_of(puzzle))))
    random.Random(f"puzzle/{puzzle.id}").shuffle(order)
    return order


def components(
    puzzle: Puzzle, action_id: int, lang: str, *, daily: bool, drill: bool = False
) -> list[list[Component]]:
    """The answers: two buttons for a cube decision, else a menu of the candidate plays (the best
    ones and the blunder played), shuffled the same way each time the puzzle is shown (``drill``:
    ``action_id`` is a drill card's)."""
    choices = answers_of(puzzle)
    order = menu_order(puzzle)
    if puzzle.kind == "cube":
        return [
            [
                Button(
                    PuzzleAction(action_id, str(k), daily, drill).custom_id,
                    t(CUBE_LABELS[str(choices[k]["answer"])], lang),
                    "primary",
                )
                for k in order
            ]
        ]
    menu = Select(
        PuzzleAction(action_id, "m", daily, drill).custom_id,
        t("puzzle.pick", lang),
        tuple(Choice(str(choices[k]["answer"]), str(choices[k]["answer"])) for k in order),
    )
    return [[menu]]


def answer_lines(puzzle: Puzzle, index: int, lang: str) -> list[str]:
    """The verdict, the equity lost and the candidates with their equities."""
    answer, lost, correct = grade(puzzle, index)
    choices = answers_of(puzzle)
    best = str(choices[0]["answer"])
    lines = [
        t("puzzle.right", lang, answer=answer_label(puzzle, answer, lang))
        if correct
        else t(
            "puzzle.wrong",
            lang,
            answer=answer_label(puzzle, answer, lang),
            best=answer_label(puzzle, best, lang),
            lost=float(lost),
        )
    ]
    for rank, choice in enumerate(choices, start=1):
        equity = float(choice["equity"])
        # Of the figures shown (rounded first), so that they subtract as read.
        behind = round(equity, 3) - round(float(choices[0]["equity"]), 3)
        diff = "" if rank == 1 else f" ({number(behind, '+.3f', lang)})"
        answer = _double_label(puzzle, choice, lang) or answer_label(
            puzzle, str(choice["answer"]), lang
        )
        lines.append(t("puzzle.line", lang, rank=rank, answer=answer, equity=equity, diff=diff))
    return lines


def _double_label(puzzle: Puzzle, choice: dict[str, Any], lang: str) -> str | None:
    """A money puzzle's double, with the answer it should get: its equity is the lower of a
    take's and a pass's, and a pass is worth exactly +1 in money play (in a match a pass's
    worth depends on the score, so nothing is said there). None for any other answer."""
    if choice["answer"] != "double" or context_of(puzzle).match_length:
        return None
    passed = abs(float(choice["equity"]) - 1.0) < 0.0005
    return t("puzzle.double_pass" if passed else "puzzle.double_take", lang)


def answer_label(puzzle: Puzzle, answer: str, lang: str) -> str:
    """An answer as a message writes it: a cube action in words, a play in the notation of the
    menu (the engine's, ``*`` for a hit), kept whole in markdown."""
    return t(CUBE_LABELS[answer], lang) if puzzle.kind == "cube" else escape_play(answer)


def context_of(puzzle: Puzzle) -> MatchContext:
    return MatchContext.from_dict(puzzle.context)


def dice_text(puzzle: Puzzle) -> str:
    """The roll as players read it, the higher die first (``4-3``, never ``3-4``)."""
    dice = dice_of(puzzle)
    return f"{max(dice)}-{min(dice)}" if dice else ""


def dice_of(puzzle: Puzzle) -> tuple[int, int] | None:
    if not puzzle.dice:
        return None
    a, b = puzzle.dice.split("-")
    return int(a), int(b)


def _question_view(puzzle: Puzzle, lang: str) -> BoardView:
    """How the position to judge is shown: the dice of a checker play, or the cube (offered
    for a take), with the match's score and cube."""
    offered = puzzle.decision in ("take", "drop")
    return BoardView(
        names=_names(lang, taker=offered),
        dice=dice_of(puzzle),
        context=context_of(puzzle),
        double_offered_by="mover" if offered else None,
        viewpoint="opponent" if offered else "mover",
        caption=(puzzle.xgid,),
        lang=lang,
    )


def question_picture(puzzle: Puzzle, lang: str) -> bytes | None:
    """The position to judge, drawn (see :func:`_question_view`)."""
    return _draw(Position.from_position_id(puzzle.position_id), _question_view(puzzle, lang))


def question_text(puzzle: Puzzle, lang: str) -> str:
    """The same as monospace text (the terminal's board: it showed only the XGID and the
    picture's file), the score and the cube beside it; the XGID is in the message."""
    view = replace(_question_view(puzzle, lang), caption=())
    return text_board(Position.from_position_id(puzzle.position_id), view=view)


def best_picture(puzzle: Puzzle, lang: str) -> bytes | None:
    """The best play drawn as arrows (a cube puzzle: the position again)."""
    choices = answers_of(puzzle)
    if puzzle.kind == "cube":
        return question_picture(puzzle, lang)
    best = Play(tuple(Move(int(a), int(b), int(c), bool(h)) for a, b, c, h in choices[0]["steps"]))
    after = Position.from_position_id(puzzle.position_id).apply(best).swap_players()
    view = BoardView(
        names=_names(lang, taker=False),
        dice=dice_of(puzzle),
        dice_left=(),
        context=context_of(puzzle),
        last_play=best,
        last_play_by="mover",
        caption=(t("puzzle.best_caption", lang, play=str(best)),),
        turn_marker=False,
        lang=lang,
    )
    return _draw(after, view)


def _names(lang: str, *, taker: bool) -> tuple[str, str]:
    you, them = t("puzzle.you", lang), t("puzzle.opponent", lang)
    return (them, you) if taker else (you, them)


def _draw(position: Position, view: BoardView) -> bytes | None:
    try:
        return DRAWERS.draw(position, view)
    except ValueError:
        log.exception("drawing a puzzle failed")
        return None

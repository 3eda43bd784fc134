"""What a ladder looks like: its rules in one line, its picture (the rungs, who may challenge
whom, the challenges being played, the latest results) in the reader's language, and the
server's list of ladders."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from bot.i18n import t
from bot.ladders.rules import targets
from bot.service.customid import LadderAction, LadderPress
from bot.service.refusal import aware
from bot.service.replies import Button, Component, Reply, Style
from bot.service.variants import variant_text
from db.models import Ladder, LadderChallenge, LadderStatus
from engine import Variant
from render.ladder import MAX_ROWS, LadderPicture, LadderRow, render_ladder

__all__ = ["Board", "ladder_reply", "list_text", "rules_text", "title_text", "when"]


@dataclass
class Board:
    """A ladder as read for showing it: its rungs (player ids, top first), the names, the
    challenges being played and the latest results (newest first)."""

    ladder: Ladder
    rungs: tuple[int, ...]
    names: Mapping[int, str]
    playing: Sequence[LadderChallenge] = ()
    recent: Sequence[LadderChallenge] = ()
    extra: list[str] = field(default_factory=list)
    now: datetime | None = None  # for the hours left to play a challenge

    def name(self, player: int) -> str:
        return self.names.get(player, "?")


def when(moment: datetime) -> str:
    """A deadline as Discord and the terminal both read it: ``2026-12-06 18:00 UTC``."""
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def rules_text(ladder: Ladder, lang: str) -> str:
    """The ladder's rules in one line."""
    if ladder.match_length:
        length = t("ladder.rules.length", lang, points=ladder.match_length)
    else:
        length = t("ladder.rules.money", lang)
    parts = [
        length,
        *_variant_part(ladder, lang),
        t("ladder.rules.cube_on" if ladder.cube else "ladder.rules.cube_off", lang),
        t("ladder.rules.rated" if ladder.rated else "ladder.rules.unrated", lang),
        t("ladder.rules.reach", lang, reach=ladder.reach),
        t("ladder.rules.deadline", lang, hours=ladder.deadline_hours),
    ]
    if ladder.inactive_days:
        parts.append(t("ladder.rules.inactive", lang, days=ladder.inactive_days))
    return " · ".join(parts)


def _variant_part(ladder: Ladder, lang: str) -> list[str]:
    """The ladder's variant, named unless it is the standard game (which says nothing more)."""
    if not ladder.variant or ladder.variant == Variant.STANDARD.value:
        return []
    return [variant_text(ladder.variant, lang)]


def title_text(ladder: Ladder, lang: str) -> str:
    """*Club ladder, season 2*, with its variant after it unless it is the standard game."""
    title = t("ladder.title", lang, name=ladder.name, season=ladder.season)
    variant = _variant_part(ladder, lang)
    return t("game.kind_variant", lang, kind=title, variant=variant[0]) if variant else title


def ladder_reply(board: Board, lang: str, *, viewer: int | None = None, text: str = "") -> Reply:
    """The ladder's picture with a line of text (``text``, else its title). The picture is drawn
    once the action has committed (:attr:`Reply.later`)."""
    ladder = board.ladder
    title = title_text(ladder, lang)
    picture = LadderPicture(
        title=title,
        subtitle=rules_text(ladder, lang),
        rows=_rows(board, lang, viewer),
        results_title=t("ladder.picture.results", lang),
        results=tuple(_result_line(board, c, lang) for c in board.recent),
        empty=t("ladder.picture.empty", lang),
    )
    status = t(f"ladder.status.{ladder.status}", lang, id=ladder.id)
    lines = [text or f"🪜 **{title}**", status, *board.extra]

    def draw(reply: Reply, pic: LadderPicture) -> None:
        reply.image = render_ladder(pic)

    rows: list[list[Component]] = []
    if ladder.status is LadderStatus.OPEN:
        rows.append([_button(ladder.id, press, lang) for press in LadderPress])
    later = partial(draw, pic=picture)
    return Reply(text="\n".join(lines), image_name="ladder.png", rows=rows, later=later)


def _button(ladder: int, press: LadderPress, lang: str) -> Button:
    """A ladder's button (:class:`~bot.service.customid.LadderAction`)."""
    style: Style = "success" if press is LadderPress.JOIN else "secondary"
    label = t(f"button.ladder_{press}", lang)
    return Button(LadderAction(ladder, press).custom_id, label, style)


def _rows(board: Board, lang: str, viewer: int | None) -> tuple[LadderRow, ...]:
    rungs = board.rungs
    shown = _shown(rungs, viewer)
    busy = {c.challenger_id: c for c in board.playing} | {c.defender_id: c for c in board.playing}
    out: list[LadderRow] = []
    for index in shown:
        if index < 0:
            out.append(LadderRow(0, "", ""))
            continue
        player = rungs[index]
        challenge = busy.get(player)
        if challenge is not None:
            other = board.name(challenge.other(player))
            short = other if len(other) <= 11 else other[:10].rstrip() + "…"
            note = t(
                "ladder.picture.playing", lang, name=short, hours=_hours_left(board, challenge)
            )
        else:
            note = _reach_note(board, player, lang)
        row = LadderRow(index + 1, board.name(player), note, busy=challenge is not None,
                        top=index == 0, highlight=player == viewer)  # fmt: skip
        out.append(row)
    return tuple(out)


def _hours_left(board: Board, challenge: LadderChallenge) -> int:
    """Whole hours left to play ``challenge`` (rounded up; 0 once past)."""
    if board.now is None:
        return 0
    left = aware(challenge.deadline) - board.now
    return max(0, -int(-left.total_seconds() // 3600))


def _reach_note(board: Board, player: int, lang: str) -> str:
    """Whom he may challenge: ``may challenge rungs 2-4``."""
    if board.ladder.status is LadderStatus.CLOSED:
        return ""
    above = targets(board.rungs, player, board.ladder.reach)
    if not above:
        return t("ladder.picture.top", lang) if board.rungs[:1] == (player,) else ""
    low = board.rungs.index(above[-1]) + 1
    high = board.rungs.index(above[0]) + 1
    if low == high:
        return t("ladder.picture.reach_one", lang, rung=low)
    return t("ladder.picture.reach", lang, low=low, high=high)


def _shown(rungs: tuple[int, ...], viewer: int | None) -> list[int]:
    """The indexes of the rungs to draw: all that fit; else the top and the viewer's
    neighbourhood, -1 marking the rungs left out."""
    if len(rungs) <= MAX_ROWS:
        return list(range(len(rungs)))
    mine = rungs.index(viewer) if viewer in rungs else -1
    if mine < MAX_ROWS - 1:
        return [*range(MAX_ROWS - 1), -1]
    around = list(range(mine - 5, min(len(rungs), mine + 6)))
    below = [-1] if around[-1] < len(rungs) - 1 else []
    return [*range(MAX_ROWS - len(around) - 1 - len(below)), -1, *around, *below]


def _result_line(board: Board, c: LadderChallenge, lang: str) -> str:
    winner = c.winner_id or 0
    loser = c.defender_id if winner == c.challenger_id else c.challenger_id
    key = "ladder.result.forfeit" if c.forfeit else "ladder.result.won"
    line = t(key, lang, winner=board.name(winner), loser=board.name(loser))
    if winner == c.challenger_id and c.to_rung is not None:
        line += " " + t("ladder.result.climbs", lang, rung=c.to_rung)
    else:
        line += " " + t("ladder.result.holds", lang)
    return line


def list_text(ladders: Sequence[Ladder], lang: str) -> str:
    """The server's ladders, newest first, one line each."""
    if not ladders:
        return t("ladder.list_empty", lang)
    lines = [t("ladder.list_title", lang)]
    for ladder in ladders:
        status = t(f"ladder.list_status.{ladder.status}", lang)
        lines.append(t("ladder.list_line", lang, id=ladder.id, name=ladder.name,
                       season=ladder.season, status=status))  # fmt: skip
    return "\n".join(lines)

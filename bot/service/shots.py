"""Plays nobody chose on screen, drawn before the player decides anything (issue 15.2).

One reply can hold several plays made by themselves: the computer's, a forced move the bot
played for its player, the computer's again after it... Each is drawn as arrows on the board as
that play left it, with a caption saying who played what ("2/3 · Computer played 6-5: bar/20*
17/11"). The last one, when the board has not moved since (a pass, a double or a result move no
checker), is the game message's own picture; the others are extra pictures.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.drawers import DRAWERS
from bot.i18n import t
from bot.service.model import Shot, Table, high_first
from bot.service.replies import Attachment
from engine import EventKind, Move
from render import THEMES, BoardView

__all__ = ["COLORS", "MAX_SHOTS", "Shots", "checker_colors"]

log = logging.getLogger(__name__)

COLORS = ("white", "black")  # by seat, unless the theme has its own checker colours
MAX_SHOTS = 9  # Discord takes ten files with the board; older plays stay in the text


def checker_colors(viewer: int, mover: int, theme: str) -> tuple[str, str]:
    """(mover, opponent) checker colours: by seat, or with a theme that has its own (the
    red-and-black one), its first colour for the player looking and the second for the other."""
    chosen = THEMES[theme].checkers if theme in THEMES else None
    if chosen is None:
        return COLORS[mover], COLORS[1 - mover]
    by_seat = (chosen[0], chosen[1]) if viewer == 0 else (chosen[1], chosen[0])
    return by_seat[mover], by_seat[1 - mover]


class Shots:
    """The plays of one reply made by themselves, as seen by ``viewer``."""

    def __init__(
        self,
        table: Table,
        viewer: int,
        lang: str,
        plays: Sequence[Shot],
        *,
        mirrored: bool,
        theme: str,
    ) -> None:
        self.table, self.viewer, self.lang = table, viewer, lang
        self.mirrored, self.theme = mirrored, theme
        self.plays = list(plays)
        game = table.game
        last = self.plays[-1] if self.plays else None
        # The board still stands as the last play left it: the game's own picture draws it.
        moved = [e for e in game.events if e.kind is EventKind.MOVE and e.steps]
        self.on_board = (
            last is not None
            and bool(moved)
            and moved[-1] == last.event
            and game.position_for(last.game.on_roll) == last.game.position
        )

    def caption(self, n: int) -> tuple[str, ...]:
        """Who played what, numbered when there are several (``n`` counts from 1)."""
        shot = self.plays[n - 1]
        event = shot.event
        assert event.dice is not None
        name = self.table.seats[event.player].name
        key = "caption.forced" if shot.forced else "caption.played"
        line = t(key, self.lang, name=name, **high_first(event.dice), play=event.play)
        if len(self.plays) > 1:
            line = t("caption.numbered", self.lang, n=n, total=len(self.plays), line=line)
        return (line,)

    def main_caption(self) -> tuple[str, ...]:
        """The caption of the game message's own picture: the last play, if it shows it."""
        return self.caption(len(self.plays)) if self.on_board else ()

    def pictures(self) -> list[Attachment]:
        """One picture for each play the game message's picture does not show, oldest first."""
        extra = self.plays[:-1] if self.on_board else self.plays
        first = len(extra) - min(len(extra), MAX_SHOTS)
        out: list[Attachment] = []
        for n in range(first + 1, len(extra) + 1):
            png = self._draw(n)
            if png is not None:
                out.append(Attachment(f"{self._prefix()}play-{n}.png", png))
        return out

    def _prefix(self) -> str:
        """``game-12-``: the pictures of a game carry its number (``game-12-play-1.png``), as
        the review's do, so that files of several games never mix up."""
        return f"game-{self.table.game_id}-" if self.table.game_id else ""

    def _draw(self, n: int) -> bytes | None:
        shot = self.plays[n - 1]
        game = shot.game
        mover = game.on_roll
        seats = self.table.seats
        view = BoardView(
            viewpoint="mover" if self.viewer == mover else "opponent",
            mirrored=self.mirrored,
            theme=self.theme,
            names=(seats[mover].name, seats[1 - mover].name),
            colors=checker_colors(self.viewer, mover, self.theme),
            context=game.context(mover),
            cube=game.cube_enabled,
            last_play=[Move(*s) for s in shot.event.steps],
            last_play_by="mover" if shot.event.player == mover else "opponent",
            caption=self.caption(n),
            turn_marker=False,
            lang=self.lang,
        )
        try:
            return DRAWERS.draw(game.position, view)
        except Exception:  # a picture must never cost the player his reply
            log.exception("drawing play %s of game %s failed", n, self.table.game_id)
            return None

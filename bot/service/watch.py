"""Spectators: ``/watch`` shows anyone the current board of a game (given by its number, one of
its players, or the game of this channel or thread) with a Refresh button and no button that
acts; Refresh draws it again, whatever happened since. A spectator pressing a button of the
game itself is refused in :mod:`bot.service.buttons`."""

from __future__ import annotations

from sqlalchemy.orm import Session

from bot.i18n import t
from bot.service.actions import ACTIONS
from bot.service.customid import GameAction, Press
from bot.service.deps import Deps, answers
from bot.service.model import Notes
from bot.service.people import Actor, Where
from bot.service.present import board_reply
from bot.service.refusal import Refusal, check_game_id
from bot.service.replies import Button, Reply
from bot.service.tables import load_table, localized
from db import games as game_repo
from db import together as together_repo
from db.models import Game as GameRow
from db.models import GameStatus

__all__ = ["Watching"]


class Watching:
    """``/watch`` and its Refresh button."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    @answers
    def watch(
        self,
        actor: Actor,
        where: Where,
        *,
        game_id: int | None = None,
        user: Actor | None = None,
    ) -> Reply:
        """``/watch [game] [player]``: the board of a game, for anyone, with a Refresh button."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            row = self._watched(s, where, game_id, user)
            if row.guild_id is None and row.seat_of(actor.id) is None:
                raise Refusal("watch.private", id=row.id)  # a game in someone's DMs
            return self._view(s, row, who.lang)

    @answers
    def refresh(self, actor: Actor, where: Where, action: GameAction) -> Reply:
        """Refresh: the watched board as it is now (the message is edited)."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            reply = self._view(s, game_repo.get_game(s, action.game_id), who.lang)
        reply.edit, reply.ephemeral = True, False  # edits the (private) /watch message
        return reply

    @staticmethod
    def _watched(s: Session, where: Where, game_id: int | None, user: Actor | None) -> GameRow:
        if game_id is not None:
            return game_repo.get_game(s, check_game_id(game_id))
        if user is not None:
            games = together_repo.player_active_games(s, user.id)
            if not games:
                raise Refusal("watch.no_game_of", name=user.name)
            here = [g for g in games if g.channel_id == where.channel_id]
            return (here or sorted(games, key=lambda g: -g.id))[0]
        row = game_repo.active_game_in_channel(s, where.channel_id)
        if row is None:
            raise Refusal("watch.which")
        return row

    def _view(self, s: Session, row: GameRow, lang: str) -> Reply:
        table = localized(load_table(self.deps, s, row), lang)
        reply = board_reply(table, lang, Notes(), later=True)  # drawn once the unit has ended
        reply.text = t("watch.header", lang, id=row.id) + "\n" + reply.text
        reply.text += self.deps.web_line(row.id, lang)  # the page anyone may watch
        reply.ping, reply.mentions, reply.ephemeral = None, (), True
        reply.rows = []
        if row.status is GameStatus.ACTIVE:
            refresh = GameAction(row.id, row.version, Press.REFRESH).custom_id
            label = ACTIONS[Press.REFRESH].label or "button.refresh"
            reply.rows = [[Button(refresh, t(label, lang), ACTIONS[Press.REFRESH].style)]]
        return reply

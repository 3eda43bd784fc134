""" "Your turn" notices: a player who asks for them (``/settings notify:on``) gets a direct
message with the board and a link to the game when a game between people waits for him, at
most one per game and turn, never during his quiet hours (it comes when they end, if the game
still waits for him), never for a finished game.

A turn between people is one deadline of the move timer (:func:`bot.service.turns.save` sets a
new one exactly when the decision passes to the other player), so the notice of a turn is
claimed by storing that deadline in the game row with an atomic ``UPDATE``
(:func:`db.together.claim_turn_notice`): several processes, restarts and repeated sweeps send
it once. The move timers and claims are unchanged (:mod:`bot.service.timers`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.i18n import t
from bot.service.deps import Deps
from bot.service.model import Notes, Table
from bot.service.people import Prefs
from bot.service.present import board_reply
from bot.service.refusal import aware
from bot.service.replies import Reply
from bot.service.tables import load_table, localized, seat_names
from bot.service.threads import game_link
from db import games as game_repo
from db import players as player_repo
from db import together as together_repo
from db.models import Game as GameRow
from db.models import GameStatus

__all__ = ["DirectNotice", "TurnNotices", "in_quiet_hours"]


@dataclass(frozen=True)
class DirectNotice:
    """A direct message for ``user_id`` about a game (the adapter sends it)."""

    user_id: int
    game_id: int
    deadline: datetime
    reply: Reply


def in_quiet_hours(prefs: Prefs, now: datetime) -> bool:
    """Whether ``now`` falls in the player's quiet hours, in his time zone."""
    if prefs.quiet is None:
        return False
    hour = now.astimezone(ZoneInfo(prefs.timezone or "UTC")).hour
    start, end = prefs.quiet
    if start < end:
        return start <= hour < end
    return hour >= start or hour < end  # over midnight: 22-08


class TurnNotices:
    """The sweep of turn notices due."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def turn_notices(self, now: datetime | None = None, *, limit: int = 200) -> list[DirectNotice]:
        """The notices to send now, each already claimed (sent by nobody else)."""
        now = now or self.deps.clock()
        with self.deps.unit() as s:
            waiting = [
                (row.id, aware(row.deadline))
                for row in together_repo.games_waiting_notice(s, limit=limit)
                if row.deadline is not None
            ]
        notices = [self._one(game_id, deadline, now) for game_id, deadline in waiting]
        return [n for n in notices if n is not None]

    def _one(self, game_id: int, deadline: datetime, now: datetime) -> DirectNotice | None:
        with self.deps.unit() as s:
            row = game_repo.get_game(s, game_id)
            user_id = row.player_id(row.turn) if row.turn is not None else None
            if row.status is not GameStatus.ACTIVE or user_id is None:
                return None
            player = player_repo.get_player(s, user_id)
            prefs = Prefs.from_json(player.preferences if player else None)
            if prefs.notify and in_quiet_hours(prefs, now):
                return None  # later, when his quiet hours end, if the game still waits
            if not together_repo.claim_turn_notice(s, game_id, deadline) or not prefs.notify:
                return None  # noticed already, or he asked for no notices: this turn is done
            lang = prefs.lang or "en"
            table = load_table(self.deps, s, row)
        # Drawn once the claim is committed: no write lock held while the picture is drawn.
        return DirectNotice(user_id, game_id, deadline, self._reply(table, row, user_id, lang))

    @staticmethod
    def _reply(table: Table, row: GameRow, user_id: int, lang: str) -> Reply:
        table = localized(table, lang)
        seat = table.seat_of(user_id)
        assert seat is not None
        names = seat_names(table, lang)
        link = game_link(row.guild_id, row.channel_id, row.board_message_id) or ""
        reply = board_reply(table, lang, Notes(), acting=seat, with_image=True)
        text = t("notice.your_turn", lang, id=row.id, opponent=names[1 - seat], link=link)
        return Reply(text=text, image=reply.image, game_id=row.id)

    def still_waiting(self, game_id: int, user_id: int, deadline: datetime) -> bool:
        """Whether the game still waits for this player in the turn noticed (checked just
        before the message goes out: a notice for a finished game is never sent)."""
        with self.deps.unit() as s:
            row = game_repo.get_game(s, game_id)
            return (
                row.status is GameStatus.ACTIVE
                and row.deadline is not None
                and aware(row.deadline) == deadline
                and row.turn is not None
                and row.player_id(row.turn) == user_id
            )

"""``/games``: every active game and pending challenge of the player, in every server and DM:
the opponent, the score, whose turn it is, the deadline and a link to the game, a page at a
time (Previous / Next), privately."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from bot.i18n import t
from bot.service.customid import PageAction
from bot.service.deps import Deps, answers
from bot.service.people import Actor, Prefs, Where
from bot.service.refusal import aware
from bot.service.replies import Button, Component, Reply
from bot.service.tables import load_table, seat_names
from bot.service.threads import game_link
from bot.service.variants import kind_text, variant_text
from db import players as player_repo
from db import together as together_repo
from db.models import Challenge
from db.models import Game as GameRow

__all__ = ["PAGE_SIZE", "Dashboard", "when"]

PAGE_SIZE = 5


def when(moment: datetime, prefs: Prefs) -> str:
    """A date and time in the player's time zone (UTC by default), the zone named."""
    zone = prefs.timezone or "UTC"
    return moment.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M ") + zone


class Dashboard:
    """``/games`` and its pages."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    @answers
    def games(self, actor: Actor, where: Where, *, page: int = 1) -> Reply:
        """``/games``: the player's games and challenges, first page."""
        return self._page(actor, page)

    @answers
    def turn_page(self, actor: Actor, where: Where, action: PageAction) -> Reply:
        """Previous / Next: another page (the private message is edited)."""
        reply = self._page(actor, action.page)
        reply.edit, reply.ephemeral = True, False
        return reply

    def _page(self, actor: Actor, page: int) -> Reply:
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            lang, prefs = who.lang, who.prefs
            rows = together_repo.player_active_games(s, actor.id)
            lines = [self._game_line(s, row, actor.id, lang, prefs) for row in rows]
            now = self.deps.clock()
            challenges = together_repo.pending_challenges_of(s, actor.id, now=now)
            lines += [_challenge_line(s, c, actor.id, lang, prefs) for c in challenges]
        if not lines:
            return Reply(text=t("games.none", lang), ephemeral=True)
        pages = (len(lines) + PAGE_SIZE - 1) // PAGE_SIZE
        page = min(max(page, 1), pages)
        shown = lines[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
        head = t("games.header", lang, count=len(lines), page=page, pages=pages)
        reply = Reply(text="\n\n".join([head, *shown]), ephemeral=True)
        if pages > 1:
            reply.rows = [_page_buttons(page, pages, lang)]
        return reply

    def _game_line(self, s: Session, row: GameRow, me: int, lang: str, prefs: Prefs) -> str:
        table = load_table(self.deps, s, row)
        names = seat_names(table, lang)
        seat = row.seat_of(me) or 0
        match = table.match
        mine, theirs = match.score[seat], match.score[1 - seat]
        score = (
            t("games.score_match", lang, a=mine, b=theirs, length=match.length)
            if match.length
            else t("games.score_money", lang, cube=table.game.cube_value)
        )
        if row.variant != "standard":
            score += " · " + variant_text(row.variant, lang)
        turn = table.game.turn
        if turn == seat:
            whose = t("games.your_turn", lang)
        else:
            whose = t("games.their_turn", lang, name=names[1 - seat])
        deadline = (
            when(aware(row.deadline), prefs) if row.deadline else t("games.no_deadline", lang)
        )
        return t(
            "games.game",
            lang,
            id=row.id,
            opponent=names[1 - seat],
            score=score,
            whose=whose,
            deadline=deadline,
            link=self._game_links(row, me, lang),
        )

    def _game_links(self, row: GameRow, me: int, lang: str) -> str:
        """The game's links in ``me``'s list: its board message's, and his web page's."""
        # Every game opens with /board game:N, wherever it is played (a tournament's match
        # played outside the channel has no link: its player had a game there).
        url = game_link(row.guild_id, row.channel_id, row.board_message_id)
        if url:
            link = t("games.link", lang, link=url, id=row.id)
        else:
            link = t("games.no_link", lang, id=row.id)
        # His own games, in a reply only he sees: his private link, to play from the page.
        web = self.deps.web_url(row.id, me)
        if web is not None:
            link += " · " + t("games.web", lang, url=web)
        return link


def _page_buttons(page: int, pages: int, lang: str) -> list[Component]:
    previous = PageAction(page - 1).custom_id
    after = PageAction(page + 1).custom_id
    return [
        Button(previous, t("button.previous", lang), disabled=page == 1),
        Button(after, t("button.next", lang), disabled=page == pages),
    ]


def _challenge_line(s: Session, c: Challenge, me: int, lang: str, prefs: Prefs) -> str:
    other_id = c.challenged_id if c.challenger_id == me else c.challenger_id
    other = player_repo.get_player(s, other_id)
    name = other.display_name if other else str(other_id)
    key = "games.challenge_sent" if c.challenger_id == me else "games.challenge_received"
    kind = kind_text(c.match_length, c.variant, lang)
    link = game_link(c.guild_id, c.channel_id, None) or "-"
    return t(
        key,
        lang,
        id=c.id,
        name=name,
        kind=kind,
        expires=when(aware(c.expires_at), prefs),
        link=link,
    )

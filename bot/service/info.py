"""The use cases that show information: leaderboards, statistics, history, rules, help, and
the player's settings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from bot.i18n import t
from bot.service.people import Actor, Prefs, Where
from bot.service.replies import Reply
from db import players as player_repo
from db import stats as stats_repo
from db.models import GameStatus, ResultKind
from engine.bots import LEVELS
from render.chart import line_chart

if TYPE_CHECKING:
    from bot.service.core import Service

__all__ = ["InfoMixin"]

Scope = Literal["server", "global"]


class InfoMixin:
    """Read-only commands and settings (mixed into :class:`~bot.service.core.Service`)."""

    def leaderboard(self: Service, actor: Actor, where: Where, scope: Scope = "server") -> Reply:
        """``/leaderboard [scope]``: the best rated players of this server, or of everyone."""

        def run() -> Reply:
            from bot.service.core import Refusal

            with self._unit() as s:
                who = self._who(s, actor)
                lang = self._shared_lang(who, where)
                if scope not in ("server", "global"):
                    raise Refusal("error.scope")
                guild = where.guild_id if scope == "server" else None
                if scope == "server" and guild is None:
                    guild = None  # a DM has no server: show everyone
                rows = stats_repo.leaderboard(s, guild_id=guild, limit=15)
            title = t("board.title_server" if guild else "board.title_global", lang)
            if not rows:
                return Reply(text=title + "\n" + t("board.empty", lang))
            lines = [t("board.header", lang)]
            lines += [
                t(
                    "board.row",
                    lang,
                    rank=r.rank,
                    name=r.display_name[:18],
                    rating=r.rating,
                    experience=r.experience,
                    wins=r.wins,
                    losses=r.losses,
                )
                for r in rows
            ]
            return Reply(text=t("board.layout", lang, title=title, table="\n".join(lines)))

        return self._guard(actor, run)

    def stats(self: Service, actor: Actor, where: Where, user: Actor | None = None) -> Reply:
        """``/stats [user]``: record, rating and rank, records against the computer, and the
        rating history as a chart."""

        def run() -> Reply:
            with self._unit() as s:
                who = self._who(s, actor)
                lang = who.lang
                target = user or actor
                if player_repo.get_player(s, target.id) is None:
                    return Reply(text=t("stats.none", lang, name=target.name), ephemeral=True)
                st = stats_repo.player_stats(s, target.id)
                history = stats_repo.rating_history(s, target.id, limit=200)
                server_rank = (
                    stats_repo.player_rank(s, target.id, guild_id=where.guild_id)
                    if where.guild_id
                    else None
                )
            lines = [t("stats.title", lang, name=target.name)]
            rank = t("stats.rank", lang, rank=st.rank) if st.rank else t("stats.unranked", lang)
            lines.append(
                t(
                    "stats.rating",
                    lang,
                    rating=f"{st.rating:.1f}",
                    experience=st.experience,
                    rank=rank,
                )
            )
            if server_rank:
                lines.append(t("stats.server_rank", lang, rank=server_rank))
            lines.append(t("stats.rated", lang, wins=st.rated_wins, losses=st.rated_losses))
            lines.append(
                t("stats.people", lang, wins=st.wins_vs_people, losses=st.losses_vs_people)
            )
            for level in LEVELS:
                if level in st.computer:
                    w, lo, pw, pl = st.computer[level]
                    lines.append(
                        t(
                            "stats.computer",
                            lang,
                            level=t(f"level.{level}", lang),
                            wins=w,
                            losses=lo,
                            won=pw,
                            lost=pl,
                        )
                    )
            if st.active_games:
                lines.append(t("stats.active", lang, count=st.active_games))
            image = None
            if history:
                chronological = sorted(history, key=lambda h: h.id)
                values = [chronological[0].rating_before] + [h.rating_after for h in chronological]
                image = line_chart(
                    values,
                    title=t("stats.chart_title", lang, name=target.name),
                    baseline=1500.0,
                    x_label=t("stats.chart_x", lang),
                )
            return Reply(text="\n".join(lines), image=image, image_name="rating.png")

        return self._guard(actor, run)

    def history(self: Service, actor: Actor, where: Where, limit: int = 10) -> Reply:
        """``/history``: the player's last finished games."""

        def run() -> Reply:
            with self._unit() as s:
                who = self._who(s, actor)
                lang = who.lang
                rows = stats_repo.game_history(s, actor.id, limit=max(1, min(limit, 20)))
                lines = [t("history.title", lang, name=actor.name)]
                for row in rows:
                    seat = row.seat_of(actor.id)
                    other = row.player_id(1 - (seat or 0))
                    if other is None:
                        opponent = t(
                            "computer.name", lang, level=t(f"level.{row.computer_level}", lang)
                        )
                    else:
                        p = player_repo.get_player(s, other)
                        opponent = p.display_name if p else str(other)
                    lines.append(_history_line(row, seat, opponent, lang))
            if len(lines) == 1:
                lines.append(t("history.empty", lang))
            return Reply(text="\n".join(lines), ephemeral=True)

        return self._guard(actor, run)

    def rules(self: Service, actor: Actor, where: Where) -> Reply:
        """``/rules``: the rules of backgammon as this bot plays them."""
        return Reply(text=t("rules.text", self._lang_of(actor) or _lang(actor)), ephemeral=True)

    def help(self: Service, actor: Actor, where: Where) -> Reply:
        """``/help``: the commands and how a turn goes."""
        return Reply(
            text=t("help.text", self._lang_of(actor) or _lang(actor), levels=", ".join(LEVELS)),
            ephemeral=True,
        )

    def settings_command(
        self: Service,
        actor: Actor,
        where: Where,
        *,
        language: str | None = None,
        auto_roll: bool | None = None,
        auto_forced: bool | None = None,
        mirrored: bool | None = None,
    ) -> Reply:
        """``/settings``: show or change the player's settings."""

        def run() -> Reply:
            from bot.service.core import Refusal

            changes: dict[str, object] = {}
            if language is not None:
                if language not in ("en", "fr", "auto"):
                    raise Refusal("error.language")
                changes["lang"] = None if language == "auto" else language
            for key, value in (
                ("auto_roll", auto_roll),
                ("auto_forced", auto_forced),
                ("mirrored", mirrored),
            ):
                if value is not None:
                    changes[key] = bool(value)
            with self._unit() as s:
                self._who(s, actor)
                prefs_json = (
                    player_repo.set_preferences(s, actor.id, **changes)
                    if changes
                    else (
                        player_repo.get_player(s, actor.id).preferences  # type: ignore[union-attr]
                    )
                )
            prefs = Prefs.from_json(prefs_json)
            lang = prefs.language(actor.locale)
            yes, no = t("settings.on", lang), t("settings.off", lang)
            text = t(
                "settings.text",
                lang,
                language=t(f"settings.lang_{prefs.lang or 'auto'}", lang),
                auto_roll=yes if prefs.auto_roll else no,
                auto_forced=yes if prefs.auto_forced else no,
                mirrored=yes if prefs.mirrored else no,
            )
            if changes:
                text = t("settings.saved", lang) + "\n" + text
            return Reply(text=text, ephemeral=True)

        return self._guard(actor, run)


def _lang(actor: Actor) -> str:
    from bot.i18n import language

    return language(actor.locale)


def _history_line(row, seat: int | None, opponent: str, lang: str) -> str:  # type: ignore[no-untyped-def]
    when = row.finished_at.strftime("%Y-%m-%d") if row.finished_at else "?"
    kind = (
        t("game.kind_match", lang, points=row.match_length)
        if row.match_length
        else t("game.kind_money", lang)
    )
    if row.status is GameStatus.EXPIRED or row.winner is None:
        outcome = t("history.expired", lang)
    elif row.winner == seat:
        outcome = t("history.won", lang, points=row.points or 0)
    else:
        outcome = t("history.lost", lang, points=row.points or 0)
    how = ""
    if row.result_kind is not None:
        how = t(f"history.kind_{ResultKind(row.result_kind).value}", lang)
    rated = t("game.rated", lang) if row.rated else ""
    return t(
        "history.line",
        lang,
        id=row.id,
        date=when,
        opponent=opponent,
        kind=kind,
        outcome=outcome,
        how=how,
        rated=rated,
    ).rstrip()

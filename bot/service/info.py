"""The use cases that show information: leaderboards, statistics, history, rules and help."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from sqlalchemy.orm import Session

from bot.drawers import DRAWERS
from bot.i18n import number, t
from bot.service.command_spec import Command, Surface, press_words, usage
from bot.service.deps import Deps, answers, shared_lang
from bot.service.people import Actor, Where
from bot.service.prstats import TREND_GAMES, pr_trend
from bot.service.refusal import Refusal
from bot.service.replies import Attachment, Reply
from bot.service.variants import kind_text, said_of_kind, variant_named, variant_text
from db import players as player_repo
from db import stats as stats_repo
from db.gamestate import load_match
from db.models import Game as GameRow
from db.models import GameStatus, RatingHistory, ResultKind, VariantRating
from engine import Variant
from engine.bots import LEVELS
from render.chart import line_chart

# How a match's deciding game was scored: its final score already says who won the match, and
# "lost 0-4 by gammon" would read as if the match were one gammon.
_GAME_KINDS = frozenset({ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON})

__all__ = ["Info"]

Scope = Literal["server", "global"]


class Info:
    """Read-only commands.

    :param commands: the command table that ``/help`` lists (handed in: the table names
        these methods, so this module cannot import it).
    """

    def __init__(self, deps: Deps, commands: Sequence[Command]) -> None:
        self.deps = deps
        self.commands = commands

    @answers
    def leaderboard(
        self, actor: Actor, where: Where, scope: Scope = "server", variant: str = "standard"
    ) -> Reply:
        """``/leaderboard [scope] [variant]``: the best rated players of this server, or of
        everyone (a DM has no server: everyone), in the standard game or a variant."""
        with self.deps.unit() as s:
            lang = shared_lang(self.deps.who(s, actor), where)
            if scope not in ("server", "global"):
                raise Refusal("error.scope")
            chosen = variant_named(variant)
            guild = where.guild_id if scope == "server" else None
            if chosen is Variant.STANDARD:
                rows = stats_repo.leaderboard(s, guild_id=guild, limit=15)
            else:
                rows = stats_repo.variant_leaderboard(s, chosen.value, guild_id=guild, limit=15)
        title = t("board.title_server" if guild else "board.title_global", lang)
        if chosen is not Variant.STANDARD:
            title += " · " + variant_text(chosen, lang)
        if not rows:
            return Reply(text=title + "\n" + t("board.empty", lang))
        lines = [t("board.header", lang)]
        lines += [
            t(
                "board.row",
                lang,
                rank=r.rank,
                name=_plain_name(r.display_name)[:18],
                rating=r.rating,
                experience=r.experience,
                wins=r.wins,
                losses=r.losses,
            )
            for r in rows
        ]
        return Reply(text=t("board.layout", lang, title=title, table="\n".join(lines)))

    @answers
    def stats(self, actor: Actor, where: Where, user: Actor | None = None) -> Reply:
        """``/stats [user]``: record, rating and rank, records against the computer, and the
        rating history as a chart."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            # The card is for everyone here, in the server's language (as /leaderboard); what
            # only the asker sees, in his.
            lang = shared_lang(who, where)
            target = user or actor
            if target.is_bot:  # picked from Discord's list: not a name that nobody has played
                return Reply(text=t("stats.bot", who.lang, name=target.name), ephemeral=True)
            if player_repo.get_player(s, target.id) is None:
                return Reply(text=t("stats.none", who.lang, name=target.name), ephemeral=True)
            st = stats_repo.player_stats(s, target.id)
            variants = stats_repo.variant_ratings(s, target.id)
            history = stats_repo.rating_history(s, target.id, limit=200)
            recent = stats_repo.game_history(s, target.id, limit=TREND_GAMES)
            server_rank = (
                stats_repo.player_rank(s, target.id, guild_id=where.guild_id)
                if where.guild_id
                else None
            )
        pr_text, pr_chart = pr_trend(recent, target.id, lang)  # its chart: no transaction open
        lines = _stats_lines(st, target.name, server_rank, lang, variants=bool(variants))
        lines[2:2] = [_variant_line(v, lang) for v in variants]  # after the standard rating
        if pr_text:
            lines.append(pr_text)
        image = _rating_chart(history, target.name, lang) if history else None
        files = [Attachment("pr.png", pr_chart)] if pr_chart else []
        if image is None and pr_chart:
            image, files = pr_chart, []
        return Reply(text="\n".join(lines), image=image, image_name="rating.png", attachments=files)

    @answers
    def history(self, actor: Actor, where: Where, limit: int = 10) -> Reply:
        """``/history``: the player's last finished games."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            rows = stats_repo.game_history(s, actor.id, limit=max(1, min(limit, 20)))
            lines = [t("history.title", lang, name=actor.name)]
            lines += [
                _history_line(row, actor.id, _opponent(s, row, actor.id, lang), lang)
                for row in rows
            ]
        if len(lines) == 1:
            lines.append(t("history.empty", lang))
        return Reply(text="\n".join(lines), ephemeral=True)

    def names(self, player_ids: Sequence[int]) -> dict[int, str]:
        """The display names of the players of ``player_ids`` the bot knows (an adapter that
        cannot ask Discord shows a mention so)."""
        with self.deps.unit() as s:
            return player_repo.player_names(s, player_ids)

    def rules(self, actor: Actor, where: Where, surface: Surface = Surface.DISCORD) -> Reply:
        """``/rules``: the rules of backgammon as this bot plays them, and its variants (in
        Discord's messages of 2,000 characters, for ``surface`` Discord)."""
        lang = self.deps.language_of(actor)
        text = t("rules.text", lang) + "\n" + t("rules.variants", lang)
        return private_parts(text) if surface is Surface.DISCORD else Reply(text, ephemeral=True)

    def help(self, actor: Actor, where: Where, surface: Surface = Surface.DISCORD) -> Reply:
        """``/help``: every command of this adapter (``surface``) and how a turn goes."""
        text = help_text(self.deps.language_of(actor), surface, self.commands)
        return private_parts(text) if surface is Surface.DISCORD else Reply(text, ephemeral=True)


def _rating_chart(history: Sequence[RatingHistory], name: str, lang: str) -> bytes | None:
    """The rating after each rated match, from the rating before the first."""
    chronological = sorted(history, key=lambda h: h.id)
    values = [chronological[0].rating_before] + [h.rating_after for h in chronological]
    return DRAWERS.call(
        line_chart,
        values,
        title=t("stats.chart_title", lang, name=name),
        baseline=1500.0,
        x_label=t("stats.chart_x", lang),
    )


MESSAGE_LIMIT = 2000  # characters in one Discord message


def private_parts(text: str) -> Reply:
    """``text`` in private: Discord shows at most 2,000 characters a message, so the rest
    comes in private follow-ups (the terminal prints them one after another)."""
    first, *rest = message_parts(text)
    more = [Reply(text=part, ephemeral=True) for part in rest]
    return Reply(text=first, ephemeral=True, followups=more)


def message_parts(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` cut between lines into parts of at most ``limit`` characters (a line longer
    than that is a part of its own, cut by the adapter)."""
    parts: list[str] = []
    for line in text.split("\n"):
        if parts and len(parts[-1]) + 1 + len(line) <= limit:
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return parts


def help_text(lang: str, surface: Surface, commands: Sequence[Command]) -> str:
    """The commands of the table that ``surface`` accepts, one line each, then a turn."""
    levels = ", ".join(t(f"level.{level}", lang) for level in LEVELS)
    lines = [t("help.title", lang)]
    for command in commands:
        if command.surface not in (Surface.BOTH, surface):
            continue
        key = command.help
        if surface is Surface.DISCORD and command.help_discord:
            key = command.help_discord
        text = t(key, lang, levels=levels)
        lines.append(t("help.line", lang, usage=usage(command, lang), text=text))
    if surface is Surface.TERMINAL:
        presses = ", ".join(f"/{name}" for name in press_words(lang))
        lines.append(t("help.presses", lang, commands=presses))
        lines.append(t("help.keys", lang))
    return "\n".join(lines) + "\n\n" + t("help.turn", lang)


def _opponent(s: Session, row: GameRow, player_id: int, lang: str) -> str:
    seat = row.seat_of(player_id)
    other = row.player_id(1 - (seat or 0))
    if other is None:
        return t("computer.name", lang, level=t(f"level.{row.computer_level}", lang))
    p = player_repo.get_player(s, other)
    return p.display_name if p else str(other)


def _stats_lines(
    st: stats_repo.PlayerStats,
    name: str,
    server_rank: int | None,
    lang: str,
    *,
    variants: bool = False,
) -> list[str]:
    lines = [t("stats.title", lang, name=name)]
    rank = t("stats.rank", lang, rank=st.rank) if st.rank else t("stats.unranked", lang)
    rating = number(st.rating, ".1f", lang)
    lines.append(t("stats.rating", lang, rating=rating, experience=st.experience, rank=rank))
    if server_rank:
        lines.append(t("stats.server_rank", lang, rank=server_rank))
    # Beside a variant's own record, this one says it is the standard game's (its 0-0 read as
    # if the variant's rated wins did not count).
    rated = "stats.rated_standard" if variants else "stats.rated"
    lines.append(t(rated, lang, wins=st.rated_wins, losses=st.rated_losses))
    lines.append(t("stats.people", lang, wins=st.wins_vs_people, losses=st.losses_vs_people))
    for level in LEVELS:
        if level in st.computer:
            w, lo, pw, pl = st.computer[level]
            level_name = t(f"level.{level}", lang)
            lines.append(
                t("stats.computer", lang, level=level_name, wins=w, losses=lo, won=pw, lost=pl)
            )
    if st.practice_games:
        lines.append(t("stats.practice", lang, count=st.practice_games))
    if st.active_games:
        lines.append(t("stats.active", lang, count=st.active_games))
    return lines


def _variant_line(v: VariantRating, lang: str) -> str:
    """A rating in a variant: it never mixes with the standard one above it."""
    rating = number(v.rating, ".1f", lang)
    name = variant_text(v.variant, lang)
    return t(
        "stats.variant_rating", lang, variant=name, rating=rating, wins=v.wins, losses=v.losses
    )


def _history_line(row: GameRow, player_id: int, opponent: str, lang: str) -> str:
    seat = row.seat_of(player_id)
    when = row.finished_at.strftime("%Y-%m-%d") if row.finished_at else "?"
    kind = kind_text(row.match_length, row.variant, lang)
    if row.status is GameStatus.EXPIRED or row.winner is None:
        outcome = t("history.expired", lang)
    elif row.match_length:
        # A match: its final score, the player's own first.
        a, b = load_match(row).score
        mine, theirs = (a, b) if seat == 0 else (b, a)
        key = "history.won_match" if row.winner == seat else "history.lost_match"
        outcome = t(key, lang, mine=mine, theirs=theirs)
    elif row.winner == seat:
        outcome = t("history.won", lang, points=row.points or 0)
    else:
        outcome = t("history.lost", lang, points=row.points or 0)
    how = ""
    if row.result_kind is not None and not (row.match_length and row.result_kind in _GAME_KINDS):
        how = t(f"history.kind_{ResultKind(row.result_kind).value}", lang)
    rated = said_of_kind("game.rated", row.match_length, lang) if row.rated else ""
    if row.practice:
        rated += t("history.practice", lang)
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


def _plain_name(name: str) -> str:
    """A name safe inside a code block: a backtick would close it."""
    return name.replace("`", "'")

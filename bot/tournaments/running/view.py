"""What a tournament looks like in the channel: its announcement (rules, Join / Leave / Start
buttons), its standings (a bracket for a knockout, a table for the others, in the viewer's
language) and the server's list of tournaments."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from bot.i18n import t
from bot.i18n.markdown import escape_name
from bot.service.customid import TournamentAction, TournamentPress
from bot.service.replies import Button, Component, Reply
from bot.service.variants import variant_text
from bot.tournaments.formats import format_of, standings
from bot.tournaments.pictures import bracket_picture, standings_picture
from bot.tournaments.plan import State, bracket, winners
from db.models import EntrantStatus, MatchStatus, Tournament, TournamentStatus

__all__ = [
    "announcement",
    "format_name",
    "list_text",
    "marked",
    "rules_text",
    "standings_reply",
    "tournament_id",
]

_GONE = (EntrantStatus.WITHDRAWN, EntrantStatus.DISQUALIFIED)


def tournament_id(tournament: int, action: str) -> str:
    """A tournament button's id (:class:`~bot.service.customid.TournamentAction`).

    >>> tournament_id(7, "join")
    'tn:7:join'
    """
    return TournamentAction(tournament, TournamentPress(action)).custom_id


def format_name(tour: Tournament, lang: str) -> str:
    return t(f"tournament.format.{tour.format}", lang)


def rules_text(tour: Tournament, lang: str) -> str:
    """The tournament's rules in one paragraph."""
    parts = [
        t("tournament.rules.format", lang, format=format_name(tour, lang)),
        _length(tour, lang),
        t("tournament.rules.cube_on" if tour.cube else "tournament.rules.cube_off", lang),
        t("tournament.rules.rated" if tour.rated else "tournament.rules.unrated", lang),
    ]
    if tour.variant != "standard":
        parts.append(variant_text(tour.variant, lang))
    parts += format_of(tour.format).rules(tour, lang)  # a Swiss's rounds, an arena's minutes
    if tour.max_players:
        parts.append(t("tournament.rules.limit", lang, limit=tour.max_players))
    if tour.clock_delay is not None and tour.clock_bank is not None:
        clock = t(
            "tournament.rules.clock", lang, delay=tour.clock_delay, bank=tour.clock_bank // 60
        )
        parts.append(clock)
    else:
        parts.append(t("tournament.rules.no_clock", lang))
    return " · ".join(parts)


def announcement(
    tour: Tournament, players: Sequence[tuple[str, EntrantStatus]], lang: str
) -> Reply:
    """The tournament's message: name, rules, who joined (those who withdrew or were
    disqualified marked so, and counted apart), and the buttons that apply."""
    lines = [t("tournament.announce", lang, id=tour.id, name=tour.name), rules_text(tour, lang)]
    if tour.starts_at is not None and tour.status is TournamentStatus.REGISTERING:
        stamp = int(tour.starts_at.timestamp())
        lines.append(t("tournament.starts_at", lang, when=f"<t:{stamp}:R>"))
    lines.append(t(f"tournament.status.{tour.status.value}", lang))
    lines.append(players_line(players, lang))
    row: list[Component] = []
    if tour.status is TournamentStatus.REGISTERING:
        row = [
            Button(tournament_id(tour.id, "join"), t("button.tournament_join", lang), "success"),
            Button(tournament_id(tour.id, "leave"), t("button.tournament_leave", lang), "danger"),
            Button(tournament_id(tour.id, "start"), t("button.tournament_start", lang), "primary"),
        ]
    elif tour.status is not TournamentStatus.CANCELLED:
        label = t("button.tournament_standings", lang)
        row = [Button(tournament_id(tour.id, "standings"), label, "secondary")]
    return Reply(text="\n".join(lines)[:2000], rows=[row] if row else [])


def players_line(players: Sequence[tuple[str, EntrantStatus]], lang: str) -> str:
    """``Players (4; 1 withdrawn): Ann, Bob, Cy (withdrawn), Dee``: every entrant, the names
    escaped for markdown (the list is no name parameter of its own)."""
    shown = [marked(escape_name(name), status, lang) for name, status in players[:40]]
    names = ", ".join(shown) + (" …" if len(players) > 40 else "")
    gone = Counter(status for _, status in players if status in _GONE)
    if not gone:
        return t("tournament.players", lang, count=len(players), names=names or "-")
    parts = [t(f"tournament.gone.{st.value}", lang, n=gone[st]) for st in _GONE if gone[st]]
    return t(
        "tournament.players_gone", lang, count=len(players), gone=", ".join(parts), names=names
    )


def marked(name: str, status: EntrantStatus, lang: str) -> str:
    """``name`` with ``(withdrawn)`` or ``(disqualified)`` after it when he is out."""
    if status not in _GONE:
        return name
    return f"{name} ({t(f'tournament.mark.{status.value}', lang)})"


def _marked_names(names: Mapping[int, str], state: State, lang: str) -> dict[int, str]:
    status = {e.player_id: e.status for e in state.entrants}
    return {p: marked(n, status.get(p, EntrantStatus.ACTIVE), lang) for p, n in names.items()}


def _standings_drawer(state: State, lang: str, viewer: int | None) -> Callable[[], bytes]:
    """What draws :func:`standings_reply`'s picture: its format's bracket or table."""
    tour = state.tournament
    title = tour.name
    subtitle = f"{format_name(tour, lang)} · {rules_summary(state, lang)}"
    names = _marked_names(state.names, state, lang)
    table = format_of(tour.format).table
    if table is None:
        return partial(
            bracket_picture,
            bracket(state),
            winners(state),
            names,
            scores=_scores(state),
            title=title,
            subtitle=subtitle,
            lang=lang,
            viewer=viewer,
        )
    return partial(
        standings_picture,
        table,
        standings(state),
        names,
        viewer=viewer,
        title=title,
        subtitle=subtitle,
        lang=lang,
    )


def standings_reply(
    state: State,
    lang: str,
    viewer: int | None = None,
    web: Callable[[int | None], str | None] | None = None,
) -> Reply:
    """The standings: the picture its format lays out (a bracket, or a table and its
    columns), and with ``web`` (a game's web page, None when the web board is off) each
    match's link. The picture is drawn once the action has committed (:attr:`Reply.later`):
    standings are posted from inside the write transaction of the game or sweep that moved
    the tournament on."""
    tour = state.tournament
    draw = _standings_drawer(state, lang, viewer)

    def picture(reply: Reply) -> None:
        reply.image = draw()

    text = t("tournament.standings", lang, name=tour.name, played=_played(state))
    return Reply(text=text + web_lines(state, lang, web), image_name="standings.png", later=picture)


WEB_TEXT = 1500  # characters of a standings message its matches' links may take


def web_lines(state: State, lang: str, web: Callable[[int | None], str | None] | None) -> str:
    """Each match's web page, the matches being played first then the latest finished, on
    lines after a newline ("" without the web board or a match with a game); as many as fit
    in :data:`WEB_TEXT`, then how many more."""
    if web is None:
        return ""
    games = [m for m in state.matches if m.game_id is not None]
    games.sort(key=lambda m: (m.status is not MatchStatus.PLAYING, -m.round, m.slot))
    lines: list[str] = []
    size = 0
    for shown, m in enumerate(games):
        url = web(m.game_id)
        if url is None:
            return ""
        line = t(
            "tournament.web_match",
            lang,
            round=t("tournament.web_round", lang, n=m.round + 1),
            p0=state.names.get(m.player0_id, str(m.player0_id)),
            p1=state.names.get(m.player1_id or 0, str(m.player1_id)),
            url=url,
        )
        if size + len(line) > WEB_TEXT:
            lines.append(t("tournament.web_more", lang, n=len(games) - shown))
            break
        lines.append(line)
        size += len(line) + 1
    if not lines:
        return ""
    return "\n" + "\n".join([t("tournament.web_title", lang), *lines])


def rules_summary(state: State, lang: str) -> str:
    return _length(state.tournament, lang)


def _length(tour: Tournament, lang: str) -> str:
    if tour.match_length == 1:
        return t("tournament.rules.length_one", lang)
    return t("tournament.rules.length", lang, points=tour.match_length)


def _played(state: State) -> int:
    return sum(1 for m in state.matches if m.status is MatchStatus.FINISHED)


def _scores(state: State) -> dict[tuple[int, int], tuple[int, int]]:
    out = {}
    for m in state.matches:
        if m.status is MatchStatus.FINISHED and m.winner_id is not None:
            won, lost = m.winner_points or 0, m.loser_points or 0
            top_won = m.winner_id == m.player0_id
            out[(m.round, m.slot)] = (won, lost) if top_won else (lost, won)
    return out


def list_text(tours: Sequence[Tournament], names: dict[int, str], lang: str) -> str:
    """The server's tournaments, newest first, one line each: number, name, format, status
    (a word or two, no instruction) and the champion."""
    if not tours:
        return t("tournament.list_empty", lang)
    lines = [t("tournament.list_title", lang)]
    for tour in tours:
        champion = names.get(tour.champion_id or 0, "")
        lines.append(
            t(
                "tournament.list_line",
                lang,
                id=tour.id,
                name=tour.name,
                format=format_name(tour, lang),
                status=t(f"tournament.list_status.{tour.status.value}", lang),
                champion=f" 🏆 {champion}" if champion else "",
            )
        )
    return "\n".join(lines)[:2000]

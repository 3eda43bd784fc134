"""Hints, post-game reviews and exports: what strong players come back for.

The computing (a hint takes tens of milliseconds, a review about a second) runs in the calling
thread, which adapters keep off the event loop (the Discord adapter in the bounded lanes of
:mod:`bot.heavy`, named by the command table); a review is computed once per game (single
flight: a second request waits for the first), in a worker process when the bot runs them, and
cached in the database, outside the game's unit of work, so it never holds up play.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session

from bot import heavy
from bot.drawers import DRAWERS
from bot.i18n import number, t
from bot.service.deps import Deps, answers, refusal_text
from bot.service.model import Seat, Table, UiState, high_first
from bot.service.people import Actor, Prefs, Where
from bot.service.present import COLORS, board_view, xgid_of
from bot.service.prstats import pr_line
from bot.service.refusal import Refusal, check_game_id
from bot.service.replies import Attachment, Reply, report_progress
from bot.service.rollouts import check_trials, rollout_hint, rollout_mistakes
from bot.service.tables import current_game, load_table, localized, no_game_here
from db import consult as consult_repo
from db import games as game_repo
from db import puzzles as puzzle_repo
from db import stats as stats_repo
from db.errors import GameNotFound
from db.models import Game as GameRow
from db.models import GameEvent, GameStatus
from engine import BackgammonError, Game, Phase, Play, Variant, write_mat
from engine.analysis import (
    Review,
    combine_reviews,
    cube_hint,
    error_size,
    hint,
    review_game,
    review_match,
)
from render import BoardView
from render.analysis import mistake_board, review_chart

__all__ = ["REVIEW_PLIES", "Analysis"]

log = logging.getLogger(__name__)

# Makes puzzles of a new review: (game id, its seats, the review) -> how many.
Harvest = Callable[[int, tuple[Seat, Seat], Review], int]

REVIEW_PLIES = 3
"""``/review``'s depth (bgsage's numbering): GNU Backgammon's 2-ply, the depth its analysis and
the outside checks grade with. At 2 plies (its 1-ply) the review's PRs were further from GNU
Backgammon's 2-ply ones (``python -m bench pr_gnubg``: see the README), for 2.7 times less work."""
HINT_PLIES = 2


class Analysis:
    """``/hint``, ``/review`` and ``/export``."""

    def __init__(self, deps: Deps, harvest: Harvest | None = None) -> None:
        self.deps = deps
        self.harvest = harvest
        self._failed: set[int] = set()  # games review_finished could not review

    # -- /hint ----------------------------------------------------------------------------------

    @answers
    def hint(
        self,
        actor: Actor,
        where: Where,
        rollout: int | None = None,
        truncate: int | None = None,
        seed: int | None = None,
        vr: bool | None = None,
        seconds: int | None = None,
        cubeful: bool | None = None,
    ) -> Reply:
        """``/hint``: the best plays of the current roll with their equities, the best drawn on
        the board; or the cube decision before a roll or on a double. Never in rated games.
        With ``rollout`` (trials), the decision rolled out instead, cut after ``truncate`` plies
        if given, with the dice of ``seed``, variance reduction ``vr``, the time limit
        ``seconds``, cubeful or not (any of these alone asks for a rollout too;
        :mod:`bot.service.rollouts`; the command table runs it in the analysis lane)."""
        table, lang, prefs = self._hint_table(actor, where)
        _analysable(table)
        seat = table.seat_of(actor.id)
        game = table.game
        if seat is None or game.turn != seat:
            raise Refusal("hint.not_your_turn")
        if any(v is not None for v in (rollout, truncate, seed, vr, seconds, cubeful)):
            return rollout_hint(
                table,
                seat,
                lang,
                rollout,
                truncate,
                HINT_PLIES,
                seed=seed,
                vr=vr,
                seconds=seconds,
                cubeful=cubeful,
            )
        return _decision_hint(table, seat, lang, prefs)

    def _hint_table(self, actor: Actor, where: Where) -> tuple[Table, str, Prefs]:
        """The game ``actor`` asks a hint in (refused in rated and consultation games), in his
        language, with his language and preferences."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            lang, prefs = who.lang, who.prefs
            row = current_game(s, actor, where)
            if row is None:
                raise no_game_here(s, actor, where)
            if row.rated:
                raise Refusal("hint.rated")
            if consult_repo.by_game(s, row.id) is not None:
                raise Refusal("consult.no_hint")  # the team decides by itself
            table = localized(load_table(self.deps, s, row), lang)
        return table, lang, prefs

    # -- /review --------------------------------------------------------------------------------

    @answers
    def review(
        self, actor: Actor, where: Where, game_id: int | None = None, rollout: int | None = None
    ) -> Reply:
        """``/review [game]``: error rates, ratings, luck, the three worst mistakes with the
        better play drawn, and the winning chances move by move. The game is chosen as for
        ``/export`` (:func:`chosen_game`); one in progress only against the computer (a game
        between people is never analysed while it is played), and only so far. With
        ``rollout`` (trials), the worst checker-play mistakes are rolled out too, the played
        play against the better one (:func:`bot.service.rollouts.rollout_mistakes`)."""
        if rollout is not None:
            check_trials(rollout)  # before the review is searched
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            row = chosen_game(s, actor, where, game_id, "review.none")
            table = localized(load_table(self.deps, s, row), lang)
            going_on, cached = _reviewable(row, table)
            row_id = row.id
            moment = row.version if going_on else None  # a game in progress moves on
        review = self._reviewed(table, row_id, moment, cached, lang)
        reply = _review_reply(table, review, lang, table.seat_of(actor.id), rollout)
        if going_on:
            reply.text = t("review.so_far", lang, id=row_id) + "\n" + reply.text
        reply.text += self.deps.web_line(row_id, lang)  # its replay, step by step
        return reply

    def web_review(self, game_id: int, viewer: int | None, lang: str) -> str | None:
        """The web board's "ask for the review" (:mod:`bot.web`), by ``viewer`` (a player of
        the game, or None for anyone watching its page): ``/review game:<id>``'s review,
        computed once and kept, with its refusals (a game in progress is another person's
        until it ends, and a game between people is never analysed while it is played).
        None once the review is kept, else why not, in ``lang``."""
        try:
            with self.deps.unit() as s:
                row = game_repo.get_game(s, check_game_id(game_id))
                if row.status is GameStatus.ACTIVE and row.seat_of(viewer or 0) is None:
                    raise Refusal("error.not_your_game")  # others' games only once finished
                table = localized(load_table(self.deps, s, row), lang)
                going_on, cached = _reviewable(row, table)
                if going_on:  # against the computer: /review tells the moves so far
                    raise Refusal("web.review_after", id=row.id)
                row_id = row.id
            if cached is None:
                self._reviewed(table, row_id, None, None)
        except (Refusal, GameNotFound, BackgammonError) as error:
            return refusal_text(error, lang)
        return None

    def _reviewed(
        self,
        table: Table,
        row_id: int,
        moment: int | None,
        cached: dict[str, Any] | None,
        lang: str | None = None,
    ) -> Review:
        """The review of a game (``moment``: its version while in progress, else None),
        computed unless ``cached``, and kept once the game is over. With ``lang``, what it is
        doing is told as the action's progress (a match's review takes a minute or more)."""
        review = Review.from_dict(cached) if cached else None
        if review is None:
            # One computation per game and moment (a second request waits for the first's
            # result), in a worker process when the bot runs them (a review holds the GIL).
            review = heavy.POOLS.flights.run(
                ("review", row_id, moment), lambda: _review_by_game(table, lang)
            )
            if moment is None:  # a game in progress changes: its review is never kept
                self._cache_review(row_id, review.to_dict())
                # Its blunders become puzzles (bot.service.puzzles): standard games only.
                if self.harvest is not None and table.match.variant is Variant.STANDARD:
                    self.harvest(row_id, table.seats, review)
        return review

    def review_finished(self, limit: int = 1) -> int:
        """Review the latest finished games that nobody reviewed yet (the timer sweep calls it
        when ``Settings.review_finished_games``), so that every game's blunders become puzzles.
        Returns how many were reviewed; a game whose review fails is not tried again here."""
        with self.deps.unit() as s:
            ids = puzzle_repo.unreviewed_games(s, limit, self._failed)
        for game_id in ids:
            try:
                with self.deps.unit() as s:
                    table = load_table(self.deps, s, game_repo.get_game(s, game_id))
                review = heavy.POOLS.analyse(review_match, table.match, plies=REVIEW_PLIES)
            except Exception:
                log.exception("reviewing game %s failed", game_id)
                self._failed.add(game_id)
                continue
            self._cache_review(game_id, review.to_dict())
            if self.harvest is not None:
                self.harvest(game_id, table.seats, review)
        return len(ids)

    def _cache_review(self, game_id: int, data: dict[str, Any]) -> None:
        # A unit of work of its own, touching only the cache column: play is never held up, and
        # a lost race (two processes reviewing at once) only computes the same review twice.
        try:
            with self.deps.unit() as s:
                game_repo.cache_review(s, game_id, data)
                self.deps.mark_changed(s, game_id)  # its web pages show the review
        except Exception:
            log.exception("caching the review of game %s failed", game_id)

    # -- /export --------------------------------------------------------------------------------

    @answers
    def export(self, actor: Actor, where: Where, game_id: int | None = None) -> Reply:
        """``/export [game]``: the game or match as a Jellyfish ``.mat`` file that GNU
        Backgammon imports, and the Position ID and Match ID after every action."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            row = chosen_game(s, actor, where, game_id, "export.none")
            if row.status is GameStatus.ACTIVE and row.rated:  # rated: people only
                raise Refusal("export.rated_in_progress", id=row.id)  # no analysis meanwhile
            table = localized(load_table(self.deps, s, row), lang)
            events = game_repo.game_events(s, row.id)
            number, practice = row.id, row.practice
        names = (table.seats[0].name, table.seats[1].name)
        game = table.game
        xgid = xgid_of(game.position_id(), game.match_id())
        text = t(
            # No XGID once it is over; no .mat file for a game started from a position.
            ("export.ids" if practice else "export.done") + ("" if xgid != "-" else "_final"),
            lang,
            id=number,
            position_id=game.position_id(),
            match_id=game.match_id(),
            xgid=xgid,
        )
        text += self.deps.web_line(number, lang)  # the page anyone may watch: its replay
        files = [Attachment(f"game-{number}-ids.txt", _id_log(number, names, events))]
        # A .mat file starts from the opening position: GNU Backgammon refuses one whose first
        # move was played from another position. The IDs say it all instead.
        if not practice:
            mat = write_mat(table.match, names).encode("utf-8")
            files.insert(0, Attachment(f"game-{number}.mat", mat))
        return Reply(text=text, ephemeral=True, attachments=files)


def _id_log(number: int, names: tuple[str, str], events: list[GameEvent]) -> bytes:
    """The Position ID, Match ID and XGID after every action of the move log."""
    lines = [
        f"# game {number}: {names[0]} vs {names[1]}",
        "# seq game kind player play -> Position ID : Match ID  XGID",
    ]
    # The player column is as wide as the longer name: a name is never cut, the columns stay
    # aligned (the .mat file, not this one, has GNU Backgammon's limit on names).
    width = max(16, *map(len, names))
    for e in events:
        who = "-" if e.player is None else names[e.player]
        lines.append(
            f"{e.seq:4d} {e.game_no:2d} {e.kind:8s} {who:{width}s} {e.play or '':24s} "
            f"-> {e.position_id}:{e.match_id}  {xgid_of(e.position_id, e.match_id)}"
        )
    return "\n".join(lines).encode("utf-8") + b"\n"


def chosen_game(
    s: Session, actor: Actor, where: Where, game_id: int | None, none_key: str
) -> GameRow:
    """The game ``/review`` and ``/export`` work on, by one rule: ``game_id`` if given (another
    person's game only once it is finished), else the actor's game in progress here, else his
    last finished game; refused with ``none_key`` when he has none."""
    if game_id is None:
        row = current_game(s, actor, where)
        if row is not None:
            return row
        rows = stats_repo.game_history(s, actor.id, limit=1)
        if not rows:
            raise Refusal(none_key)
        return rows[0]
    row = game_repo.get_game(s, check_game_id(game_id))
    if row.seat_of(actor.id) is None and row.status is GameStatus.ACTIVE:
        raise Refusal("error.not_your_game")  # others' games only once finished
    return row


def _take_hint(game: Game, lang: str) -> Reply:
    """Take or pass, for the player a double is offered to."""
    h = cube_hint(game.position, game.context(game.on_roll), plies=HINT_PLIES)
    key = "hint.take" if h.response == "take" else "hint.pass"
    dt, dp = number(-h.double_take, "+.3f", lang), number(-h.double_pass, "+.3f", lang)
    return Reply(text=t(key, lang, dt=dt, dp=dp), ephemeral=True)


def _double_hint(game: Game, seat: int, lang: str) -> Reply:
    h = cube_hint(game.position, game.context(seat), plies=HINT_PLIES)
    return Reply(
        text=t(
            "hint.cube",
            lang,
            advice=_cube_advice(h.action, h.response, lang),
            nd=number(h.no_double, "+.3f", lang),
            dt=number(h.double_take, "+.3f", lang),
            dp=number(h.double_pass, "+.3f", lang),
        ),
        ephemeral=True,
    )


def _decision_hint(table: Table, seat: int, lang: str, prefs: Prefs) -> Reply:
    """``/hint`` without a rollout: the best plays, or the cube decision."""
    game = table.game
    if game.phase is Phase.MOVE:
        return _play_hint(table, seat, lang, prefs)
    if game.phase is Phase.ROLL and game.can_double():
        return _double_hint(game, seat, lang)
    if game.phase is Phase.DOUBLED:
        return _take_hint(game, lang)
    raise Refusal("hint.nothing")


def _play_hint(table: Table, seat: int, lang: str, prefs: Prefs) -> Reply:
    game = table.game
    dice = game.partial.dice
    moves = hint(game.position, dice, game.context(seat), n=5, plies=HINT_PLIES)
    lines = [t("hint.title", lang, **high_first(dice))]
    if game.partial.steps:  # the list is of whole plays, not of what is left to move
        lines.append(t("hint.from_turn_start", lang))
    for i, h in enumerate(moves, start=1):
        # The difference of the figures shown (rounded first), so that they subtract as read.
        behind = round(h.equity, 3) - round(moves[0].equity, 3)
        diff = "" if i == 1 else f" ({number(behind, '+.3f', lang)})"
        equity, win = number(h.equity, "+.3f", lang), number(100 * h.probs[0], ".1f", lang)
        lines.append(
            t("hint.line", lang, rank=i, play=str(h.play), equity=equity, diff=diff, win=win)
        )
    image = _best_drawn(table, seat, lang, moves[0].play, prefs) if moves else None
    return Reply(text="\n".join(lines), image=image, image_name="hint.png", ephemeral=True)


def _best_drawn(table: Table, seat: int, lang: str, best: Play, prefs: Prefs) -> bytes | None:
    """The board after the best play, seen by the mover who just played it, in his theme."""
    game = table.game
    after = game.position.apply(best).swap_players()
    base = board_view(table, seat, lang, UiState(), mirrored=prefs.mirrored, theme=prefs.theme)
    view = BoardView(
        mirrored=base.mirrored,
        theme=base.theme,
        names=base.names,
        colors=base.colors,
        dice=game.partial.dice,
        dice_left=(),
        context=base.context,
        cube=base.cube,
        last_play=best,
        last_play_by="mover",
        # A still of the advice, not the live board: captioned, and nobody "to play".
        caption=(t("hint.caption", lang, play=str(best)),),
        turn_marker=False,
        lang=lang,
    )
    try:
        return DRAWERS.draw(after, view)  # off the GIL of the presses, like every board
    except ValueError:
        log.exception("drawing the hint failed")
        return None


def _cube_advice(action: str, response: str, lang: str) -> str:
    if action == "no double":
        return t("hint.no_double", lang)
    if action == "too good":
        return t("hint.too_good", lang)
    return t("hint.double_take" if response == "take" else "hint.double_pass", lang)


def _analysable(table: Table) -> None:
    """Hints and reviews in the standard game and nackgammon (15 checkers, which the
    evaluations know); refused in hypergammon."""
    if table.match.variant is Variant.HYPERGAMMON:
        raise Refusal("error.variant_no_analysis")


def _reviewable(row: GameRow, table: Table) -> tuple[bool, dict[str, Any] | None]:
    """Whether the game goes on, and its kept review: refused in hypergammon, and while a
    game between people is played."""
    _analysable(table)
    going_on = row.status is GameStatus.ACTIVE
    if going_on and not table.against_computer:
        raise Refusal("review.not_finished", id=row.id)
    return going_on, None if going_on else row.review


def _review_reply(
    table: Table, review: Review, lang: str, asker: int | None = None, rollout: int | None = None
) -> Reply:
    """The review; the worst mistakes and the chances chart are those of ``asker`` (a seat)
    when he played the game, else of its first human player; ``rollout``: its mistakes rolled
    out with that many trials."""
    names = (table.seats[0].name, table.seats[1].name)
    lines = [t("review.title", lang, id=table.game_id, p0=names[0], p1=names[1])]
    for player in (0, 1):
        if not table.seats[player].is_computer:
            lines.append(_player_line(review, player, names[player], lang))
            pr = pr_line(review, player, lang)  # XG's PR beside the error rates
            if pr:
                lines.append(pr)
    human = next((i for i in (0, 1) if not table.seats[i].is_computer), 0)
    if asker is not None and not table.seats[asker].is_computer:
        human = asker
    attachments = _mistakes(
        review, human, names, lang, lines, table.game_id, rollout, table.game.cube_enabled
    )
    chart = None
    with contextlib.suppress(ValueError):
        chart = DRAWERS.call(review_chart, review, names=names, player=human, lang=lang)
    return Reply(
        text="\n".join(lines),
        image=chart,
        image_name=f"game-{table.game_id}-chances.png",  # one name per game: nothing overwritten
        attachments=attachments,
    )


def _player_line(review: Review, player: int, name: str, lang: str) -> str:
    st = review.stats(player)
    if st.unforced_moves == 0 and st.cube_decisions == 0:
        luck = number(st.luck, "+.3f", lang)
        return t("review.player_no_decision", lang, name=name, luck=luck)
    none = t("review.none_short", lang)
    return t(
        "review.player" if st.unforced_moves else "review.player_cube_only",
        lang,
        name=name,
        rate=_rate(st.error_rate, none, lang),
        rating=t(f"rating.{st.rating}", lang) if st.rating else none,
        checker=_rate(st.checker_rate, none, lang),
        moves=st.unforced_moves,
        cube=_rate(st.cube_rate, none, lang),
        cubes=st.cube_decisions,
        luck=number(st.luck, "+.3f", lang),
        # The rating is of the luck a roll (GNU Backgammon's), not of the game's sum above.
        luck_rate=number(st.luck_rate, "+.1f", lang) if st.luck_rate is not None else none,
        luck_rating=t(f"luck.{st.luck_rating}", lang) if st.luck_rating else none,
    )


def _mistakes(
    review: Review,
    human: int,
    names: tuple[str, str],
    lang: str,
    lines: list[str],
    game_id: int,
    rollout: int | None = None,
    cube: bool = True,
) -> list[Attachment]:
    """The three worst mistakes of ``human``: a line each in ``lines`` (and its rollout's, with
    ``rollout`` trials, cubeful in a money game with the ``cube``), and their cards."""
    attachments: list[Attachment] = []
    worst = review.worst(human, 3)
    rolled = rollout_mistakes(worst, rollout, lang, cube) if rollout is not None else {}
    for n, decision in enumerate(worst, start=1):
        move = decision.kind == "move"
        lines.append(
            t(
                "review.mistake" if move else "review.mistake_cube",
                lang,
                n=n,
                name=names[decision.player],
                played=_decision_text(decision.kind, decision.played, lang, "review.cube_did"),
                best=_decision_text(decision.kind, decision.best, lang, "review.cube_do"),
                error=round(1000 * decision.error),
                mark=_mark(decision.error, lang),
            )
        )
        if n - 1 in rolled:
            lines.append(rolled[n - 1])
        try:
            drawn = mistake_board(decision, names=names, colors=COLORS, lang=lang, cube=cube)
            card = DRAWERS.draw(*drawn)
        except ValueError:
            continue
        attachments.append(Attachment(f"game-{game_id}-mistake-{n}.png", card))
    return attachments


def _mark(error: float, lang: str) -> str:
    """ ", blunder": the error's mark (:func:`~engine.analysis.error_size`, as the web board's
    review says it), or "" below "doubtful"."""
    size = error_size(error)
    return "" if size is None else t("review.mark", lang, size=t(f"review.size.{size}", lang))


def _decision_text(kind: str, what: str, lang: str, cube: str) -> str:
    """A play stays in notation; a cube action ("no double", "take"...) is said by ``cube``'s
    words ("doubled", "not double")."""
    if kind == "move":
        return what or t("review.no_move", lang)
    return t(f"{cube}.{what}", lang)


def _rate(value: float | None, none: str, lang: str) -> str:
    return none if value is None else number(value, ".1f", lang)


def _review_by_game(table: Table, lang: str | None) -> Review:
    """:func:`review_match` of the table's match a game at a time (each in the reviews' worker
    process), its progress told between games in ``lang`` (nothing without)."""
    games = table.match.games
    parts = []
    for k, game in enumerate(games):
        if lang is not None:
            if len(games) == 1:
                report_progress(t("review.progress_one", lang))
            else:
                report_progress(t("review.progress", lang, game=k + 1, games=len(games)))
        parts.append(heavy.POOLS.analyse(review_game, game, plies=REVIEW_PLIES, index=k))
    return combine_reviews(parts)

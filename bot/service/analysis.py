"""Hints, post-game reviews and exports: what strong players come back for.

The computing (a hint takes tens of milliseconds, a review about a second) runs in the calling
thread, which adapters keep off the event loop; a review is computed once per game and cached in
the database, outside the game's unit of work, so it never holds up play.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from bot import heavy
from bot.i18n import t
from bot.service.people import Actor, Where
from bot.service.present import COLORS, Table, UiState, board_view
from bot.service.replies import Attachment, Reply
from db import games as game_repo
from db import stats as stats_repo
from db.models import Game as GameRow
from db.models import GameEvent, GameStatus
from engine import Phase, write_mat
from engine.analysis import Review, cube_hint, hint, review_match
from render import BoardView, render_board
from render.analysis import mistake_card, review_chart

if TYPE_CHECKING:
    from bot.service.core import Service

__all__ = ["REVIEW_PLIES", "AnalysisMixin"]

log = logging.getLogger(__name__)

REVIEW_PLIES = 2
HINT_PLIES = 2


class AnalysisMixin:
    """``/hint``, ``/review`` and ``/export`` (mixed into :class:`~bot.service.core.Service`)."""

    # -- /hint ----------------------------------------------------------------------------------

    def hint(self: Service, actor: Actor, where: Where) -> Reply:
        """``/hint``: the best plays of the current roll with their equities, the best drawn on
        the board; or the cube decision before a roll or on a double. Never in rated games."""

        def run() -> Reply:
            from bot.service.core import Refusal

            with self._unit() as s:
                who = self._who(s, actor)
                lang = who.lang
                row = self._current(s, actor, where)
                if row.rated:
                    raise Refusal("hint.rated")
                table = self._localized(self._table(s, row), lang)
            seat = table.seat_of(actor.id)
            game = table.game
            if game.turn != seat:
                raise Refusal("hint.not_your_turn")
            if game.phase is Phase.MOVE:
                return self._play_hint(table, seat, lang)
            if game.phase is Phase.ROLL and game.can_double():
                h = cube_hint(game.position, game.context(seat), plies=HINT_PLIES)
                return Reply(
                    text=t(
                        "hint.cube",
                        lang,
                        advice=_cube_advice(h.action, h.response, lang),
                        nd=f"{h.no_double:+.3f}",
                        dt=f"{h.double_take:+.3f}",
                        dp=f"{h.double_pass:+.3f}",
                    ),
                    ephemeral=True,
                )
            if game.phase is Phase.DOUBLED:
                h = cube_hint(game.position, game.context(game.on_roll), plies=HINT_PLIES)
                key = "hint.take" if h.response == "take" else "hint.pass"
                return Reply(
                    text=t(key, lang, dt=f"{-h.double_take:+.3f}", dp=f"{-h.double_pass:+.3f}"),
                    ephemeral=True,
                )
            raise Refusal("hint.nothing")

        return self._guard(actor, run)

    def _play_hint(self: Service, table: Table, seat: int, lang: str) -> Reply:
        game = table.game
        dice = game.partial.dice
        moves = hint(game.position, dice, game.context(seat), n=5, plies=HINT_PLIES)
        lines = [t("hint.title", lang, d1=dice[0], d2=dice[1])]
        for i, h in enumerate(moves, start=1):
            diff = "" if i == 1 else f" ({h.difference:+.3f})"
            lines.append(
                t(
                    "hint.line",
                    lang,
                    rank=i,
                    play=str(h.play),
                    equity=f"{h.equity:+.3f}",
                    diff=diff,
                    win=f"{100 * h.probs[0]:.1f}",
                )
            )
        image = None
        if moves:
            best = moves[0].play
            after = game.position.apply(best).swap_players()  # seen by the mover, just played
            base = board_view(table, seat, lang, UiState(), mirrored=False)
            view = BoardView(
                names=base.names,
                colors=base.colors,
                dice=dice,
                dice_left=(),
                context=base.context,
                last_play=best,
                last_play_by="mover",
                lang=lang,
            )
            try:
                image = render_board(after, view=view)
            except ValueError:
                log.exception("drawing the hint failed")
        return Reply(text="\n".join(lines), image=image, image_name="hint.png", ephemeral=True)

    # -- /review --------------------------------------------------------------------------------

    def review(self: Service, actor: Actor, where: Where, game_id: int | None = None) -> Reply:
        """``/review [game]``: error rates, ratings, luck, the three worst mistakes with the
        better play drawn, and the winning chances move by move, for a finished game (the
        player's last one by default)."""

        def run() -> Reply:
            with self._unit() as s:
                who = self._who(s, actor)
                lang = who.lang
                row = self._finished(s, actor, game_id)
                table = self._localized(self._table(s, row), lang)
                cached = row.review
                row_id = row.id
            review = Review.from_dict(cached) if cached else None
            if review is None:
                # One computation per game: a second request waits for the first's result.
                review = heavy.POOLS.flights.run(
                    ("review", row_id),
                    lambda: heavy.POOLS.analyse(review_match, table.match, plies=REVIEW_PLIES),
                )
                self._cache_review(row_id, review.to_dict())
            return _review_reply(table, review, lang, table.seat_of(actor.id))

        return self._guard(actor, run)

    def _finished(self: Service, s: Any, actor: Actor, game_id: int | None) -> GameRow:
        from bot.service.core import Refusal

        if game_id is None:
            rows = stats_repo.game_history(s, actor.id, limit=1)
            if not rows:
                raise Refusal("review.none")
            return rows[0]
        if not isinstance(game_id, int) or not 0 < game_id < 2**53:
            raise Refusal("error.no_such_game")
        row = game_repo.get_game(s, game_id)
        if row.status is GameStatus.ACTIVE:
            raise Refusal("review.not_finished", id=game_id)
        return row

    def _cache_review(self: Service, game_id: int, data: dict[str, Any]) -> None:
        # A unit of work of its own, touching only the cache column: play is never held up, and
        # a lost race (two reviews at once) only computes the same review twice.
        try:
            with self._unit() as s:
                s.execute(
                    GameRow.__table__.update().where(GameRow.id == game_id).values(review=data)
                )
        except Exception:
            log.exception("caching the review of game %s failed", game_id)

    # -- /export --------------------------------------------------------------------------------

    def export(self: Service, actor: Actor, where: Where, game_id: int | None = None) -> Reply:
        """``/export [game]``: the game or match as a Jellyfish ``.mat`` file that GNU
        Backgammon imports, and the Position ID and Match ID after every action."""

        def run() -> Reply:
            from bot.service.core import Refusal

            with self._unit() as s:
                who = self._who(s, actor)
                lang = who.lang
                if game_id is None:
                    rows = [
                        r
                        for r in game_repo.active_games(s, actor.id)
                        if r.channel_id == where.channel_id
                    ]
                    rows = rows or list(stats_repo.game_history(s, actor.id, limit=1))
                    if not rows:
                        raise Refusal("export.none")
                    row = rows[0]
                else:
                    if not isinstance(game_id, int) or not 0 < game_id < 2**53:
                        raise Refusal("error.no_such_game")
                    row = game_repo.get_game(s, game_id)
                if row.seat_of(actor.id) is None and row.status is GameStatus.ACTIVE:
                    raise Refusal("error.not_your_game")  # others' games only once finished
                table = self._localized(self._table(s, row), lang)
                moments = s.execute(
                    select(
                        GameEvent.seq,
                        GameEvent.game_no,
                        GameEvent.kind,
                        GameEvent.player,
                        GameEvent.play,
                        GameEvent.position_id,
                        GameEvent.match_id,
                    )
                    .where(GameEvent.game_id == row.id)
                    .order_by(GameEvent.seq)
                ).all()
                number = row.id
            names = (table.seats[0].name, table.seats[1].name)
            mat = write_mat(table.match, names)
            lines = [
                f"# game {number}: {names[0]} vs {names[1]}",
                "# seq game kind player play -> Position ID : Match ID",
            ]
            for seq, game_no, kind, player, play, pid, mid in moments:
                who_ = "-" if player is None else names[player]
                lines.append(
                    f"{seq:4d} {game_no:2d} {kind:8s} {who_[:16]:16s} {play or '':24s} "
                    f"-> {pid}:{mid}"
                )
            game = table.game
            text = t(
                "export.done",
                lang,
                id=number,
                position_id=game.position_id(),
                match_id=game.match_id(),
            )
            return Reply(
                text=text,
                ephemeral=True,
                attachments=[
                    Attachment(f"game-{number}.mat", mat.encode("utf-8")),
                    Attachment(f"game-{number}-ids.txt", "\n".join(lines).encode("utf-8") + b"\n"),
                ],
            )

        return self._guard(actor, run)


def _cube_advice(action: str, response: str, lang: str) -> str:
    if action == "no double":
        return t("hint.no_double", lang)
    if action == "too good":
        return t("hint.too_good", lang)
    return t("hint.double_take" if response == "take" else "hint.double_pass", lang)


def _review_reply(table: Table, review: Review, lang: str, asker: int | None = None) -> Reply:
    """The review; the worst mistakes and the chances chart are those of ``asker`` (a seat)
    when he played the game, else of its first human player."""
    names = (table.seats[0].name, table.seats[1].name)
    lines = [t("review.title", lang, id=table.game_id, p0=names[0], p1=names[1])]
    for player in (0, 1):
        if table.seats[player].is_computer:
            continue
        st = review.stats(player)
        none = t("review.none_short", lang)
        lines.append(
            t(
                "review.player",
                lang,
                name=names[player],
                rate=_rate(st.error_rate, none),
                rating=t(f"rating.{st.rating}", lang) if st.rating else none,
                checker=_rate(st.checker_rate, none),
                moves=st.unforced_moves,
                cube=_rate(st.cube_rate, none),
                cubes=st.cube_decisions,
                luck=f"{st.luck:+.3f}",
                luck_rating=t(f"luck.{st.luck_rating}", lang) if st.luck_rating else none,
            )
        )
    attachments: list[Attachment] = []
    human = next((i for i in (0, 1) if not table.seats[i].is_computer), 0)
    if asker is not None and not table.seats[asker].is_computer:
        human = asker
    for n, decision in enumerate(review.worst(human, 3), start=1):
        lines.append(
            t(
                "review.mistake",
                lang,
                n=n,
                name=names[decision.player],
                played=_decision_text(decision.kind, decision.played, lang),
                best=_decision_text(decision.kind, decision.best, lang),
                error=f"{1000 * decision.error:.0f}",
            )
        )
        try:
            card = mistake_card(decision, names=names, colors=COLORS, lang=lang)
        except ValueError:
            continue
        attachments.append(Attachment(f"mistake-{n}.png", card))
    chart = None
    with contextlib.suppress(ValueError):
        chart = review_chart(review, names=names, player=human, lang=lang)
    return Reply(
        text="\n".join(lines), image=chart, image_name="chances.png", attachments=attachments
    )


def _decision_text(kind: str, what: str, lang: str) -> str:
    """A play stays in notation; a cube action ("no double", "take"...) is a word to translate."""
    if kind == "move":
        return what or t("review.no_move", lang)
    return t(f"cube.{what}", lang)


def _rate(value: float | None, none: str) -> str:
    return none if value is None else f"{value:.1f}"

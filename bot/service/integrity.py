"""Fair dice you can check: ``/verify`` replays every die of a finished game from its revealed
seed; ``/dice`` shows how a player's (or a server's) rolls compare with fair dice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from bot.dice import dice_of_events, verify_rolls
from bot.i18n import t
from bot.service.people import Actor, Where
from bot.service.replies import Reply
from bot.stats import summarize_rolls
from db import games as game_repo
from db import stats as stats_repo
from db.models import GameEvent, GameStatus

if TYPE_CHECKING:
    from bot.service.core import Service

__all__ = ["IntegrityMixin"]


class IntegrityMixin:
    """Dice verification and statistics (mixed into :class:`~bot.service.core.Service`)."""

    def verify(self: Service, actor: Actor, where: Where, game_id: int) -> Reply:
        """``/verify game``: check every die of a finished game against its revealed seed and
        the commitment published when it started."""

        def run() -> Reply:
            from bot.service.core import Refusal

            if not isinstance(game_id, int) or not 0 < game_id < 2**53:
                raise Refusal("error.no_such_game")
            with self._unit() as s:
                who = self._who(s, actor)
                lang = who.lang
                row = game_repo.get_game(s, game_id)
                if row.status is GameStatus.ACTIVE or row.dice_seed is None:
                    raise Refusal("verify.not_finished", id=game_id)
                events = s.execute(
                    select(GameEvent.kind, GameEvent.die1, GameEvent.die2)
                    .where(GameEvent.game_id == game_id)
                    .order_by(GameEvent.seq)
                ).all()
                commitment = row.dice_commitment or ""
                seed_hex = row.dice_seed
            pairs = [(k, (a, b) if a and b else None) for k, a, b in events]
            dice = dice_of_events(pairs)
            problems = verify_rolls(bytes.fromhex(seed_hex), commitment, dice)
            if problems:
                return Reply(
                    text=t("verify.failed", lang, id=game_id, problems="\n".join(problems[:10]))
                )
            return Reply(
                text=t(
                    "verify.ok",
                    lang,
                    id=game_id,
                    count=len(dice),
                    seed=seed_hex,
                    commitment=commitment,
                )
            )

        return self._guard(actor, run)

    def dice_stats(self: Service, actor: Actor, where: Where, user: Actor | None = None) -> Reply:
        """``/dice [user]``: a player's rolls (or, without a user in a server, the server's)
        next to fair dice, with chi-square tests."""

        def run() -> Reply:
            with self._unit() as s:
                who = self._who(s, actor)
                lang = who.lang
                if user is not None:
                    counts = stats_repo.roll_counts(s, player_id=user.id)
                    title = t("dice.title_player", lang, name=user.name)
                elif where.guild_id is not None:
                    counts = stats_repo.roll_counts(s, guild_id=where.guild_id)
                    title = t("dice.title_server", lang)
                else:
                    counts = stats_repo.roll_counts(s, player_id=actor.id)
                    title = t("dice.title_player", lang, name=actor.name)
            summary = summarize_rolls(counts)
            if not summary.rolls:
                return Reply(text=title + "\n" + t("dice.none", lang))
            expected = summary.rolls * 2 / 6
            faces = "  ".join(f"{face}: {n}" for face, n in enumerate(summary.faces, start=1))
            assert summary.faces_test is not None and summary.rolls_test is not None
            lines = [
                title,
                t("dice.rolls", lang, rolls=summary.rolls, expected=f"{expected:.1f}"),
                f"`{faces}`",
                t(
                    "dice.doubles",
                    lang,
                    doubles=summary.doubles,
                    rate=f"{100 * summary.doubles_rate:.1f}",
                ),
                t(
                    "dice.faces_test",
                    lang,
                    chi=f"{summary.faces_test.statistic:.2f}",
                    p=f"{summary.faces_test.p_value:.3f}",
                ),
                t(
                    "dice.rolls_test",
                    lang,
                    chi=f"{summary.rolls_test.statistic:.2f}",
                    p=f"{summary.rolls_test.p_value:.3f}",
                ),
                t(
                    "dice.verdict_ok"
                    if min(summary.faces_test.p_value, summary.rolls_test.p_value) > 0.001
                    else "dice.verdict_odd",
                    lang,
                ),
            ]
            return Reply(text="\n".join(lines))

        return self._guard(actor, run)

"""Fair dice you can check: ``/verify`` replays every die of a finished game from its revealed
seed; ``/dice`` shows how a player's (or a server's) rolls compare with fair dice."""

from __future__ import annotations

from bot.dice import dice_of_events, verify_rolls
from bot.i18n import number, t
from bot.service.deps import Deps, answers
from bot.service.people import Actor, Where
from bot.service.refusal import Refusal, check_game_id
from bot.service.replies import Reply
from bot.stats import DiceSummary, summarize_rolls
from db import games as game_repo
from db import stats as stats_repo
from db.models import GameStatus

__all__ = ["Integrity"]


class Integrity:
    """Dice verification and statistics."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    @answers
    def verify(self, actor: Actor, where: Where, game_id: int) -> Reply:
        """``/verify game``: check every die of a finished game against its revealed seed and
        the commitment published when it started."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
            row = game_repo.get_game(s, check_game_id(game_id))
            if row.status is GameStatus.ACTIVE or row.dice_seed is None:
                raise Refusal("verify.not_finished", id=game_id)
            events = game_repo.game_events(s, game_id)
            commitment = row.dice_commitment or ""
            seed_hex = row.dice_seed
        pairs = [(e.kind, (e.die1, e.die2) if e.die1 and e.die2 else None) for e in events]
        dice = dice_of_events(pairs)
        problems = verify_rolls(bytes.fromhex(seed_hex), commitment, dice)
        if problems:
            text = t("verify.failed", lang, id=game_id, problems="\n".join(problems[:10]))
            return Reply(text=text)
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

    @answers
    def dice_stats(self, actor: Actor, where: Where, user: Actor | None = None) -> Reply:
        """``/dice [user]``: a player's rolls (or, without a user in a server, the server's)
        next to fair dice, with chi-square tests."""
        with self.deps.unit() as s:
            lang = self.deps.who(s, actor).lang
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
        return Reply(text="\n".join([title, *_dice_lines(summary, lang)]))


def _dice_lines(summary: DiceSummary, lang: str) -> list[str]:
    expected = summary.rolls * 2 / 6
    faces = "  ".join(f"{face}: {n}" for face, n in enumerate(summary.faces, start=1))
    faces_test, rolls_test = summary.faces_test, summary.rolls_test
    assert faces_test is not None and rolls_test is not None
    fair = min(faces_test.p_value, rolls_test.p_value) > 0.001
    doubles_rate = number(100 * summary.doubles_rate, ".1f", lang)
    return [
        t("dice.rolls", lang, rolls=summary.rolls, expected=number(expected, ".1f", lang)),
        f"`{faces}`",
        t("dice.doubles", lang, doubles=summary.doubles, rate=doubles_rate, fair=100 / 6),
        t(
            "dice.faces_test",
            lang,
            chi=number(faces_test.statistic, ".2f", lang),
            p=number(faces_test.p_value, ".3f", lang),
        ),
        t(
            "dice.rolls_test",
            lang,
            chi=number(rolls_test.statistic, ".2f", lang),
            p=number(rolls_test.p_value, ".3f", lang),
        ),
        t("dice.verdict_ok" if fair else "dice.verdict_odd", lang),
    ]

"""Games between two people: ``/challenge`` posts an invitation with Accept / Decline / Cancel
buttons; Accept starts the game in the same message."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from sqlalchemy.orm import Session

from bot.i18n import t
from bot.i18n.markdown import escape_name
from bot.service.customid import Answer, ChallengeAction
from bot.service.deps import Deps, answers, shared_lang
from bot.service.model import Notes, Seat, Table
from bot.service.newgame import NewGames
from bot.service.people import Actor, Where
from bot.service.present import board_reply
from bot.service.refusal import Refusal, aware
from bot.service.replies import Button, Component, Reply, Style
from bot.service.tables import prefs_of
from bot.service.threads import thread_plan
from bot.service.variants import kind_text, said_of_kind, variant_named
from db import challenges as challenge_repo
from db import players as player_repo
from db.errors import ChallengeClosed, ChallengePending
from db.games import NewGame
from db.models import Challenge, ChallengeStatus

__all__ = ["Challenges"]

_BUTTONS: tuple[tuple[Answer, str, Style], ...] = (
    (Answer.ACCEPT, "button.accept", "success"),
    (Answer.DECLINE, "button.decline", "danger"),
    (Answer.CANCEL, "button.cancel", "secondary"),
)
_CLOSED = {
    ChallengeStatus.CANCELLED: "challenge.cancelled",
    ChallengeStatus.DECLINED: "challenge.declined",
}


class Challenges:
    """``/challenge`` and the answers to it."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.new = NewGames(deps)

    @answers
    def challenge(
        self,
        actor: Actor,
        where: Where,
        opponent: Actor,
        *,
        points: int = 0,
        cube: bool = True,
        rated: bool = True,
        variant: str = "standard",
        rematch: bool = False,
    ) -> Reply:
        """``/challenge``: invite someone in this channel, with Accept / Decline buttons; a
        variant game is rated in that variant only; a ``rematch`` skips the pause (``_limits``)."""
        deps = self.deps
        with deps.unit() as s:
            lang = shared_lang(deps.who(s, actor), where)
            chosen = variant_named(variant)
            self._check(s, actor, where, opponent)
            length = self.new.length(points)
            self.new.no_game_here(s, actor.id, where, "error.game_here")
            player_repo.ensure_player(s, opponent.id, opponent.name[:100], now=deps.clock())
            self.new.no_game_here(s, opponent.id, where, "error.opponent_busy", name=opponent.name)
            now = deps.clock()
            self._limits(s, actor, opponent, pause=not rematch)
            challenge = self._create(
                s,
                opponent,
                challenger_id=actor.id,
                challenged_id=opponent.id,
                expires_at=now + deps.settings.challenge_ttl,
                match_length=length,
                cube=cube,
                rated=rated,
                variant=chosen.value,
                guild_id=where.guild_id,
                channel_id=where.channel_id,
                now=now,
            )
            return self._invitation(challenge, actor, opponent, lang)

    def _limits(self, s: Session, actor: Actor, opponent: Actor, *, pause: bool = True) -> None:
        """One pending challenge per pair, a pause between two challenges of one person (unless
        not ``pause``: still stamped, so that it counts for his next one), and a cap on his
        pending ones (checked in this order: the most useful refusal first)."""
        settings, now = self.deps.settings, self.deps.clock()
        pending = challenge_repo.pending_between(s, actor.id, opponent.id, now=now)
        if pending is not None:
            raise Refusal("error.challenge_pending_pair", name=opponent.name, id=pending.id)
        cooldown = settings.challenge_cooldown if pause else timedelta(0)
        last = challenge_repo.stamp_challenger(s, actor.id, now=now, cooldown=cooldown)
        if last is not None:
            wait = max(1, math.ceil((aware(last) + cooldown - now).total_seconds()))
            raise Refusal("error.challenge_cooldown", seconds=wait)
        count = challenge_repo.pending_from(s, actor.id, now=now)
        if count >= settings.max_pending_challenges:
            raise Refusal("error.challenge_too_many", count=count)

    @staticmethod
    def _create(s: Session, opponent: Actor, **columns: Any) -> Challenge:
        """The challenge; refused when a racing request made one for the pair first."""
        try:
            return challenge_repo.create_challenge(s, **columns)
        except ChallengePending as first:
            raise Refusal(
                "error.challenge_pending_pair", name=opponent.name, id=first.challenge_id or "?"
            ) from None

    @staticmethod
    def _check(s: Session, actor: Actor, where: Where, opponent: Actor) -> None:
        if where.is_dm:
            raise Refusal("error.challenge_in_dm")
        if opponent.id == actor.id:
            raise Refusal("error.challenge_self")
        if opponent.is_bot:
            raise Refusal("error.challenge_bot", name=opponent.name)

    def _invitation(self, challenge: Challenge, actor: Actor, opponent: Actor, lang: str) -> Reply:
        minutes = int(self.deps.settings.challenge_ttl.total_seconds() // 60)
        length = challenge.match_length
        kind = kind_text(length, challenge.variant, lang)
        text = t(
            "challenge.made",
            lang,
            challenger=actor.name,
            mention=f"<@{opponent.id}>",
            kind=kind,
            rated=said_of_kind(f"challenge.{'' if challenge.rated else 'un'}rated", length, lang),
            cube=t(_cube_key(challenge.cube, length), lang),
            minutes=minutes,
        )
        row: list[Component] = [
            Button(ChallengeAction(challenge.id, answer).custom_id, t(key, lang), style)
            for answer, key, style in _BUTTONS
        ]
        return Reply(text=text, rows=[row], mentions=(opponent.id,))

    @answers
    def answer(self, actor: Actor, where: Where, action: ChallengeAction) -> Reply:
        """Accept, Decline (the challenged person) or Cancel (the challenger)."""
        deps = self.deps
        with deps.unit() as s:
            lang = shared_lang(deps.who(s, actor), where)
            challenge = challenge_repo.get_challenge(s, action.challenge_id)
            if challenge is None:
                raise Refusal("error.no_such_challenge")
            status = _status(actor, challenge, action.action)
            try:
                challenge_repo.answer_challenge(s, challenge.id, status, now=deps.clock())
            except ChallengeClosed as closed:
                if closed.status == "expired":  # the stale challenge message says so in place,
                    # still saying who challenged whom (the message is replaced whole)
                    names = {k: _name_of(s, getattr(challenge, f"{k}_id")) for k in _SIDES}
                    return Reply(text=t("challenge.expired", lang, **names), edit=True)
                # Answered already: that message may be the game's board now, keep it.
                raise Refusal("challenge.closed") from None
            challenger_name = _name_of(s, challenge.challenger_id)
            if status is not ChallengeStatus.ACCEPTED:
                text = t(_CLOSED[status], lang, name=actor.name, challenger=challenger_name)
                return Reply(text=text, edit=True)
            table, notes = self._start(s, actor, challenge, challenger_name, lang)
        reply = board_reply(table, lang, notes, acting=1, edit=True)
        reply.thread = thread_plan(deps, where, table, lang)
        return reply

    def answer_pending(
        self,
        actor: Actor,
        where: Where,
        answer: Answer,
        challenge_id: int | None = None,
        *,
        shown: int | None = None,
    ) -> Reply | None:
        """Answer the person's own pending challenge in this channel without its message (the
        terminal's ``/accept``, ``/decline``, ``/cancel``): the one addressed to him (made by
        him, for Cancel), or ``challenge_id`` among them, or ``shown`` (the challenge on the
        latest message) if it is one of them. None when he has none waiting; with several and
        no number, refused with their numbers."""
        deps = self.deps
        with deps.unit() as s:
            mine = challenge_repo.pending_in_channel(
                s,
                actor.id,
                where.channel_id,
                as_challenger=answer is Answer.CANCEL,
                now=deps.clock(),
            )
            ids = [c.id for c in mine]
            if challenge_id is None and shown in ids:
                challenge_id = shown
            if challenge_id is None and len(mine) > 1:
                cancel = answer is Answer.CANCEL
                others = {c.id: c.challenged_id if cancel else c.challenger_id for c in mine}
                raise Refusal("error.which_challenge", ids=_numbered(s, others), answer=answer)
        if challenge_id is not None and challenge_id not in ids:
            raise Refusal("error.no_such_pending_challenge", id=challenge_id)
        if not ids:
            return None
        return self.answer(actor, where, ChallengeAction(challenge_id or ids[0], answer))

    def _start(
        self, s: Session, actor: Actor, challenge: Challenge, challenger_name: str, lang: str
    ) -> tuple[Table, Notes]:
        """The accepted challenge's game, if both players are still free in its channel."""
        where = Where(channel_id=challenge.channel_id, guild_id=challenge.guild_id)
        self.new.no_game_here(
            s, challenge.challenger_id, where, "error.opponent_busy", name=challenger_name
        )
        self.new.no_game_here(s, actor.id, where, "error.game_here")
        seats = (
            Seat(challenger_name, user_id=challenge.challenger_id),
            Seat(actor.name, user_id=actor.id),
        )
        table = Table(
            0,
            0,
            seats,
            self.new.match(
                challenge.match_length,
                challenge.cube,
                None,
                None,
                variant=variant_named(challenge.variant),
            ),
            rated=challenge.rated,
        )
        notes = Notes()
        notes.add("note.challenge_accepted", name=actor.name)
        new = NewGame(
            player0_id=challenge.challenger_id,
            player1_id=actor.id,
            rated=challenge.rated,
            guild_id=challenge.guild_id,
            channel_id=challenge.channel_id,
            deadline=self.deps.clock() + self.deps.settings.move_timeout,
        )
        row = self.new.start(s, table, new, notes, prefs_of(s, table), lang)
        challenge_repo.link_game(challenge, row.id)
        return table, notes


def _numbered(s: Session, others: dict[int, int]) -> str:
    """``#3 (Alice), #5 (Carol)``: pending challenges and the other person of each."""
    parts = []
    for challenge_id, other_id in others.items():
        other = player_repo.get_player(s, other_id)
        parts.append(f"#{challenge_id} ({escape_name(other.display_name) if other else '?'})")
    return ", ".join(parts)


def _status(actor: Actor, challenge: Challenge, answer: Answer) -> ChallengeStatus:
    """What the answer makes of the challenge, if this person may give it."""
    if answer is Answer.CANCEL:
        if actor.id != challenge.challenger_id:
            raise Refusal("error.not_your_challenge")
        return ChallengeStatus.CANCELLED
    if actor.id != challenge.challenged_id:
        raise Refusal("error.not_challenged")
    return ChallengeStatus.ACCEPTED if answer is Answer.ACCEPT else ChallengeStatus.DECLINED


def _cube_key(cube: bool, length: int) -> str:
    """How the invitation names the cube: in a 1-point match it is dead from the first roll
    (winning the game wins the match), so "with the doubling cube" would promise nothing."""
    if length == 1:
        return "challenge.cube_one_point"
    return "challenge.cube" if cube else "challenge.no_cube"


_SIDES = ("challenger", "challenged")


def _name_of(s: Session, player_id: int) -> str:
    """A player's name as last seen ("?" for a row that is gone)."""
    player = player_repo.get_player(s, player_id)
    return player.display_name if player else "?"

"""The server against the computer (issue 32, item 2): ``/consult`` starts a game between a
channel's team and the computer, and every decision of the team is a vote.

The game is an ordinary game against the computer (the board, ``/export``, ``/review`` and the
web board work on it); its team seat is held by the member who started it, kept out of his
records (a practice game). Whenever the team must decide, a vote opens for ``minutes``:

* a play: the computer's best plays at its level's depth, best first (at most 9; the poll's
  10th answer says to type another play with ``/move``); a forced play is played at once;
* before the team's roll, when it may double and doubling is no clear blunder (its loss is at
  most :data:`CUBE_VOTE_MARGIN`): double or roll;
* a double of the computer: take or pass.

Anyone in the channel votes (``/vote``, the poll, or ``/move`` with a play, which counts as his
vote for it); a second vote replaces the first, as a Discord poll lets one change a vote. When
the vote closes (the sweep, or ``/vote close:true`` by the member who started the game or a
server manager), the most-voted answer is played; a tie goes to the answer the computer ranks
higher (the plays typed with ``/move`` beyond the list rank after it, in the order first
typed); with no vote at all, the computer's own choice for the team. The computer then plays
its side and the next vote opens. At the end, the voters and how often each chose the
computer's choice.

Races: a vote and the closing of a vote both take the consultation's row first
(:func:`db.locking.lock_row`), and a closing checks the vote is still the one it found due:
two sweeps close a vote once, and a vote arriving as it closes is refused ("closed").
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace
from datetime import timedelta

from sqlalchemy.orm import Session

from bot.dice import GameDice
from bot.i18n import Text, t
from bot.service.deps import Deps, answers, shared_lang
from bot.service.games import cube_vote_refusal, level_named
from bot.service.model import Notes, Seat, Table
from bot.service.newgame import NewGames
from bot.service.people import Actor, Prefs, Where
from bot.service.present import board_reply, prompt_line
from bot.service.refusal import Refusal, aware
from bot.service.replies import Poll, Reply
from bot.service.tables import load_table, localized, seat_names
from bot.service.timers import Notice
from bot.service.turns import advance, roll_and_say, save
from db import consult as repo
from db import games as games_repo
from db.games import NewGame
from db.locking import lock_row
from db.models import Consultation
from engine import Game, Phase
from engine.analysis.hints import cube_hint, hint
from engine.bots import LevelSpec, level_spec

__all__ = ["CUBE_VOTE_MARGIN", "MAX_PLAYS", "Consult", "PollInfo"]

log = logging.getLogger(__name__)

MIN_MINUTES, MAX_MINUTES = 1, 1440  # a vote's time: from a minute to a day
MAX_PLAYS = 9  # the poll's answers: these plays, and "another play: /move"
ANSWER_LENGTH = 55  # Discord's limit on a poll answer
QUESTION_LENGTH = 300  # and on its question
CUBE_VOTE_MARGIN = 0.2  # a double losing more than this (cube = 1) is rolled without a vote
_TEAM = (Prefs(auto_roll=True, auto_forced=True), Prefs())


@dataclass(frozen=True)
class PollInfo:
    """An open vote, for the adapter to check its poll is still there after a restart."""

    consultation_id: int
    decision: int
    channel_id: int | None
    guild_id: int | None
    message_id: int | None


class Consult:
    """``/consult``, ``/vote`` and the consultation's sweep."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.new = NewGames(deps)

    # -- starting --------------------------------------------------------------------------

    @answers
    def consult(
        self,
        actor: Actor,
        where: Where,
        *,
        level: str = "intermediate",
        points: int = 0,
        minutes: int = 5,
    ) -> Reply:
        """``/consult``: the channel's team against the computer at ``level``, each vote
        open ``minutes`` (from 1 to a day)."""
        if not MIN_MINUTES <= minutes <= MAX_MINUTES:
            raise Refusal("consult.minutes", low=MIN_MINUTES, high=MAX_MINUTES)
        deps = self.deps
        with deps.unit() as s:
            who = deps.who(s, actor)
            lang = shared_lang(who, where)
            level_name = level_named(level, who.lang)
            guild_id, channel_id = self._free_channel(s, actor, where)
            table = self._team_table(actor, level_name, points)
            notes = _started_notes(actor, level_name, minutes)
            new = _team_game(actor, level_name, guild_id, channel_id)
            row = self.new.start(s, table, new, notes, _TEAM, lang)
            cons = repo.create(
                s,
                game_id=row.id,
                guild_id=guild_id,
                channel_id=channel_id,
                lang=lang,
                level=level_name,
                seat=0,
                seconds=minutes * 60,
                now=deps.clock(),
            )
            dice = deps.dice(row)
            self._next_decision(s, cons, table, notes, lang, dice)
            posted = save(deps, s, row, table, dice)
            assert not posted
            return self._game_reply(s, cons, table, notes, lang)

    def _free_channel(self, s: Session, actor: Actor, where: Where) -> tuple[int, int]:
        """The server and channel of a new consultation (refused outside a server, or where a
        consultation or the actor's game goes on)."""
        if where.channel_id is None or where.guild_id is None:
            raise Refusal("consult.server_only")
        if repo.open_here(s, where.channel_id) is not None:
            raise Refusal("consult.running")
        self.new.no_game_here(s, actor.id, where, "error.game_here")
        return where.guild_id, where.channel_id

    def _team_table(self, actor: Actor, level_name: str, points: int) -> Table:
        """The new game's table: the team's seat held by ``actor``, the computer's at
        ``level_name``, with the cube."""
        length = self.new.length(points)
        match = self.new.match(length, True, None, None)
        seats = (Seat(actor.name, user_id=actor.id), Seat("", level=level_name))
        return Table(0, 0, seats, match)

    # -- voting ----------------------------------------------------------------------------

    @answers
    def vote(
        self, actor: Actor, where: Where, *, choice: int | None = None, close: bool = False
    ) -> Reply:
        """``/vote N``: vote for the N-th answer of the vote open in this channel (a second vote
        replaces the first); ``close:true``: close it now (the member who started the game or
        a server manager)."""
        if close:
            return self._close_now(actor, where)
        deps = self.deps
        with deps.unit() as s:
            lang = deps.who(s, actor).lang
            cons = self._open_vote(s, where)
            shown = len(_shown(cons))
            if choice == shown + 1 and cons.kind == "play":
                raise Refusal("consult.other")  # a typed play is voted for with /move only
            if choice is None or not 1 <= choice <= shown:
                raise Refusal("consult.choose", count=shown)
            return self._record(s, cons, actor, choice - 1, lang)

    @answers
    def move(self, actor: Actor, where: Where, notation: str) -> Reply:
        """``/move`` during a vote: the typed play counts as the person's vote for it (appended
        to the answers when the list lacks it); an illegal play is refused by the engine."""
        deps = self.deps
        with deps.unit() as s:
            lang = deps.who(s, actor).lang
            cons = self._open_vote(s, where)
            if cons.kind != "play":
                raise cube_vote_refusal("consult.move_on_cube", cons.choices or [])
            game = load_table(deps, s, games_repo.get_game(s, cons.game_id)).game
            trial = Game.from_dict(game.to_dict())
            play = str(trial.play_text(notation))
            return self._record(s, cons, actor, repo.add_choice(cons, play), lang)

    def poll_vote(self, actor: Actor, message_id: int, answer: int, *, added: bool = True) -> None:
        """A vote added to (or removed from) a consultation's Discord poll: ``answer`` counts
        from 1, as Discord's answer ids do. A vote on a closed or unknown poll, or for the
        poll's "another play" answer, changes nothing (Discord tells no one of a refusal)."""
        deps = self.deps
        with deps.unit() as s:
            found = repo.by_message(s, message_id)
            if found is None:
                return
            cons = lock_row(s, Consultation, found.id)
            if cons is None or not self._is_open(cons) or cons.message_id != message_id:
                return
            choice = answer - 1
            if not 0 <= choice < cons.shown:
                return  # "another play": typed with /move
            deps.who(s, actor)
            if added:
                repo.cast_vote(s, cons, actor.id, choice, now=deps.clock())
            else:
                repo.withdraw(s, cons, actor.id, choice)

    def _open_vote(self, s: Session, where: Where, closed: str = "consult.closed") -> Consultation:
        found = repo.open_here(s, where.channel_id)
        if found is None:
            raise Refusal("consult.none")
        cons = lock_row(s, Consultation, found.id)
        if cons is None or cons.closes_at is None:
            raise Refusal("consult.no_vote")
        if not self._is_open(cons):
            raise Refusal(closed)
        return cons

    def _is_open(self, cons: Consultation) -> bool:
        return (
            cons.status == repo.OPEN
            and cons.closes_at is not None
            and aware(cons.closes_at) > self.deps.clock()
        )

    def _record(
        self, s: Session, cons: Consultation, actor: Actor, choice: int, lang: str
    ) -> Reply:
        before = repo.cast_vote(s, cons, actor.id, choice, now=self.deps.clock())
        what = _answer(cons, choice, lang)
        if before is None:
            text = t("consult.voted", lang, choice=what, number=cons.decision)
        elif before == choice:
            text = t("consult.voted_same", lang, choice=what, number=cons.decision)
        else:
            was = _answer(cons, before, lang)
            text = t("consult.vote_changed", lang, choice=what, was=was, number=cons.decision)
        return Reply(text=text, ephemeral=True)

    # -- closing ---------------------------------------------------------------------------

    def _close_now(self, actor: Actor, where: Where) -> Reply:
        deps = self.deps
        with deps.unit() as s:
            deps.who(s, actor)
            cons = self._open_vote(s, where, "consult.close_closed")
            game = games_repo.get_game(s, cons.game_id)
            if actor.id != game.player0_id and not where.manager:
                raise Refusal("consult.close_who")
            reply = self._close(s, cons)
        assert reply is not None
        reply.draw_later()
        return reply

    def sweep(self, only: int | None = None) -> list[Notice]:
        """Close every vote past its time (in the terminal's server only with ``only``):
        what each posts next (the board and the next vote, or the end)."""
        deps = self.deps
        with deps.unit() as s:
            ids = repo.due(s, deps.clock(), only)
        notices: list[Notice] = []
        for cid in ids:
            try:
                with deps.unit() as s:
                    cons = lock_row(s, Consultation, cid)
                    if cons is None or cons.status != repo.OPEN or cons.closes_at is None:
                        continue  # another sweep closed it first
                    if aware(cons.closes_at) > deps.clock():
                        continue
                    reply = self._close(s, cons)
                    channel, guild, game_id = cons.channel_id, cons.guild_id, cons.game_id
            except Exception:
                log.exception("closing the vote of consultation %s failed", cid)
                continue
            if reply is not None:
                reply.draw_later()
                notices.append(Notice(game_id, channel, guild, reply))
        return notices

    def _close(self, s: Session, cons: Consultation) -> Reply | None:
        """Play the vote's winner, the computer's side, and open the next vote (the caller
        holds the row)."""
        deps = self.deps
        row = games_repo.get_game(s, cons.game_id)
        table = load_table(deps, s, row)
        lang = cons.lang
        counts = repo.tally(s, cons.id, cons.decision)
        choices = cons.choices or []
        if counts:
            top = max(counts.values())
            # A tie: the answer the computer ranks higher (the lowest index).
            chosen = min(i for i, n in counts.items() if n == top)
            notes = Notes()
            notes.add(
                "consult.result",
                number=cons.decision,
                choice=_answer(cons, chosen, lang),
                votes=top,
                total=sum(counts.values()),
            )
        else:
            chosen = cons.best
            notes = Notes()
            notes.add("consult.no_votes", number=cons.decision, choice=_answer(cons, chosen, lang))
        ended = cons.message_id
        dice = deps.dice(row)
        self._apply(table, cons, choices[chosen], notes, lang, dice)
        self._next_decision(s, cons, table, notes, lang, dice)
        posted = save(deps, s, row, table, dice)
        reply = self._game_reply(s, cons, table, notes, lang)
        reply.ends_poll = ended
        reply.followups += posted
        return reply

    def _apply(
        self,
        table: Table,
        cons: Consultation,
        choice: str,
        notes: Notes,
        lang: str,
        dice: GameDice,
    ) -> None:
        game = table.game
        names = _names(table, cons, lang)
        name = names[cons.seat]
        if cons.kind == "play":
            play = game.play_text(choice)
            notes.played(game)
            notes.add("note.played_you", name=name, play=str(play))
        elif cons.kind == "double":
            if choice == "double":
                game.double()
                notes.add("note.doubles", name=name, value=game.cube_value * 2)
            else:
                roll_and_say(game, dice.roll, notes, name, names)
        elif cons.kind == "take":
            if choice == "take":
                game.take()
                notes.add("note.takes", name=name, value=game.cube_value)
            else:
                game.drop()
                notes.add("note.drops", name=name)

    def _next_decision(
        self,
        s: Session,
        cons: Consultation,
        table: Table,
        notes: Notes,
        lang: str,
        dice: GameDice,
    ) -> None:
        """Play on to the team's next real decision and open its vote (or end the
        consultation)."""
        names = _names(table, cons, lang)
        spec = level_spec(cons.level)
        for _ in range(200):
            advance(table, dice, notes, _TEAM, lang)
            if table.match.is_over:
                repo.finish(cons)
                return
            if self._vote_on(cons, table.game, spec):
                return
            # Doubling is a clear blunder: the team rolls without a vote.
            roll_and_say(table.game, dice.roll, notes, names[cons.seat], names)
        raise RuntimeError("the consultation did not reach a vote")

    def _vote_on(self, cons: Consultation, game: Game, spec: LevelSpec) -> bool:
        """Open the vote on the team's decision in ``game``; False (no vote) before its roll
        when doubling is a clear blunder."""
        seat = cons.seat
        if game.turn != seat:  # pragma: no cover - advance stops only at the team's turn
            raise RuntimeError("a consultation stopped on the computer's turn")
        if game.phase is Phase.ROLL:
            h = cube_hint(game.position, game.context(seat), plies=spec.cube_ply)
            if h.error("double") > CUBE_VOTE_MARGIN:
                return False
            self._open(cons, "double", ["double", "roll"], 0 if h.action == "double" else 1)
        elif game.phase is Phase.DOUBLED:
            h = cube_hint(game.position, game.context(game.on_roll), plies=spec.cube_ply)
            self._open(cons, "take", ["take", "pass"], 0 if h.response == "take" else 1)
        elif game.phase is Phase.MOVE:
            ranked = hint(
                game.position,
                game.partial.dice,
                game.context(seat),
                n=MAX_PLAYS,
                plies=spec.ply,
            )
            self._open(cons, "play", [str(m.play) for m in ranked], 0)
        else:  # a resignation of the computer's: it never offers one
            raise RuntimeError(f"a consultation cannot vote in phase {game.phase}")
        return True

    def _open(self, cons: Consultation, kind: str, choices: list[str], best: int) -> None:
        closes_at = self.deps.clock() + timedelta(seconds=cons.seconds)
        repo.open_decision(cons, kind, choices, best, closes_at)

    # -- what is shown ---------------------------------------------------------------------

    def _game_reply(
        self, s: Session, cons: Consultation, table: Table, notes: Notes, lang: str
    ) -> Reply:
        shown = _team_named(localized(table, lang), cons, lang)
        reply: Reply = board_reply(shown, lang, notes, later=True)
        reply.rows, reply.ping, reply.mentions = [], None, ()
        reply.channel_id = cons.channel_id
        if cons.status == repo.OPEN:  # the vote says what to do, not the player's prompt
            prompt = prompt_line(shown, lang)
            if prompt:
                reply.text = reply.text.replace(prompt + "\n", "", 1)
        if cons.status != repo.OPEN:
            reply.text += "\n" + _voters_text(s, cons, lang)
            return reply
        poll = _poll(cons, lang)
        reply.poll = poll
        lines = [t("consult.vote_head", lang, number=cons.decision, question=poll.question)]
        lines += [f"{i}. {a}" for i, a in enumerate(poll.answers, start=1)]
        how = "consult.vote_how" if cons.kind == "play" else "consult.vote_how_cube"
        lines.append(t(how, lang, minutes=_minutes(cons.seconds)))
        reply.text += "\n" + "\n".join(lines)
        return reply

    # -- the adapters' calls ---------------------------------------------------------------

    def posted(self, consultation_id: int, decision: int, message_id: int) -> bool:
        """The vote's poll was posted as ``message_id``; False when the vote has closed
        since (the adapter ends that poll)."""
        with self.deps.unit() as s:
            cons = lock_row(s, Consultation, consultation_id)
            if cons is None or cons.decision != decision or not self._is_open(cons):
                return False
            repo.poll_posted(cons, message_id)
            return True

    def open_polls(self) -> list[PollInfo]:
        """The votes open now, with their polls' messages (None: not posted)."""
        with self.deps.unit() as s:
            return [
                PollInfo(c.id, c.decision, c.channel_id, c.guild_id, c.message_id)
                for c in repo.open_votes(s)
            ]

    @answers
    def board(self, actor: Actor, where: Where) -> Reply:
        """``/board`` in a consultation's channel: the board with the open vote (its answers
        listed, no second poll), not the move prompt of the member holding the team's seat."""
        deps = self.deps
        with deps.unit() as s:
            lang = deps.who(s, actor).lang
            found = repo.open_here(s, where.channel_id)
            if found is None:
                raise Refusal("consult.none")
            table = load_table(deps, s, games_repo.get_game(s, found.game_id))
            reply = self._game_reply(s, found, table, Notes(), lang)
        reply.poll = None
        reply.draw_later()
        return reply

    def repost(self, consultation_id: int) -> Notice | None:
        """The open vote of a consultation shown again (its poll was lost in a restart), with
        the time it has left; None when no vote is open."""
        deps = self.deps
        with deps.unit() as s:
            cons = lock_row(s, Consultation, consultation_id)
            if cons is None or not self._is_open(cons):
                return None
            repo.poll_lost(cons)
            row = games_repo.get_game(s, cons.game_id)
            table = load_table(deps, s, row)
            notes = Notes()
            notes.add("consult.again", number=cons.decision)
            reply = self._game_reply(s, cons, table, notes, cons.lang)
            notice = Notice(cons.game_id, cons.channel_id, cons.guild_id, reply)
        reply.draw_later()
        return notice


def _started_notes(actor: Actor, level_name: str, minutes: int) -> Notes:
    notes = Notes()
    notes.add(
        "consult.started", name=actor.name, level=Text(f"level.{level_name}"), minutes=minutes
    )
    return notes


def _team_game(actor: Actor, level_name: str, guild_id: int, channel_id: int) -> NewGame:
    """The consultation's game: ``actor`` holds the team's seat, in nobody's record."""
    return NewGame(
        player0_id=actor.id,
        player1_id=None,
        computer_level=level_name,
        guild_id=guild_id,
        channel_id=channel_id,
        practice=True,  # a team's game: in nobody's record
    )


def _shown(cons: Consultation) -> list[str]:
    return (cons.choices or [])[: cons.shown]


def _answer(cons: Consultation, index: int, lang: str) -> str:
    choice = (cons.choices or [])[index]
    if cons.kind == "play":
        return choice
    return t(f"consult.answer.{choice}", lang)


def _poll(cons: Consultation, lang: str) -> Poll:
    answers = [_answer(cons, i, lang)[:ANSWER_LENGTH] for i in range(cons.shown)]
    if cons.kind == "play":
        answers.append(t("consult.answer.other", lang)[:ANSWER_LENGTH])
        question = t("consult.question.play", lang, number=cons.decision)
    else:
        question = t(f"consult.question.{cons.kind}", lang, number=cons.decision)
    assert cons.closes_at is not None
    return Poll(
        question=question[:QUESTION_LENGTH],
        answers=tuple(answers),
        seconds=cons.seconds,
        consultation_id=cons.id,
        decision=cons.decision,
        closes_at=aware(cons.closes_at),
    )


def _minutes(seconds: int) -> int:
    return max(1, math.ceil(seconds / 60))


def _voters_text(s: Session, cons: Consultation, lang: str) -> str:
    voters = repo.voters(s, cons.id)
    if not voters:
        return t("consult.end_nobody", lang)
    lines = [t("consult.end_head", lang)]
    for v in voters:
        share = round(100 * v.best / v.votes) if v.votes else 0
        lines.append(
            t("consult.end_line", lang, name=v.name, votes=v.votes, best=v.best, share=share)
        )
    return "\n".join(lines)


def _team_named(table: Table, cons: Consultation, lang: str) -> Table:
    """``table`` as the channel sees it: the team's seat named "The team" (the board's caption
    says "The team: 13/11 8/4", as the notes say "The team played")."""
    seats = list(table.seats)
    seats[cons.seat] = replace(seats[cons.seat], name=t("consult.team", lang))
    return replace(table, seats=(seats[0], seats[1]))


def _names(table: Table, cons: Consultation, lang: str) -> tuple[str, str]:
    """The seats' names as the consultation's notes say them: the team, and the computer."""
    names = list(seat_names(table, lang))
    names[cons.seat] = t("consult.team", lang)
    return names[0], names[1]

"""``/ladder``: create a ladder, join and leave it, challenge someone above, show it, close the
season; the end of a challenge's game (which moves the rungs) and the sweep (a challenge not
played by its deadline is forfeited, an inactive member drops a rung).

Every change of a ladder runs under its lock (:func:`db.ladders.lock`) and reads the rungs fresh:
two challenges for the same rung, two results arriving together, a join and a drop, several bot
processes take turns on the ladder's row, and the partial unique indexes of the challenges make
the loser of any race fail. A challenge's game is a usual game (its thread, its spectators, its
timers, its review); when it ends, :meth:`Ladders.on_game_end` (subscribed to the end of every
game by the composition root) records the result and moves the rungs in the same unit of work.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.i18n import t
from bot.ladders.rules import (
    ACTIONS,
    Verdict,
    after_result,
    idle_dropped,
    joined,
    left,
    may_challenge,
)
from bot.ladders.view import Board, ladder_reply, list_text, rules_text, when
from bot.service.customid import LadderAction, LadderPress, row_id
from bot.service.deps import Deps, GameEnded, Who, answers, shared_lang
from bot.service.model import Notes, Seat, Table
from bot.service.newgame import NewGames
from bot.service.people import Actor, Where
from bot.service.present import board_reply
from bot.service.refusal import Refusal, aware
from bot.service.replies import Reply, ThreadPlan
from bot.service.tables import load_table, prefs_of
from bot.service.threads import MAX_THREAD_NAME
from bot.service.timers import Notice
from bot.service.turns import save
from bot.service.variants import variant_named
from db import ladders as repo
from db import players as player_repo
from db import together as together_repo
from db.games import NewGame, active_game_in_channel, expire_game, get_game
from db.models import ChallengeState, GameStatus, Ladder, LadderChallenge, LadderStatus, ResultKind
from db.models import Game as GameRow
from engine import Match, Phase, Variant

__all__ = ["ACTIONS", "Ladders"]

_Handler = Callable[[Session, Who, Ladder, dict[str, object]], Reply]
_Step = tuple[Ladder | None, list[Reply]]


class Ladders:
    """The use cases of ``/ladder``, the end of its games and its sweep."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.new = NewGames(deps)

    @answers
    def ladder(
        self, actor: Actor, /, where: Where, action: str = "show", **options: object
    ) -> Reply:
        """``/ladder action:...``: one of :data:`ACTIONS`."""
        if action not in ACTIONS:
            raise Refusal("ladder.error.action")
        if where.guild_id is None:
            raise Refusal("ladder.error.dm")
        if action == "create":
            return self._create(actor, where, options)
        if options.get("variant") is not None:
            # A ladder's variant is chosen once, when it is created; its challenges all play it.
            raise Refusal("ladder.error.variant_not_here")
        if action == "list":
            with self.deps.unit() as s:
                lang = self.deps.who(s, actor).lang
                return Reply(text=list_text(repo.guild_ladders(s, where.guild_id), lang))
        given = options.get("ladder")
        lid = row_id(given)
        if given is not None and lid is None:  # no ladder has it
            raise Refusal("ladder.error.none")
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            ladder = self._find(s, where, lid)
            return self._handlers()[action](s, who, ladder, options)

    @answers
    def press(self, actor: Actor, where: Where, pressed: LadderAction) -> Reply:
        """A button of a ladder's message: Join, Leave, Show (privately: the viewer's rung)."""
        if not pressed.known:  # no ladder has it: as for an unknown one, without the database
            raise Refusal("ladder.error.none")
        action = pressed.action.value
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            ladder = self._find(s, where, pressed.ladder_id)
            reply = self._handlers()[action](s, who, ladder, {})
        reply.ephemeral = reply.ephemeral or pressed.action is LadderPress.SHOW
        return reply

    def _handlers(self) -> dict[str, _Handler]:
        return {
            "join": self._join,
            "leave": self._leave,
            "challenge": self._challenge,
            "show": self._show,
            "close": self._close,
        }

    def _find(self, s: Session, where: Where, lid: int | None) -> Ladder:
        """The ladder named by its number; else the open one of this channel; else the server's
        only open one; with none open, the server's latest (this channel's first), whose closed
        season the action then says is closed, or shows."""
        if lid is None:
            here = repo.open_ladders(s, where.guild_id)
            mine = [x for x in here if x.channel_id == where.channel_id]
            if len(mine) == 1 or len(here) == 1:
                lid = (mine or here)[0].id
            elif here:
                numbers = ", ".join(f"#{x.id} {x.name}" for x in here)
                raise Refusal("ladder.error.which", ladders=numbers)
            else:  # "no such ladder" read wrong beside a closed season in /ladder list
                past = repo.guild_ladders(s, where.guild_id)
                ours = [x for x in past if x.channel_id == where.channel_id]
                lid = (ours or past)[0].id if past else None
        ladder = repo.lock(s, lid) if lid is not None else None
        if ladder is None or ladder.guild_id != where.guild_id:
            raise Refusal("ladder.error.none")
        return ladder

    # -- create --------------------------------------------------------------------------------

    def _create(
        self, actor: Actor, where: Where, options: dict[str, object], *, again: bool = True
    ) -> Reply:
        if not actor.organizer:  # no ladder yet, hence no organizer of it
            raise Refusal("ladder.error.create_not_organizer")
        deps = self.deps
        try:
            with deps.unit() as s:
                who = deps.who(s, actor)
                ladder = _new_ladder(options, deps.settings.max_match_length, deps.clock())
                same = repo.named(s, where.guild_id, ladder.name)
                if same is not None:
                    raise Refusal("ladder.error.same_name", id=same.id, name=same.name)
                repo.create_ladder(
                    s,
                    ladder,
                    guild_id=where.guild_id,
                    channel_id=where.channel_id,
                    organizer_id=actor.id,
                    lang=shared_lang(who, where),
                )
                text = t("ladder.created", ladder.lang, name=ladder.name, id=ladder.id)
                text += "\n" + rules_text(ladder, ladder.lang)  # its rules, its variant among them
                return self._picture(s, ladder, ladder.lang, text=text)
        except IntegrityError as error:
            # Another creation of the same name committed between the check and the insert (the
            # partial unique index): once more, and the check now refuses it, naming it.
            if "uq_ladders_open_name" not in str(error.orig) and "ladders.guild_id" not in str(
                error.orig
            ):
                raise
            if not again:
                raise
            return self._create(actor, where, options, again=False)

    # -- members -------------------------------------------------------------------------------

    def _rungs(self, s: Session, ladder: Ladder) -> tuple[int, ...]:
        return tuple(m.player_id for m in repo.members(s, ladder.id))

    def _open(self, ladder: Ladder) -> None:
        if ladder.status is not LadderStatus.OPEN:
            raise Refusal("ladder.error.closed", name=ladder.name)

    def _join(self, s: Session, who: Who, ladder: Ladder, _: dict[str, object]) -> Reply:
        self._open(ladder)
        rungs = self._rungs(s, ladder)
        me = who.actor.id
        if me in rungs:
            raise Refusal("ladder.error.joined", rung=rungs.index(me) + 1)
        repo.set_rungs(s, ladder, joined(rungs, me), now=self.deps.clock())
        text = t("ladder.joined", ladder.lang, name=who.actor.name, ladder=ladder.name,
                 rung=len(rungs) + 1)  # fmt: skip
        return self._to_channel(ladder, self._picture(s, ladder, ladder.lang, text=text))

    def _leave(self, s: Session, who: Who, ladder: Ladder, _: dict[str, object]) -> Reply:
        self._open(ladder)
        rungs = self._rungs(s, ladder)
        me = who.actor.id
        if me not in rungs:
            raise Refusal("ladder.error.not_member")
        if _challenge_of(s, ladder, me) is not None:
            raise Refusal("ladder.error.leave_playing")
        repo.set_rungs(s, ladder, left(rungs, me), now=self.deps.clock())
        text = t("ladder.left", ladder.lang, name=who.actor.name, ladder=ladder.name)
        return self._to_channel(ladder, self._picture(s, ladder, ladder.lang, text=text))

    def _show(self, s: Session, who: Who, ladder: Ladder, _: dict[str, object]) -> Reply:
        return self._picture(s, ladder, who.lang, viewer=who.actor.id)

    def _close(self, s: Session, who: Who, ladder: Ladder, _: dict[str, object]) -> Reply:
        if not (who.actor.organizer or who.actor.id == ladder.organizer_id):
            raise Refusal("ladder.error.not_organizer")
        self._open(ladder)
        now = self.deps.clock()
        for challenge in repo.in_play(s, ladder.id):
            repo.void_challenge(challenge, now)
            if challenge.game_id is not None:
                row = get_game(s, challenge.game_id)
                if row.status is GameStatus.ACTIVE:
                    expire_game(s, row, now=now)
        repo.close_ladder(ladder, now)
        s.flush()
        rungs = self._rungs(s, ladder)
        top = _name(s, rungs[0]) if rungs else "-"
        text = t("ladder.closed", ladder.lang, name=ladder.name, season=ladder.season, player=top)
        return self._to_channel(ladder, self._picture(s, ladder, ladder.lang, text=text))

    # -- challenges ----------------------------------------------------------------------------

    def _challenge(self, s: Session, who: Who, ladder: Ladder, opts: dict[str, object]) -> Reply:
        self._open(ladder)
        other = opts.get("player")
        if not isinstance(other, Actor):
            raise Refusal("ladder.error.player")
        rungs, me = self._rungs(s, ladder), who.actor.id
        verdict = may_challenge(rungs, me, other.id, ladder.reach)
        if verdict is not Verdict.OK:
            rung = rungs.index(me) + 1 if me in rungs else 0
            key = "top" if verdict is Verdict.BELOW and rung == 1 else verdict.value
            raise Refusal(f"ladder.error.{key}", name=other.name, reach=ladder.reach,
                          low=max(1, rung - ladder.reach), rung=rung)  # fmt: skip
        if _challenge_of(s, ladder, me) is not None:
            raise Refusal("ladder.error.busy_self")
        if _challenge_of(s, ladder, other.id) is not None:
            raise Refusal("ladder.error.busy", name=other.name)
        now = self.deps.clock()
        deadline = now + timedelta(hours=ladder.deadline_hours)
        ids = (me, other.id)
        row, board = self._game(s, ladder, ids, (who.actor.name, _name(s, other.id)))
        repo.add_challenge(s, ladder, me, other.id, game_id=row.id, deadline=deadline, now=now)
        text = t("ladder.challenged", ladder.lang, challenger=who.actor.name, name=other.name,
                 ladder=ladder.name, low=rungs.index(me) + 1, high=rungs.index(other.id) + 1,
                 when=when(deadline))  # fmt: skip
        reply = self._to_channel(ladder, self._picture(s, ladder, ladder.lang, text=text))
        reply.followups.append(board)
        return reply

    def _game(
        self, s: Session, ladder: Ladder, ids: tuple[int, int], names: tuple[str, str]
    ) -> tuple[GameRow, Reply]:
        """Start the challenge's game, a usual one, in the ladder's channel (in a thread of its
        own where the adapter can open one); outside it when a player has a game there."""
        channel: int | None = ladder.channel_id
        if any(active_game_in_channel(s, channel, player_id=p) for p in ids):
            channel = None
        started = self._begin(s, ladder, ids, names, channel)
        if started is None:  # the seat in the channel was taken meanwhile (PostgreSQL)
            channel = None
            started = self._begin(s, ladder, ids, names, channel)
        assert started is not None
        row, table, notes = started
        reply = board_reply(table, ladder.lang, notes, later=True)
        reply.mentions = ids
        if channel is not None:
            reply.thread = _thread_plan(s, ladder, row.id, ids, names)
        return row, self._to_channel(ladder, reply)

    def _begin(
        self,
        s: Session,
        ladder: Ladder,
        ids: tuple[int, int],
        names: tuple[str, str],
        channel: int | None,
    ) -> tuple[GameRow, Table, Notes] | None:
        seats = (Seat(names[0], user_id=ids[0]), Seat(names[1], user_id=ids[1]))
        match = Match(length=ladder.match_length, cube=ladder.cube, variant=Variant(ladder.variant))
        table = Table(0, 0, seats, match, rated=ladder.rated)
        new = NewGame(
            player0_id=ids[0],
            player1_id=ids[1],
            match_length=ladder.match_length,
            cube=ladder.cube,
            rated=ladder.rated,
            guild_id=ladder.guild_id,
            channel_id=channel,
            deadline=self.deps.clock() + self.deps.settings.move_timeout,
        )
        notes = Notes()
        notes.add("ladder.match_intro", name=ladder.name, mention0=f"<@{ids[0]}>",
                  mention1=f"<@{ids[1]}>")  # fmt: skip
        row = self.new.start_in_channel(s, table, new, notes, prefs_of(s, table), ladder.lang)
        return None if row is None else (row, table, notes)

    # -- results -------------------------------------------------------------------------------

    def on_game_end(self, s: Session, ended: GameEnded) -> list[Reply]:
        """A game ended (a subscriber of :attr:`Deps.game_end`): when it is a ladder
        challenge's, record its result and move the rungs; returns what to post."""
        row = ended.row
        found = repo.challenge_of_game(s, row.id)
        if found is None or found.state is not ChallengeState.PLAYING:
            return []
        ladder = repo.lock(s, found.ladder_id)
        challenge = repo.challenge_of_game(s, row.id)  # read again under the lock
        if ladder is None or challenge is None or challenge.state is not ChallengeState.PLAYING:
            return []
        now = self.deps.clock()
        seat = row.winner
        winner = row.player_id(seat) if seat is not None else None
        if winner is None:
            repo.void_challenge(challenge, now)
            s.flush()
            text = t("ladder.void", ladder.lang, ladder=ladder.name)
            return [self._to_channel(ladder, self._picture(s, ladder, ladder.lang, text=text))]
        return [self._record(s, ladder, challenge, winner, row.result_kind is ResultKind.TIMEOUT)]

    def _record(
        self, s: Session, ladder: Ladder, challenge: LadderChallenge, winner: int, forfeit: bool
    ) -> Reply:
        now = self.deps.clock()
        loser = challenge.other(winner)
        rungs = self._rungs(s, ladder)
        before = (_rung(rungs, challenge.challenger_id), _rung(rungs, challenge.defender_id))
        after = after_result(rungs, winner, loser)
        repo.set_rungs(s, ladder, after, now=now)
        # A forfeit's loser did not show: he has not played, his inactivity goes on.
        repo.touch(s, ladder.id, (winner,) if forfeit else (winner, loser), now)
        repo.record_result(s, ladder, challenge, winner_id=winner, rungs=before,
                           forfeit=forfeit, now=now)  # fmt: skip
        names = (_name(s, winner), _name(s, loser))
        key = "ladder.climbed" if after != rungs else "ladder.held"
        text = t(key, ladder.lang, winner=names[0], loser=names[1], ladder=ladder.name,
                 rung=_rung(after, winner))  # fmt: skip
        return self._to_channel(ladder, self._picture(s, ladder, ladder.lang, text=text))

    # -- the picture ---------------------------------------------------------------------------

    def _picture(
        self, s: Session, ladder: Ladder, lang: str, *, viewer: int | None = None, text: str = ""
    ) -> Reply:
        rungs = self._rungs(s, ladder)
        playing = repo.in_play(s, ladder.id)
        recent = repo.recent_results(s, ladder.id)
        ids = {*rungs, *(p for c in (*playing, *recent) for p in (c.challenger_id, c.defender_id))}
        names = player_repo.player_names(s, list(ids))
        board = Board(ladder, rungs, names, playing, recent, now=self.deps.clock())
        return ladder_reply(board, lang, viewer=viewer, text=text)

    def _to_channel(self, ladder: Ladder, reply: Reply) -> Reply:
        reply.channel_id = ladder.channel_id
        return reply

    # -- the sweep -----------------------------------------------------------------------------

    def sweep(self, now: datetime | None = None, *, only: int | None = None) -> list[Notice]:
        """What is due by the clock: challenges not played by their deadline are forfeited by
        the player to move, inactive members drop a rung. Each step is a unit of work of its own
        under the ladder's lock, so any process may sweep, any number of times. ``only``: one
        server's ladders (the terminal's)."""
        now = now or self.deps.clock()
        with self.deps.unit() as s:
            late = repo.overdue_challenges(s, now, guild_id=only)
            ladders = [x.id for x in repo.open_ladders(s, only) if x.inactive_days]
        notices: list[Notice] = []
        for cid in late:
            notices += self._posted(partial(self._forfeit_late, cid=cid, now=now))
        for lid in ladders:
            notices += self._posted(partial(self._drop_inactive, lid=lid, now=now))
        return notices

    def _posted(self, step: Callable[[Session], _Step]) -> list[Notice]:
        """Run one step in a unit of work of its own; once committed, its posts (drawn now)
        become notices in the ladder's channel."""
        with self.deps.unit() as s:
            ladder, posts = step(s)
            where = (ladder.channel_id, ladder.guild_id) if ladder else (None, None)
        for reply in posts:
            reply.draw_later()
        return [Notice(None, where[0], where[1], reply) for reply in posts]

    def _forfeit_late(self, s: Session, cid: int, now: datetime) -> _Step:
        """A challenge not played by its deadline: the player to move forfeits it (its game
        ends as a forfeit; the end of the game records the result)."""
        challenge = s.get(LadderChallenge, cid, populate_existing=True)
        if challenge is None or challenge.game_id is None:
            return None, []
        ladder = repo.lock(s, challenge.ladder_id)
        s.refresh(challenge)
        row = get_game(s, challenge.game_id)
        if ladder is None or challenge.state is not ChallengeState.PLAYING:
            return None, []
        if row.status is not GameStatus.ACTIVE or aware(challenge.deadline) > now:
            return None, []
        table = load_table(self.deps, s, row)
        if table.game.phase is Phase.RESIGNED:
            table.game.accept_resignation()  # as the move timer does: the offer stands
        else:
            loser = row.turn if row.turn is not None else row.seat_of(challenge.defender_id)
            table.match.forfeit(loser if loser is not None else 1)
        posts = save(self.deps, s, row, table, self.deps.dice(row))
        line = Reply(text=t("ladder.deadline_passed", ladder.lang, ladder=ladder.name))
        return ladder, [self._to_channel(ladder, line), *posts]

    def _drop_inactive(self, s: Session, lid: int, now: datetime) -> _Step:
        """Members inactive for the ladder's period drop one rung (and the period starts
        again); those playing a challenge and the bottom rung stay."""
        ladder = repo.lock(s, lid)
        if ladder is None or ladder.status is not LadderStatus.OPEN or not ladder.inactive_days:
            return None, []
        limit = now - timedelta(days=ladder.inactive_days)
        members = repo.members(s, lid)
        busy = {p for c in repo.in_play(s, lid) for p in (c.challenger_id, c.defender_id)}
        rungs = tuple(m.player_id for m in members)
        idle = [
            m.player_id for m in members if aware(m.active_at) <= limit and m.player_id not in busy
        ]
        if not idle:
            return None, []
        after = idle_dropped(rungs, idle)
        repo.set_rungs(s, ladder, after, now=now)
        repo.touch(s, lid, idle, now)  # the period starts again
        down = [p for p in idle if after.index(p) > rungs.index(p)]  # not the bottom's
        if not down:
            return None, []
        names = ", ".join(_name(s, p) for p in down)
        text = t("ladder.dropped", ladder.lang, ladder=ladder.name, names=names,
                 days=ladder.inactive_days, count=len(down))  # fmt: skip
        return ladder, [self._to_channel(ladder, self._picture(s, ladder, ladder.lang, text=text))]


def _challenge_of(s: Session, ladder: Ladder, player: int) -> LadderChallenge | None:
    """The challenge ``player`` is playing on this ladder, if any."""
    playing = repo.in_play(s, ladder.id)
    return next((c for c in playing if player in (c.challenger_id, c.defender_id)), None)


def _rung(rungs: tuple[int, ...], player: int) -> int:
    return rungs.index(player) + 1 if player in rungs else 0


def _name(s: Session, player_id: int) -> str:
    row = player_repo.get_player(s, player_id)
    return row.display_name if row else str(player_id)


def _thread_plan(
    s: Session, ladder: Ladder, game_id: int, ids: tuple[int, int], names: tuple[str, str]
) -> ThreadPlan | None:
    """The thread a challenge is played in, named after the ladder and the players; None where
    the server turned threads off."""
    if ladder.guild_id is None or not together_repo.threads_on(s, ladder.guild_id):
        return None
    lang = ladder.lang
    name = t("ladder.thread_name", lang, name=ladder.name, p0=names[0], p1=names[1])
    intro = t("ladder.match_thread", lang, name=ladder.name, p0=names[0], p1=names[1])
    return ThreadPlan(game_id, name[:MAX_THREAD_NAME], ids, intro)


def _new_ladder(options: dict[str, object], max_length: int, now: datetime) -> Ladder:
    """The ladder the options describe, checked (refused with a precise reason)."""
    name = str(options.get("name") or "").strip()
    if not 1 <= len(name) <= 100:
        raise Refusal("ladder.error.name")
    return Ladder(
        name=name,
        match_length=_bounded(options.get("points"), 0, 0, max_length, "ladder.error.points"),
        cube=bool(options.get("cube", True)),
        rated=bool(options.get("rated", False)),
        reach=_bounded(options.get("reach"), 3, 1, 10, "ladder.error.reach"),
        deadline_hours=_bounded(options.get("hours"), 72, 1, 720, "ladder.error.hours"),
        inactive_days=_bounded(options.get("inactive"), 14, 0, 365, "ladder.error.inactive"),
        variant=variant_named(_text_or_none(options.get("variant"))).value,
        status=LadderStatus.OPEN,
        results=0,
        version=1,
        created_at=now,
    )


def _bounded(value: object, default: int, low: int, high: int, key: str) -> int:
    if value is None:
        return default
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refusal(key, low=low, high=high)
    return value


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)

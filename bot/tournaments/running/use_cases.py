"""``/tournament``: create a tournament, join and leave it, start it, follow its standings,
withdraw, disqualify, cancel; its buttons (``tn:<tournament>:<action>``); and the sweep that
starts tournaments at their start time, closes arenas and forfeits no-shows.

The games themselves are the usual games (their buttons, their timers); when one ends,
:meth:`~bot.tournaments.running.run.Runner.on_game_end` (subscribed to the end of every game by
the composition root, :mod:`bot.service.facade`) records its result in the same unit of work
and pairs what it made possible.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from functools import partial

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.i18n import DEFAULT, t
from bot.service.customid import TournamentAction, row_id
from bot.service.deps import Deps, Who, answers, shared_lang
from bot.service.people import Actor, Where
from bot.service.refusal import Refusal, aware
from bot.service.replies import Button, Reply
from bot.service.tables import load_table
from bot.service.timers import Notice
from bot.service.turns import save
from bot.service.variants import variant_named
from bot.tournaments.actions import ACTIONS
from bot.tournaments.formats import format_names, format_of
from bot.tournaments.running.events import event_step, publish_event
from bot.tournaments.running.run import Runner, forfeited
from bot.tournaments.running.view import (
    announcement,
    list_text,
    standings_reply,
    tournament_id,
)
from db import players as player_repo
from db import tournaments as repo
from db.games import get_game
from db.models import (
    EntrantStatus,
    GameStatus,
    MatchStatus,
    Tournament,
    TournamentMatch,
    TournamentStatus,
)
from engine import Phase

__all__ = ["ACTIONS", "Tournaments"]

_CLOCK = re.compile(r"\s*(\d{1,3})\s*\+\s*(\d{1,2})\s*")
MAX_PLAYERS = 256
_Step = tuple[Tournament | None, list[Reply]]  # a sweep's step: its tournament, what it posts


class Tournaments:
    """The use cases of ``/tournament`` and its buttons."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.run = Runner(deps)

    @answers
    def tournament(
        self, actor: Actor, /, where: Where, action: str = "info", **options: object
    ) -> Reply:
        """``/tournament action:...``: one of :data:`ACTIONS`."""
        if action not in ACTIONS:
            raise Refusal("tournament.error.action")
        if where.guild_id is None:
            raise Refusal("tournament.error.dm")
        if action == "create":
            return self._create(actor, where, options)
        if options.get("variant") is not None:
            # A tournament's variant is chosen once, when it is created; its matches all play it.
            raise Refusal("tournament.error.variant_not_here")
        if action == "list":
            return self._list(actor, where)
        given = options.get("tournament")
        tid = row_id(given)
        if given is not None and tid is None:  # no tournament has it (nor would PostgreSQL)
            raise Refusal("tournament.error.none")
        return self._on(actor, where, action, tid, options)

    @answers
    def press(self, actor: Actor, where: Where, pressed: TournamentAction) -> Reply:
        """A button of a tournament's message."""
        if not pressed.known:  # no tournament has it: as for an unknown one, without the database
            raise Refusal("tournament.error.none")
        action = pressed.action.value
        # The announcement's registration buttons: said so, so that a press on one left from
        # before the start is checked under the tournament's lock (see _on).
        options: dict[str, object] = {"registration": action in _REGISTRATION_BUTTONS}
        reply = self._on(actor, where, action, pressed.tournament_id, options)
        if action not in ("standings", "withdraw") and not reply.ephemeral:
            reply.edit = True  # the announcement shows the new list of players in place
        return reply

    # -- create and list --------------------------------------------------------------------

    def _create(
        self, actor: Actor, where: Where, options: dict[str, object], *, again: bool = True
    ) -> Reply:
        if not actor.organizer:  # no tournament yet, hence no organizer of it
            raise Refusal("tournament.error.create_not_organizer")
        deps = self.deps
        try:
            with deps.unit() as s:
                who = deps.who(s, actor)
                tour = _new_tournament(options, deps.settings.max_match_length, deps.clock())
                _refuse_same_name(s, where, tour.name)
                repo.create_tournament(
                    s,
                    tour,
                    guild_id=where.guild_id,
                    channel_id=where.channel_id,
                    organizer_id=actor.id,
                    lang=shared_lang(who, where),
                )
                reply = announcement(tour, [], tour.lang)
                reply.event = publish_event(tour)  # Discord's own reminder, where it may
                return reply
        except IntegrityError as error:
            # Another creation of the same name committed between our check and our insert
            # (the database's unique index, migration 0012): once more, the check now sees it
            # and refuses as usual, naming it.
            said = str(error.orig)  # the database's words (str(error) also holds the INSERT)
            name_race = "uq_tournaments_open_name" in said or "tournaments.name_key" in said
            if not (name_race and again):
                raise
            return self._create(actor, where, options, again=False)

    def _list(self, actor: Actor, where: Where) -> Reply:
        deps = self.deps
        with deps.unit() as s:
            lang = deps.who(s, actor).lang
            tours = repo.guild_tournaments(s, where.guild_id, limit=15)
            ids = [x.champion_id for x in tours if x.champion_id]
            names = player_repo.player_names(s, ids)
        return Reply(text=list_text(tours, names, lang))

    # -- actions on one tournament ----------------------------------------------------------

    def _on(
        self, actor: Actor, where: Where, action: str, tid: int | None, options: dict[str, object]
    ) -> Reply:
        deps = self.deps
        with deps.unit() as s:
            who = deps.who(s, actor)
            tour = self._find(s, where, tid, who.actor.id, action)
            if options.get("registration") and tour.status is not TournamentStatus.REGISTERING:
                # A registration button left from before the start or a cancellation: the
                # message brought up to date (its status line, the buttons that apply), and
                # nothing done. Its Leave had started a withdrawal from the tournament under
                # way; its Join said only "closed" of a cancelled one.
                return self._announce(s, tour, tour.lang)
            handler = self._handlers()[action]
            return handler(s, who, tour, options)

    def _handlers(
        self,
    ) -> dict[str, Callable[[Session, Who, Tournament, dict[str, object]], Reply]]:
        return {
            "join": self._join,
            "leave": self._leave,
            "withdraw": self._withdraw,
            "start": self._start,
            "standings": self._standings,
            "info": self._info,
            "disqualify": self._disqualify,
            "cancel": self._cancel,
        }

    def _find(
        self, s: Session, where: Where, tid: int | None, player: int, action: str
    ) -> Tournament:
        if tid is None:  # the open one meant here, else the server's latest
            found = _meant(s, where, player, action) or next(
                iter(repo.guild_tournaments(s, where.guild_id, limit=1)), None
            )
            tid = found.id if found else None
        tour = repo.lock(s, tid) if tid is not None else None
        if tour is None or tour.guild_id != where.guild_id:
            raise Refusal("tournament.error.none")
        return tour

    def _announce(self, s: Session, tour: Tournament, lang: str) -> Reply:
        entrants = repo.entrants(s, tour.id)
        names = player_repo.player_names(s, [e.player_id for e in entrants])
        players = [(names.get(e.player_id, "?"), e.status) for e in entrants]
        return announcement(tour, players, lang)

    def _join(self, s: Session, who: Who, tour: Tournament, _: dict[str, object]) -> Reply:
        if tour.status is not TournamentStatus.REGISTERING:
            raise Refusal("tournament.error.closed")
        entrants = repo.entrants(s, tour.id)
        if any(e.player_id == who.actor.id for e in entrants):
            raise Refusal("tournament.error.joined")
        if len(entrants) >= (tour.max_players or MAX_PLAYERS):
            raise Refusal("tournament.error.full", limit=tour.max_players or MAX_PLAYERS)
        repo.add_entrant(s, tour, who.actor.id, now=self.deps.clock())
        return self._announce(s, tour, tour.lang)

    def _leave(self, s: Session, who: Who, tour: Tournament, opts: dict[str, object]) -> Reply:
        """Leave the registration; once under way, withdraw. A withdrawal that forfeits a
        match in progress is first confirmed (privately, with a button): nothing changes
        until the player presses it."""
        me = who.actor.id
        if tour.status is TournamentStatus.REGISTERING:
            if not repo.remove_entrant(s, tour.id, me):
                raise Refusal("tournament.error.not_joined")
            return self._announce(s, tour, tour.lang)
        self._check_in(s, tour, me)
        opponent = self._opponent_now(s, tour, me)
        if opponent is not None and not opts.get("confirmed"):
            text = t("tournament.withdraw_confirm", who.lang, name=tour.name, opponent=opponent)
            label = t("button.tournament_withdraw", who.lang)
            button = Button(tournament_id(tour.id, "withdraw"), label, "danger")
            return Reply(text=text, rows=[[button]], ephemeral=True)
        posts = self.run.leave(s, tour, me, EntrantStatus.WITHDRAWN)
        reply = self._gone("tournament.withdrawn", tour, who.actor.name, opponent)
        reply.followups += posts
        return reply

    def _withdraw(self, s: Session, who: Who, tour: Tournament, _: dict[str, object]) -> Reply:
        """The Withdraw button of the confirmation: withdraw for good."""
        return self._leave(s, who, tour, {"confirmed": True})

    def _opponent_now(self, s: Session, tour: Tournament, player: int) -> str | None:
        """The name of ``player``'s opponent in the match he is playing, if he is playing one."""
        match = _playing(repo.matches(s, tour.id), player)
        other = match.other(player) if match is not None else None
        if other is None:
            return None
        return player_repo.player_names(s, [other]).get(other, "?")

    def _gone(self, key: str, tour: Tournament, name: str, opponent: str | None) -> Reply:
        """``X withdraws`` (or is disqualified), and the match in progress he forfeits."""
        if opponent is None:
            return Reply(text=t(key, tour.lang, name=name))
        return Reply(text=t(f"{key}_forfeit", tour.lang, name=name, opponent=opponent))

    def _check_in(self, s: Session, tour: Tournament, player: int) -> None:
        if tour.status is not TournamentStatus.RUNNING:
            raise Refusal("tournament.error.not_running")
        entrant = next((e for e in repo.entrants(s, tour.id) if e.player_id == player), None)
        if entrant is None:
            raise Refusal("tournament.error.not_joined")
        if entrant.status is not EntrantStatus.ACTIVE:  # pressed Withdraw twice, say
            raise Refusal(f"tournament.error.already_{entrant.status.value}", name=tour.name)

    def _may_direct(self, who: Who, tour: Tournament) -> None:
        if not (who.actor.organizer or who.actor.id == tour.organizer_id):
            raise Refusal("tournament.error.not_organizer")

    def _start(self, s: Session, who: Who, tour: Tournament, _: dict[str, object]) -> Reply:
        self._may_direct(who, tour)
        if tour.status is not TournamentStatus.REGISTERING:
            raise Refusal("tournament.error.started")
        count = sum(1 for e in repo.entrants(s, tour.id) if e.status is EntrantStatus.ACTIVE)
        if count < 2:
            raise Refusal("tournament.error.too_few")
        posts = self.run.start(s, tour)
        reply = self._announce(s, tour, tour.lang)
        reply.event = event_step(tour, "start")
        reply.followups += posts
        return reply

    def _standings(self, s: Session, who: Who, tour: Tournament, _: dict[str, object]) -> Reply:
        if tour.status is TournamentStatus.REGISTERING:
            raise Refusal("tournament.error.not_started")
        state = self.run.state(s, tour, names=True)
        # In the viewer's language, with each match's web page when the web board is on.
        return standings_reply(state, who.lang, viewer=who.actor.id, web=self.deps.web_url)

    def _info(self, s: Session, who: Who, tour: Tournament, _: dict[str, object]) -> Reply:
        return self._announce(s, tour, who.lang)

    def _disqualify(self, s: Session, who: Who, tour: Tournament, opts: dict[str, object]) -> Reply:
        self._may_direct(who, tour)
        player = opts.get("player")
        if not isinstance(player, Actor):
            raise Refusal("tournament.error.player")
        if tour.status is TournamentStatus.REGISTERING:
            if not repo.remove_entrant(s, tour.id, player.id):
                raise Refusal("tournament.error.not_entrant", name=player.name)
            return self._announce(s, tour, tour.lang)
        if tour.status is not TournamentStatus.RUNNING:
            raise Refusal("tournament.error.not_running")
        entrants = {e.player_id: e for e in repo.entrants(s, tour.id)}
        if player.id not in entrants or entrants[player.id].status is not EntrantStatus.ACTIVE:
            raise Refusal("tournament.error.not_entrant", name=player.name)
        opponent = self._opponent_now(s, tour, player.id)
        posts = self.run.leave(s, tour, player.id, EntrantStatus.DISQUALIFIED)
        reply = self._gone("tournament.disqualified", tour, player.name, opponent)
        reply.followups += posts
        return reply

    def _cancel(self, s: Session, who: Who, tour: Tournament, _: dict[str, object]) -> Reply:
        self._may_direct(who, tour)
        if tour.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
            raise Refusal("tournament.error.over")
        self.run.cancel(s, tour)
        reply = Reply(text=t("tournament.cancelled", tour.lang, name=tour.name))
        reply.event = event_step(tour, "cancel")
        return reply

    def event_published(self, tid: int, event_id: int) -> bool:
        """The adapter published the tournament's Discord scheduled event: keep its id (the
        first one only). False when the tournament is over by now (the adapter then cancels
        the event it just made)."""
        with self.deps.unit() as s:
            tour = s.get(Tournament, tid)
            if tour is None:
                return False
            repo.keep_event_id(tour, event_id)
            return tour.status in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)

    # -- the sweep --------------------------------------------------------------------------

    def sweep(self, now: datetime | None = None) -> list[Notice]:
        """What is due by the clock: tournaments to start, arenas to close, no-shows to
        forfeit. Each step is a unit of work of its own under the tournament's lock, so any
        process may sweep, any number of times."""
        now = now or self.deps.clock()
        with self.deps.unit() as s:
            starts = list(repo.due_to_start(s, now))
            ends = list(repo.running_arenas_due(s, now))
            late = list(repo.overdue_games(s, now))
        notices: list[Notice] = []
        for tid in starts:
            notices += self._posted(tid, partial(self._start_due, tid=tid, now=now))
        for tid in ends:
            notices += self._posted(tid, partial(self._close_due, tid=tid))
        for game_id in late:
            notices += self._posted(0, partial(self._forfeit_late, game_id=game_id, now=now))
        return notices

    def _posted(self, tid: int, step: Callable[[Session], _Step]) -> list[Notice]:
        """Run one step of the sweep in a unit of work of its own; once it has committed, its
        posts (drawn now) become notices in the tournament's channel."""
        with self.deps.unit() as s:
            tour, posts = step(s)
            where = (tour.channel_id, tour.guild_id) if tour else (None, None)
        for reply in posts:  # the unit of work has ended: the pictures put off
            reply.draw_later()
        # A reply that names its channel goes there (a match's last board, in its thread).
        return [Notice(tid, reply.channel_id or where[0], where[1], reply) for reply in posts]

    def _start_due(self, s: Session, tid: int, now: datetime) -> _Step:
        tour = repo.lock(s, tid)
        if tour is None or tour.status is not TournamentStatus.REGISTERING:
            return None, []
        active = [e for e in repo.entrants(s, tid) if e.status is EntrantStatus.ACTIVE]
        cancel, posts = len(active) < 2, list[Reply]()
        if cancel:
            self.run.cancel(s, tour)
        else:
            posts = self.run.start(s, tour)
        reply = self._announce(s, tour, tour.lang)
        reply.event = event_step(tour, "cancel" if cancel else "start")
        return tour, [*posts, reply]

    def _close_due(self, s: Session, tid: int) -> _Step:
        tour = repo.lock(s, tid)
        return tour, self.run.advance(s, tour) if tour is not None else []

    def _forfeit_late(self, s: Session, game_id: int, now: datetime) -> _Step:
        """A no-show: the player to move let his time run out; he loses the match."""
        row = get_game(s, game_id)
        match = repo.match_of_game(s, game_id)
        if row.status is not GameStatus.ACTIVE or match is None or row.deadline is None:
            return None, []
        if row.turn is None or aware(row.deadline) > now:
            return None, []
        tour = repo.lock(s, match.tournament_id)
        table = load_table(self.deps, s, row)
        late = row.turn
        if table.game.phase is Phase.RESIGNED:
            # The player to answer a resignation let the time run out: the offer is accepted,
            # as the move timer does (bot.service.timers), never the offerer's win on time.
            table.game.accept_resignation()
            key = "tournament.answer_late"
        else:
            table.match.forfeit(late)
            key = "tournament.no_show"
        posts = save(self.deps, s, row, table, self.deps.dice(row))
        lang = tour.lang if tour is not None else DEFAULT
        # Its last board in its thread (the one left there loses its buttons), its result.
        return tour, forfeited(row, table, lang, key, late) + posts


# The open tournaments an action without ``tournament:N`` can be about.
_REGISTERING_ONLY = frozenset({"join", "start"})
_ENTRANTS_ONLY = frozenset({"leave", "withdraw"})
_RUNNING_FIRST = frozenset({"standings"})  # about matches: one under way
_REGISTRATION_BUTTONS = _REGISTERING_ONLY | {"leave"}  # the announcement's, while registering


def _meant(s: Session, where: Where, player: int, action: str) -> Tournament | None:
    """The open tournament an action without ``tournament:N`` is about: of the server's open
    ones, those this action can concern (``join`` and ``start`` a registering one, ``leave``
    one the player is in, ``standings`` one under way if any), narrowed to this channel's when
    some are; None when there is none.
    Several left are refused, naming them: with two under way, the newest had been taken,
    and ``cancel`` cancelled the wrong one without a word."""
    tours = list(repo.open_tournaments(s, where.guild_id))
    if action in _REGISTERING_ONLY:
        tours = [x for x in tours if x.status is TournamentStatus.REGISTERING]
    if action in _ENTRANTS_ONLY:  # still in it (one he left is no longer his to leave)
        tours = [x for x in tours if _active_in(s, x, player)]
    running = [x for x in tours if x.status is TournamentStatus.RUNNING]
    if action in _RUNNING_FIRST and running:
        tours = running
    here = [x for x in tours if x.channel_id == where.channel_id]
    tours = here or tours
    if len(tours) > 1:
        listed = ", ".join(f"#{x.id} {x.name}" for x in tours)
        raise Refusal("tournament.error.which", tournaments=listed)
    return tours[0] if tours else None


def _active_in(s: Session, tour: Tournament, player: int) -> bool:
    entrants = repo.entrants(s, tour.id)
    return any(e.player_id == player and e.status is EntrantStatus.ACTIVE for e in entrants)


def _playing(matches: Sequence[TournamentMatch], player: int) -> TournamentMatch | None:
    """The match ``player`` is playing now (a game on), if any."""
    playing = (m for m in matches if m.status is MatchStatus.PLAYING and m.game_id is not None)
    return next((m for m in playing if player in (m.player0_id, m.player1_id)), None)


def _new_tournament(options: dict[str, object], max_length: int, now: datetime) -> Tournament:
    """The tournament the options describe, checked (refused with a precise reason)."""
    name = str(options.get("name") or "").strip()
    if not 1 <= len(name) <= 100:
        raise Refusal("tournament.error.name")
    fmt = str(options.get("format") or "knockout")
    if fmt not in format_names():
        raise Refusal("tournament.error.format", formats=", ".join(format_names()))
    points = _bounded(options.get("points"), 1, 1, max_length, "tournament.error.points")
    rounds = _bounded(options.get("rounds"), 5, 1, 20, "tournament.error.rounds")
    minutes = _bounded(options.get("minutes"), 60, 5, 1440, "tournament.error.minutes")
    limit = _bounded(options.get("limit"), MAX_PLAYERS, 2, MAX_PLAYERS, "tournament.error.limit")
    start = _bounded(options.get("start"), 0, 0, 10080, "tournament.error.start")
    delay, bank = _clock(options.get("clock"))
    tour = Tournament(
        name=name,
        format=fmt,
        match_length=points,
        cube=bool(options.get("cube", True)),
        rated=bool(options.get("rated", False)),
        variant=variant_named(_text_or_none(options.get("variant"))).value,
        max_players=limit,
        clock_delay=delay,
        clock_bank=bank,
        seed=secrets.randbits(31),
        status=TournamentStatus.REGISTERING,
        starts_at=now + timedelta(minutes=start) if options.get("start") else None,
        results=0,
        created_at=now,
    )
    format_of(fmt).configure(tour, rounds=rounds, minutes=minutes)  # those it uses
    return tour


def _text_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def _bounded(value: object, default: int, low: int, high: int, key: str) -> int:
    if value is None:
        return default
    if not isinstance(value, int) or not low <= value <= high:
        raise Refusal(key, low=low, high=high)
    return value


def _clock(value: object) -> tuple[int | None, int | None]:
    """``12+2``: 12 seconds a move, 2 minutes of time bank per point (in seconds)."""
    if value is None or value == "":
        return None, None
    found = _CLOCK.fullmatch(str(value))
    if found is None:
        raise Refusal("tournament.error.clock")
    return int(found[1]), int(found[2]) * 60


def _refuse_same_name(s: Session, where: Where, name: str) -> None:
    """Refuse a name the server's open tournaments already have, whatever the case."""
    same = repo.named(s, where.guild_id, name)
    if same is not None:
        raise Refusal("tournament.error.same_name", id=same.id, name=same.name)

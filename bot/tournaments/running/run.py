"""Running a tournament: the start (seeding), pairing what is due as usual games, the result
of each game as it ends, withdrawals and the end.

Every function here runs inside the caller's unit of work with the tournament locked
(:func:`db.tournaments.lock`): a result, the pairings it makes possible and the new games are
committed together with the move that ended the game, or not at all. A crash at any moment
therefore loses nothing and pairs nobody twice, and several processes take turns on the lock.
What the channel should see (the new boards, the standings, the champion) is returned as
replies (each addressed to the tournament's channel) for the caller to post once the action
commits.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from bot.i18n import t
from bot.service.deps import Deps, GameEnded
from bot.service.model import Notes, Seat, Table
from bot.service.newgame import NewGames
from bot.service.present import board_reply
from bot.service.replies import Reply, ThreadPlan
from bot.service.tables import load_table, localized, prefs_of, seat_names
from bot.service.threads import MAX_THREAD_NAME
from bot.service.turns import save
from bot.tournaments.formats import champion, finished, format_of, next_pairings
from bot.tournaments.plan import Pairing, State
from bot.tournaments.running.clock import TournamentClock
from bot.tournaments.running.events import event_step
from bot.tournaments.running.view import standings_reply, web_lines
from db import players as player_repo
from db import together as together_repo
from db import tournaments as repo
from db.games import NewGame, active_game_in_channel, expire_game, get_game
from db.models import (
    EntrantStatus,
    GameStatus,
    MatchStatus,
    ResultKind,
    Tournament,
    TournamentMatch,
    TournamentStatus,
)
from db.models import Game as GameRow
from engine import Match, Variant

__all__ = ["Runner"]

_MAX_PASSES = 1000  # walkovers can free further matches: a bound, never reached
_WIN_TYPE = {ResultKind.GAMMON: 2, ResultKind.BACKGAMMON: 3}


class Runner:
    """The tournament side of the games: start, pair, record, finish."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps
        self.new = NewGames(deps)
        self.clock = TournamentClock(deps.clock)

    def state(self, s: Session, tour: Tournament, *, names: bool = False) -> State:
        entrants = repo.entrants(s, tour.id)
        found = player_repo.player_names(s, [e.player_id for e in entrants]) if names else {}
        return State(tour, entrants, repo.matches(s, tour.id), found)

    def start(self, s: Session, tour: Tournament) -> list[Reply]:
        """Seed the players and pair the first matches (the tournament is locked); returns
        what to post (the first boards)."""
        now = self.deps.clock()
        entrants = [e for e in repo.entrants(s, tour.id) if e.status is EntrantStatus.ACTIVE]
        ratings = repo.ratings_of(s, [e.player_id for e in entrants])
        fmt = format_of(tour.format)
        order = fmt.seed(tour, [e.player_id for e in entrants], ratings)
        seed = {p: i + 1 for i, p in enumerate(order)}
        seeded = [(e, seed[e.player_id], ratings[e.player_id]) for e in entrants]
        repo.start_tournament(tour, seeded, now)
        fmt.started(tour, now)
        s.flush()
        return self.advance(s, tour)

    def advance(self, s: Session, tour: Tournament) -> list[Reply]:
        """Pair every match that is due; close the tournament when nothing is left to play.
        Returns what to post: the new boards, then the champion."""
        if tour.status is not TournamentStatus.RUNNING:
            return []
        now, posts = self.deps.clock(), list[Reply]()
        for _ in range(_MAX_PASSES):
            state = self.state(s, tour)
            pairings = next_pairings(state, now)
            if not pairings:
                break
            for pairing in pairings:
                posts += self._store(s, tour, pairing)
        if finished(state, now):
            posts.append(self._finish(s, tour, state))
        return posts

    def _store(self, s: Session, tour: Tournament, p: Pairing) -> list[Reply]:
        """Store a pairing; returns the board of the game it starts, if it starts one."""
        now = self.deps.clock()
        if p.player1 is None:
            new = repo.NewMatch(p.round, p.slot, p.player0, None, status=MatchStatus.BYE)
            repo.add_match(s, tour, new, now=now)
            return []
        if p.walkover is not None:
            match = repo.add_match(s, tour, repo.NewMatch(p.round, p.slot, p.player0, p.player1))
            score = (tour.match_length, 0)
            repo.record_result(s, tour, match, winner_id=p.walkover, score=score, now=now)
            return []
        game, board = self._game(s, tour, p.round, p.player0, p.player1)
        new = repo.NewMatch(p.round, p.slot, p.player0, p.player1, game_id=game.id)
        self.clock.start(tour, repo.add_match(s, tour, new, now=now), game)
        return [board]

    def _game(
        self, s: Session, tour: Tournament, rnd: int, p0: int, p1: int
    ) -> tuple[GameRow, Reply]:
        """Start the match's game, a usual one, and make its board's post: in a thread of its
        own opened in the tournament's channel where the adapter can, else in the channel."""
        names = (_name(s, p0), _name(s, p1))
        # One active game per player and channel: a player busy in the tournament's channel
        # (a casual game, another tournament's match) gets his match outside it; the buttons
        # work anywhere.
        channel: int | None = tour.channel_id
        if any(active_game_in_channel(s, channel, player_id=p) for p in (p0, p1)):
            channel = None
        started = self._begin(s, tour, (p0, p1), names, channel)
        if started is None:
            # Another game took his seat in the channel after the check (another tournament
            # starting at the same moment, on PostgreSQL): outside it, as if it had been seen.
            channel = None
            started = self._begin(s, tour, (p0, p1), names, channel)
        assert started is not None  # outside any channel there is no seat to lose
        row, table, notes = started
        reply = board_reply(table, tour.lang, notes, later=True)  # drawn once committed
        reply.mentions = (p0, p1)
        if channel is not None:
            reply.thread = _thread_plan(s, tour, row.id, rnd, ((p0, names[0]), (p1, names[1])))
        return row, _to_channel(tour, reply)

    def _begin(
        self,
        s: Session,
        tour: Tournament,
        ids: tuple[int, int],
        names: tuple[str, str],
        channel: int | None,
    ) -> tuple[GameRow, Table, Notes] | None:
        """Store the match's new game in ``channel``; None when the database refuses it there
        (a seat in the channel taken meanwhile), with nothing of it left (a savepoint)."""
        seats = (Seat(names[0], user_id=ids[0]), Seat(names[1], user_id=ids[1]))
        match = Match(length=tour.match_length, cube=tour.cube, variant=Variant(tour.variant))
        table = Table(0, 0, seats, match, rated=tour.rated, tournament=True)
        new = NewGame(
            player0_id=ids[0],
            player1_id=ids[1],
            rated=tour.rated,
            guild_id=tour.guild_id,
            channel_id=channel,
            deadline=self.deps.clock() + self.deps.settings.move_timeout,
        )
        notes = Notes()
        mentions = {"mention0": f"<@{ids[0]}>", "mention1": f"<@{ids[1]}>"}
        notes.add("tournament.match_intro", name=tour.name, **mentions)
        row = self.new.start_in_channel(s, table, new, notes, prefs_of(s, table), tour.lang)
        return None if row is None else (row, table, notes)

    def on_game_end(self, s: Session, ended: GameEnded) -> list[Reply]:
        """A match ended (a subscriber of :attr:`Deps.game_end`): when it is a tournament's,
        record its result and pair on; returns what to post (the next boards, the standings
        or the champion)."""
        row = ended.row
        found = repo.match_of_game(s, row.id)
        if found is None or found.status is not MatchStatus.PLAYING:
            return []
        tour = repo.lock(s, found.tournament_id)
        match = repo.match_of_game(s, row.id)  # read again under the lock
        if tour is None or match is None or match.status is not MatchStatus.PLAYING:
            return []
        if row.winner is None:
            return []
        self._record(s, tour, match, row, ended.match.score)
        posts = self.advance(s, tour)
        if tour.status is TournamentStatus.RUNNING:
            state = self.state(s, tour, names=True)
            standings = standings_reply(state, tour.lang, web=self.deps.web_url)
            posts.append(_to_channel(tour, standings))
        return posts

    def _record(
        self,
        s: Session,
        tour: Tournament,
        match: TournamentMatch,
        row: GameRow,
        score: tuple[int, int],
    ) -> None:
        seat = row.winner
        assert seat is not None
        winner = row.player_id(seat)
        assert winner is not None
        won, lost = score[seat], score[1 - seat]
        if row.result_kind is ResultKind.TIMEOUT or won <= lost:
            won = max(tour.match_length, lost + 1)  # a forfeit: the match is the winner's
        kind = _WIN_TYPE.get(row.result_kind or ResultKind.SINGLE, 1)
        now = self.deps.clock()
        repo.record_result(
            s, tour, match, winner_id=winner, score=(won, lost), win_type=kind, now=now
        )

    def forfeit(
        self, s: Session, tour: Tournament, match: TournamentMatch, loser: int
    ) -> list[Reply]:
        """``loser`` gives up his match in progress: his game ends as a forfeit (the end of
        the game then records the result and pairs on); returns what that posts, its last
        board first (see :func:`forfeited`)."""
        assert match.game_id is not None
        row = get_game(s, match.game_id)
        seat = row.seat_of(loser)
        if row.status is not GameStatus.ACTIVE or seat is None:
            return []
        table = load_table(self.deps, s, row)
        table.match.forfeit(seat)
        posts = save(self.deps, s, row, table, self.deps.dice(row))
        # The channel hears of it from the withdrawal's own message: no result line beside it.
        return forfeited(row, table, tour.lang, "tournament.forfeits", seat, said=False) + posts

    def leave(
        self, s: Session, tour: Tournament, player: int, status: EntrantStatus
    ) -> list[Reply]:
        """A player withdraws or is disqualified: he forfeits the match he is playing and
        loses the ones he was still to play by walkover. Returns what to post."""
        repo.mark_entrant(s, tour.id, player, status)
        s.flush()
        posts: list[Reply] = []
        for match in repo.matches(s, tour.id):
            if match.status is MatchStatus.PLAYING and player in (
                match.player0_id,
                match.player1_id,
            ):
                posts += self.forfeit(s, tour, match, player)
        return posts + self.advance(s, tour)

    def cancel(self, s: Session, tour: Tournament) -> None:
        """Stop everything: the games in progress end without a result, the matches are void."""
        now = self.deps.clock()
        for match in repo.matches(s, tour.id):
            if match.status is MatchStatus.PLAYING:
                repo.void_match(match)
                if match.game_id is not None:
                    row = get_game(s, match.game_id)
                    if row.status is GameStatus.ACTIVE:
                        expire_game(s, row, now=now)
        repo.cancel_tournament(tour, now)
        s.flush()

    def _finish(self, s: Session, tour: Tournament, state: State) -> Reply:
        repo.finish_tournament(tour, champion(state), self.deps.clock())
        s.flush()
        final = self.state(s, tour, names=True)
        reply = standings_reply(final, tour.lang)
        name = _name(s, tour.champion_id) if tour.champion_id else "-"
        reply.text = t("tournament.champion", tour.lang, name=tour.name, player=name)
        reply.text += web_lines(final, tour.lang, self.deps.web_url)  # each match's page
        reply.event = event_step(tour, "complete")
        return _to_channel(tour, reply)


def _to_channel(tour: Tournament, reply: Reply) -> Reply:
    """``reply`` addressed to the tournament's channel (wherever the action was: a match that
    ended in its thread reports to the channel)."""
    reply.channel_id = tour.channel_id
    return reply


def _thread_plan(
    s: Session, tour: Tournament, game_id: int, rnd: int, players: tuple[tuple[int, str], ...]
) -> ThreadPlan | None:
    """The thread a match is played in: opened in the tournament's channel, named after the
    tournament, the round and the players, with both players added; None where the server
    turned threads off (``/server threads:false``)."""
    if tour.guild_id is None or not together_repo.threads_on(s, tour.guild_id):
        return None
    lang, number = tour.lang, rnd + 1
    (id0, p0), (id1, p1) = players
    name = t("tournament.thread_name", lang, name=tour.name, round=number, p0=p0, p1=p1)
    intro = t("tournament.match_thread", lang, name=tour.name, round=number, p0=p0, p1=p1)
    return ThreadPlan(game_id, name[:MAX_THREAD_NAME], (id0, id1), intro)


def _name(s: Session, player_id: int) -> str:
    row = player_repo.get_player(s, player_id)
    return row.display_name if row else str(player_id)


def forfeited(
    row: GameRow, table: Table, lang: str, key: str, about: int, *, said: bool = True
) -> list[Reply]:
    """What a match that ended without its players (a withdrawal, a disqualification, a
    no-show) posts of itself: its last board in its own thread or channel, with ``key``'s line
    saying why (of the seat ``about``), which takes the buttons off the board left there; and
    (``said``) its one-line result in the channel the thread was opened from, as a match
    played to its end has. The line gives no score: the games' score is not the match's,
    which the forfeit decides."""
    shown = localized(table, lang)
    notes = Notes()
    notes.add(key, name=shown.seats[about].name)
    board: Reply = board_reply(shown, lang, notes, later=True)
    board.channel_id = row.channel_id
    if not said or row.parent_channel_id is None:
        return [board]
    names = seat_names(shown, lang)
    winner = row.winner if row.winner is not None else 1 - about
    text = t("thread.result_forfeit", lang, id=row.id, name=names[winner], other=names[1 - winner])
    return [board, Reply(text=text, channel_id=row.parent_channel_id)]

"""Button and select-menu presses: parsed from their component id, checked against the game
they were drawn for, and dispatched through :data:`~bot.service.actions.ACTIONS`."""

from __future__ import annotations

from bot.ladders.running import Ladders
from bot.service.actions import ACTIONS, Pressed, Then
from bot.service.challenges import Challenges
from bot.service.customid import (
    ChallengeAction,
    GameAction,
    LadderAction,
    PageAction,
    Press,
    PuzzleAction,
    TournamentAction,
)
from bot.service.daily import Daily
from bot.service.dashboard import Dashboard
from bot.service.deps import Deps, answers
from bot.service.drills import Drills
from bot.service.games import Games, by_vote
from bot.service.model import Notes, UiState
from bot.service.people import Actor, Where
from bot.service.present import board_reply
from bot.service.puzzles import Puzzles
from bot.service.refusal import Refusal
from bot.service.replies import Reply
from bot.service.tables import Seated, current_game, localized, no_game_here, seat_names, seated
from bot.service.threads import result_posts
from bot.service.tournaments import Tournaments
from bot.service.turns import finish
from bot.service.watch import Watching
from db import ladders as ladder_repo
from db.models import GameStatus
from engine import Game, Phase

__all__ = ["Buttons"]


class Buttons:
    """:meth:`press`: every button of every message."""

    def __init__(
        self,
        deps: Deps,
        games: Games,
        challenges: Challenges,
        tournaments: Tournaments,
        watching: Watching,
        dashboard: Dashboard,
        puzzles: Puzzles,
        daily: Daily,
        ladders: Ladders,
    ) -> None:
        self.deps = deps
        self.ladders = ladders
        self.games = games
        self.challenges = challenges
        self.tournaments = tournaments
        self.watching = watching
        self.dashboard = dashboard
        self.puzzles = puzzles
        self.daily = daily
        self.drills: Drills | None = None  # set by the service (issue 32)

    def press(self, actor: Actor, where: Where, custom_id: str, value: str | None = None) -> Reply:
        """A button or select menu press (``value``: the option chosen in a select menu).

        An id no row can have (:attr:`~bot.service.customid.GameAction.known`) is answered
        here as an unknown one, and never reaches the database (PostgreSQL would fail)."""
        game_action = GameAction.parse(custom_id)
        if game_action is not None:
            if not game_action.known:
                return self._refuse(actor, "error.no_such_game", id=game_action.game_id)
            return self._on_game(actor, where, game_action, value)
        challenge_action = ChallengeAction.parse(custom_id)
        if challenge_action is not None:
            if not challenge_action.known:
                return self._refuse(actor, "error.no_such_challenge")
            return self.challenges.answer(actor, where, challenge_action)
        tournament_action = TournamentAction.parse(custom_id)
        if tournament_action is not None:
            return self.tournaments.press(actor, where, tournament_action)  # checks its id there
        ladder_action = LadderAction.parse(custom_id)
        if ladder_action is not None:
            return self.ladders.press(actor, where, ladder_action)  # checks its id there
        page = PageAction.parse(custom_id)
        if page is not None:
            return self.dashboard.turn_page(actor, where, page)
        puzzle_action = PuzzleAction.parse(custom_id)
        if puzzle_action is not None:
            return self._on_puzzle(actor, where, puzzle_action, value)
        return self._refuse(actor, "error.unknown_button")

    def _on_game(self, actor: Actor, where: Where, action: GameAction, value: str | None) -> Reply:
        then = ACTIONS[action.action].then
        if then is Then.NEW_GAME:
            return self.rematch(actor, where, action)
        if then is Then.VIEW:
            return self.watching.refresh(actor, where, action)
        return self._game_press(actor, where, action, value)

    def _on_puzzle(
        self, actor: Actor, where: Where, action: PuzzleAction, value: str | None
    ) -> Reply:
        if not action.known:
            return self._refuse(actor, "puzzle.gone")
        if action.daily:
            return self.daily.vote(actor, where, action.id, action.arg, value)
        if action.drill and self.drills is not None:
            if action.arg == PuzzleAction.NEXT:
                return self.drills.drill(actor, where)
            return self.drills.answer(actor, where, action, value)
        return self.puzzles.answer(actor, where, action, value)

    @answers
    def press_current(
        self, actor: Actor, where: Where, action: Press, arg: str | None = None
    ) -> Reply:
        """A game's button pressed without its message (the terminal's ``/double`` when the
        latest message has no Double button): the same press on the person's game in this
        channel, so that a refusal gives the reason (already rolled, no cube in the Crawford
        game, not his turn) or the action is done when it is allowed."""
        with self.deps.unit() as s:
            row = current_game(s, actor, where)
            if row is None:
                self.deps.who(s, actor)  # the refusal in his language
                raise no_game_here(s, actor, where)
            custom_id = GameAction(row.id, row.version, action, arg).custom_id
        return self.press(actor, where, custom_id)

    @answers
    def _refuse(self, actor: Actor, /, key: str, **params: object) -> Reply:
        """Refused with ``key``, in the actor's language: an unknown button, or one naming
        no row."""
        raise Refusal(key, **params)

    @answers
    def _game_press(
        self, actor: Actor, where: Where, action: GameAction, value: str | None
    ) -> Reply:
        deps = self.deps
        with deps.unit() as s:
            here = seated(deps, s, actor, where, action.game_id)
            if here.seat is None:
                raise Refusal("error.spectator", id=here.row.id)
            seat = here.seat
            if here.row.status is not GameStatus.ACTIVE:
                raise Refusal("error.game_over")  # before "out of date: use /board"
            if here.row.version != action.version:
                raise Refusal("web.stale" if where.web else "error.stale")
            spec = ACTIONS[action.action]
            refusal = by_vote(s, here.row) if spec.then is not Then.SHOW else None
            if refusal is not None:
                raise refusal  # the team's game: played by its votes
            if not spec.anyone and here.table.game.turn != seat:
                raise Refusal(_not_yours(here.table.game, seat, action.action))
            dice = deps.dice(here.row)
            notes = Notes()
            names = seat_names(here.table, here.lang)
            pressed = Pressed(
                here.table, seat, actor.name, names, action.arg, value, notes, dice.roll
            )
            ui, ended = spec.run(pressed), list[Reply]()
            if spec.then is not Then.SHOW:
                advance = spec.then is Then.ADVANCE
                ended = finish(
                    deps, s, here.row, here.table, notes, here.lang, dice, advance_game=advance
                )
            posts = result_posts(here.row, here.table, here.lang)
        reply = self._board(here, notes, ui, ping=spec.then is not Then.SHOW)
        reply.posts = posts
        reply.followups += ended  # what the end of the match posts (a tournament's next boards)
        return reply

    @staticmethod
    def _board(here: Seated, notes: Notes, ui: UiState, *, ping: bool = True) -> Reply:
        return board_reply(
            localized(here.table, here.lang),
            here.lang,
            notes,
            acting=here.seat,
            ui=ui,
            mirrored=here.who.prefs.mirrored,
            theme=here.who.prefs.theme,
            edit=True,
            ping=ping,
        )

    @answers
    def rematch(self, actor: Actor, where: Where, action: GameAction) -> Reply:
        """Rematch: the same kind of game again, against the same opponent. The old game is
        only read here; the new one is its own unit of work (``play`` or ``challenge``)."""
        with self.deps.unit() as s:
            here = seated(self.deps, s, actor, where, action.game_id)
            seat = here.player_seat
            row = here.row
            if row.version != action.version:
                raise Refusal("error.stale")
            if row.status is GameStatus.ACTIVE:
                raise Refusal("error.game_not_over")
            if here.table.tournament:
                raise Refusal("error.tournament_rematch")
            if ladder_repo.challenge_of_game(s, row.id) is not None:
                # An ordinary game would have started, rated, counting nowhere on the ladder.
                raise Refusal("error.ladder_rematch")
            level = row.computer_level or "intermediate"
            points, cube, rated, variant = row.match_length, row.cube, row.rated, row.variant
            other = here.table.seats[1 - seat]
        if here.table.against_computer:
            return self.games.play(
                actor, where, level=level, points=points, cube=cube, variant=variant
            )
        assert other.user_id is not None
        opponent = Actor(other.user_id, other.name)
        return self.challenges.challenge(
            actor,
            where,
            opponent,
            points=points,
            cube=cube,
            rated=rated,
            variant=variant,
            rematch=True,
        )


# The presses that answer an offer, and the phase in which there is one to answer.
_OFFER_ANSWERS = {
    Press.TAKE: Phase.DOUBLED,
    Press.DROP: Phase.DOUBLED,
    Press.ACCEPT: Phase.RESIGNED,
    Press.REJECT: Phase.RESIGNED,
}


def _not_yours(game: Game, seat: int, action: Press) -> str:
    """Why the person not to act may not press this: an answer with no offer on the table
    (the same reason the player to act hears from the game), answering his own offer (a
    resignation, a double); anything else waits for his turn."""
    offer = _OFFER_ANSWERS.get(action)
    if offer is not None and game.phase is not offer:
        return "engine.state.no_double" if offer is Phase.DOUBLED else "engine.state.no_resignation"
    if offer is not None:
        offered_by = game.resigned_by if offer is Phase.RESIGNED else game.on_roll
        if offered_by == seat:
            return "error.own_offer"
    return "error.not_your_turn"

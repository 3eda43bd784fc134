"""The service: every use case of the bot behind one object, for the adapters and the tests.

Each public method is one user action and one unit of work: load the game, let the engine apply
the action, save, and describe the answer as a :class:`~bot.service.replies.Reply`. A refusal
(bad input, not your turn, a stale button) changes nothing and comes back as an ephemeral reply
saying why, in the player's language. Methods are synchronous and may block (database, picture,
the computer thinking): adapters run them in a thread, off the event loop.

The use cases live in one class per feature over the shared :class:`~bot.service.deps.Deps`;
:class:`Service` builds them once, runs a command of the table by the method its row names
(:meth:`Service.run`) and gives the methods that adapters and tests call a public name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from datetime import datetime
from types import MethodType
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast

from sqlalchemy import URL, Engine
from sqlalchemy.orm import Session, sessionmaker

from bot.dice import GameDice
from bot.ladders.running import Ladders
from bot.service.activity import ActivityReads
from bot.service.analysis import Analysis
from bot.service.buttons import Buttons
from bot.service.challenges import Challenges
from bot.service.command_spec import Command
from bot.service.commands import COMMANDS
from bot.service.consult import Consult
from bot.service.daily import Daily
from bot.service.dashboard import Dashboard
from bot.service.deps import Deps, GameChanged, Settings, WebPages
from bot.service.drills import Drills
from bot.service.games import Games
from bot.service.info import Info
from bot.service.integrity import Integrity
from bot.service.notices import TurnNotices
from bot.service.people import Actor, Where
from bot.service.puzzles import Puzzles
from bot.service.replays import Replays
from bot.service.replies import Reply
from bot.service.settings import PlayerSettings
from bot.service.threads import GameThreads
from bot.service.timers import Timers
from bot.service.tournaments import Tournaments
from bot.service.watch import Watching
from bot.service.webboard import WebBoard
from db.types import utcnow
from engine import Position

__all__ = ["Service"]

P = ParamSpec("P")
R = TypeVar("R")


class _Use(Generic[P, R]):
    """A public name of the service for one feature's method: ``service.play`` is
    ``Games.play`` bound to the service's :class:`Games` (typed as the bound method)."""

    def __init__(self, method: Callable[Concatenate[Any, P], R]) -> None:
        self.method = method

    def __get__(self, service: Service, owner: type[Service] | None = None) -> Callable[P, R]:
        return service.bind(self.method)


class Service:
    """Every use case of the bot.

    :param factory: SQLAlchemy session factory (``db.connection.make_session_factory``).
    :param clock: the current time (tests pass a fake clock).
    :param new_dice: a fresh dice source for a new game (tests pass scripted ones).
    :param dice_for: the dice source of a stored game from its seed and counter.
    """

    # The commands run through :meth:`run`; these names are for the adapters' other calls
    # (buttons, sweeps, autocomplete), the tests and the tools.
    # Playing
    play = _Use(Games.play)
    move = _Use(Games.move)
    undo = _Use(Games.undo)
    board = _Use(Games.board)
    resign = _Use(Games.resign)
    autocomplete_moves = _Use(Games.autocomplete_moves)
    text_board = _Use(Games.text_board)
    challenge = _Use(Challenges.challenge)
    answer_challenge = _Use(Challenges.answer_pending)
    press = _Use(Buttons.press)
    press_current = _Use(Buttons.press_current)
    # Analysis, information, fair dice, settings
    hint = _Use(Analysis.hint)
    review = _Use(Analysis.review)
    export = _Use(Analysis.export)
    replay = _Use(Replays.replay)
    leaderboard = _Use(Info.leaderboard)
    stats = _Use(Info.stats)
    history = _Use(Info.history)
    rules = _Use(Info.rules)
    help = _Use(Info.help)
    names = _Use(Info.names)
    verify = _Use(Integrity.verify)
    dice_stats = _Use(Integrity.dice_stats)
    settings_command = _Use(PlayerSettings.settings_command)
    # Playing together
    server_command = _Use(GameThreads.server_command)
    game_moved = _Use(GameThreads.game_moved)
    thread_wanted = _Use(GameThreads.thread_wanted)
    board_posted = _Use(GameThreads.board_posted)
    watch = _Use(Watching.watch)
    games = _Use(Dashboard.games)
    turn_notices = _Use(TurnNotices.turn_notices)
    still_waiting = _Use(TurnNotices.still_waiting)
    # Puzzles and the position of the day
    puzzle = _Use(Puzzles.puzzle)
    puzzle_leaderboard = _Use(Puzzles.puzzle_leaderboard)
    daily = _Use(Daily.daily)
    drill = _Use(Drills.drill)
    drill_notices = _Use(Drills.sweep)
    # Tournaments
    tournament = _Use(Tournaments.tournament)
    tournament_sweep = _Use(Tournaments.sweep)
    tournament_event = _Use(Tournaments.event_published)
    # Ladders
    ladder = _Use(Ladders.ladder)
    ladder_sweep = _Use(Ladders.sweep)
    # The server against the computer (issue 32)
    consult = _Use(Consult.consult)
    vote = _Use(Consult.vote)
    consult_move = _Use(Consult.move)
    consult_poll_vote = _Use(Consult.poll_vote)
    consult_sweep = _Use(Consult.sweep)
    consult_posted = _Use(Consult.posted)
    consult_polls = _Use(Consult.open_polls)
    consult_repost = _Use(Consult.repost)
    # The web board's reads (bot.web); its actions are presses
    web_key = _Use(WebBoard.web_key)
    web_state = _Use(WebBoard.web_state)
    web_mat = _Use(WebBoard.web_mat)
    activity_game = _Use(ActivityReads.activity_game)  # the Discord Activity's game
    web_review = _Use(Analysis.web_review)  # the page's "ask for the review": /review's
    # The move timer
    sweep = _Use(Timers.sweep)
    reminder_before = _Use(Timers.reminder_before)

    def __init__(
        self,
        factory: sessionmaker[Session],
        *,
        settings: Settings | None = None,
        clock: Callable[[], datetime] = utcnow,
        new_dice: Callable[[], GameDice] = GameDice.fresh,
        dice_for: Callable[[bytes, int], GameDice] = GameDice,
    ) -> None:
        deps = Deps(factory, settings or Settings(), clock, new_dice, dice_for)
        self.deps = deps
        games, challenges = Games(deps), Challenges(deps)
        tournaments, ladders = Tournaments(deps), Ladders(deps)
        self._subscribe(deps, tournaments, ladders)
        self.puzzles, self.daily_puzzles = puzzles, daily = Puzzles(deps), Daily(deps)
        analysis = Analysis(deps, puzzles.harvest)  # a review's blunders become puzzles
        timers = Timers(deps, daily, analysis.review_finished)
        watching, dashboard = Watching(deps), Dashboard(deps)
        self.drills = drills = Drills(deps)  # one's own blunders again (issue 32)
        buttons = Buttons(
            deps, games, challenges, tournaments, watching, dashboard, puzzles, daily, ladders
        )
        buttons.drills = drills
        games.drills = drills  # /move without a game answers the drill due
        consult = Consult(deps)
        games.consult = consult  # /move during a vote is a vote
        others = (Info(deps, COMMANDS), Integrity(deps), PlayerSettings(deps), Replays(deps))
        together = (GameThreads(deps), TurnNotices(deps))
        features = (games, challenges, tournaments, puzzles, daily, analysis, timers, buttons)
        views = (watching, dashboard, WebBoard(deps), ActivityReads(deps))
        self._owners = _owners((*features, ladders, *views, drills, consult, *others, *together))

    @staticmethod
    def _subscribe(deps: Deps, tournaments: Tournaments, ladders: Ladders) -> None:
        """What happens when a game is saved and when a match ends, subscribed here and
        nowhere else: the tournament's clock, the tournament's result, the ladder's result
        (what they return to post goes out with the reply of the action that ended the
        match)."""
        deps.game_saving.append(tournaments.run.clock.on_saving)
        deps.game_end.append(tournaments.run.on_game_end)
        deps.game_end.append(ladders.on_game_end)

    def on_game_changed(self, listener: GameChanged) -> None:
        """Tell ``listener`` each game changed, once the action that changed it has
        committed, whoever acted and wherever (Discord, the terminal, a web page, a sweep):
        the web board's live pages."""
        self.deps.game_changed.append(listener)

    def serve_web(self, pages: WebPages | None) -> None:
        """The web board's addresses while it serves its pages (None once it stops): the
        replies then carry their games' links."""
        self.deps.web = pages

    def bind(self, method: Callable[Concatenate[Any, P], R]) -> Callable[P, R]:
        """``method`` (a feature class's, ``Info.stats``) bound to this service's feature."""
        return cast("Callable[P, R]", MethodType(method, self._owners[method]))

    def run(self, command: Command, actor: Actor, where: Where, **options: Any) -> Reply:
        """Run a command of the table (:mod:`bot.service.commands`) with its options' values,
        by their keywords."""
        if command.method is None:
            raise ValueError(f"/{command.name} is the adapter's own command")
        return self.bind(command.method)(actor, where, **options)

    @property
    def factory(self) -> sessionmaker[Session]:
        return self.deps.factory

    @property
    def database_url(self) -> URL | None:
        """The address of the database the service's sessions use (None if not bound)."""
        bind = self.deps.factory.kw.get("bind")
        return bind.url if isinstance(bind, Engine) else None

    @property
    def settings(self) -> Settings:
        return self.deps.settings

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.deps.clock

    @property
    def new_dice(self) -> Callable[[], GameDice]:
        return self.deps.new_dice

    @property
    def dice_for(self) -> Callable[[bytes, int], GameDice]:
        return self.deps.dice_for

    def warm_up(self) -> None:
        """Draw one board and build the default computer player, so that the first player of
        the day does not wait for the caches (about half a second); start the searching
        levels' helper threads at the search threads' priority
        (:meth:`bot.heavy.Pools.warm_searches`)."""
        from bot import heavy
        from bot.service.computer import computer_for
        from render import render_board

        render_board(Position.initial())
        computer_for("intermediate")
        heavy.POOLS.warm_searches()


def _owners(features: Iterable[object]) -> dict[Callable[..., object], object]:
    """Each method of the features' classes -> its feature: how a command row's method
    (``Info.stats``) finds the object it runs on, built once."""
    return {
        function: feature
        for feature in features
        for cls in type(feature).__mro__
        for function in vars(cls).values()
        if inspect.isfunction(function)
    }

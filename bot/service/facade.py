"""The service: every use case of the bot behind one object, for the adapters and the tests.

Each public method is one user action and one unit of work: load the game, let the engine apply
the action, save, and describe the answer as a :class:`~bot.service.replies.Reply`. A refusal
(bad input, not your turn, a stale button) changes nothing and comes back as an ephemeral reply
saying why, in the player's language. Methods are synchronous and may block (database, picture,
the computer thinking): adapters run them in a thread, off the event loop.

The use cases live in one class per feature over the shared :class:`~bot.service.deps.Deps`;
:class:`Service` only builds them and hands their methods out.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from bot.dice import GameDice
from bot.service.analysis import Analysis
from bot.service.buttons import Buttons
from bot.service.challenges import Challenges
from bot.service.daily import Daily
from bot.service.dashboard import Dashboard
from bot.service.deps import Deps, Settings
from bot.service.games import Games
from bot.service.info import Info
from bot.service.integrity import Integrity
from bot.service.notices import TurnNotices
from bot.service.puzzles import Puzzles
from bot.service.settings import PlayerSettings
from bot.service.threads import GameThreads
from bot.service.timers import Timers
from bot.service.tournaments import Tournaments
from bot.service.watch import Watching
from db.types import utcnow
from engine import Position

__all__ = ["Service"]


class Service:
    """Every use case of the bot.

    :param factory: SQLAlchemy session factory (``db.connection.make_session_factory``).
    :param clock: the current time (tests pass a fake clock).
    :param new_dice: a fresh dice source for a new game (tests pass scripted ones).
    :param dice_for: the dice source of a stored game from its seed and counter.
    """

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
        tournaments = Tournaments(deps)
        self._subscribe(deps, tournaments)
        puzzles, daily = self._puzzle_features(deps)
        analysis = Analysis(deps, puzzles.harvest)  # a review's blunders become puzzles
        timers = Timers(deps, daily, analysis.review_finished)
        # Playing
        self.play = games.play
        self.move = games.move
        self.undo = games.undo
        self.board = games.board
        self.resign = games.resign
        self.autocomplete_moves = games.autocomplete_moves
        self.text_board = games.text_board
        self.challenge = challenges.challenge
        self.answer_challenge = challenges.answer_pending
        watching, dashboard = self._together()
        buttons = Buttons(deps, games, challenges, tournaments, watching, dashboard, puzzles, daily)
        self.press = buttons.press
        self.press_current = buttons.press_current
        self._information(analysis)
        # Tournaments
        self.tournament = tournaments.tournament
        self.tournament_sweep = tournaments.sweep
        self.tournament_event = tournaments.event_published
        # The move timer
        self.sweep = timers.sweep
        self.reminder_before = timers.reminder_before

    @staticmethod
    def _subscribe(deps: Deps, tournaments: Tournaments) -> None:
        """What happens when a game is saved and when a match ends, subscribed here and
        nowhere else: the tournament's clock, the tournament's result (what it returns to post
        goes out with the reply of the action that ended the match)."""
        deps.game_saving.append(tournaments.run.clock.on_saving)
        deps.game_end.append(tournaments.run.on_game_end)

    def _information(self, analysis: Analysis) -> None:
        """Analysis, information, fair dice, settings."""
        info, integrity, prefs = Info(self.deps), Integrity(self.deps), PlayerSettings(self.deps)
        self.hint = analysis.hint
        self.review = analysis.review
        self.export = analysis.export
        self.leaderboard = info.leaderboard
        self.stats = info.stats
        self.history = info.history
        self.rules = info.rules
        self.help = info.help
        self.verify = integrity.verify
        self.dice_stats = integrity.dice_stats
        self.settings_command = prefs.settings_command

    def _together(self) -> tuple[Watching, Dashboard]:
        """Playing together: threads, spectators, turn notices, /games (its buttons are
        dispatched by :class:`Buttons`)."""
        watching, dashboard = Watching(self.deps), Dashboard(self.deps)
        threads, notices = GameThreads(self.deps), TurnNotices(self.deps)
        self.server_command = threads.server_command
        self.game_moved = threads.game_moved
        self.thread_wanted = threads.thread_wanted
        self.board_posted = threads.board_posted
        self.watch = watching.watch
        self.games = dashboard.games
        self.turn_notices = notices.turn_notices
        self.still_waiting = notices.still_waiting
        return watching, dashboard

    def _puzzle_features(self, deps: Deps) -> tuple[Puzzles, Daily]:
        """Puzzles and the position of the day (``/puzzle``, ``/puzzle_leaderboard``,
        ``/daily``; their buttons go through ``press``, their posts through ``sweep``)."""
        puzzles, daily = Puzzles(deps), Daily(deps)
        self.puzzle = puzzles.puzzle
        self.puzzle_leaderboard = puzzles.puzzle_leaderboard
        self.daily = daily.daily
        self.puzzles, self.daily_puzzles = puzzles, daily
        return puzzles, daily

    @property
    def factory(self) -> sessionmaker[Session]:
        return self.deps.factory

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
        the day does not wait for the caches (about half a second)."""
        from bot.service.computer import computer_for
        from render import render_board

        render_board(Position.initial())
        computer_for("intermediate")

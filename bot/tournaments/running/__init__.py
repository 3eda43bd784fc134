"""Tournaments as the bot runs them: the parts that touch the database and the service layer.

* :mod:`~bot.tournaments.running.use_cases`: ``/tournament``, its buttons and its sweep;
* :mod:`~bot.tournaments.running.run`: start, pair, record each result, withdraw, cancel;
* :mod:`~bot.tournaments.running.view`: the announcement, the standings picture, the list;
* :mod:`~bot.tournaments.running.events`: the tournament as a Discord scheduled event;
* :mod:`~bot.tournaments.running.clock`: a match's clock (a delay and a time bank).

What to play next and who leads come from the tournament's format
(:mod:`bot.tournaments.formats`); :mod:`bot.service.tournaments` is the service's entry.
"""

# These modules build on the service layer (its units of work, games and replies), whose
# package builds every use case, these among them, when it is imported: it comes first, so
# that importing one of these modules on its own never meets one of them half imported.
import bot.service  # noqa: F401

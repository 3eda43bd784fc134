"""Moving a game on and storing it: everything that needs no human decision is played at once
(opening rolls, the computer's turns, automatic rolls and forced moves, the next game of a
match), then the match is saved with its move timer."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from sqlalchemy.orm import Session

from bot.dice import GameDice
from bot.i18n import Text
from bot.service.computer import computer_acts
from bot.service.deps import Deps, GameEnded
from bot.service.model import RESIGN_NAMES, WON, Notes, Table, high_first
from bot.service.people import Prefs
from bot.service.refusal import aware
from bot.service.replies import Reply
from bot.service.tables import prefs_of, seat_names
from db import games as games_repo
from db.gamestate import END_KIND, save_match
from db.models import Game as GameRow
from engine import EventKind, Game, Phase

__all__ = ["RESIGN_VALUES", "advance", "finish", "resign_offer", "roll_and_say", "save"]

RESIGN_VALUES = (1, 2, 3)
_MAX_STEPS = 500  # a computer-vs-nothing loop cannot run away


def resign_offer(value: int) -> Text:
    """ "a single game", "a gammon"... as a resignation offer says it."""
    return Text(f"resign.offer_{RESIGN_NAMES[value]}")


def advance(
    table: Table, dice: GameDice, notes: Notes, prefs: tuple[Prefs, Prefs], lang: str
) -> None:
    """Play everything that needs no human decision, telling it in ``notes``."""
    names = seat_names(table, lang)
    for _ in range(_MAX_STEPS):
        if not _one_step(table, dice, notes, prefs, names):
            return
    raise RuntimeError("the game did not reach a human decision")


def _one_step(
    table: Table, dice: GameDice, notes: Notes, prefs: tuple[Prefs, Prefs], names: tuple[str, str]
) -> bool:
    """Make one decision nobody has to think about; False when a person must decide."""
    match = table.match
    game = match.game
    if game.is_over:
        return _next_game(table, notes, names)
    if game.phase is Phase.OPENING:
        _opening(game, dice, notes, names)
        return True
    seat = game.turn
    assert seat is not None
    if table.seats[seat].is_computer:
        level = table.seats[seat].level or "expert"
        computer_acts(game, seat, level, dice.roll, notes, names[seat])
        return True
    pref = prefs[seat]
    if game.phase is Phase.ROLL and pref.auto_roll and not game.can_double():
        roll_and_say(game, dice.roll, notes, names[seat], names)
        return True
    if game.phase is Phase.MOVE and pref.auto_forced and _forced(game):
        play = game.legal_plays()[0]
        game.play(play)
        notes.played(game, forced=True)
        notes.add("note.forced", name=names[seat], play=str(play))
        return True
    return False


def _next_game(table: Table, notes: Notes, names: tuple[str, str]) -> bool:
    """The board moves on to the next game of a match: say here who won this one, and how."""
    match = table.match
    if match.is_over or not match.length:
        return False
    result = match.game.result
    assert result is not None
    notes.add(WON[result.value], name=names[result.winner], points=result.points)
    a, b = match.score
    notes.add("note.next_game", number=len(match.games) + 1, a=a, b=b)
    match.next_game()
    return True


def _opening(game: Game, dice: GameDice, notes: Notes, names: tuple[str, str]) -> None:
    d0, d1 = dice.die(), dice.die()
    game.opening_roll(d0, d1)
    if d0 == d1:
        notes.add("note.opening_tie", die=d0)
        return
    winner = 0 if d0 > d1 else 1
    notes.add("note.opening", p0=names[0], p1=names[1], d0=d0, d1=d1, name=names[winner])
    after_roll(game, notes, names)


def _forced(game: Game) -> bool:
    return len(game.legal_plays()) == 1 and not game.partial.steps


def roll_and_say(
    game: Game,
    roll: Callable[[], tuple[int, int]],
    notes: Notes,
    name: str,
    names: tuple[str, str],
) -> None:
    """A person rolls (``name``, by a button or by auto-roll): the dice, said, or, when they
    cannot be played, that he rolled them and cannot move (one line, not two)."""
    d = roll()
    game.roll(d)
    if not _passed(game):
        notes.add("note.rolled", name=name, **high_first(d))
    after_roll(game, notes, names)


def after_roll(game: Game, notes: Notes, names: tuple[str, str]) -> None:
    """Say when a roll could not be played (the engine passes by itself)."""
    last = game.events[-1]
    if _passed(game) and last.dice:
        notes.add("note.cannot_move", name=names[last.player], **high_first(last.dice))


def _passed(game: Game) -> bool:
    """Whether the last roll could not be played: the engine logged an empty move for it."""
    last = game.events[-1]
    return last.kind is EventKind.MOVE and last.play == "" and bool(last.dice)


def save(deps: Deps, s: Session, row: GameRow, table: Table, dice: GameDice) -> list[Reply]:
    """Store the action, with the move timer (see :func:`_set_clock`). When it ended the match,
    the :class:`GameEnded` event goes to each subscriber of ``deps.game_end`` in this unit of
    work; returns what they post (the caller's to deliver, once the unit commits)."""
    games_repo.count_dice(row, dice.counter)
    _set_clock(deps, row, table)
    if table.match.is_over:
        # The seed is published with the result: from now on anyone can check every die.
        table.revealed_seed = row.dice_seed
        games_repo.reveal_dice(row, deps.clock())
    for saving in deps.game_saving:  # a tournament's clock, while the row has the old turn
        saving(s, row, table)
    result = save_match(s, row, table.match, now=deps.clock())
    s.flush()  # finishing a match writes the row once more: buttons need the last version
    table.version = row.version
    if not table.match.is_over:
        return []
    event = GameEnded(row, table.match, result)
    return [post for subscriber in deps.game_end for post in subscriber(s, event)]


# Events that end a turn (a play, or a roll that cannot be played) or begin or end a game.
_TURN_ENDS = frozenset({EventKind.MOVE.value, EventKind.OPENING.value, END_KIND})


def _set_clock(deps: Deps, row: GameRow, table: Table) -> None:
    """The move timer belongs to whoever must act. A turn gets a fresh deadline; rolling,
    moving checkers and taking them back go on with it. An offer by the player on roll (a
    double, a resignation) stops his clock and gives the answer a deadline of its own; the
    answer (a take, a rejection) gives him back the time he had left, so offering again and
    again never buys him time, and an offer can never make the opponent the late one."""
    game, now = table.game, deps.clock()
    human_turn = (
        not table.match.is_over
        and game.turn is not None
        and not table.seats[game.turn].is_computer
        and not table.against_computer
    )
    held = row.time_left_held
    answering = game.phase in (Phase.DOUBLED, Phase.RESIGNED) and game.turn != game.on_roll
    if not human_turn:
        games_repo.run_clock(row, None)
    elif row.deadline is None or _turn_ended(row, table):
        games_repo.run_clock(row, now + deps.settings.move_timeout)
    elif answering and held is None:  # he offers: his clock stops, the answer has its own
        left = max(0.0, (aware(row.deadline) - now).total_seconds())
        games_repo.hold_clock(row, left, now + deps.settings.move_timeout)
    elif answering:
        return  # still waiting for the answer: his time stays held
    elif held is not None:  # answered: the rest of his time, where he left it
        games_repo.run_clock(row, now + timedelta(seconds=held))
    elif row.turn == game.turn:
        return  # the same player goes on with the same decision: the same deadline
    else:  # (a game saved before revision 0008, in the middle of an offer)
        games_repo.run_clock(row, now + deps.settings.move_timeout)
    table.out_of_time = row.deadline is not None and aware(row.deadline) <= now


def _turn_ended(row: GameRow, table: Table) -> bool:
    """Whether this action ended a turn or a game (the next decision is a new turn's)."""
    kinds = [k for g in table.match.games for k in _kinds(g)]
    return any(k in _TURN_ENDS for k in kinds[row.event_count :])


def _kinds(game: Game) -> list[str]:
    return [e.kind.value for e in game.events] + ([END_KIND] if game.result else [])


def finish(
    deps: Deps,
    s: Session,
    row: GameRow,
    table: Table,
    notes: Notes,
    lang: str,
    dice: GameDice | None = None,
    *,
    advance_game: bool = True,
) -> list[Reply]:
    """After a person's decision: play on to the next one (unless ``advance_game`` is off: a
    checker step leaves the turn to its player) and save; returns what the end of the match
    posts (see :func:`save`)."""
    dice = dice or deps.dice(row)
    if advance_game:
        advance(table, dice, notes, prefs_of(s, table), lang)
    return save(deps, s, row, table, dice)

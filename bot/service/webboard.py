"""The web board's view of a game (see :mod:`bot.web`): what a page shows, as plain data that
the browser draws, seen from one seat, live or at the K-th action of a finished game.

Everything a page says comes from here: the names, the prompt and the button labels from the
catalog, the buttons that fit the moment from :func:`~bot.service.present.components` (those
of the Discord message), the checkers a player may move from the engine. A page acts through
:meth:`Service.press <bot.service.buttons.Buttons.press>`, as a button does.

Point numbers are the viewer's: 1-24 from his side, 25 his bar, 0 his off tray; the
opponent's checkers are listed in the opponent's own numbering (``theirs``) and flipped by the
page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.i18n import t
from bot.service.customid import GameAction, Press
from bot.service.deps import Deps
from bot.service.model import RESIGN_NAMES, Table, UiState
from bot.service.present import components, headline, mid_move, prompt, xgid_of
from bot.service.prstats import pr_line
from bot.service.refusal import aware
from bot.service.replies import Button
from bot.service.resigning import resign_choice
from bot.service.tables import load_table, localized
from db import games as game_repo
from db.gamestate import END_KIND, load_match
from db.models import Game as GameRow
from db.models import GameEvent, GameStatus
from engine import EventKind, Game, Phase, Position, Variant, decode_match_id, parse_play, write_mat
from engine.analysis import Decision, Review, error_size

__all__ = ["WEB_PRESSES", "GameKey", "WebBoard"]

# The buttons a page shows, by the word of its data-action (RESIGN opens the offers).
WEB_PRESSES: dict[Press, str] = {
    Press.ROLL: "roll",
    Press.DOUBLE: "double",
    Press.TAKE: "take",
    Press.DROP: "drop",
    Press.ACCEPT: "accept",
    Press.REJECT: "reject",
    Press.UNDO: "undo",
    Press.CONFIRM: "confirm",
    Press.RESIGN_MENU: "resign",
    Press.CLAIM: "claim",
}


@dataclass(frozen=True)
class GameKey:
    """What a page needs to know of a game before showing it: who plays (user ids, None for
    the computer), its name, whether it is over and whether its log may be shown now (not a
    rated game between people in progress, as ``/export`` refuses)."""

    game_id: int
    players: tuple[int | None, int | None]
    names: tuple[str, str]
    over: bool
    open_log: bool
    channel_id: int | None
    guild_id: int | None


class WebBoard:
    """The web board's reads: :meth:`web_key`, :meth:`web_state`, :meth:`web_mat`."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def web_key(self, game_id: int) -> GameKey:
        """The game's players and standing (:class:`~db.errors.GameNotFound` when none)."""
        with self.deps.unit() as s:
            row = game_repo.get_game(s, game_id)
            table = load_table(self.deps, s, row)
            over = row.status is not GameStatus.ACTIVE
            return GameKey(
                row.id,
                (row.player0_id, row.player1_id),
                (table.seats[0].name, table.seats[1].name),
                over,
                over or not row.rated,
                row.channel_id,
                row.guild_id,
            )

    def web_state(
        self, game_id: int, viewer: int | None, lang: str, at: int | None = None
    ) -> dict[str, Any]:
        """The page's data for ``viewer`` (a user id; None or a non-player: a spectator,
        seated at seat 0), live, or after the ``at``-th action once the game is over; with
        the game's review once it is over and reviewed (never while it is played: ``/review``
        refuses a game between people in progress, and keeps no review of one)."""
        with self.deps.unit() as s:
            row = game_repo.get_game(s, game_id)
            table = localized(load_table(self.deps, s, row), lang)
            over = row.status is not GameStatus.ACTIVE
            events = game_repo.game_events(s, row.id) if over else []
            deadline = aware(row.deadline) if row.deadline is not None else None
            seat = table.seat_of(viewer) if viewer is not None else None
            base = _base(row, table, seat, over, len(events))
            kept = row.review if over else None
        if at is not None and over:
            at = max(0, min(at, len(events)))
            state = base | _replay(table, events, at, seat, lang)
        else:
            state = base | _live(table, seat, lang, deadline, self.deps.clock())
        return state | _review_part(table, events, kept, at, seat, lang, over)

    def web_mat(self, game_id: int) -> tuple[str, bytes] | None:
        """The game's ``.mat`` file (its name and bytes), None while it may not be shown (a
        rated game between people in progress) or when it started from a position."""
        with self.deps.unit() as s:
            row = game_repo.get_game(s, game_id)
            if (row.status is GameStatus.ACTIVE and row.rated) or row.practice:
                return None
            table = load_table(self.deps, s, row)
            names = (table.seats[0].name, table.seats[1].name)
            return f"game-{row.id}.mat", write_mat(load_match(row), names).encode("utf-8")


def _base(row: GameRow, table: Table, seat: int | None, over: bool, count: int) -> dict[str, Any]:
    viewer = 0 if seat is None else seat
    return {
        "game": row.id,
        "version": row.version,
        "over": over,
        "seat": seat,
        "names": [table.seats[viewer].name, table.seats[1 - viewer].name],
        # The second seat plays the dark checkers (● in the headline), on his own page too.
        "dark_me": seat == 1,
        "computer": [table.seats[viewer].is_computer, table.seats[1 - viewer].is_computer],
        "length": table.match.length,
        "actions_count": count,
    }


def _live(
    table: Table, seat: int | None, lang: str, deadline: datetime | None, now: datetime
) -> dict[str, Any]:
    game = table.game
    viewer = 0 if seat is None else seat
    position = game.partial.current_position() if game.phase is Phase.MOVE else game.position
    mine = game.on_roll == viewer
    view = _board(position if mine else position.swap_players())
    a, b = table.match.score
    ours = seat is not None and game.turn == seat and not game.is_over
    offers = _resign_offers(table, lang, seat, ours)
    left = None if deadline is None else max(0, int((deadline - now).total_seconds()))
    return view | {
        "score": [a, b] if viewer == 0 else [b, a],
        "cube": _cube(game, viewer),
        "dice": list(game.dice) if game.dice and game.phase is Phase.MOVE else None,
        "dice_left": game.partial.remaining_dice() if game.phase is Phase.MOVE else [],
        "dice_mine": mine,
        "turn": None if game.turn is None else ("me" if game.turn == viewer else "them"),
        "phase": game.phase.value,
        "headline": headline(table, lang),
        "prompt": prompt(table, lang, UiState(), seat),
        "arrows": _arrows(game, viewer),
        "moves": _moves(game) if ours and game.phase is Phase.MOVE else [],
        "buttons": _buttons(table, lang) if ours else _resign_toggle(offers, lang),
        "resign": offers,
        # The position drawn, as the board message's (the checkers moved so far included);
        # the XGID is the turn's start, as the message's line says.
        "position_id": position.position_id(),
        "match_id": game.match_id(),
        "xgid": xgid_of(game.position_id(), game.match_id()),
        "mid_move": mid_move(game),  # the XGID row then says it is the turn's start
        "seconds_left": left,
        "at": None,
    }


def _board(position: Position) -> dict[str, Any]:
    """The checkers of a position seen by the viewer: his and his opponent's, each in its
    owner's numbering (index 0-23 points 1-24, 24 the bar), the checkers off and the pips."""
    mine, theirs = position.sides()
    return {
        "mine": mine,
        "theirs": theirs,
        "off": list(position.borne_off()),
        "pips": list(position.pip_counts()),
    }


def _cube(game: Game, viewer: int) -> dict[str, Any]:
    owner = None if game.cube_owner is None else ("me" if game.cube_owner == viewer else "them")
    return {"value": game.cube_value, "owner": owner, "enabled": game.cube_enabled}


def _arrows(game: Game, viewer: int) -> list[dict[str, Any]]:
    """The last play, as arrows (none while the player on roll has moved checkers)."""
    if game.phase is Phase.MOVE and game.partial.steps:
        steps = [(m.src, m.dst) for m in game.partial.steps]
        by = game.on_roll
    else:
        event = next(
            (e for e in reversed(game.events) if e.kind is EventKind.MOVE and e.steps), None
        )
        if event is None:
            return []
        steps = [(s[0], s[1]) for s in event.steps]
        by = event.player
    who = "me" if by == viewer else "them"
    return [{"from": src, "to": dst, "by": who} for src, dst in steps]


def _moves(game: Game) -> list[list[int]]:
    """The checker steps the player to move may take next: ``[from, to, die]``."""
    return [[m.src, m.dst, m.die] for m in game.partial.available()]


def _resign_offers(table: Table, lang: str, seat: int | None, ours: bool) -> list[dict[str, Any]]:
    """The resignations the page's player may offer now: in his turn, the Resign button's
    menu, as the message has it; out of it, the menu ``/resign`` opens for him (the opponent
    on roll or moving), each button carrying his seat, and none while an offer waits for the
    opponent's answer. None on a spectator's page."""
    game = table.game
    if seat is None or game.is_over or table.seats[seat].is_computer:
        return []
    if ours:
        return _buttons(table, lang, resign=True)
    if game.phase not in (Phase.ROLL, Phase.MOVE):
        return []
    return _buttons(table, lang, resign=True, resigner=seat)


def _resign_toggle(offers: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """Out of turn, the one button a player's page shows: Resign, which opens the offers."""
    return [{"action": "resign", "arg": None, "label": t("button.resign", lang)}] if offers else []


def _buttons(
    table: Table, lang: str, *, resign: bool = False, resigner: int | None = None
) -> list[dict[str, Any]]:
    """The buttons of the Discord message at this moment that a page shows (the resign
    offers with ``resign``, ``resigner``'s when he is not the player to act), with their
    labels and the argument they carry."""
    out = []
    for row in components(table, lang, UiState(resign_menu=resign, resigner=resigner)):
        for item in row:
            if not isinstance(item, Button) or item.disabled:
                continue
            action = GameAction.parse(item.custom_id)
            if action is None:
                continue
            if resign and action.action is Press.RESIGN:
                # What each offer gives away, on the page where one tap makes it.
                points = resign_choice(action.arg)[0] * table.game.cube_value
                label = t("web.resign_offer", lang, offer=item.label, points=points)
                out.append({"action": "resign", "arg": action.arg, "label": label})
            elif not resign and action.action in WEB_PRESSES:
                word = WEB_PRESSES[action.action]
                out.append({"action": word, "arg": action.arg, "label": item.label})
    return out


def _replay(
    table: Table, events: list[GameEvent], at: int, seat: int | None, lang: str
) -> dict[str, Any]:
    """The moment after the ``at``-th action of the log (0: before the first), from the IDs
    the log stored for it: the same as the ``/export`` IDs file's row."""
    viewer = 0 if seat is None else seat
    variant = Variant(table.match.variant)  # a variant's IDs hold fewer checkers (hypergammon)
    if at == 0:
        position_id, match_id = variant.initial_position().position_id(), None
    else:
        position_id, match_id = events[at - 1].position_id, events[at - 1].match_id
    key = decode_match_id(match_id) if match_id else None
    on_roll = key.player_on_roll if key else 0
    position = Position.from_position_id(position_id, checkers=variant.checkers)
    view = _board(position if on_roll == viewer else position.swap_players())
    score = list(key.score) if key else [0, 0]
    dice = list(key.dice) if key and key.dice != (0, 0) else None
    event = events[at - 1] if at else None
    return view | {
        "score": score if viewer == 0 else score[::-1],
        "cube": _replay_cube(key, viewer, table.game.cube_enabled),
        "dice": dice,
        "dice_left": [],
        "dice_mine": on_roll == viewer,
        "turn": None,
        "phase": "replay",
        "headline": headline(table, lang, (key.score, key.crawford) if key else ((0, 0), False)),
        "prompt": _replay_line(event, table, lang),
        "arrows": _replay_arrows(events, at, viewer, variant),
        "moves": [],
        "buttons": [],
        "resign": [],
        "position_id": position_id,
        "match_id": match_id,
        "xgid": xgid_of(position_id, match_id),
        "seconds_left": None,
        "at": at,
    }


def _replay_cube(key: Any, viewer: int, enabled: bool) -> dict[str, Any]:
    """The cube of a replay's moment (``enabled``: the game is played with it)."""
    if key is None:
        return {"value": 1, "owner": None, "enabled": enabled}
    owner = key.cube_owner
    side = None if owner is None else ("me" if owner == viewer else "them")
    return {"value": key.cube_value, "owner": side, "enabled": enabled}


_KINDS = frozenset({*(k.value for k in EventKind), END_KIND})  # each has its web.kind.* message
_WITH_DICE = {
    EventKind.OPENING.value: "opening_dice",
    EventKind.ROLL.value: "roll_dice",
    EventKind.MOVE.value: "move_dice",
}


def _replay_line(event: GameEvent | None, table: Table, lang: str) -> str:
    if event is None:
        return t("web.replay_start", lang)
    who = "" if event.player is None or event.player < 0 else table.seats[event.player].name
    if event.kind == EventKind.MOVE.value and not event.play and event.die1 and event.die2:
        return t("web.replay_cannot_move", lang, seq=event.seq + 1, name=who,
                 d1=event.die1, d2=event.die2)  # fmt: skip
    kind = t(f"web.kind.{event.kind}", lang) if event.kind in _KINDS else event.kind
    if event.kind == EventKind.OPENING.value and not who:  # a tie: nobody won it
        kind = t("web.kind.opening_tie", lang)
    elif event.kind in _WITH_DICE and event.die1 and event.die2:
        # The roll said with the action (the picture of a moment after a play shows no dice).
        high, low = max(event.die1, event.die2), min(event.die1, event.die2)
        kind = t(f"web.kind.{_WITH_DICE[event.kind]}", lang, d1=high, d2=low)
    elif event.kind == END_KIND and event.points and event.cube_value:
        # As the live message says it: a gammon is a gammon, and what it scored.
        level = RESIGN_NAMES.get(_won_by(event, table), "single")
        kind = t(f"web.kind.end_{level}", lang, points=event.points)
    line = t("web.replay_line", lang, seq=event.seq + 1, name=who, kind=kind, play=event.play or "")
    return " ".join(line.split())


def _won_by(end: GameEvent, table: Table) -> int:
    """1, 2 or 3: how the game of ``end`` (its closing event) was won. A game played to its
    last checker says it by its final position, which the points do not always: under the
    Jacoby rule a gammon with the cube centred scores one point. A game ended by a pass or a
    resignation scored what was given up, at the cube of the moment."""
    try:
        checkers = Variant(table.match.variant).checkers
        final = Position.from_position_id(end.position_id, checkers=checkers)
    except ValueError:  # an old log's position the engine no longer reads
        final = None
    played_out = final.result_value() if final is not None else 0
    return played_out or (end.points or 0) // (end.cube_value or 1)


def _replay_arrows(
    events: list[GameEvent], at: int, viewer: int, variant: Variant
) -> list[dict[str, Any]]:
    """The play of the ``at``-th action as arrows, read again from its notation on the
    position before it."""
    event = events[at - 1] if at else None
    if event is None or event.kind != EventKind.MOVE.value or not event.play or event.die1 is None:
        return []
    before = events[at - 2] if at >= 2 else None
    try:
        position = (
            Position.from_position_id(before.position_id, checkers=variant.checkers)
            if before
            else variant.initial_position()
        )
        key = decode_match_id(before.match_id) if before else None
        if key is not None and key.player_on_roll != event.player:
            position = position.swap_players()
        play = parse_play(event.play, position, (event.die1, event.die2 or event.die1))
    except Exception:  # an old log's notation the parser reads differently: no arrows
        return []
    who = "me" if event.player == viewer else "them"
    return [{"from": m.src, "to": m.dst, "by": who} for m in play.moves]


# The review on the page -------------------------------------------------------------------------

# The decision an action of the log was (a roll: the decision not to double). A review numbers
# a decision by the plays made in its game so far, the play itself included for a move.
_DECIDED = {
    EventKind.MOVE.value: "move",
    EventKind.ROLL.value: "no double",
    EventKind.DOUBLE.value: "double",
    EventKind.TAKE.value: "take",
    EventKind.DROP.value: "drop",
}


def _review_part(
    table: Table,
    events: list[GameEvent],
    kept: dict[str, Any] | None,
    at: int | None,
    seat: int | None,
    lang: str,
    over: bool,
) -> dict[str, Any]:
    """The review's part of a finished game's page: each player's PR, the winning chances
    over the game (one point per action, the viewer's side), and at the ``at``-th action the
    decision it was (its error, its mark, the better play as arrows); or, without a kept
    review, the button that asks for it (not in hypergammon, which nothing analyses)."""
    none: dict[str, Any] = {"review": None, "review_ask": None, "best_arrows": []}
    if not over:
        return none
    review = _kept_review(kept)
    if review is None:
        if table.match.variant is Variant.HYPERGAMMON:
            return none
        ask = {"label": t("web.review.ask", lang), "none": t("web.review.none", lang)}
        return none | {"review_ask": ask | {"asking": t("web.review.asking", lang)}}
    return none | _review_view(table, events, review, at, seat, lang)


def _kept_review(kept: dict[str, Any] | None) -> Review | None:
    """The kept review, or None without one (or one that no longer reads)."""
    if not kept:
        return None
    try:
        return Review.from_dict(kept)
    except ValueError:
        return None


def _review_view(
    table: Table,
    events: list[GameEvent],
    review: Review,
    at: int | None,
    seat: int | None,
    lang: str,
) -> dict[str, Any]:
    """:func:`_review_part` with a kept ``review``: the review and the better play's arrows."""
    viewer = 0 if seat is None else seat
    names = (table.seats[0].name, table.seats[1].name)
    steps = _decision_steps(events, review)
    players = []
    for player in (viewer, 1 - viewer):
        pr = pr_line(review, player, lang)
        key = "web.review.pr" if pr else "web.review.no_pr"
        players.append(t(key, lang, name=names[player], pr=pr or ""))
    decision: dict[str, Any] | None = None
    best: list[dict[str, Any]] = []
    if at is not None and at in steps:
        decision, best = _decision_view(steps[at], names, viewer, lang)
    return {
        "review": {
            "title": t("web.review.title", lang),
            "players": players,
            "chart": {
                "title": t("web.review.chart", lang, name=names[viewer]),
                "points": _chances(events, review, viewer),
            },
            "decision": decision,
            "marks": sorted({k for k, d in steps.items() if error_size(d.error) is not None}),
        },
        "best_arrows": best,
    }


def _decision_steps(events: list[GameEvent], review: Review) -> dict[int, Decision]:
    """Each action of the log (its number, 1 for the first) that a decision of the review
    was."""
    by_key: dict[tuple[int, int, int, str], Decision] = {
        (d.game, d.move, d.player, d.kind): d for d in review.decisions
    }
    found: dict[int, Decision] = {}
    plays: dict[int, int] = {}
    for k, event in enumerate(events, start=1):
        game = event.game_no - 1
        if event.kind == EventKind.MOVE.value:
            plays[game] = plays.get(game, 0) + 1
        kind = _DECIDED.get(event.kind)
        if kind is None or event.player is None:
            continue
        decision = by_key.get((game, plays.get(game, 0), event.player, kind))
        if decision is not None:
            found[k] = decision
    return found


def _decision_view(
    decision: Decision, names: tuple[str, str], viewer: int, lang: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A decision as the page says it (its error in millipoints and its mark), and the
    better play's arrows when a play was wrong."""
    move = decision.kind == "move"
    name = names[decision.player]
    error = round(1000 * decision.error)
    mark = error_size(decision.error)
    if move and not decision.played and decision.dice is not None:  # nothing to grade
        d1, d2 = decision.dice
        text = t("web.review.cannot_move", lang, name=name, d1=d1, d2=d2)
        return {"text": text, "error": 0, "mark": None, "mark_text": None}, []
    if move:
        played = decision.played or t("review.no_move", lang)
        best = decision.best or t("review.no_move", lang)
    else:
        played = t(f"review.cube_did.{decision.played}", lang)
        best = t(f"review.cube_do.{decision.best}", lang)
    if error > 0:
        text = t("web.review.move" if move else "web.review.cube", lang, name=name,
                 played=played, best=best, error=error)  # fmt: skip
    else:
        text = t("web.review.good_move" if move else "web.review.good_cube", lang, name=name,
                 played=played)  # fmt: skip
    who = "me" if decision.player == viewer else "them"
    arrows = []
    if move and error > 0 and decision.best_play is not None:
        arrows = [{"from": m.src, "to": m.dst, "by": who} for m in decision.best_play.moves]
    view = {
        "text": text,
        "error": error,
        "mark": mark,
        "mark_text": t(f"review.size.{mark}", lang) if mark else None,
    }
    return view, arrows


def _chances(events: list[GameEvent], review: Review, viewer: int) -> list[list[float]]:
    """The winning chances (of the match in match play) of ``viewer``'s side in percent, as
    ``[action, chance]`` points: after the ``move``-th play of a game, 0 before its first (the
    action before the game's first), a game's last point at its last action."""
    play_at: dict[tuple[int, int], int] = {}
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    plays: dict[int, int] = {}
    for k, event in enumerate(events, start=1):
        game = event.game_no - 1
        first.setdefault(game, k - 1)
        last[game] = k
        if event.kind == EventKind.MOVE.value:
            plays[game] = plays.get(game, 0) + 1
            play_at[(game, plays[game])] = k
    points: list[list[float]] = []
    seen: set[tuple[int, int]] = set()
    for chance in review.chances:
        key = (chance.game, chance.move)
        if chance.move == 0:
            x = first.get(chance.game)
        elif key in seen:  # a game decided by a drop or a resignation: its end
            x = last.get(chance.game)
        else:
            x = play_at.get(key)
        seen.add(key)
        if x is None:
            continue
        win = chance.match_win if chance.match_win is not None else chance.game_win
        points.append([x, round(100 * (win if viewer == 0 else 1 - win), 1)])
    return points

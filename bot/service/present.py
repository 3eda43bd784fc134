"""The game message: text, board picture and the components that fit the moment.

Everything here is a pure function of a :class:`Table` (a game as the service loaded it), the
reader's language and the view state of the message (the die picked, an open resign menu).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Literal

from bot.drawers import DRAWERS
from bot.i18n import t
from bot.service.actions import ACTIONS
from bot.service.customid import GameAction, Press
from bot.service.model import RESIGN_NAMES, WON, Notes, Seat, Table, UiState, high_first
from bot.service.people import DEFAULT_THEME
from bot.service.replies import Button, Choice, Component, Reply, Select, Style
from bot.service.resigning import menu_owner, possible_values, resign_arg
from bot.service.shots import COLORS as COLORS
from bot.service.shots import Shots, checker_colors
from bot.service.variants import kind_text, said_of_kind
from engine import EventKind, Game, MatchContext, Move, Phase, Position, Variant
from engine.turn import Turn
from engine.xgid import Xgid
from render import BoardView, GameOver, Resignation, text_board

__all__ = [
    "Notes",
    "Seat",
    "Table",
    "UiState",
    "board_reply",
    "board_view",
    "components",
    "prompt_line",
]

log = logging.getLogger(__name__)

MAX_POINT_BUTTONS = 15  # three rows of five; a player never has checkers on more points
MAX_SELECT = 25
MAX_TEXT = 2000  # Discord's limit for a message's content
PLAIN = UiState()  # no die picked, no menu open
Side = Literal["mover", "opponent"]


def viewer_seat(table: Table, acting: int | None) -> int:
    """Whose side the picture is drawn from: the person against the computer; between two
    people, the one whose decision it is (so he clicks on his own numbering)."""
    if table.against_computer:
        return table.human_seat()
    turn = table.game.turn
    if turn is not None:
        return turn
    return acting if acting is not None else 0


def board_view(
    table: Table,
    viewer: int,
    lang: str,
    ui: UiState,
    *,
    mirrored: bool,
    theme: str = DEFAULT_THEME,
    caption: tuple[str, ...] = (),
) -> BoardView:
    """What the picture shows, seen from ``viewer``'s seat."""
    game = table.game
    mover = game.on_roll
    names = (table.seats[mover].name, table.seats[1 - mover].name)
    turn = game.partial if game.phase is Phase.MOVE else None
    chooser = viewer == mover and not table.seats[mover].is_computer
    dice_left, playable, selected, highlights = _dice_state(turn, ui, chooser)
    last_play, last_by = _last_play(game, mover, turn is not None and bool(turn.steps))
    return BoardView(
        viewpoint=_side(viewer, mover),
        mirrored=mirrored,
        theme=theme,
        names=names,
        colors=checker_colors(viewer, mover, theme),
        dice=game.dice,
        dice_left=dice_left,
        playable_dice=playable,
        selected_die=selected,
        context=_context(table, mover),
        cube=table.game.cube_enabled,
        highlights=highlights,
        last_play=last_play,
        last_play_by=last_by,
        double_offered_by="mover" if game.phase is Phase.DOUBLED else None,
        resignation=_resignation(game, mover),
        game_over=_game_over(game, mover),
        caption=caption,
        lang=lang,
    )


def _dice_state(
    turn: Turn | None, ui: UiState, chooser: bool
) -> tuple[tuple[int, ...] | None, tuple[int, ...] | None, int | None, frozenset[int]]:
    """The dice left, those a legal play can still use, the die chosen and the points it can
    move from (the last two only for ``chooser``, the person whose turn it is)."""
    if turn is None:
        return None, None, None, frozenset()
    values = turn.playable_dice()  # those the next step can use: the choice of a die
    playable = tuple(turn.dice_to_play())  # those the turn will use: drawn unfaded
    # The resign menu chooses no die: the board under it shows none (not a default one).
    selected = _selected_die(values, ui.die) if chooser and not ui.resign_menu else None
    highlights = frozenset(turn.movable_points(selected)) if selected else frozenset()
    return tuple(turn.remaining_dice()), playable, selected, highlights


def _side(seat: int, mover: int) -> Side:
    return "mover" if seat == mover else "opponent"


def _last_play(game: Game, mover: int, stepping: bool) -> tuple[list[Move] | None, Side]:
    """The last checkers moved, as arrows (none while the player on roll is moving checkers):
    a pass moves nothing, so the play before it is still the last thing that happened."""
    event = next((e for e in reversed(game.events) if e.kind is EventKind.MOVE and e.steps), None)
    if event is None or stepping:
        return None, "opponent"
    steps = [Move(*s) for s in event.steps]
    return steps, _side(event.player, mover)


def _resignation(game: Game, mover: int) -> Resignation | None:
    if game.phase is not Phase.RESIGNED or game.resigned_by is None:
        return None
    return Resignation(by=_side(game.resigned_by, mover), value=game.resign_value)


def _game_over(game: Game, mover: int) -> GameOver | None:
    result = game.result
    if result is None:
        return None
    return GameOver(winner=_side(result.winner, mover), value=result.value, points=result.points)


def _context(table: Table, mover: int) -> MatchContext:
    """Cube and score for the picture; once the game is over, the score with it counted."""
    ctx = table.game.context(mover)
    if table.game.is_over and table.match.length:
        a, b = table.match.score
        ctx = replace(ctx, score=(a, b) if mover == 0 else (b, a))
    return ctx


def _selected_die(playable: list[int], wanted: int | None) -> int | None:
    if not playable:
        return None
    return wanted if wanted in playable else playable[0]


def board_position(table: Table):  # type: ignore[no-untyped-def]
    game = table.game
    if game.phase is Phase.MOVE:
        return game.partial.current_position()
    return game.position


def board_reply(
    table: Table,
    lang: str,
    notes: Notes,
    *,
    acting: int | None = None,
    ui: UiState = PLAIN,
    mirrored: bool = False,
    theme: str = DEFAULT_THEME,
    edit: bool = False,
    with_image: bool = True,
    later: bool = False,
    ping: bool = True,
) -> Reply:
    """The game message for everyone in the channel, in ``lang``; ``later``: its pictures
    drawn once the action has committed (:attr:`Reply.later`); ``ping``: False when the
    action changed nothing (a menu opened or closed), so that nobody is told again that it
    is his turn."""
    viewer = viewer_seat(table, acting)
    shots = Shots(table, viewer, lang, notes.plays, mirrored=mirrored, theme=theme)
    view = board_view(
        table, viewer, lang, ui, mirrored=mirrored, theme=theme, caption=shots.main_caption()
    )
    position = board_position(table)

    def pictures(reply: Reply) -> None:
        reply.image, reply.attachments = _picture(position, view), shots.pictures()

    reply = _message(
        table, lang, notes, ui, position, view, acting=acting if ping else None, edit=edit
    )
    reply.menu = ui.resign_menu
    if with_image and later:
        reply.later = pictures
    elif with_image:
        pictures(reply)
    return reply


def _message(
    table: Table,
    lang: str,
    notes: Notes,
    ui: UiState,
    position: Position,
    view: BoardView,
    *,
    acting: int | None,
    edit: bool,
) -> Reply:
    """The game message without its pictures: the text, the buttons, the IDs of ``position``
    (the one drawn), the ping of the player whose turn it is, and the board as text."""
    mentions, ping = _turn_ping(table, acting, lang)
    return Reply(
        text=_message_text(table, lang, notes, ui),
        events=tuple(note.render(lang) for note in notes.lines),
        rows=components(table, lang, ui),
        edit=edit,
        ping=ping,
        # The position drawn: in the middle of a move, with the checkers moved so far.
        position_id=position.position_id(),
        match_id=table.game.match_id(),
        mentions=mentions,
        game_id=table.game_id,
        # The same view as the picture (the die chosen...), drawn as the terminal draws it;
        # under the text's IDs, its own Position ID only in the middle of a move (the one so
        # far: the text's are the turn's start).
        board_text=text_board(
            position,
            view=replace(view, mirrored=False, caption=()),
            position_id=view.moving(),
        ),
    )


def _message_text(table: Table, lang: str, notes: Notes, ui: UiState) -> str:
    """Headline, what happened, the prompt and the IDs, within Discord's length."""
    game = table.game
    head = [_headline(table, lang)]
    events = [n.render(lang) for n in notes.lines]
    # XG plays no hypergammon: its XGID would read as a 15-checker position.
    hyper = game.variant is Variant.HYPERGAMMON
    xgid = "-" if hyper else xgid_of(game.position_id(), game.match_id())
    ids = {"position_id": game.position_id(), "match_id": game.match_id()}
    # A finished game has no XGID: its line names the two IDs only. In the middle of a move
    # they stay those of the turn's start (with the dice in the Match ID, what GNU Backgammon
    # and XG analyse), and the line says so: the board shows the checkers moved so far.
    key = "game.ids_turn" if mid_move(game) else "game.ids"
    ids_line = t(key, lang, **ids, xgid=xgid) if xgid != "-" else t("game.ids_only", lang, **ids)
    tail = [_prompt(table, lang, ui), ids_line]
    lines = head + events + tail
    left_out = 0
    while len("\n".join(line for line in lines if line)) > MAX_TEXT and events:
        # A long chain (automatic rolls and forced moves through a bear-off): the oldest
        # events give way, never the prompt, the result or the IDs.
        events.pop(0)
        left_out += 1
        lines = [*head, t("note.earlier", lang, count=left_out), *events, *tail]
    return "\n".join(line for line in lines if line)


def _turn_ping(table: Table, acting: int | None, lang: str) -> tuple[tuple[int, ...], str | None]:
    """Who may be pinged (the person whose turn it is, between two people), and the line
    telling him when the decision has just passed to him (an edited message never notifies
    anyone, so the adapter sends this line on its own)."""
    turn = table.game.turn
    user = table.seats[turn].user_id if turn is not None else None
    if user is None or table.against_computer:
        return (), None
    if acting is not None and acting != turn:
        return (user,), t("turn.ping", lang, mention=f"<@{user}>", id=table.game_id)
    return (user,), None


def _picture(position: Position, view: BoardView) -> bytes | None:
    """The board picture; a drawing problem must never cost the player his reply, so it is
    logged and the picture drawn again without the extras (arrows, highlights), or left out."""
    try:
        return DRAWERS.draw(position, view)
    except Exception:
        log.exception("drawing the board failed; retrying without arrows and highlights")
    try:
        return DRAWERS.draw(position, replace(view, last_play=None, highlights=frozenset()))
    except Exception:
        log.exception("drawing the board failed again; sending the text only")
        return None


def text_picture(table: Table, lang: str, *, acting: int | None = None) -> str:
    """The same board as monospace text (the terminal, logs, accessibility)."""
    viewer = viewer_seat(table, acting)
    view = board_view(table, viewer, lang, UiState(), mirrored=False)
    return text_board(board_position(table), view=view)


def headline(table: Table, lang: str, moment: tuple[tuple[int, int], bool] | None = None) -> str:
    """The game's first line: the players, the kind of game, the score (the web board's);
    ``moment``: the score and the Crawford flag of a replay's moment instead of the match's."""
    return _headline(table, lang, moment)


def mid_move(game: Game) -> bool:
    """Whether checkers of this roll were moved already: the position drawn is then the one
    so far, while the IDs of a message (the XGID of the web board's panel) stay the turn's
    start, the decision GNU Backgammon and XG analyse."""
    return game.phase is Phase.MOVE and bool(game.partial.steps)


def prompt(table: Table, lang: str, ui: UiState, viewer: int | None) -> str:
    """What the game waits for, or its result (the web board's, for the page of ``viewer``:
    a seat, or None for a spectator's). To the player moving it says how his page moves a
    checker: it lights every point the checker may reach, with either die, where a message
    has the player choose a die; the other pages, where nothing can be picked, say only that he
    moves; otherwise they get the message's words."""
    acting = viewer is not None and viewer == table.game.turn
    return _prompt(table, lang, ui, page=True if acting else None)


def _headline(table: Table, lang: str, moment: tuple[tuple[int, int], bool] | None = None) -> str:
    s0, s1 = table.seats
    match = table.match
    kind = kind_text(match.length, match.variant, lang)
    (a, b), is_crawford = moment or (match.score, table.game.crawford)
    score = t("game.score", lang, a=a, b=b) if match.length else ""
    rated = said_of_kind("game.rated", match.length, lang) if table.rated else ""
    crawford = t("game.crawford", lang) if is_crawford else ""
    return t(
        "game.headline",
        lang,
        p0=s0.name,
        p1=s1.name,
        kind=kind,
        score=score,
        rated=rated,
        crawford=crawford,
    ).strip()


def prompt_line(table: Table, lang: str) -> str:
    """The line of a game message that tells the player on turn what to do (or the result of
    a finished game): a consultation game's message puts its vote there instead."""
    return _prompt(table, lang, PLAIN)


def _prompt(table: Table, lang: str, ui: UiState, *, page: bool | None = False) -> str:
    """What the game waits for: in a message (``page`` False), on the web page of the player
    to act (True) or on another page (None)."""
    game = table.game
    if game.is_over:
        return _result(table, lang)
    turn = game.turn
    if turn is None:
        return ""
    if ui.resign_menu:  # the menu of whoever asked to resign, in turn or not
        return t("prompt.resign_menu", lang, name=table.seats[ui.menu_seat(turn)].name)
    seat = table.seats[turn]
    if seat.is_computer:
        return t("game.computer_thinking", lang)
    name = seat.name
    if game.phase is Phase.ROLL:
        key = "prompt.roll_or_double" if game.can_double() else "prompt.roll"
        return t(key, lang, name=name)
    if game.phase is Phase.DOUBLED:
        return t("prompt.take_or_drop", lang, name=name, value=game.cube_value * 2)
    if game.phase is Phase.RESIGNED:
        return t(
            "prompt.accept_resignation",
            lang,
            name=name,
            offer=t(f"resign.offer_{RESIGN_NAMES[game.resign_value]}", lang),
            points=game.resign_value * game.cube_value,
        )
    return _move_prompt(game, name, lang, ui, page)


def _result(table: Table, lang: str) -> str:
    """Who won the game (and the match), and the dice seed now revealed."""
    match = table.match
    result = table.game.result
    assert result is not None
    winner = table.seats[result.winner].name
    line = t(WON[result.value], lang, name=winner, points=result.points)
    if match.is_over and match.length:
        winner_seat = match.winner or 0
        champion = table.seats[winner_seat].name
        a, b = match.score
        if winner_seat == 1:
            a, b = b, a  # the winner's score first
        match_kind = t("game.kind_match", lang, points=match.length)
        line += "\n" + t("game.match_over", lang, name=champion, a=a, b=b, match=match_kind)
    if table.revealed_seed:
        line += "\n" + t("dice.revealed", lang, seed=table.revealed_seed)
    return line


def _move_prompt(game: Game, name: str, lang: str, ui: UiState, page: bool | None) -> str:
    turn = game.partial
    rolled = high_first(turn.dice)
    if page is None:
        return t("prompt.web_moving", lang, name=name, **rolled)
    if turn.is_complete():
        return t("prompt.confirm", lang, name=name)
    forced = turn.forced_die()
    if forced is not None and not turn.steps:
        return t("prompt.forced_die", lang, name=name, **rolled, die=forced)
    if page:  # the page lights every point a checker may reach, with either die
        return t("prompt.web_pick", lang, name=name, **rolled)
    playable = turn.playable_dice()
    if len(playable) > 1:
        die = _selected_die(playable, ui.die)
        return t("prompt.pick_die_point", lang, name=name, **rolled, die=die)
    return t("prompt.pick_point", lang, name=name, **rolled, die=playable[0])


def button(
    table: Table,
    lang: str,
    press: Press,
    arg: str | None = None,
    *,
    label: str | None = None,
    style: Style | None = None,
    disabled: bool = False,
) -> Button:
    """The button of ``press`` (see :data:`~bot.service.actions.ACTIONS`) for this state of
    the game; ``label`` (already in ``lang``) and ``style`` replace the table's."""
    action = ACTIONS[press]
    custom_id = GameAction(table.game_id, table.version, press, arg).custom_id
    text = label if label is not None else t(action.label or press.value, lang)
    return Button(custom_id, text, style or action.style, disabled)


def components(table: Table, lang: str, ui: UiState) -> list[list[Component]]:
    """The buttons (and select menu) that fit the moment, at most five rows."""
    game = table.game
    if game.is_over:
        over = table.match.is_over and not table.tournament  # a tournament pairs on itself
        return [[button(table, lang, Press.REMATCH)]] if over else []
    turn = game.turn
    if ui.resign_menu and turn is not None:
        return [_resign_menu(table, lang, ui.menu_seat(turn))]
    if turn is None or table.seats[turn].is_computer:
        return []
    claim: list[list[Component]] = []
    if table.out_of_time:
        claim = [[button(table, lang, Press.CLAIM)]]
    if game.phase is Phase.MOVE:
        rows = _move_components(table, lang, ui)
        if claim:
            # Five rows at most: the whole-play menu gives its row to the claim button.
            rows = [r for r in rows if not any(isinstance(c, Select) for c in r)][:4]
        return rows + claim
    return [_decision_row(table, lang), *claim]


def _decision_row(table: Table, lang: str) -> list[Component]:
    """Roll (or double) or resign; take or drop; accept or reject a resignation."""
    game = table.game
    if game.phase is Phase.DOUBLED:
        presses = [Press.TAKE, Press.DROP]
    elif game.phase is Phase.RESIGNED:
        presses = [Press.ACCEPT, Press.REJECT]
    else:
        presses = [Press.ROLL, Press.DOUBLE, Press.RESIGN_MENU]
        if not game.can_double():
            presses.remove(Press.DOUBLE)
    return [button(table, lang, p) for p in presses]


def _resign_menu(table: Table, lang: str, seat: int) -> list[Component]:
    """The offers ``seat`` may make: only what the opponent could still win (no gammon once a
    checker is off...). A menu for the player not to act carries his seat (``value-seat``:
    :func:`bot.service.resigning.resign_arg`), so that only he can answer it."""
    owner, offers = menu_owner(table.game, seat), possible_values(table.game, seat)
    row: list[Component] = [
        button(
            table,
            lang,
            Press.RESIGN,
            resign_arg(value, owner),
            label=t(f"button.resign_{name}", lang),
        )
        for value, name in RESIGN_NAMES.items()
        if value in offers
    ]
    # Cancel, too, only for the menu's owner.
    return [*row, button(table, lang, Press.CANCEL, None if owner is None else str(owner))]


def _move_components(table: Table, lang: str, ui: UiState) -> list[list[Component]]:
    turn = table.game.partial
    rows: list[list[Component]] = []
    playable = turn.playable_dice()
    die = _selected_die(playable, ui.die)
    if die is not None:
        points = sorted(turn.movable_points(die), reverse=True)[:MAX_POINT_BUTTONS]
        buttons: list[Component] = [
            button(table, lang, Press.POINT, f"{p}-{die}", label=_point_label(p, lang))
            for p in points
        ]
        rows += [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    control: list[Component] = []
    if len(playable) > 1:
        for d in playable:
            label = t("button.die", lang, die=d)
            style: Style = "success" if d == die else "secondary"
            control.append(
                button(table, lang, Press.DIE, str(d), label=label, style=style, disabled=d == die)
            )
    control.append(button(table, lang, Press.UNDO, disabled=not turn.steps))
    control.append(button(table, lang, Press.CONFIRM, disabled=not turn.is_complete()))
    # Two dice, Undo and Confirm leave room for Resign in the row of five.
    control.append(button(table, lang, Press.RESIGN_MENU))
    rows.append(control)
    plays = turn.plays
    if not turn.steps and 1 < len(plays) <= MAX_SELECT:
        choices = tuple(Choice(str(p), str(p)) for p in sorted(plays, key=str))
        custom_id = GameAction(table.game_id, table.version, Press.PLAY).custom_id
        rows.append([Select(custom_id, t("select.whole_play", lang), choices)])
    return rows


def _point_label(point: int, lang: str) -> str:
    return t("button.bar", lang) if point == 25 else str(point)


def xgid_of(position_id: str, match_id: str | None) -> str:
    """The XGID of a moment given by GNU Backgammon's IDs ("-" when it has none: a finished
    game)."""
    try:
        return str(Xgid.from_ids(position_id, match_id))
    except ValueError:
        return "-"

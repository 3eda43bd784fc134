"""The game message: text, board picture and the components that fit the moment.

Everything here is a pure function of a :class:`Table` (a game as the service loaded it), the
reader's language and the view state of the message (the die picked, an open resign menu).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace

from bot.i18n import Text, t
from bot.service.customid import GameAction
from bot.service.replies import Button, Choice, Component, Reply, Select
from engine import Game, Match, MatchContext, Phase, Position
from render import BoardView, GameOver, Resignation, render_board, text_board

__all__ = ["Seat", "Table", "UiState", "board_reply", "board_view"]

log = logging.getLogger(__name__)

COLORS = ("white", "black")
MAX_POINT_BUTTONS = 15  # three rows of five; a player never has checkers on more points
MAX_SELECT = 25
MAX_TEXT = 2000  # Discord's limit for a message's content


@dataclass(frozen=True)
class Seat:
    """One side of a game: a person (``user_id``) or the computer (``level``)."""

    name: str
    user_id: int | None = None
    level: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.user_id is None


@dataclass
class Table:
    """A game as loaded for one action: its row's identity and its engine match."""

    game_id: int
    version: int
    seats: tuple[Seat, Seat]
    match: Match
    rated: bool = False
    commitment: str | None = None
    revealed_seed: str | None = None
    out_of_time: bool = False  # the player to act let the move timer run out: claim possible

    @property
    def game(self) -> Game:
        return self.match.game

    def seat_of(self, user_id: int) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return i
        return None

    @property
    def against_computer(self) -> bool:
        return any(s.is_computer for s in self.seats)

    def human_seat(self) -> int:
        return 0 if not self.seats[0].is_computer else 1


@dataclass(frozen=True)
class UiState:
    """What the message shows beyond the game state: the die picked for the next checker
    move, or the resign menu opened instead of the usual buttons."""

    die: int | None = None
    resign_menu: bool = False


@dataclass
class Notes:
    """What happened during the action, told above the board."""

    lines: list[Text] = field(default_factory=list)

    def add(self, key: str, /, **params: object) -> None:
        self.lines.append(Text(key, **params))


def viewer_seat(table: Table, acting: int | None) -> int:
    """Whose side the picture is drawn from: the person against the computer; between two
    people, the one whose decision it is (so he clicks on his own numbering)."""
    if table.against_computer:
        return table.human_seat()
    turn = table.game.turn
    if turn is not None:
        return turn
    return acting if acting is not None else 0


def board_view(table: Table, viewer: int, lang: str, ui: UiState, *, mirrored: bool) -> BoardView:
    game = table.game
    mover = game.on_roll
    other = 1 - mover
    names = (table.seats[mover].name, table.seats[other].name)
    turn = game.partial if game.phase is Phase.MOVE else None
    highlights: frozenset[int] = frozenset()
    dice_left: tuple[int, ...] | None = None
    if turn is not None:
        dice_left = tuple(turn.remaining_dice())
        if viewer == mover and not table.seats[mover].is_computer:
            die = _selected_die(turn.playable_dice(), ui.die)
            highlights = frozenset(turn.movable_points(die)) if die else frozenset()
    last_play = None
    last_by = "opponent"
    event = game.last_move()
    if event is not None and event.steps and not (turn and turn.steps):
        last_play = [tuple(s) for s in event.steps]
        last_by = "mover" if event.player == mover else "opponent"
    resignation = None
    if game.phase is Phase.RESIGNED and game.resigned_by is not None:
        side = "mover" if game.resigned_by == mover else "opponent"
        resignation = Resignation(by=side, value=game.resign_value)
    over = None
    if game.result is not None:
        side = "mover" if game.result.winner == mover else "opponent"
        over = GameOver(winner=side, value=game.result.value, points=game.result.points)
    return BoardView(
        viewpoint="mover" if viewer == mover else "opponent",
        mirrored=mirrored,
        names=names,
        colors=(COLORS[mover], COLORS[other]),
        dice=game.dice,
        dice_left=dice_left,
        context=_context(table, mover),
        highlights=highlights,
        last_play=last_play,  # type: ignore[arg-type]
        last_play_by=last_by,  # type: ignore[arg-type]
        double_offered_by="mover" if game.phase is Phase.DOUBLED else None,
        resignation=resignation,  # type: ignore[arg-type]
        game_over=over,  # type: ignore[arg-type]
        lang=lang,
    )


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
    ui: UiState = UiState(),
    mirrored: bool = False,
    edit: bool = False,
    with_image: bool = True,
) -> Reply:
    """The game message for everyone in the channel, in ``lang``."""
    viewer = viewer_seat(table, acting)
    view = board_view(table, viewer, lang, ui, mirrored=mirrored)
    position = board_position(table)
    game = table.game
    head = [_headline(table, lang)]
    events = [n.render(lang) for n in notes.lines]
    tail = [
        _prompt(table, lang, ui),
        t("game.ids", lang, position_id=game.position_id(), match_id=game.match_id()),
    ]
    lines = head + events + tail
    left_out = 0
    while len("\n".join(line for line in lines if line)) > MAX_TEXT and events:
        # A long chain (automatic rolls and forced moves through a bear-off): the oldest
        # events give way, never the prompt, the result or the IDs.
        events.pop(0)
        left_out += 1
        lines = [*head, t("note.earlier", lang, count=left_out), *events, *tail]
    turn = game.turn
    mentions: tuple[int, ...] = ()
    ping = None
    if turn is not None and table.seats[turn].user_id is not None and not table.against_computer:
        mentions = (table.seats[turn].user_id,)  # type: ignore[assignment]
        if acting is not None and acting != turn:
            # The decision has passed to the other person: tell him (an edited message never
            # notifies anyone, so the adapter sends this line on its own).
            ping = t("turn.ping", lang, mention=f"<@{mentions[0]}>", id=table.game_id)
    return Reply(
        text="\n".join(line for line in lines if line),
        image=_picture(position, view) if with_image else None,
        rows=components(table, lang, ui),
        edit=edit,
        ping=ping,
        position_id=game.position_id(),
        match_id=game.match_id(),
        mentions=mentions,
        game_id=table.game_id,
    )


def _picture(position: Position, view: BoardView) -> bytes | None:
    """The board picture; a drawing problem must never cost the player his reply, so it is
    logged and the picture drawn again without the extras (arrows, highlights), or left out."""
    try:
        return render_board(position, view=view)
    except Exception:
        log.exception("drawing the board failed; retrying without arrows and highlights")
    try:
        return render_board(position, view=replace(view, last_play=None, highlights=frozenset()))
    except Exception:
        log.exception("drawing the board failed again; sending the text only")
        return None


def text_picture(table: Table, lang: str, *, acting: int | None = None) -> str:
    """The same board as monospace text (the terminal, logs, accessibility)."""
    viewer = viewer_seat(table, acting)
    view = board_view(table, viewer, lang, UiState(), mirrored=False)
    return text_board(board_position(table), view=view)


def _headline(table: Table, lang: str) -> str:
    s0, s1 = table.seats
    match = table.match
    kind = (
        t("game.kind_match", lang, points=match.length)
        if match.length
        else t("game.kind_money", lang)
    )
    score = ""
    if match.length:
        a, b = match.score
        score = t("game.score", lang, a=a, b=b)
    rated = t("game.rated", lang) if table.rated else ""
    crawford = t("game.crawford", lang) if table.game.crawford else ""
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


def _prompt(table: Table, lang: str, ui: UiState) -> str:
    game = table.game
    match = table.match
    if game.is_over:
        result = game.result
        assert result is not None
        winner = table.seats[result.winner].name
        key = {1: "game.won_single", 2: "game.won_gammon", 3: "game.won_backgammon"}[result.value]
        line = t(key, lang, name=winner, points=result.points)
        if match.is_over and match.length:
            winner_seat = match.winner or 0
            champion = table.seats[winner_seat].name
            a, b = match.score
            if winner_seat == 1:
                a, b = b, a  # the winner's score first
            line += "\n" + t("game.match_over", lang, name=champion, a=a, b=b)
        if table.revealed_seed:
            line += "\n" + t("dice.revealed", lang, seed=table.revealed_seed)
        return line
    turn = game.turn
    if turn is None:
        return ""
    seat = table.seats[turn]
    if seat.is_computer:
        return t("game.computer_thinking", lang)
    name = seat.name
    if ui.resign_menu:
        return t("prompt.resign_menu", lang, name=name)
    if game.phase is Phase.ROLL:
        key = "prompt.roll_or_double" if game.can_double() else "prompt.roll"
        return t(key, lang, name=name)
    if game.phase is Phase.DOUBLED:
        return t("prompt.take_or_drop", lang, name=name, value=game.cube_value * 2)
    if game.phase is Phase.RESIGNED:
        key = {1: "resign.offer_single", 2: "resign.offer_gammon", 3: "resign.offer_backgammon"}[
            game.resign_value
        ]
        return t(
            "prompt.accept_resignation",
            lang,
            name=name,
            offer=t(key, lang),
            points=game.resign_value * game.cube_value,
        )
    turn_ = game.partial
    d1, d2 = turn_.dice
    if turn_.is_complete():
        return t("prompt.confirm", lang, name=name)
    forced = turn_.forced_die()
    if forced is not None and not turn_.steps:
        return t("prompt.forced_die", lang, name=name, d1=d1, d2=d2, die=forced)
    playable = turn_.playable_dice()
    if len(playable) > 1:
        die = _selected_die(playable, ui.die)
        return t("prompt.pick_die_point", lang, name=name, d1=d1, d2=d2, die=die)
    return t("prompt.pick_point", lang, name=name, d1=d1, d2=d2, die=playable[0])


def components(table: Table, lang: str, ui: UiState) -> list[list[Component]]:
    """The buttons (and select menu) that fit the moment, at most five rows."""
    game = table.game

    def act(action: str, arg: str | None = None) -> str:
        return GameAction(table.game_id, table.version, action, arg).custom_id

    def button(
        action: str,
        key: str,
        style: str = "secondary",
        *,
        arg: str | None = None,
        disabled: bool = False,
    ) -> Button:
        return Button(act(action, arg), t(key, lang), style, disabled)  # type: ignore[arg-type]

    if game.is_over:
        if table.match.is_over:
            return [[button("rematch", "button.rematch", "primary")]]
        return []
    turn = game.turn
    if turn is None or table.seats[turn].is_computer:
        return []
    if ui.resign_menu:
        return [
            [
                button("resign", "button.resign_single", "danger", arg="1"),
                button("resign", "button.resign_gammon", "danger", arg="2"),
                button("resign", "button.resign_backgammon", "danger", arg="3"),
                button("cancel", "button.cancel"),
            ]
        ]
    claim: list[list[Component]] = []
    if table.out_of_time:
        claim = [[button("claim", "button.claim", "danger")]]
    if game.phase is Phase.ROLL:
        row = [button("roll", "button.roll", "primary")]
        if game.can_double():
            row.append(button("double", "button.double", "success"))
        row.append(button("resign_menu", "button.resign", "danger"))
        return [row, *claim]
    if game.phase is Phase.DOUBLED:
        return [
            [button("take", "button.take", "success"), button("drop", "button.drop", "danger")],
            *claim,
        ]
    if game.phase is Phase.RESIGNED:
        return [
            [
                button("accept", "button.accept", "success"),
                button("reject", "button.reject", "danger"),
            ],
            *claim,
        ]
    rows = _move_components(table, lang, ui, act)
    if claim:
        # Five rows at most: the whole-play menu gives its row to the claim button.
        rows = [r for r in rows if not any(isinstance(c, Select) for c in r)][:4] + claim
    return rows


def _move_components(table: Table, lang: str, ui: UiState, act) -> list[list[Component]]:  # type: ignore[no-untyped-def]
    turn = table.game.partial
    rows: list[list[Component]] = []
    playable = turn.playable_dice()
    die = _selected_die(playable, ui.die)
    if die is not None:
        points = sorted(turn.movable_points(die), reverse=True)[:MAX_POINT_BUTTONS]
        buttons: list[Component] = [
            Button(act("pt", f"{p}-{die}"), _point_label(p, lang), "primary") for p in points
        ]
        rows += [buttons[i : i + 5] for i in range(0, len(buttons), 5)]
    control: list[Component] = []
    if len(playable) > 1:
        for d in playable:
            label = t("button.die", lang, die=d)
            control.append(
                Button(
                    act("die", str(d)),
                    label,
                    "success" if d == die else "secondary",
                    disabled=d == die,
                )
            )
    control.append(
        Button(act("undo", None), t("button.undo", lang), "secondary", disabled=not turn.steps)
    )
    control.append(
        Button(
            act("confirm", None),
            t("button.confirm", lang),
            "success",
            disabled=not turn.is_complete(),
        )
    )
    # Two dice, Undo and Confirm leave room for Resign in the row of five.
    control.append(Button(act("resign_menu", None), t("button.resign", lang), "danger"))
    rows.append(control)
    plays = turn.plays
    if not turn.steps and 1 < len(plays) <= MAX_SELECT:
        choices = tuple(Choice(str(p), str(p)) for p in sorted(plays, key=str))
        rows.append([Select(act("play", None), t("select.whole_play", lang), choices)])
    return rows


def _point_label(point: int, lang: str) -> str:
    return t("button.bar", lang) if point == 25 else str(point)

"""Pictures of a review (:mod:`engine.analysis`): the winning chances move by move, and a
"mistake card" showing the play made beside the better one.

A mistake card draws the position *before* the play, seen by the player who erred, with both
plays as arrows (:attr:`render.BoardView.other_play`): the play made in light blue, the better
one in orange over it. The caption names each in its arrows' colour, so it is the legend; the
pip counts are those before the roll. His dice are drawn used. A review stored before plays kept
their steps has no played play to draw: its card draws the position after the better play, with
that play's arrows, and says so.

>>> from engine import Game
>>> from engine.analysis import review_game
>>> game = Game()
>>> game.opening_roll(6, 5)
>>> game.play_text("8/3 8/2")  # 24/13 is the play
<Play 8/3 8/2>
>>> review = review_game(game, engine="fallback")
>>> review_chart(review, names=("Ann", "Bob"))[:4]
b'\\x89PNG'
>>> mistake = review.worst(0, 1)[0]
>>> mistake_card(mistake, names=("Ann", "Bob"))[:4]
b'\\x89PNG'
>>> position, view = mistake_board(mistake, names=("Ann", "Bob"))
>>> render_board(position, view=view) == mistake_card(mistake, names=("Ann", "Bob"))
True
"""

from __future__ import annotations

from dataclasses import replace

from engine import Position
from engine.analysis import Decision, Review
from render.chart import chances_chart
from render.labels import label
from render.picture import render_board
from render.view import BoardView

__all__ = ["card_caption", "mistake_board", "mistake_card", "review_chart"]


def review_chart(
    review: Review,
    *,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    player: int = 0,
    lang: str = "en",
) -> bytes:
    """The winning chances of ``player`` after each play, as PNG bytes (see
    :func:`render.chart.chances_chart`): his chances to win the match in match play, the game in
    a money game; each game of a match after a dashed line.

    :param names: the players' names, player 0 first.
    :raises ValueError: when the review holds no chances (no game was played).
    """
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    match = bool(review.match_length)
    values, separators, labels, ticks = _series(review, player, lang)
    if not values:
        raise ValueError("the review holds no chances to draw")
    key = "match_chances_of" if match else "chances_of"
    ahead = (names[player], names[1 - player])
    return chances_chart(
        values,
        separators=separators,
        labels=labels,
        title=label(lang, key, name=names[player]),
        legend=(label(lang, "ahead", name=ahead[0]), label(lang, "ahead", name=ahead[1])),
        ticks=ticks,
    )


_Series = tuple[list[float], list[int], list[str], list[tuple[int, str]]]


def _series(review: Review, player: int, lang: str) -> _Series:
    """The chart's values (``player``'s chances after each play), where each game after the
    first starts and its label, and the numbered moves (as the cards count them)."""
    match = bool(review.match_length)
    values: list[float] = []
    separators: list[int] = []
    labels: list[str] = []
    ticks: list[tuple[int, str]] = []
    step = _tick_step(len(review.chances))
    game: int | None = None
    last: tuple[int, int] | None = None  # the previous point's game and move
    for c in review.chances:
        if c.game != game and game is not None:
            separators.append(len(values))
            labels.append(label(lang, "game_n", n=c.game + 1))
        if c.move and c.move % step == 0 and (c.game, c.move) != last:
            ticks.append((len(values), str(c.move)))  # the move's number, as on the cards
        game, last = c.game, (c.game, c.move)
        p0 = c.match_win if match and c.match_win is not None else c.game_win
        values.append(p0 if player == 0 else 1.0 - p0)
    return values, separators, labels, ticks


def _tick_step(points: int) -> int:
    """Every how many moves a number goes under the chart: about a dozen at most.

    >>> _tick_step(30), _tick_step(90), _tick_step(400)
    (5, 10, 50)
    """
    return next((s for s in (5, 10, 20, 50, 100) if points / s <= 12), 200)


def mistake_card(
    decision: Decision,
    *,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    colors: tuple[str, str] = ("white", "black"),
    lang: str = "en",
    theme: str = "classic",
    cube: bool = True,
) -> bytes:
    """A board picture (PNG bytes) for one decision of a review, seen by the player who took it.

    For a play: the position after the better play (:attr:`Decision.best_play`), with its arrows
    and the roll drawn used (see the module docstring). For a cube decision: the position before
    it, with the double on offer when the decision was a double, take or drop (the taker then
    sits at the bottom).

    Under the board, a caption says which game and move it was, the roll, what was played,
    what was better and the equity lost (see :func:`card_caption`); the strips say nobody is
    "to play": the card is a still.

    :param names: the players' names, player 0 first; ``colors`` their checker colours.
    :param cube: whether the game was played with the cube (False: none drawn).
    :raises ValueError: for a play decision without a better play to draw (a roll that could not
        be played).
    """
    position, view = mistake_board(
        decision, names=names, colors=colors, lang=lang, theme=theme, cube=cube
    )
    return render_board(position, view=view)


def mistake_board(
    decision: Decision,
    *,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    colors: tuple[str, str] = ("white", "black"),
    lang: str = "en",
    theme: str = "classic",
    cube: bool = True,
) -> tuple[Position, BoardView]:
    """What :func:`mistake_card` draws: the position and its view, for a caller that draws
    boards elsewhere (the bot's drawing workers). Same parameters and errors."""
    on_roll = decision.on_roll
    pair = (0, 1) if on_roll == 0 else (1, 0)
    card = BoardView(
        names=(names[pair[0]], names[pair[1]]),
        colors=(colors[pair[0]], colors[pair[1]]),
        context=decision.context,
        cube=cube,
        caption=card_caption(decision, names=names, lang=lang),
        turn_marker=False,
        lang=lang,
        theme=theme,
    )
    if decision.kind == "move":
        return _play_board(decision, card)
    offered = decision.kind in ("double", "take", "drop")
    view = replace(
        card,
        viewpoint="mover" if decision.player == on_roll else "opponent",
        double_offered_by="mover" if offered else None,
    )
    return decision.position, view


def _play_board(decision: Decision, card: BoardView) -> tuple[Position, BoardView]:
    """A play's card: both plays from the position before them, or, without the play made (a
    review stored before plays kept their steps), the position after the better one."""
    best, played = decision.best_play, decision.played_play
    if best is None or decision.dice is None:
        raise ValueError("this decision has no play to draw")
    view = replace(
        card,
        dice=decision.dice,
        dice_left=(),
        last_play=best,
        last_play_by="mover",
        other_play=played,
        caption_colors=("text", "arrow_other" if played else "text", "arrow"),
    )
    if played is None:  # only the better play: drawn as the play that led to the position
        return decision.position.apply(best).swap_players(), view
    return decision.position, view


def _card_where(decision: Decision, who: str, lang: str) -> str:
    """The first line of a card: the move, the game in a match, the roll or the cube."""
    where = {"game": decision.game + 1, "move": decision.move + 1, "name": who}
    # A money game is reviewed alone: its game number would read as another game's (the
    # review's title gives the game's own number, #12); a match's games are counted in it.
    match = "_match" if decision.context.match_length else ""
    if decision.kind == "move" and decision.dice is not None:
        high, low = sorted(decision.dice, reverse=True)
        return label(lang, f"card_move{match}", roll=f"{high}-{low}", **where)
    return label(lang, f"card_cube{match}", **where)


def card_caption(
    decision: Decision, *, names: tuple[str, str] = ("Player 1", "Player 2"), lang: str = "en"
) -> tuple[str, str, str]:
    """The three lines under a mistake card, in ``lang``: which move (counted from 1), in a
    match which of its games, and the roll or the cube decision; for a play, the play made,
    then the better one and the equity lost (each line the legend of its arrows, see
    :func:`mistake_board`); for a cube decision, what was done and what was better, then the
    equity lost.

    >>> from engine.context import MatchContext
    >>> d = Decision(game=0, move=11, player=1, kind="move", position_id="4HPwATDgc/ABMA",
    ...     match_id="cAkAAAAAAAAA", context=MatchContext(), dice=(1, 4), played="24/23 13/9",
    ...     best="13/9 6/5", equity=-0.1, best_equity=-0.0302, unforced=True)
    >>> for line in card_caption(d, names=("Ann", "Bob"), lang="fr"):
    ...     print(line)
    Coup 12 : Bob a fait 4-1
    Joué : 24/23 13/9
    Mieux : 13/9 6/5 · équité perdue : 69,8 millipoints
    """
    first = _card_where(decision, names[decision.player], lang)

    def said(what: str) -> str:
        if decision.kind == "move":
            return what or label(lang, "card_no_move")
        return label(lang, f"cube_{what}")

    lost = f"{1000 * decision.error:.1f}"
    if lang == "fr":
        lost = lost.replace(".", ",")  # French writes a decimal comma
    if decision.kind == "move":
        played = label(lang, "card_played", played=said(decision.played))
        return first, played, label(lang, "card_better", best=said(decision.best), lost=lost)
    choices = label(lang, "card_choices", played=said(decision.played), best=said(decision.best))
    return first, choices, label(lang, "card_lost", lost=lost)

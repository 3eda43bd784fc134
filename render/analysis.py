"""Pictures of a review (:mod:`engine.analysis`): the winning chances move by move, and a
"mistake card" showing the better play.

The board draws a play only as the one that *led* to the position drawn (its arrows start from
where the checkers were, whose slots are drawn faintly, and end on the checkers that arrived).
So a mistake card draws the position *after the better play*, seen by the player who erred, with
that play's arrows: he reads where his checkers should have gone. His dice are drawn used.

>>> import random
>>> from engine.analysis import review_match
>>> from engine.analysis.selfplay import play_match
>>> from engine.bots import get_bot
>>> bots = (get_bot("beginner", rng=1, engine="fallback"), get_bot("expert", engine="fallback"))
>>> review = review_match(play_match(bots, random.Random(2), length=1), engine="fallback")
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

from engine import Position
from engine.analysis import Decision, Review
from render.board import render_board
from render.chart import chances_chart
from render.labels import label
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
    values: list[float] = []
    separators: list[int] = []
    labels: list[str] = []
    game = None
    for c in review.chances:
        if c.game != game and game is not None:
            separators.append(len(values))
            labels.append(label(lang, "game_n", n=c.game + 1))
        game = c.game
        p0 = c.match_win if match and c.match_win is not None else c.game_win
        values.append(p0 if player == 0 else 1.0 - p0)
    if not values:
        raise ValueError("the review holds no chances to draw")
    key = "match_chances_of" if match else "chances_of"
    return chances_chart(
        values,
        separators=separators,
        labels=labels,
        title=label(lang, key, name=names[player]),
        legend=(names[player], names[1 - player]),
    )


def mistake_card(
    decision: Decision,
    *,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    colors: tuple[str, str] = ("white", "black"),
    lang: str = "en",
    theme: str = "classic",
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
    :raises ValueError: for a play decision without a better play to draw (a roll that could not
        be played).
    """
    position, view = mistake_board(decision, names=names, colors=colors, lang=lang, theme=theme)
    return render_board(position, view=view)


def mistake_board(
    decision: Decision,
    *,
    names: tuple[str, str] = ("Player 1", "Player 2"),
    colors: tuple[str, str] = ("white", "black"),
    lang: str = "en",
    theme: str = "classic",
) -> tuple[Position, BoardView]:
    """What :func:`mistake_card` draws: the position and its view, for a caller that draws
    boards elsewhere (the bot's drawing workers). Same parameters and errors."""
    caption = card_caption(decision, names=names, lang=lang)
    on_roll = decision.on_roll
    pair = (0, 1) if on_roll == 0 else (1, 0)
    mover_names = (names[pair[0]], names[pair[1]])
    mover_colors = (colors[pair[0]], colors[pair[1]])
    before = decision.position
    if decision.kind == "move":
        best = decision.best_play
        if best is None or decision.dice is None:
            raise ValueError("this decision has no play to draw")
        after = before.apply(best).swap_players()  # seen by the mover, who has just played
        view = BoardView(
            names=mover_names,
            colors=mover_colors,
            dice=decision.dice,
            dice_left=(),
            context=decision.context,
            last_play=best,
            last_play_by="mover",
            caption=caption,
            turn_marker=False,
            lang=lang,
            theme=theme,
        )
        return after, view
    offered = decision.kind in ("double", "take", "drop")
    view = BoardView(
        viewpoint="mover" if decision.player == on_roll else "opponent",
        names=mover_names,
        colors=mover_colors,
        context=decision.context,
        double_offered_by="mover" if offered else None,
        caption=caption,
        turn_marker=False,
        lang=lang,
        theme=theme,
    )
    return before, view


def card_caption(
    decision: Decision, *, names: tuple[str, str] = ("Player 1", "Player 2"), lang: str = "en"
) -> tuple[str, str, str]:
    """The three lines under a mistake card, in ``lang``: which game and move (counted from 1)
    and the roll or the cube decision, what was played and what was better, the equity lost.

    >>> from engine.context import MatchContext
    >>> d = Decision(game=0, move=11, player=1, kind="move", position_id="4HPwATDgc/ABMA",
    ...     match_id="cAkAAAAAAAAA", context=MatchContext(), dice=(1, 4), played="24/23 13/9",
    ...     best="13/9 6/5", equity=-0.1, best_equity=-0.0302, unforced=True)
    >>> for line in card_caption(d, names=("Ann", "Bob"), lang="fr"):
    ...     print(line)
    Partie 1, coup 12 : Bob a fait 4-1
    Joué : 24/23 13/9 · mieux : 13/9 6/5
    Équité perdue : 69,8 millipoints
    """
    who = names[decision.player]
    where = {"game": decision.game + 1, "move": decision.move + 1, "name": who}
    if decision.kind == "move" and decision.dice is not None:
        high, low = sorted(decision.dice, reverse=True)
        first = label(lang, "card_move", roll=f"{high}-{low}", **where)
    else:
        first = label(lang, "card_cube", **where)

    def said(what: str) -> str:
        if decision.kind == "move":
            return what or label(lang, "card_no_move")
        return label(lang, f"cube_{what}")

    choices = label(lang, "card_choices", played=said(decision.played), best=said(decision.best))
    lost = f"{1000 * decision.error:.1f}"
    if lang == "fr":
        lost = lost.replace(".", ",")  # French writes a decimal comma
    return first, choices, label(lang, "card_lost", lost=lost)

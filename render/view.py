"""What to show around the checkers, and how: the options of :func:`render.render_board` and
:func:`render.text_board`.

Like :class:`engine.Position` and :class:`engine.context.MatchContext`, everything here is seen
from the player on roll (the *mover*): pairs are ``(mover, opponent)``, point numbers are in the
mover's numbering (25 = his bar), and a :data:`Side` names one of the two players. Only
``viewpoint`` says who sits at the bottom of the picture.

>>> view = BoardView(dice=(5, 3), names=("Alice", "Bob"), highlights={13, 8})
>>> view.viewer_is_mover, sorted(view.highlights)
(True, [8, 13])
>>> BoardView(viewpoint="opponent").bottom_side
'opponent'
>>> BoardView(dice=(3, 3), dice_left=(3, 3, 3)).dice_left
(3, 3, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from engine import Move, Play
from engine.context import MatchContext
from render.labels import LANGUAGES, label
from render.theme import CHECKER_COLORS, THEMES

__all__ = [
    "CAPTION_COLORS",
    "MAX_CAPTION_LINES",
    "BoardView",
    "GameOver",
    "Resignation",
    "Side",
    "other",
]

Side: TypeAlias = Literal["mover", "opponent"]
"""One of the two players: the one on roll in the position drawn, or his opponent."""

_SIDES = ("mover", "opponent")

MAX_CAPTION_LINES = 3
CAPTION_COLORS = ("text", "arrow", "arrow_other")
"""The theme colours a caption line may take (see :attr:`BoardView.caption_colors`)."""


def other(side: Side) -> Side:
    """The other player.

    >>> other("mover")
    'opponent'
    """
    return "opponent" if side == "mover" else "mover"


def _check_side(name: str, value: object) -> None:
    if value not in _SIDES:
        raise ValueError(f"{name} must be 'mover' or 'opponent', not {value!r}")


def _check_result(name: str, value: object) -> None:
    if value not in (1, 2, 3):
        raise ValueError(f"{name} must be 1 (single), 2 (gammon) or 3 (backgammon), not {value!r}")


@dataclass(frozen=True, slots=True)
class Resignation:
    """A resignation on offer: ``by`` gives up a game worth ``value`` (1 single, 2 gammon,
    3 backgammon, as in a GNU Backgammon Match ID)."""

    by: Side
    value: int = 1

    def __post_init__(self) -> None:
        _check_side("Resignation.by", self.by)
        _check_result("Resignation.value", self.value)


@dataclass(frozen=True, slots=True)
class GameOver:
    """A finished game: ``winner`` won a game worth ``value`` (1 single, 2 gammon, 3 backgammon)
    and scores ``points`` (the value times the cube, or the cube alone after a dropped double)."""

    winner: Side
    value: int
    points: int

    def __post_init__(self) -> None:
        _check_side("GameOver.winner", self.winner)
        _check_result("GameOver.value", self.value)
        if type(self.points) is not int or self.points < 1:
            raise ValueError(f"GameOver.points must be a positive int, not {self.points!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardView:
    """Every option of a board picture, validated on construction.

    :param viewpoint: who the picture is for, and so who sits at the bottom: the player on roll
        (``"mover"``, the default) or his opponent (``"opponent"``, e.g. a person watching the
        computer, which is on roll).
    :param numbering: whose point numbers are printed: the bottom player's (``"viewer"``, the
        default: 1..24 toward his home) or the player on roll's (``"mover"``, as GNU Backgammon
        does when the top player is on roll).
    :param mirrored: home boards on the left instead of the right.
    :param names: ``(mover, opponent)`` names, drawn beside their checker colour.
    :param colors: ``(mover, opponent)`` checker colours, from :data:`render.theme.CHECKER_COLORS`
        (a player keeps his colour whichever side is on roll: swap the pair with the turn).
    :param dice: the dice the mover rolled, or None before the roll.
    :param dice_left: the dice still to play (four entries at most for doubles); None means all
        of them. Used dice are drawn faded.
    :param playable_dice: those of ``dice_left`` that some legal play can still use (the caller
        asks the engine), each as often as it can still be played (a double: its value as many
        times as checkers can still move); None means all of them. The others are drawn faded,
        and the text board's "to play" lists only these.
    :param selected_die: the die the player has chosen to play next (one of the playable dice),
        drawn raised and outlined; None when he has chosen none.
    :param context: the cube and the score, seen from the mover (see
        :class:`engine.context.MatchContext`).
    :param cube: whether the game is played with the cube; False (a game started without it)
        draws none, as in the Crawford game.
    :param highlights: points (mover's numbering, 25 for his bar) a checker can legally move
        from; the caller asks the engine which.
    :param last_play: the play just made by ``last_play_by``, in his numbering (a
        :class:`engine.Play` or a sequence of :class:`engine.Move`), drawn as arrows. The
        position drawn is the one after it.
    :param last_play_by: who made ``last_play`` (usually the opponent: he just played, and now
        the mover is on roll).
    :param other_play: another play of the same roll, compared with ``last_play`` (a mistake
        card: the play made, beside the better one in ``last_play``). Both are then the
        mover's (``last_play_by="mover"``) and drawn *from* the position drawn, the one before
        them: ``last_play`` in the theme's ``arrow`` colour over ``other_play`` in its
        ``arrow_other``.
    :param double_offered_by: who offers a double now, if anyone; the cube is drawn offered at
        twice the context's value.
    :param resignation: a resignation on offer, if any.
    :param game_over: the result, once the game is over.
    :param caption: up to three lines drawn under the board (what a review card is about, a
        play the player did not make himself...), already in ``lang``.
    :param caption_colors: the colour of each caption line, by the theme's name for it
        (``"text"``, ``"arrow"``, ``"arrow_other"``: a line naming a play in its arrows'
        colour is the legend of a comparison); ``"text"`` for a line without one.
    :param turn_marker: whether the strip of the player whose decision it is (see
        :meth:`decision`) is lit and says so ("to play", "to take or drop"...); False for a
        still picture such as a review card.
    :param lang: the language of the words drawn (see :data:`render.labels.LANGUAGES`).
    :param theme: the colour theme (see :data:`render.theme.THEMES`).
    """

    viewpoint: Side = "mover"
    numbering: Literal["viewer", "mover"] = "viewer"
    mirrored: bool = False
    names: tuple[str, str] = ("", "")
    colors: tuple[str, str] = ("white", "black")
    dice: tuple[int, int] | None = None
    dice_left: tuple[int, ...] | None = None
    playable_dice: tuple[int, ...] | None = None
    selected_die: int | None = None
    context: MatchContext = field(default_factory=MatchContext)
    cube: bool = True
    highlights: AbstractSet[int] = frozenset()
    last_play: Play | Sequence[Move] | None = None
    last_play_by: Side = "opponent"
    other_play: Play | Sequence[Move] | None = None
    double_offered_by: Side | None = None
    resignation: Resignation | None = None
    game_over: GameOver | None = None
    caption: tuple[str, ...] = ()
    caption_colors: tuple[str, ...] = ()
    turn_marker: bool = True
    lang: str = "en"
    theme: str = "classic"

    def __post_init__(self) -> None:
        # Accept lists and sets where tuples and frozensets are documented, but store the
        # immutable kinds, so that views stay hashable values.
        object.__setattr__(self, "highlights", frozenset(_as_points(self.highlights)))
        lists = ("names", "colors", "dice", "dice_left", "playable_dice", "caption")
        for name in (*lists, "caption_colors"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        for name in ("last_play", "other_play"):
            play = getattr(self, name)
            if play is not None and not isinstance(play, Play):
                object.__setattr__(self, name, tuple(Move(*m) for m in play))
        _check_side("viewpoint", self.viewpoint)
        _check_side("last_play_by", self.last_play_by)
        if self.double_offered_by is not None:
            _check_side("double_offered_by", self.double_offered_by)
        if self.numbering not in ("viewer", "mover"):
            raise ValueError(f"numbering must be 'viewer' or 'mover', not {self.numbering!r}")
        self._check_style()
        self._check_dice()
        self._check_context()
        self._check_moves()
        offers = [self.double_offered_by, self.resignation, self.game_over]
        if sum(x is not None for x in offers) > 1:
            raise ValueError("show at most one of double_offered_by, resignation and game_over")

    def _check_style(self) -> None:
        if self.lang not in LANGUAGES:
            raise ValueError(f"lang must be one of {sorted(LANGUAGES)}, not {self.lang!r}")
        if self.theme not in THEMES:
            raise ValueError(f"theme must be one of {sorted(THEMES)}, not {self.theme!r}")
        if len(self.colors) != 2 or any(c not in CHECKER_COLORS for c in self.colors):
            raise ValueError(f"colors must be two of {sorted(CHECKER_COLORS)}, not {self.colors!r}")
        if self.colors[0] == self.colors[1]:
            raise ValueError(f"the two players need different colours, not {self.colors!r}")
        if len(self.names) != 2 or not all(isinstance(n, str) for n in self.names):
            raise ValueError(f"names must be two strings, not {self.names!r}")
        for name in ("mirrored", "turn_marker"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")
        caption = self.caption
        if not isinstance(caption, tuple) or not all(isinstance(s, str) for s in caption):
            raise ValueError(f"caption must be a tuple of strings, not {caption!r}")
        if len(caption) > MAX_CAPTION_LINES:
            raise ValueError(f"a caption has at most {MAX_CAPTION_LINES} lines, not {len(caption)}")
        colors = self.caption_colors
        if len(colors) > len(caption) or any(c not in CAPTION_COLORS for c in colors):
            raise ValueError(
                f"caption_colors must be at most one of {CAPTION_COLORS} per caption line,"
                f" not {colors!r}"
            )

    def _check_dice(self) -> None:
        if self.dice is None:
            for name in ("dice_left", "playable_dice", "selected_die"):
                if getattr(self, name) is not None:
                    raise ValueError(f"{name} needs dice")
            return
        if len(self.dice) != 2 or not all(type(d) is int and 1 <= d <= 6 for d in self.dice):
            raise ValueError(f"dice must be two values from 1 to 6, not {self.dice!r}")
        _check_part("dice_left", self.dice_left, list(self.faces()), "the roll")
        left = self.left()
        _check_part("playable_dice", self.playable_dice, list(left), "dice_left")
        if self.selected_die is not None and self.selected_die not in self.playable():
            raise ValueError(
                f"selected_die {self.selected_die!r} is not one of the dice that can still be "
                f"played {self.playable()}"
            )

    def _check_context(self) -> None:
        ctx = self.context
        if not isinstance(ctx, MatchContext):
            raise ValueError(f"context must be an engine MatchContext, not {ctx!r}")
        value = ctx.cube_value
        if type(value) is not int or value < 1 or value & (value - 1):
            raise ValueError(f"the cube value must be a power of two, not {value!r}")
        if ctx.cube_owner not in (None, 0, 1):
            raise ValueError(f"the cube owner must be None, 0 or 1, not {ctx.cube_owner!r}")
        if ctx.match_length < 0 or min(ctx.score) < 0:
            raise ValueError(f"a score cannot be negative ({ctx.score}, {ctx.match_length})")

    def _check_moves(self) -> None:
        for name, moves in (("last_play", self.moves()), ("other_play", self.other_moves())):
            for m in moves:
                if not (1 <= m.src <= 25 and 0 <= m.dst < m.src):
                    raise ValueError(f"{name} has an impossible step {m.src}/{m.dst}")
        if self.other_play is not None and (self.last_play is None or self.last_play_by != "mover"):
            raise ValueError(
                "other_play is compared with a last_play of the mover's (last_play_by='mover')"
            )

    # -- derived ----------------------------------------------------------------------------

    def faces(self) -> tuple[int, ...]:
        """The dice rolled, high first as players read them, four for doubles (empty before
        the roll).

        >>> BoardView(dice=(1, 4)).faces(), BoardView(dice=(2, 2)).faces()
        ((4, 1), (2, 2, 2, 2))
        """
        if self.dice is None:
            return ()
        d1, d2 = sorted(self.dice, reverse=True)
        return (d1,) * 4 if d1 == d2 else (d1, d2)

    def left(self) -> tuple[int, ...]:
        """The dice still to play, high first."""
        left = self.faces() if self.dice_left is None else self.dice_left
        return tuple(sorted(left, reverse=True))

    def moving(self) -> bool:
        """Whether checkers of this roll were moved already (the play not confirmed yet): the
        position drawn is then the one so far, not the one the turn started from.

        >>> BoardView(dice=(5, 3), dice_left=(3,)).moving(), BoardView(dice=(5, 3)).moving()
        (True, False)
        """
        return len(self.left()) < len(self.faces())

    def playable(self) -> tuple[int, ...]:
        """The dice still to play that a legal play can use, high first.

        >>> BoardView(dice=(5, 3), dice_left=(5, 3), playable_dice=(3,)).playable()
        (3,)
        """
        playable = self.left() if self.playable_dice is None else self.playable_dice
        return tuple(sorted(playable, reverse=True))

    def moves(self) -> tuple[Move, ...]:
        """The steps of ``last_play`` (empty when there is none)."""
        if self.last_play is None:
            return ()
        if isinstance(self.last_play, Play):
            return self.last_play.moves
        return tuple(self.last_play)

    def other_moves(self) -> tuple[Move, ...]:
        """The steps of ``other_play`` (empty when there is none)."""
        if self.other_play is None:
            return ()
        if isinstance(self.other_play, Play):
            return self.other_play.moves
        return tuple(self.other_play)

    @property
    def viewer_is_mover(self) -> bool:
        """Whether the player on roll sits at the bottom of the picture."""
        return self.viewpoint == "mover"

    @property
    def bottom_side(self) -> Side:
        """The player at the bottom of the picture."""
        return self.viewpoint

    def numbers_for_bottom(self) -> bool:
        """Whether the printed point numbers count from the bottom player's side."""
        return self.numbering == "viewer" or self.viewer_is_mover

    def color_of(self, side: Side) -> str:
        """The checker colour of ``side``."""
        return self.colors[0 if side == "mover" else 1]

    def name_of(self, side: Side) -> str:
        """The name of ``side``."""
        return self.names[0 if side == "mover" else 1]

    def default_name(self, side: Side) -> str:
        """What to call ``side`` when he has no name: "player" or "opponent" in ``lang``."""
        return label(self.lang, "player" if side == "mover" else "opponent")

    def has_cube(self) -> bool:
        """Whether a cube is drawn: there is none in the Crawford game, where no one may double,
        nor in a game played without the cube.

        >>> BoardView(context=MatchContext(match_length=5, score=(4, 2), crawford=True)).has_cube()
        False
        >>> BoardView(cube=False).has_cube(), BoardView().has_cube()
        (False, True)
        """
        return self.cube and not self.context.crawford

    def is_crawford_game(self) -> bool:
        """Whether to say "Crawford" by the match: while the Crawford game is being played, not
        once it is over (the match is then over, or goes on past Crawford)."""
        return self.context.crawford and self.game_over is None

    def decision(self) -> tuple[Side, str] | None:
        """Whose decision the picture waits for, with the key of the words after his name
        (:data:`render.labels.LABELS`): the mover "to play", except that the other player answers
        a double ("to take or drop") or a resignation ("to accept or reject") on offer; None
        once the game is over.

        >>> BoardView().decision()
        ('mover', 'to_play')
        >>> BoardView(double_offered_by="mover").decision()
        ('opponent', 'to_take')
        """
        if self.game_over is not None:
            return None
        if self.double_offered_by is not None:
            return other(self.double_offered_by), "to_take"
        if self.resignation is not None:
            return other(self.resignation.by), "to_answer"
        return "mover", "to_play"

    def cube_owner_side(self) -> Side | None:
        """Who owns the cube, or None while it is centred."""
        owner = self.context.cube_owner
        return None if owner is None else ("mover" if owner == 0 else "opponent")


def _check_part(name: str, part: Sequence[int] | None, whole: list[int], of: str) -> None:
    """That ``part`` (if given) takes its dice from ``whole``, each at most as often."""
    if part is None:
        return
    for d in part:
        if d not in whole:
            raise ValueError(f"{name} {tuple(part)!r} is not part of {of} {tuple(whole)!r}")
        whole.remove(d)


def _as_points(points: Iterable[int]) -> list[int]:
    try:
        out = list(points)
    except TypeError:
        raise ValueError(f"highlights must be a collection of points, not {points!r}") from None
    for p in out:
        if type(p) is not int or not 1 <= p <= 25:
            raise ValueError(f"a highlighted point must be 1..24 or 25 (the bar), not {p!r}")
    return out

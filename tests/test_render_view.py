"""BoardView refuses bad options with a clear ValueError, and derives sides correctly."""

from __future__ import annotations

import pytest

from engine import Move
from engine.context import MatchContext
from render import BoardView, GameOver, Resignation, checker_center

BAD = [
    ({"viewpoint": "bottom"}, "viewpoint must be 'mover' or 'opponent'"),
    ({"numbering": "absolute"}, "numbering must be"),
    ({"lang": "de"}, "lang must be one of"),
    ({"theme": "neon"}, "theme must be one of"),
    ({"colors": ("white", "green")}, "colors must be two of"),
    ({"colors": ("white", "white")}, "different colours"),
    ({"names": ("Ann",)}, "names must be two strings"),
    ({"dice": (0, 3)}, "dice must be two values"),
    ({"dice": (3, 7)}, "dice must be two values"),
    ({"dice": (3,)}, "dice must be two values"),
    ({"dice_left": (3,)}, "dice_left needs dice"),
    ({"dice": (5, 3), "dice_left": (4,)}, "not part of the roll"),
    ({"dice": (5, 3), "dice_left": (5, 5)}, "not part of the roll"),
    ({"dice": (2, 2), "dice_left": (2,) * 5}, "not part of the roll"),
    ({"highlights": {0}}, "highlighted point"),
    ({"highlights": {26}}, "highlighted point"),
    ({"highlights": 6}, "collection of points"),
    ({"last_play": [Move(3, 5, 2)]}, "impossible step"),
    ({"last_play_by": "nobody"}, "last_play_by must be"),
    ({"double_offered_by": "both"}, "double_offered_by must be"),
    ({"context": MatchContext(cube_value=3)}, "power of two"),
    ({"context": MatchContext(score=(-1, 0), match_length=5)}, "cannot be negative"),
    ({"context": (1, None)}, "MatchContext"),
    ({"mirrored": "yes"}, "mirrored must be"),
    (
        {"double_offered_by": "mover", "game_over": GameOver(winner="mover", value=1, points=1)},
        "at most one",
    ),
]


@pytest.mark.parametrize(("options", "message"), BAD, ids=[m for _, m in BAD])
def test_bad_options_raise_a_clear_value_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BoardView(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Resignation(by="mover", value=4), "Resignation.value"),
        (lambda: Resignation(by="him"), "Resignation.by"),
        (lambda: GameOver(winner="mover", value=0, points=1), "GameOver.value"),
        (lambda: GameOver(winner="mover", value=2, points=0), "GameOver.points"),
    ],
)
def test_offers_and_results_check_their_values(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]


def test_options_are_options_only() -> None:
    with pytest.raises(TypeError):
        BoardView("mover")  # type: ignore[misc]


def test_a_view_is_a_hashable_value() -> None:
    a = BoardView(highlights=[8, 6], last_play=[(8, 5, 3, False)], names=["A", "B"], dice=[3, 1])
    b = BoardView(highlights={6, 8}, last_play=[Move(8, 5, 3)], names=("A", "B"), dice=(3, 1))
    assert a == b and hash(a) == hash(b)
    assert a.highlights == frozenset({6, 8})


def test_sides_follow_the_viewpoint() -> None:
    mine = BoardView(names=("Ann", "Bob"), colors=("white", "black"))
    his = BoardView(names=("Ann", "Bob"), colors=("white", "black"), viewpoint="opponent")
    assert mine.bottom_side == "mover" and his.bottom_side == "opponent"
    assert his.name_of("mover") == "Ann" and his.color_of("opponent") == "black"
    assert BoardView(context=MatchContext(cube_owner=1)).cube_owner_side() == "opponent"


@pytest.mark.parametrize(
    ("args", "message"),
    [((26, 0), "no point 26"), ((6, 5), "checker index 5"), ((0, 15), "checker index 15")],
)
def test_checker_center_refuses_what_is_never_drawn(args: tuple[int, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        checker_center(*args)

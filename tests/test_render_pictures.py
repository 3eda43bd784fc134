"""What a new player tripped on in the pictures (issue 15, items 13-17): offers that hid the bar,
names cut short, arrows over what matters, dice order, the chosen and playable dice, the cube of
the Crawford game, pink ghosts, the chances chart's labels, mistake-card captions, and the
red-and-black theme. Pixels are sampled where the geometry says things are."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from engine import Move, Position
from engine.analysis import Decision
from engine.context import MatchContext
from render import THEME_NAMES, THEMES, BoardView, GameOver, Resignation, render_board, text_board
from render import geometry as g
from render.analysis import card_caption, mistake_card
from render.arrows import trace
from render.board import draw_board
from render.chart import _ABOVE, _BELOW, chances_chart, chances_plot_box
from render.labels import label
from render.panels import _band_lines, band_height, fit_name
from render.samples import _sides
from render.theme import CHECKER_COLORS
from tests.render_helpers import count_near, distance, picture

CLASSIC = THEMES["classic"]
FIELD = (g.LEFT_X - 3, g.FIELD_TOP - 3, g.FIELD_RIGHT + 3, g.FIELD_BOTTOM + 3)
BOTH_BARS = _sides({25: 2, 6: 5, 8: 3, 13: 5}, {25: 1, 6: 5, 8: 3, 13: 4, 1: 2})
OFFERS = [
    {"double_offered_by": "opponent"},
    {"resignation": Resignation(by="opponent", value=2)},
    {"game_over": GameOver(winner="opponent", value=1, points=1)},
]
OFFER_IDS = ["double", "resignation", "game-over"]


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


# -- 13. offers and names ---------------------------------------------------------------------


@pytest.mark.parametrize("option", OFFERS, ids=OFFER_IDS)
def test_an_offer_or_result_hides_nothing_on_the_board(option: dict[str, object]) -> None:
    plain = draw_board(BOTH_BARS, BoardView())
    offered = draw_board(BOTH_BARS, BoardView(**option))  # type: ignore[arg-type]
    # The field, the bar and its checkers are exactly as without the offer...
    assert offered.crop(FIELD).tobytes() == plain.crop(FIELD).tobytes()
    # ...which is written in a band below the board, in the accent colour.
    assert offered.height == g.HEIGHT + band_height(BoardView(**option))  # type: ignore[arg-type]
    band = (g.WIDTH // 2, g.HEIGHT + (offered.height - g.HEIGHT) // 2)
    assert count_near(offered, band, CLASSIC.accent, 200, tolerance=40) > 300


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("option", OFFERS, ids=OFFER_IDS)
@pytest.mark.parametrize(
    "name",
    ["Computer (intermediate)", "Ordinateur (débutant)", "Maximilian Alexander von Hohenzollern"],
)
def test_names_in_an_offer_are_whole(option: dict[str, object], name: str, lang: str) -> None:
    view = BoardView(names=("Ann", name), lang=lang, **option)  # type: ignore[arg-type]
    lines, _ = _band_lines(view, CLASSIC)
    text = " ".join(line.text for line in lines)
    assert name in text
    assert "…" not in text


@pytest.mark.parametrize(
    "name", ["Computer (expert)", "Computer (intermediate)", "Ordinateur (débutant)"]
)
def test_names_in_a_strip_take_a_smaller_size_or_two_lines_not_an_ellipsis(name: str) -> None:
    # 220 px: what a match header leaves the top player's name.
    lines, font = fit_name(name, 220)
    assert " ".join(lines) == name
    assert all(font.getlength(line) <= 220 for line in lines)
    assert len(lines) <= 2


# -- 14. arrows, dice ---------------------------------------------------------------------------


def test_two_checkers_between_the_same_points_do_not_draw_an_x() -> None:
    # 4/3(2) from a 4-point of three checkers: the arrows must run side by side.
    after = _sides({4: 1, 3: 2, 6: 5, 8: 3, 13: 4}, {6: 5, 8: 3, 13: 5, 24: 2})
    view = BoardView(last_play=[Move(4, 3, 1), Move(4, 3, 1)], last_play_by="mover")
    a, b = trace(after, view)
    assert (a.start[1] - b.start[1]) * (a.end[1] - b.end[1]) > 0


BEAR = _sides({6: 2, 4: 3, 3: 3, 2: 3, 1: 3}, {6: 5, 8: 3, 13: 5, 12: 2})


def _bear_view(**kw: object) -> BoardView:
    return BoardView(dice=(6, 5), dice_left=(5,), highlights={6, 4, 3}, **kw)  # type: ignore[arg-type]


def test_a_bear_off_arrow_leaves_the_highlighted_checkers_and_the_tray_count_seen() -> None:
    played = [Move(6, 0, 6)]
    with_arrow = draw_board(BEAR, _bear_view(last_play=played, last_play_by="mover"))
    without = draw_board(BEAR, _bear_view())
    for point in (4, 3):  # highlighted, under the arrow's way from the 6-point to the tray
        x, y = g.checker_center(point, 2)
        box = (x - 16, y - 16, x + 16, y + 16)
        assert with_arrow.crop(box).tobytes() == without.crop(box).tobytes(), point
    x, y = g.tray_count_center(True, False)
    box = (x - 14, y - 12, x + 14, y + 12)
    assert with_arrow.crop(box).tobytes() == without.crop(box).tobytes()
    assert count_near(with_arrow, (x, y), CLASSIC.number, 12, tolerance=40) > 15  # the "1"


def test_dice_are_drawn_high_first_whatever_the_order_rolled() -> None:
    pos = Position.initial()
    assert render_board(pos, view=BoardView(dice=(1, 4))) == render_board(
        pos, view=BoardView(dice=(4, 1))
    )
    assert text_board(pos, view=BoardView(dice=(1, 4))).splitlines()[-1] == "rolled 4-1"


def test_the_chosen_die_is_outlined() -> None:
    pos = Position.initial()
    im = picture(pos, dice=(5, 3), selected_die=3)
    five, three = g.dice_centers(2, True)
    lifted = (three[0], three[1] - g.DIE_LIFT)
    edge = g.DIE // 2 + 3
    assert count_near(im, (lifted[0] + edge, lifted[1]), CLASSIC.highlight, 2, 40) > 5
    assert count_near(im, (five[0] + edge, five[1]), CLASSIC.highlight, 2, 40) == 0
    with pytest.raises(ValueError, match="selected_die"):
        BoardView(dice=(5, 3), dice_left=(5,), selected_die=3)


def test_only_the_playable_dice_are_to_play() -> None:
    pos = Position.initial()
    view = BoardView(dice=(5, 3), dice_left=(5, 3), playable_dice=(3,))
    assert text_board(pos, view=view).splitlines()[-1] == "rolled 5-3, to play: 3"
    im = decode(render_board(pos, view=view))
    body = CHECKER_COLORS["white"].body
    five, three = g.dice_centers(2, True)
    # Sampled beside the pips: a playable die shows its face, one that cannot be played fades.
    assert count_near(im, (three[0], three[1] - 16), body, 3, 25) > 20
    assert count_near(im, (five[0], five[1] - 16), body, 3, 25) == 0
    with pytest.raises(ValueError, match="playable_dice"):
        BoardView(dice=(5, 3), dice_left=(3,), playable_dice=(5,))


# -- 15. Crawford, ghosts -----------------------------------------------------------------------

CUBE_FACE = (250, 246, 232)


def test_the_crawford_game_has_no_cube() -> None:
    where = g.cube_center(None, "mover", False)
    probe = (where[0], where[1] - 20)
    crawford = MatchContext(match_length=5, score=(4, 2), crawford=True)
    assert distance(picture(Position.initial()).getpixel(probe)[:3], CUBE_FACE) < 20  # type: ignore[index]
    im = picture(Position.initial(), context=crawford)
    assert distance(im.getpixel(probe)[:3], CUBE_FACE) > 60  # type: ignore[index]
    assert "cube" not in text_board(Position.initial(), view=BoardView(context=crawford))


def test_a_game_without_the_cube_has_no_cube() -> None:
    # It had been drawn centred, at 64, in a game where nobody may double.
    where = g.cube_center(None, "mover", False)
    probe = (where[0], where[1] - 20)
    im = picture(Position.initial(), cube=False)
    assert distance(im.getpixel(probe)[:3], CUBE_FACE) > 60  # type: ignore[index]
    board = text_board(Position.initial(), view=BoardView(cube=False))
    assert "cube" not in board and "money game" in board


def test_crawford_is_not_announced_once_the_game_is_over() -> None:
    over = GameOver(winner="mover", value=1, points=1)
    pos = Position.initial()
    ctx = MatchContext(match_length=5, score=(5, 2), crawford=True)
    strip = (0, 0, g.WIDTH, g.INFO_H)
    after = draw_board(pos, BoardView(context=ctx, game_over=over)).crop(strip)
    plain = MatchContext(match_length=5, score=(5, 2))
    assert (
        after.tobytes()
        == draw_board(pos, BoardView(context=plain, game_over=over)).crop(strip).tobytes()
    )
    assert "Crawford" not in text_board(pos, view=BoardView(context=ctx, game_over=over))
    playing = draw_board(pos, BoardView(context=ctx)).crop(strip)
    assert playing.tobytes() != draw_board(pos, BoardView(context=plain)).crop(strip).tobytes()


def test_a_ghost_leaves_the_point_its_own_colour() -> None:
    # The mover's checker left his 5-point (a red point in the classic theme) for the 2-point.
    after = _sides({2: 1, 6: 5, 8: 3, 13: 5, 24: 1}, {6: 5, 8: 3, 13: 5, 24: 2})
    view = BoardView(last_play=[Move(5, 2, 3)], last_play_by="mover")
    (step,) = trace(after, view)
    assert step.ghost is not None
    im = picture(after, last_play=[Move(5, 2, 3)], last_play_by="mover")
    x, y = step.ghost
    pixel = im.getpixel((x + 8, y + 8))
    vpoint_color = CLASSIC.point_b
    assert distance(pixel[:3], vpoint_color) < 25, pixel  # type: ignore[index]


# -- 16. review pictures ------------------------------------------------------------------------


def test_the_chances_chart_keeps_its_words_off_the_curve() -> None:
    data = chances_chart(
        [0.5, 0.97, 0.97, 0.97, 0.03, 0.03],
        separators=[3],
        labels=["Game 2"],
        legend=("Alice", "Computer (intermediate)"),
    )
    im = decode(data)
    left, right, top, bottom = chances_plot_box()
    plot = im.crop((left, top, right + 1, bottom + 1))
    colors = plot.getcolors(plot.width * plot.height) or []
    for color in (_ABOVE, _BELOW):  # the names are written in these; the areas are paler
        assert not [c for _, c in colors if distance(c, color) < 30], color
    below = im.crop((left, bottom + 2, right, im.height))
    names = below.getcolors(below.width * below.height) or []
    assert [c for _, c in names if distance(c, _ABOVE) < 30]


def _decision(kind: str = "move") -> Decision:
    move = kind == "move"
    return Decision(
        game=1,
        move=11,
        player=0,
        kind=kind,  # type: ignore[arg-type]
        position_id="4HPwATDgc/ABMA",
        match_id="cAkAAAAAAAAA",
        context=MatchContext(),
        dice=(1, 4) if move else None,
        played="24/23 13/9" if move else "no double",
        best="13/9 6/5" if move else "double",
        equity=-0.1,
        best_equity=-0.0302,
        unforced=True,
        best_steps=((13, 9, 4, False), (6, 5, 1, False)) if move else (),
        played_steps=((24, 23, 1, False), (13, 9, 4, False)) if move else (),
    )


def test_a_mistake_card_is_captioned_in_each_language() -> None:
    en = card_caption(_decision(), names=("Ann", "Bob"), lang="en")
    assert en == (
        "Move 12: Ann rolled 4-1",  # a money game: reviewed alone, no game number
        "Played: 24/23 13/9",  # the legend of the light blue arrows
        "Better: 13/9 6/5 · equity lost: 69.8 millipoints",  # of the orange ones
    )
    assert card_caption(_decision(), names=("Ann", "Bob"), lang="fr")[1:] == (
        "Joué : 24/23 13/9",
        "Mieux : 13/9 6/5 · équité perdue : 69,8 millipoints",
    )
    in_match = replace(_decision("double"), context=MatchContext(match_length=5))
    fr = card_caption(in_match, names=("Ann", "Bob"), lang="fr")
    assert fr == (
        "Partie 2 du match, coup 12 : décision de videau de Ann",
        "Joué : pas de double · mieux : double",
        "Équité perdue : 69,8 millipoints",
    )


def test_a_caption_is_written_in_the_text_board_too() -> None:
    view = BoardView(caption=("Bob rolled 6-3 and played 24/18 13/10",))
    assert text_board(Position.initial(), view=view).splitlines()[-1] == view.caption[0]
    with pytest.raises(ValueError, match="caption"):
        BoardView(caption=("a", "b", "c", "d"))


@pytest.mark.parametrize("kind", ["move", "double"])
def test_a_mistake_card_shows_its_caption_and_nobody_to_play(kind: str) -> None:
    im = decode(mistake_card(_decision(kind), names=("Ann", "Bob")))
    assert im.height > g.HEIGHT  # the caption's band
    for bottom in (True, False):  # no strip is lit as the one on roll
        _, top, _, low = g.strip_box(bottom)
        assert count_near(im, (2, (top + low) // 2), CLASSIC.accent, 2, 10) == 0


# -- 17. the red-and-black theme ----------------------------------------------------------------


def test_the_red_and_black_theme_is_listed_and_plays_red_against_black() -> None:
    assert THEME_NAMES[0] == "classic"
    assert "redblack" in THEME_NAMES and set(THEME_NAMES) == set(THEMES)
    assert THEMES["redblack"].checkers == ("red", "black")


def test_the_red_and_black_theme_counts_at_the_base_of_a_point() -> None:
    seven = _sides({6: 7, 5: 5, 4: 3}, {6: 15})
    label = CHECKER_COLORS["red"].label
    im = picture(seven, theme="redblack", colors=("red", "black"))
    base, fifth = g.checker_center(6, 0), g.checker_center(6, 4)
    assert count_near(im, base, label, 10, tolerance=40) > 20
    assert count_near(im, fifth, label, 10, tolerance=40) < 5
    classic = picture(seven, colors=("red", "black"))
    assert count_near(classic, base, label, 10, tolerance=40) < 5


def _near_in(im: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    """How many pixels of ``box`` in ``im`` are within 40 of ``colour``."""
    crop = im.crop(box)
    return sum(
        n for n, c in crop.getcolors(crop.width * crop.height) or [] if distance(c, colour) < 40
    )


def test_a_mistake_card_draws_the_play_made_and_the_better_one() -> None:
    """Both plays as arrows from the position before them (its pips), the play made in light
    blue and the better one in orange, and the caption's lines naming each in its colour."""
    decision = _decision()
    im = decode(mistake_card(decision, names=("Ann", "Bob")))
    board = (0, 0, g.WIDTH, g.HEIGHT)
    band = (0, g.HEIGHT, g.WIDTH, im.height)
    for colour in (CLASSIC.arrow, CLASSIC.arrow_other):
        assert _near_in(im, board, colour) > 1500, colour  # two arrows' worth
        assert _near_in(im, band, colour) > 300, colour  # a caption line in it
    before = decision.position
    expected = BoardView(
        names=("Ann", "Bob"),
        dice=(1, 4),
        dice_left=(),
        last_play=decision.best_play,
        last_play_by="mover",
        other_play=decision.played_play,
        caption=card_caption(decision, names=("Ann", "Bob")),
        caption_colors=("text", "arrow_other", "arrow"),
        turn_marker=False,
    )
    assert mistake_card(decision, names=("Ann", "Bob")) == render_board(before, view=expected)


def test_a_mistake_card_without_the_play_made_draws_the_better_one_after_it() -> None:
    """A review stored before plays kept their steps: only the better play, as before."""
    from dataclasses import replace

    decision = replace(_decision(), played_steps=())
    im = decode(mistake_card(decision, names=("Ann", "Bob")))
    assert _near_in(im, (0, 0, g.WIDTH, g.HEIGHT), CLASSIC.arrow_other) < 50
    assert _near_in(im, (0, 0, g.WIDTH, g.HEIGHT), CLASSIC.arrow) > 1500


def test_a_compared_play_and_caption_colours_are_checked() -> None:
    with pytest.raises(ValueError, match="other_play is compared"):
        BoardView(other_play=[Move(24, 23, 1)])
    with pytest.raises(ValueError, match="other_play is compared"):
        BoardView(last_play=[Move(13, 9, 4)], other_play=[Move(24, 23, 1)])
    with pytest.raises(ValueError, match="other_play has an impossible step"):
        BoardView(last_play=[Move(13, 9, 4)], last_play_by="mover", other_play=[Move(3, 7, 4)])
    with pytest.raises(ValueError, match="caption_colors"):
        BoardView(caption=("a",), caption_colors=("gold",))
    with pytest.raises(ValueError, match="caption_colors"):
        BoardView(caption=("a",), caption_colors=("text", "arrow"))
    with pytest.raises(ValueError, match="cannot have led"):
        render_board(
            Position.initial(),
            view=BoardView(
                last_play=[Move(13, 9, 4)], last_play_by="mover", other_play=[Move(20, 16, 4)]
            ),
        )


@pytest.mark.parametrize(
    ("chances", "gold", "blue"),
    [
        ([0.5, 0.4, 0.2, 0.45, 0.0], False, True),  # never ahead: no gold in the legend
        ([0.5, 0.6, 0.9, 1.0], True, False),
        ([0.5, 0.7, 0.3, 0.5], True, True),
    ],
    ids=["behind", "ahead", "both"],
)
def test_the_chances_legend_shows_only_the_areas_drawn(
    chances: list[float], gold: bool, blue: bool
) -> None:
    im = decode(chances_chart(chances, legend=("Ann ahead", "Bob ahead")))
    left, right, _, bottom = chances_plot_box()
    legend = (left, bottom + 30, right, im.height)
    assert (_near_in(im, legend, _ABOVE) > 20) is gold
    assert (_near_in(im, legend, _BELOW) > 20) is blue


def test_the_review_chart_says_who_is_ahead_in_each_language() -> None:
    assert label("en", "ahead", name="Ann") == "Ann ahead"
    assert label("fr", "ahead", name="Ann") == "Ann en tête"

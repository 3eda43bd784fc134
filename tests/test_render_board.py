"""The board picture shows what it must: checkers by colour, counts, bar, trays, dice, cube,
highlights, arrows, banners, orientation and language. Pixels are sampled where the geometry
says things are, and classified by their nearest reference colour."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import Move, Position, parse_play
from engine.context import MatchContext
from render import BoardView, GameOver, Resignation, checker_center, render_board, sprites
from render import geometry as g
from render.arrows import trace
from render.board import draw_board
from render.panels import band_height
from render.samples import SAMPLES, _sides
from render.theme import CHECKER_COLORS, THEMES
from tests.render_helpers import count_near, distance, picture, stack, what_is_at

CLASSIC = THEMES["classic"]
BAR_ALICE = _sides({25: 2, 6: 5, 8: 3, 13: 5}, {25: 1, 6: 5, 8: 3, 13: 4, 1: 2})


def expected_stack(n: int, color: str) -> list[str]:
    shown = min(n, g.MAX_STACK)
    return [color] * shown + ["board"] * (g.MAX_STACK - shown)


def normalise(cells: list[str]) -> list[str]:
    return [c if c in ("white", "black") else "board" for c in cells]


# -- the picture as a whole -----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_samples_are_pngs_of_the_documented_size_within_budget(name: str) -> None:
    position, view = SAMPLES[name]()
    data = render_board(position, view=view)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) <= 150_000
    expected = (g.WIDTH, g.HEIGHT + band_height(view))
    assert Image.open(io.BytesIO(data)).size == expected
    assert (g.WIDTH, g.HEIGHT) == (960, 840)


def test_render_board_is_pure() -> None:
    pos = Position.initial()
    assert render_board(pos) == render_board(pos)


def test_needs_a_position() -> None:
    with pytest.raises(ValueError, match="Position"):
        render_board("4HPwATDgc/ABMA")  # type: ignore[arg-type]


# -- checkers -------------------------------------------------------------------------------


def test_every_point_of_the_start_shows_its_checkers_by_colour() -> None:
    pos = Position.initial()
    im = picture(pos)
    for point in range(1, 25):
        n = pos.board[point]
        color = "white" if n > 0 else "black"
        assert normalise(stack(im, point)) == expected_stack(abs(n), color), point


def test_colours_follow_the_players() -> None:
    view = BoardView(colors=("red", "blue"))
    im = picture(Position.initial(), colors=("red", "blue"))
    assert stack(im, 6, view)[0] == "red"
    assert stack(im, 19, view)[0] == "blue"


def test_more_than_five_checkers_print_their_count_on_the_fifth() -> None:
    label = CHECKER_COLORS["white"].label
    seven = _sides({6: 7, 5: 5, 4: 3}, {6: 15})
    im = picture(seven)
    assert normalise(stack(im, 6)) == ["white"] * 5
    # The count's dark glyphs cover the middle of the fifth checker on the 6-point only.
    assert count_near(im, checker_center(6, 4), label, 10) > 20
    assert count_near(im, checker_center(5, 4), label, 10) == 0


def test_bar_checkers_of_both_players_are_drawn_on_the_bar() -> None:
    im = picture(BAR_ALICE)
    assert normalise(stack(im, 25, limit=3)) == ["white", "white", "board"]
    assert normalise(stack(im, 25, side="opponent", limit=2)) == ["black", "board"]
    # The bottom player's hit checkers wait above the middle, the top player's below it.
    assert checker_center(25, 0)[1] < g.MID_Y < checker_center(25, 0, side="opponent")[1]


def test_borne_off_checkers_lie_in_their_owners_trays() -> None:
    pos = _sides({6: 2, 5: 2}, {1: 5})  # 11 off for the mover, 10 for the opponent
    im = picture(pos)
    mine = [what_is_at(im, checker_center(0, k), tray=True) for k in range(12)]
    theirs = [what_is_at(im, checker_center(0, k, side="opponent"), tray=True) for k in range(11)]
    assert mine == ["white"] * 11 + ["tray"]
    assert theirs == ["black"] * 10 + ["tray"]
    # The bottom player's tray is below the middle, the top player's above it.
    assert checker_center(0, 0)[1] > g.MID_Y > checker_center(0, 0, side="opponent")[1]


# -- orientation ----------------------------------------------------------------------------


def test_mirrored_orientation_moves_the_home_board_to_the_left() -> None:
    plain, mirrored = BoardView(), BoardView(mirrored=True)
    assert checker_center(6, 0, view=plain)[0] > g.WIDTH // 2
    assert checker_center(6, 0, view=mirrored)[0] < g.WIDTH // 2
    assert checker_center(0, 0, view=mirrored)[0] < g.LEFT_X  # the trays follow
    im = picture(Position.initial(), mirrored=True)
    assert normalise(stack(im, 6, mirrored)) == ["white"] * 5
    # The left quarter of the bottom row is now the home board: the 6-point's five checkers
    # stand in its last column, where the unmirrored board has its 7-point (empty).
    x, y = checker_center(6, 0, view=mirrored)
    assert what_is_at(picture(Position.initial()), (x, y)) != "white"


def test_the_opponent_viewpoint_puts_the_opponent_at_the_bottom() -> None:
    view = BoardView(viewpoint="opponent")
    im = picture(Position.initial(), viewpoint="opponent")
    # The mover's 6-point is the viewer's 19: top right. The viewer's own 6-point (the
    # mover's 19) is bottom right and holds the viewer's black checkers.
    assert checker_center(6, 0, view=view)[1] < g.MID_Y
    assert checker_center(19, 0, view=view) == checker_center(6, 0)
    assert normalise(stack(im, 19, view)) == ["black"] * 5
    assert normalise(stack(im, 6, view)) == ["white"] * 5


def test_point_numbers_follow_the_numbering_option() -> None:
    mover = sprites.empty_board("classic", False, numbers_for_bottom=False)
    viewer = sprites.empty_board("classic", False, numbers_for_bottom=True)
    x, y = g.number_center(1, False)
    box = (x - 20, y - 14, x + 20, y + 14)
    assert mover.crop(box).tobytes() != viewer.crop(box).tobytes()
    assert BoardView(viewpoint="opponent").numbers_for_bottom()
    assert not BoardView(viewpoint="opponent", numbering="mover").numbers_for_bottom()
    assert BoardView(numbering="mover").numbers_for_bottom()  # the mover is the viewer


# -- dice and cube --------------------------------------------------------------------------


def test_dice_are_drawn_on_the_movers_side_and_used_ones_fade() -> None:
    body = CHECKER_COLORS["white"].body
    im = picture(Position.initial(), dice=(5, 3), dice_left=(3,))
    used, left = g.dice_centers(2, bottom_player=True)
    # A die's face shows its colour away from the pips: probe the upper middle.
    probe = (0, -g.DIE // 2 + 6)
    at = lambda c: im.getpixel((c[0] + probe[0], c[1] + probe[1]))  # noqa: E731
    assert distance(at(left)[:3], body) < 25
    assert distance(at(used)[:3], body) > 60
    # Nothing is drawn where the dice of the other player would be.
    other = g.dice_centers(2, bottom_player=False)[0]
    assert what_is_at(im, other) == "field"


def test_doubles_show_four_dice() -> None:
    body = CHECKER_COLORS["black"].body
    im = picture(Position.initial(), dice=(4, 4), colors=("black", "white"))
    for x, y in g.dice_centers(4, bottom_player=True):
        assert distance(im.getpixel((x, y - g.DIE // 2 + 6))[:3], body) < 25


def test_no_dice_no_die() -> None:
    im = picture(Position.initial())
    for xy in g.dice_centers(2, bottom_player=True):
        assert what_is_at(im, xy) == "field"


CUBE_FACE = (250, 246, 232)


def cube_at(im: Image.Image, xy: tuple[int, int]) -> bool:
    x, y = xy
    return distance(im.getpixel((x, y - 20))[:3], CUBE_FACE) < 20  # above the digits


@pytest.mark.parametrize(
    ("owner", "where"),
    [(None, "middle"), (0, "bottom"), (1, "top")],
    ids=["centred", "mine", "his"],
)
def test_cube_sits_centred_or_at_its_owners_end(owner: int | None, where: str) -> None:
    ctx = MatchContext(cube_value=1 if owner is None else 4, cube_owner=owner)
    im = picture(Position.initial(), context=ctx)
    spots = {
        "middle": g.cube_center(None, "mover", False),
        "bottom": g.cube_center("mover", "mover", False),
        "top": g.cube_center("opponent", "mover", False),
    }
    assert {name for name, xy in spots.items() if cube_at(im, xy)} == {where}


def test_a_centred_cube_shows_64_like_a_real_one() -> None:
    assert sprites.cube(1).tobytes() == sprites.cube(64).tobytes()
    assert sprites.cube(1).tobytes() != sprites.cube(2).tobytes()


def test_the_opponents_cube_follows_the_viewpoint() -> None:
    ctx = MatchContext(cube_value=2, cube_owner=0)  # the mover owns it
    im = picture(Position.initial(), context=ctx, viewpoint="opponent")
    assert cube_at(im, g.cube_center("mover", "opponent", False))
    assert g.cube_center("mover", "opponent", False)[1] < g.MID_Y  # the mover sits on top


# -- highlights, arrows, hits ---------------------------------------------------------------


def ring_pixels(im: Image.Image, point: int, k: int, color: tuple[int, int, int]) -> int:
    """Pixels of ``color`` on the rim of the k-th checker of ``point``."""
    x, y = checker_center(point, k)
    r = g.CHECKER // 2 - 2
    rim = [(x + r, y), (x - r, y), (x, y + r), (x, y - r)]
    return sum(count_near(im, p, color, 1, tolerance=60) for p in rim)


def test_highlighted_points_ring_their_top_checker() -> None:
    im = picture(Position.initial(), highlights={13, 8, 24})
    cyan = CLASSIC.highlight
    assert ring_pixels(im, 13, 4, cyan) > 8
    assert ring_pixels(im, 8, 2, cyan) > 8
    assert ring_pixels(im, 24, 1, cyan) > 8
    assert ring_pixels(im, 6, 4, cyan) == 0  # not highlighted
    assert ring_pixels(im, 13, 3, cyan) == 0  # only the top checker of a stack
    # And the point's number sits on a chip of the same colour.
    assert count_near(im, g.number_center(13, False), cyan, 20, tolerance=30) > 100
    assert count_near(im, g.number_center(6, False), cyan, 20, tolerance=30) == 0


def test_the_bar_can_be_highlighted() -> None:
    im = picture(BAR_ALICE, highlights={25})
    assert count_near(im, checker_center(25, 1), CLASSIC.highlight, g.CHECKER // 2, 30) > 50


def last_play_of_bob() -> tuple[Position, object]:
    bob = _sides(
        {6: 4, 8: 3, 13: 4, 9: 2, 7: 1, 24: 1}, {6: 4, 8: 2, 13: 4, 24: 2, 20: 1, 22: 1, 11: 1}
    )
    play = parse_play("9/5*/3*", bob, (4, 2))
    return bob.apply(play), play


def test_the_last_play_is_drawn_as_arrows_with_hits_marked() -> None:
    alice, play = last_play_of_bob()
    im = picture(alice, last_play=play)
    bare = picture(alice)
    orange, pink = CLASSIC.arrow, CLASSIC.hit
    # Bob's 9/5*/3* is Alice's 16 -> 20 -> 22: the arrows end at 20 and 22, both hit.
    for point in (20, 22):
        end = checker_center(point, 0)
        assert count_near(im, end, orange, 20, tolerance=50) > 30, point
        assert count_near(im, end, pink, g.CHECKER // 2 + 5, tolerance=50) > 40, point
        assert count_near(bare, end, pink, g.CHECKER // 2 + 5, tolerance=50) == 0
    assert count_near(bare, checker_center(20, 0), orange, 20, tolerance=50) == 0
    # No hit is marked where the arrow does not hit.
    assert count_near(im, checker_center(16, 1), pink, g.CHECKER // 2 + 5, tolerance=50) == 0


def test_arrows_run_from_the_checker_that_left_to_the_one_that_arrived() -> None:
    # Bob opens 24/18 13/11; in Alice's numbering his 24 is her 1, 18 her 7, 13 her 12.
    start = Position.initial()
    play = parse_play("24/18 13/11", start, (6, 2))
    steps = trace(start.apply(play), BoardView(last_play=play))
    ends = sorted((s.start, s.end, s.ghost is not None) for s in steps)
    assert ends == sorted(
        [
            (checker_center(1, 1), checker_center(7, 0), True),
            (checker_center(12, 4), checker_center(14, 0), True),
        ]
    )


def test_a_play_of_the_mover_and_a_list_of_moves_are_accepted() -> None:
    pos = Position.initial()
    after_mine = pos.apply(parse_play("8/5 6/5", pos, (3, 1))).swap_players()
    moves = [Move(8, 5, 3), Move(6, 5, 1)]
    steps = trace(after_mine, BoardView(last_play=moves, last_play_by="mover"))
    assert [s.end for s in steps] == [checker_center(5, 0), checker_center(5, 1)]


def test_a_last_play_that_cannot_lead_here_is_refused() -> None:
    alice, play = last_play_of_bob()
    with pytest.raises(ValueError, match="cannot have led"):
        render_board(alice, view=BoardView(last_play=play, last_play_by="mover"))


def test_highlights_need_a_checker_of_the_mover() -> None:
    with pytest.raises(ValueError, match="no checker"):
        render_board(Position.initial(), view=BoardView(highlights={19}))
    with pytest.raises(ValueError, match="bar"):
        render_board(Position.initial(), view=BoardView(highlights={25}))


# -- banners and language -------------------------------------------------------------------


def banner_pixels(im: Image.Image) -> int:
    """Accent pixels in the band below the board, where offers and results are written."""
    if im.height <= g.HEIGHT:
        return 0
    band = (g.WIDTH // 2, (g.HEIGHT + im.height) // 2)
    return count_near(im, band, CLASSIC.accent, (im.height - g.HEIGHT) // 2, tolerance=30)


@pytest.mark.slow
@pytest.mark.parametrize(
    "option",
    [
        {"double_offered_by": "mover"},
        {"resignation": Resignation(by="opponent", value=2)},
        {"game_over": GameOver(winner="mover", value=1, points=1)},
    ],
    ids=["double", "resignation", "game-over"],
)
def test_offers_and_results_are_announced_below_the_board(option: dict[str, object]) -> None:
    pos = Position.initial()
    assert banner_pixels(picture(pos)) == 0
    assert banner_pixels(picture(pos, **option)) > 500


def test_an_offered_cube_leaves_its_well_for_the_banner() -> None:
    im = picture(Position.initial(), double_offered_by="opponent")
    assert not cube_at(im, g.cube_center(None, "mover", False))


def test_french_labels_change_the_picture() -> None:
    pos = Position.initial()
    ctx = MatchContext(match_length=7, score=(1, 2), crawford=True)
    en = draw_board(pos, BoardView(context=ctx))
    fr = draw_board(pos, BoardView(context=ctx, lang="fr"))
    strip = (0, 0, g.WIDTH, g.INFO_H)
    assert en.crop(strip).tobytes() != fr.crop(strip).tobytes()
    board = (0, g.INFO_H, g.WIDTH, g.HEIGHT - g.INFO_H)
    assert en.crop(board).tobytes() == fr.crop(board).tobytes()  # no words on the board
    assert render_board(pos, view=BoardView(lang="fr")) != render_board(pos)


def test_the_player_on_roll_is_marked() -> None:
    im = picture(Position.initial())
    top, bottom = g.strip_box(False), g.strip_box(True)
    assert count_near(im, (2, (bottom[1] + bottom[3]) // 2), CLASSIC.accent, 2, 10) > 0
    assert count_near(im, (2, (top[1] + top[3]) // 2), CLASSIC.accent, 2, 10) == 0


@pytest.mark.parametrize(
    "option",
    [{"double_offered_by": "mover"}, {"resignation": Resignation(by="mover", value=1)}],
    ids=["double", "resignation"],
)
def test_the_player_who_must_answer_an_offer_is_marked(option: dict[str, object]) -> None:
    # The mover offers; the strip lit is his opponent's, who must take or drop (accept or
    # reject): the player on roll's said "to play" while the other had to decide.
    top, bottom = g.strip_box(False), g.strip_box(True)
    for viewpoint, lit, dark in (("mover", top, bottom), ("opponent", bottom, top)):
        im = picture(Position.initial(), viewpoint=viewpoint, **option)
        assert count_near(im, (2, (lit[1] + lit[3]) // 2), CLASSIC.accent, 2, 10) > 0
        assert count_near(im, (2, (dark[1] + dark[3]) // 2), CLASSIC.accent, 2, 10) == 0


def test_a_long_tag_goes_under_a_name_it_would_cut() -> None:
    # The top strip of a match holds the match line too: "to take or drop" beside "Computer
    # (world class)" cut the name ("Com…"); the words go under it instead.
    from render.panels import MATCH_LINE_X

    ctx = MatchContext(match_length=15, score=(3, 11))
    names = ("Bob", "Computer (world class)")
    for lang in ("en", "fr"):
        im = picture(
            Position.initial(), names=names, context=ctx, lang=lang, double_offered_by="mover"
        )
        strip = im.crop((0, 0, MATCH_LINE_X - 100, g.INFO_H))
        accent = count_near(strip, (200, g.INFO_H * 3 // 4), CLASSIC.accent, 12, tolerance=60)
        white = count_near(strip, (200, g.INFO_H // 4), CLASSIC.text, 12, tolerance=30)
        assert accent > 5 and white > 5, (lang, accent, white)  # the words under the name


def test_a_long_name_stops_before_the_match_line() -> None:
    from render.panels import MATCH_LINE_X

    long = "Maximilian Alexander Friedrich Wilhelm von Hohenzollern"
    ctx = MatchContext(match_length=11, score=(3, 9), crawford=True)
    im = picture(Position.initial(), names=("Ann", long), context=ctx)
    # The match line is dim; the name's white bold glyphs must not reach into it.
    white = CLASSIC.text
    y = g.INFO_H // 2
    assert count_near(im, (MATCH_LINE_X - 120, y), white, 12, tolerance=30) == 0
    assert count_near(im, (200, y), white, 12, tolerance=30) > 10  # the name is there

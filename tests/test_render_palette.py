"""The board is drawn straight into palette indices (no quantize pass over the picture), from
prepared layers and kept pieces, and a board already drawn is not drawn again; the pictures
read as the RGB drawing does."""

from __future__ import annotations

import io
import zlib
from dataclasses import replace
from types import ModuleType

import pytest
from PIL import Image, ImageChops

from engine import Position, parse_play
from engine.context import MatchContext
from render import BoardView, arrows, paint, picture, png, render_board
from render import geometry as g
from render.board import draw_board, palette, sample_palette
from render.geometry import strip_box
from render.png import encode
from render.samples import SAMPLES
from render.theme import THEMES


def _rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def _differing(a: Image.Image, b: Image.Image) -> int:
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L")
    return a.width * a.height - diff.histogram()[0]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_picture_is_a_palette_png_that_reads_as_the_rgb_drawing(name: str) -> None:
    position, view = SAMPLES[name]()
    png = render_board(position, view=view)
    im = Image.open(io.BytesIO(png))
    assert im.mode == "P"
    reference = draw_board(position, view).quantize(
        palette=palette(view.theme), dither=Image.Dither.NONE
    )
    assert im.size == reference.size
    # Only anti-aliased edges drawn over checkers differ: under 0.1% of the pixels.
    assert _differing(im, reference) < 0.001 * im.width * im.height


@pytest.mark.parametrize("name", ["start", "double"])
def test_a_board_without_arrows_is_pixel_identical_to_the_rgb_drawing(name: str) -> None:
    position, view = SAMPLES[name]()
    reference = draw_board(position, view).quantize(
        palette=palette(view.theme), dither=Image.Dither.NONE
    )
    assert _differing(picture.paint_board(position, view), reference) == 0


def _assert_strips_identical(position: Position, view: BoardView) -> None:
    """Both strips of the painted board match the RGB drawing mapped to the palette, pixel for
    pixel."""
    reference = draw_board(position, view).quantize(
        palette=palette(view.theme), dither=Image.Dither.NONE
    )
    im = picture.paint_board(position, view)
    for bottom in (False, True):
        box = strip_box(bottom)
        assert _differing(im.crop(box), reference.crop(box)) == 0


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_strips_are_pixel_identical_to_the_rgb_drawing(name: str) -> None:
    """Each strip is kept in two pieces (name, then pips and score) that read as one."""
    position, view = SAMPLES[name]()
    _assert_strips_identical(position, view)


@pytest.mark.parametrize("mine", [{1: 5}, {6: 8, 8: 5}, {24: 2, 13: 5, 8: 3, 6: 5}])
@pytest.mark.parametrize("viewpoint", ["mover", "opponent"])
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_strip_with_a_long_name_and_the_match_is_pixel_identical(
    mine: dict[int, int], viewpoint: str, lang: str
) -> None:
    """The name fitted beside the pips (two lines, a tag under it) and the match line of the
    top strip, drawn in the name's piece, meet the pips' piece as in one drawing, with one,
    two or three digits of pips."""
    names = ("Maximilian Alexander von Backgammonstein 🎲", "Zoë Wolfeschlegelsteinhausen")
    position = Position.from_sides(
        [mine.get(p, 0) for p in range(1, 26)], [2 if p == 13 else 0 for p in range(1, 26)]
    )
    view = BoardView(
        names=names,
        dice=(5, 2),
        viewpoint=viewpoint,  # type: ignore[arg-type]
        lang=lang,  # type: ignore[arg-type]
        context=MatchContext(match_length=11, score=(10, 9), crawford=True),
    )
    _assert_strips_identical(position, view)


def test_no_quantize_pass_over_the_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    position, view = SAMPLES["bar"]()
    render_board(position, view=view)  # layers and pieces prepared
    picture.forget()
    sizes: list[int] = []
    quantize = Image.Image.quantize

    def spy(self: Image.Image, *args: object, **kwargs: object) -> Image.Image:
        sizes.append(self.width * self.height)
        return quantize(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Image.Image, "quantize", spy)
    render_board(position, view=view)
    # Only the boxes drawn over the last play are mapped to the palette, never the picture.
    assert max(sizes, default=0) < 960 * 840 // 4


def test_the_same_board_gives_the_same_bytes_without_drawing_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    position, view = SAMPLES["bar"]()
    first = render_board(position, view=view)
    drawn: list[object] = []
    monkeypatch.setattr(picture, "paint_board", lambda *a: drawn.append(a))
    assert render_board(position, view=replace(view)) == first
    assert drawn == []


def test_a_kept_picture_equals_a_fresh_one() -> None:
    position, view = SAMPLES["mistake"]()
    kept = render_board(position, view=view)
    picture.forget()
    paint.forget()
    assert render_board(position, view=view) == kept


@pytest.mark.parametrize(
    "change",
    [
        {"theme": "ocean"},
        {"lang": "fr"},
        {"mirrored": True},
        {"viewpoint": "opponent"},
        {"names": ("Alice", "Zoé")},
        {"dice": (2, 1)},
    ],
)
def test_a_board_that_shows_something_else_is_drawn_anew(change: dict[str, object]) -> None:
    position, view = SAMPLES["start"]()
    other = replace(view, **change, highlights=frozenset())  # type: ignore[arg-type]
    plain = replace(view, highlights=frozenset())
    assert render_board(position, view=other) != render_board(position, view=plain)


def test_a_moved_checker_changes_the_picture() -> None:
    position, view = SAMPLES["start"]()
    plain = replace(view, highlights=frozenset())
    start = Position.initial()
    after = start.apply(parse_play("8/5 6/5", start, (3, 1))).swap_players()
    assert render_board(after, view=plain) != render_board(position, view=plain)


def test_the_layer_is_prepared_once_per_theme_orientation_and_numbering() -> None:
    paint.layer.cache_clear()
    for theme in ("classic", "ocean"):
        for lang in ("en", "fr"):
            for _ in range(2):
                picture.forget()
                render_board(Position.initial(), view=BoardView(theme=theme, lang=lang))
    assert paint.layer.cache_info().misses == 2  # one per theme: the language adds none
    render_board(Position.initial(), view=BoardView(mirrored=True))
    assert paint.layer.cache_info().misses == 3


def test_pieces_are_kept_apart_by_theme() -> None:
    position = Position.initial()
    classic = picture.paint_board(position, BoardView(dice=(3, 1)))
    ocean = picture.paint_board(position, BoardView(dice=(3, 1), theme="ocean"))
    assert classic.getpalette() != ocean.getpalette()
    # The ocean picture holds no piece kept for the classic one: its dice sit on its own field.
    paint.forget()
    fresh = picture.paint_board(position, BoardView(dice=(3, 1), theme="ocean"))
    assert _differing(ocean, fresh) == 0


def test_kept_pieces_stay_within_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every game has its own names: their strips must not pile up to the count's bound.
    monkeypatch.setattr(paint, "PIECE_BYTES", 400_000)
    paint.forget()
    position = Position.initial()
    views = [BoardView(dice=(3, 1), names=(f"Ann{n}", f"Bob{n}")) for n in range(12)]
    for view in views:
        picture.paint_board(position, view)
        kept = sum(paint._size(k) for k in paint._pieces.values())
        assert paint._pieces_bytes[0] == kept <= paint.PIECE_BYTES
    assert len(paint._pieces) < len(views) * 2  # the first names went
    # A board whose pieces were forgotten is drawn again the same, and one whose are kept too.
    again = picture.paint_board(position, views[0])
    kept_again = picture.paint_board(position, views[0])
    paint.forget()
    fresh = picture.paint_board(position, views[0])
    assert _differing(again, fresh) == 0 and _differing(kept_again, fresh) == 0


def test_a_kept_piece_holds_only_the_pixels_it_changes() -> None:
    paint.forget()
    picture.paint_board(Position.initial(), BoardView(dice=(3, 1), names=("Ann", "Bob")))
    names = [k for key, k in paint._pieces.items() if key[1][0] == "strip name"]
    boxes = {key[2] for key in paint._pieces if key[1][0] == "strip name"}
    assert names and len(boxes) == 2
    # The name of the player who waits changes a few pixels of his strip: only those are kept.
    smallest = min(k[0].size[0] * k[0].size[1] for k in names)
    assert smallest < min((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) // 4


@pytest.mark.parametrize("deflate", [png.DEFLATE, zlib], ids=["chosen", "zlib"])
def test_the_writer_gives_pillow_the_same_pixels(deflate: ModuleType) -> None:
    position, view = SAMPLES["bar"]()
    im = picture.paint_board(position, view)
    back = Image.open(io.BytesIO(encode(im, png.LEVEL, deflate)))
    assert back.mode == "P" and back.tobytes() == im.tobytes()
    assert back.getpalette() == im.getpalette()


def test_the_writer_takes_only_palette_pictures() -> None:
    with pytest.raises(ValueError, match="palette picture"):
        encode(Image.new("RGB", (4, 4)))


def test_the_last_play_is_kept_over_the_same_checkers(monkeypatch: pytest.MonkeyPatch) -> None:
    position, view = SAMPLES["bar"]()
    render_board(position, view=view)
    drawn: list[object] = []
    fresh = paint._drawn
    monkeypatch.setattr(paint, "_drawn", lambda *a: drawn.append(a) or fresh(*a))  # type: ignore[func-returns-value]
    # The next press of the turn: another name shown, the same arrows over the same checkers.
    again = render_board(position, view=replace(view, names=("Alice", "Robert")))
    assert drawn == []
    picture.forget()
    paint.forget()
    assert render_board(position, view=replace(view, names=("Alice", "Robert"))) == again
    assert drawn  # drawn afresh once forgotten, to the same bytes


def test_an_arrow_is_drawn_once_per_shape_wherever_it_lies() -> None:
    """The same move from another point (five points along the top row, from two places) is
    the same shape moved: its masks are drawn once."""
    arrows._masks.cache_clear()
    start, end = g.checker_center(13, 0), g.checker_center(18, 0)
    one = arrows._arrow_masks(start, end, 8)
    step = g.POINT_W
    other = arrows._arrow_masks((start[0] + step, start[1]), (end[0] + step, end[1]), 8)
    assert other[0] == (one[0][0] + step, one[0][1])
    assert other[1] is one[1] and other[2] is one[2]
    assert arrows._masks.cache_info().misses == 1


def test_the_rgb_writer_gives_pillow_the_same_pixels() -> None:
    """Charts are written by :func:`render.png.encode_rgb`: the RGB drawing's own pixels."""
    position, view = SAMPLES["mistake"]()
    im = draw_board(position, view)  # tens of thousands of colours: every byte must survive
    back = Image.open(io.BytesIO(png.encode_rgb(im)))
    assert back.mode == "RGB" and back.tobytes() == im.tobytes()
    with pytest.raises(ValueError, match="RGB picture"):
        png.encode_rgb(Image.new("P", (4, 4)))


@pytest.mark.parametrize("which", ["rating", "chances"])
def test_a_chart_reads_as_its_drawing(which: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from render import chart

    drawn: list[Image.Image] = []
    write = png.encode_rgb
    monkeypatch.setattr(chart, "encode_rgb", lambda im: drawn.append(im.copy()) or write(im))
    if which == "rating":
        data = chart.line_chart([1500, 1512, 1490, 1533], title="Zoë 🎲", baseline=1500)
    else:
        data = chart.chances_chart([0.5, 0.62, 0.4, 0.9, 1.0])
    assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == drawn[0].tobytes()


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_the_stored_palettes_are_those_the_samples_give(theme: str) -> None:
    """A process reads each theme's palette (render/palettes.json) instead of finding it from
    the samples (half a second a theme): after a change to what the board draws, run
    ``python -m render.write_palettes``."""
    assert palette(theme).getpalette() == sample_palette(theme).getpalette()

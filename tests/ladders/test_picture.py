"""The ladder picture: phone-sized (608 wide), the viewer's rung in blue, the top in gold, the
challenges being played in orange, long ladders cut around the viewer."""

from __future__ import annotations

import io

from PIL import Image

from render.ladder import MAX_ROWS, WIDTH, LadderPicture, LadderRow, render_ladder
from render.tournament_draw import FIRE, GOLD, MINE


def _count(png: bytes, colour: tuple[int, int, int], near: int = 24) -> int:
    """Pixels of ``colour``, give or take ``near`` on each channel (the PNG's palette)."""
    rgb = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(
        n
        for n, c in rgb.getcolors(1 << 20) or []
        if all(abs(a - b) <= near for a, b in zip(c, colour, strict=True))
    )


def _picture(rows: tuple[LadderRow, ...], results: tuple[str, ...] = ()) -> LadderPicture:
    rules = "5-point matches · with the cube · rated · challenge up to 3 rungs above · 72 h to play"
    return LadderPicture("Club", rules, rows, "Latest results", results, "Nobody yet")


def test_the_rows_marks_and_size() -> None:
    rows = (
        LadderRow(1, "Ann", "top rung", top=True),
        LadderRow(2, "Bob", "⚔ Cy, 40 h left", busy=True),
        LadderRow(3, "Cy", "⚔ Bob, 40 h left", busy=True, highlight=True),
    )
    png = render_ladder(_picture(rows, ("Cy beat Dee and took rung 3",)))
    width, height = Image.open(io.BytesIO(png)).size
    assert width == WIDTH and 250 < height < 600
    assert _count(png, MINE) > 5000 and _count(png, GOLD) > 50 and _count(png, FIRE) > 100
    plain = render_ladder(_picture(tuple(LadderRow(r.rung, r.name, "") for r in rows)))
    assert _count(plain, MINE) == 0 and _count(plain, FIRE) == 0


def test_an_empty_ladder_and_a_long_one() -> None:
    empty = render_ladder(_picture(()))
    assert Image.open(io.BytesIO(empty)).size[0] == WIDTH
    many = tuple(LadderRow(i, f"Player {i}", "") for i in range(1, 300))
    tall = Image.open(io.BytesIO(render_ladder(_picture(many)))).size[1]
    some = tuple(LadderRow(i, f"Player {i}", "") for i in range(1, MAX_ROWS + 1))
    assert tall == Image.open(io.BytesIO(render_ladder(_picture(some)))).size[1]


def test_a_long_ladder_shows_the_top_and_the_viewers_neighbourhood() -> None:
    import bot.service  # noqa: F401 - first: the service imports the ladders' use cases
    from bot.ladders.view import _shown

    rungs = tuple(range(1000, 1300))
    assert _shown(rungs[:MAX_ROWS], None) == list(range(MAX_ROWS))
    assert _shown(rungs, 1010) == [*range(MAX_ROWS - 1), -1]
    middle = _shown(rungs, 1150)
    assert len(middle) == MAX_ROWS and 150 in middle and middle[0] == 0 and middle[-1] == -1
    last = _shown(rungs, 1299)
    assert len(last) == MAX_ROWS and last[-1] == 299 and last.count(-1) == 1


def test_the_rungs_left_out_are_marked() -> None:
    from render.tournament_draw import DIM

    ends = (LadderRow(1, "Ann", ""), LadderRow(9, "Bob", ""))
    cut = render_ladder(_picture((ends[0], LadderRow(0, "", ""), ends[1])))
    whole = render_ladder(_picture(ends))
    # three dots of the dim ink in the rung column (the type has no "⋮": it drew nothing)
    assert _count(cut, DIM, near=0) - _count(whole, DIM, near=0) >= 3 * 9

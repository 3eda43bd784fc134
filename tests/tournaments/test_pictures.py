"""Tournament pictures: words in both languages, names fitted, brackets and tables drawn."""

from __future__ import annotations

import string
from io import BytesIO

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw

from bot.tournaments import Bracket, swiss_standings
from bot.tournaments.pictures import bracket_picture, standings_page, standings_picture
from render.fonts import bold, clean_name, regular, text_width
from render.ladder import LadderPicture, LadderRow, render_ladder
from render.tournament import (
    COLUMNS,
    NAME_SIZE,
    PHONE_WIDTH,
    BracketGame,
    BracketPicture,
    Entrant,
    StandingsRow,
    StandingsTable,
    TableFormat,
    fit_name,
    render_bracket,
    render_standings,
)
from render.tournament_draw import BG, BOX, MINE, WIN_ROW, _stamp_mask
from render.tournament_labels import TOURNAMENT_LABELS, round_name, tlabel
from tests.tournaments.samples import SAMPLES, knockout, names


def _image(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(BytesIO(png)).convert("RGB")


def _near(im: Image.Image, colour: tuple[int, int, int], tolerance: int = 8) -> int:
    """How many pixels of ``im`` are within ``tolerance`` of ``colour`` on every channel."""
    bands = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= tolerance else 0)
        for band, c in zip(im.split(), colour, strict=True)
    ]
    both = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])
    return both.histogram()[255]


def test_every_language_has_the_same_keys_and_fields() -> None:
    english = TOURNAMENT_LABELS["en"]
    for table in TOURNAMENT_LABELS.values():
        assert set(table) == set(english)
        for key, text in table.items():
            fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
            want = {f for _, f, _, _ in string.Formatter().parse(english[key]) if f}
            assert fields == want, key
    assert tlabel("fr", "champion") != tlabel("en", "champion")
    with pytest.raises(ValueError, match="no tournament labels"):
        tlabel("de", "final")


def test_round_names_count_from_the_final() -> None:
    assert [round_name("en", rounds=5, index=i) for i in range(5)] == [
        "Round 1",
        "Round of 16",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]
    assert [round_name("fr", rounds=7, index=i) for i in range(3)] == [
        "1er tour",
        "2e tour",
        "3e tour",
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x17F), max_size=40),
    st.integers(min_value=60, max_value=320),
    st.booleans(),
)
def test_fitted_names_fit_and_are_cut_between_letters(raw: str, width: int, strong: bool) -> None:
    name = clean_name(raw)  # as the pictures do: no control characters, single spaces
    fitted = fit_name(name, width, strong)
    assert 1 <= len(fitted.lines) <= 2
    for line in fitted.lines:
        assert text_width(fitted.font, line) <= width or len(line) == 1
    assert fitted.size >= NAME_SIZE  # never smaller: see the phone test below
    if len(fitted.lines) == 2:
        assert not fitted.strong and fitted.size == NAME_SIZE
    joined = "".join(fitted.lines).replace(" ", "")
    if not fitted.lines[-1].endswith("…"):
        assert joined == name.replace(" ", ""), "nothing lost, nothing cut through a letter"


def test_long_names_take_a_smaller_type_then_two_lines() -> None:
    assert fit_name("Ann", 200).size == 17
    assert fit_name("Anastasiya Konstantinovna", 200).size == 16
    name = "Anastasiya Konstantinovna Vorontsova-Dashkova"
    fitted = fit_name(name, 220)
    assert fitted.lines == ("Anastasiya Konstantinovna", "Vorontsova-Dashkova")
    assert text_width(regular(16), name) > 220


@pytest.mark.parametrize("players", [8, 16, 32])
def test_brackets_of_8_16_and_32_grow_with_the_rounds(players: int) -> None:
    bracket, winners, scores = knockout(players, played_rounds=0)
    empty = _image(bracket_picture(bracket, {}, names(players)))
    bracket, winners, scores = knockout(players, played_rounds=players.bit_length() - 1)
    done = _image(bracket_picture(bracket, winners, names(players, long=True), scores=scores))
    assert empty.size == done.size
    assert empty.width == PHONE_WIDTH  # the rounds go down, not across
    assert empty.height > (players - 1) // 2 * 96  # two 40-pixel rows a match, two a row
    gold_row = (82, 70, 36)  # a winner's row
    assert _near(empty, gold_row) < 50  # a few anti-aliased pixels of the champion's frame
    assert _near(done, gold_row) > 1000 * players


def test_a_bracket_needs_halving_rounds() -> None:
    game = BracketGame(Entrant("A"), Entrant("B"))
    with pytest.raises(ValueError, match="halves"):
        BracketPicture(rounds=((game, game, game), (game,)))
    with pytest.raises(ValueError, match="halves"):
        BracketPicture(rounds=((game, game),))


def test_french_and_english_brackets_differ_only_in_words() -> None:
    bracket = Bracket.seeded([1, 2, 3])
    en = _image(bracket_picture(bracket, {}, {1: "A", 2: "B", 3: "C"}))
    fr = _image(bracket_picture(bracket, {}, {1: "A", 2: "B", 3: "C"}, lang="fr"))
    assert en.size == fr.size and en.tobytes() != fr.tobytes()


def test_standings_rows_must_match_the_format() -> None:
    with pytest.raises(ValueError, match="swiss row has 4 values"):
        StandingsTable("swiss", (StandingsRow(1, "A", ("1", "2")),))
    assert set(COLUMNS) == {"round_robin", "swiss", "arena"}


def test_standings_picture_grows_by_row_and_shows_the_viewer() -> None:
    table = swiss_standings(list(range(1, 101)), [])
    who = {p: f"P{p}" for p in range(1, 101)}
    page = _image(standings_picture("swiss", table, who))
    mine = _image(standings_picture("swiss", table, who, viewer=70))
    all_rows = _image(standings_picture("swiss", table, who, rows=None))
    assert page.size == mine.size
    assert all_rows.height - page.height == (100 - 32) * 40 - 24  # no "1–32 of 100" footer
    blue = (40, 72, 112)  # the viewer's row
    assert _near(page, blue) == 0 < _near(mine, blue)
    assert standings_page(table, viewer=70) == (53, 85)  # player 70 is 70th: index 69, mid-page
    assert standings_page(table, viewer=99) == (68, 100)
    assert standings_page(table[:10]) == (0, 10)


def test_every_sample_renders() -> None:
    for name, make in SAMPLES.items():
        im = _image(make())
        assert 500 <= im.width <= PHONE_WIDTH and 300 <= im.height <= 2000, name


def _phone_size(png: bytes) -> float:
    """The smallest name's type size once the picture is scaled to a phone's 380 pixels."""
    return NAME_SIZE * 380 / _image(png).width


@pytest.mark.parametrize("players", [4, 8, 16, 32, 64])
def test_brackets_read_on_a_phone(players: int) -> None:
    """Scaled to a phone's width, every name is at least 10 pixels high (1,156 pixels wide
    with 16-pixel names, an 8-player bracket had them 5 high)."""
    bracket, winners, scores = knockout(players, played_rounds=2)
    for lang in ("en", "fr"):
        png = bracket_picture(
            bracket, winners, names(players, long=True), scores=scores, title="T", lang=lang
        )
        assert _phone_size(png) >= 10, (players, lang)


@pytest.mark.parametrize("players", [5, 20])
@pytest.mark.parametrize("kind", ["round_robin", "swiss", "arena"])
def test_tables_read_on_a_phone(players: int, kind: TableFormat) -> None:
    """As for brackets: the widest columns (the French arena's) keep the names 10 high."""
    values = ("12", "8", "6", "4", "1753")[: len(COLUMNS[kind])]
    rows = tuple(StandingsRow(k, f"Anastasiya Konstantinovna {k}", values) for k in range(players))
    for lang in ("en", "fr"):
        png = render_standings(StandingsTable(kind, rows, title="T", subtitle="S", lang=lang))
        assert _phone_size(png) >= 10, (kind, lang)


def test_the_bracket_shows_the_viewers_rows() -> None:
    """The viewer's row of each match he played is blue, as his row of a table is; nobody's
    when there is no viewer."""
    bracket, winners, scores = knockout(8, played_rounds=2)
    who = names(8)
    plain = _image(bracket_picture(bracket, winners, who, scores=scores))
    mine = _image(bracket_picture(bracket, winners, who, scores=scores, viewer=1))
    lost = _image(bracket_picture(bracket, winners, who, scores=scores, viewer=8))
    blue = (40, 72, 112)  # the viewer's row
    row = 272 * 30  # about a row's worth of pixels (272 x 40, less the name)
    assert _near(plain, blue) == 0
    assert _near(mine, blue) > 3 * row  # seed 1: quarter-final, semi-final and final
    assert row < _near(lost, blue) < 2 * row  # seed 8: out in the quarter-final


def test_names_that_draw_nothing_still_render() -> None:
    row = StandingsRow(1, "🎲🎲", ("2", "3", "1", "2", "1700"), on_fire=True, highlight=True)
    _image(render_standings(StandingsTable("arena", (row,), title="🏆")))
    final = BracketGame(Entrant(""), Entrant("李小龙"), winner=1)
    _image(render_bracket(BracketPicture(((final,),), champion="李小龙")))


def test_three_digit_ranks_stay_inside_the_table() -> None:
    """Ranks 211 to 242 in bold stay right of the margin, where the rows' stripes begin."""
    table = swiss_standings(list(range(1, 257)), [])
    im = _image(standings_picture("swiss", table, {}, viewer=227))
    margin = im.crop((0, 0, 24, im.height))
    assert margin.getcolors() == [(margin.width * margin.height, (36, 39, 46))]


@pytest.mark.parametrize("anchor", ["lm", "mm", "rm"])
def test_stamped_text_is_the_text_pillow_draws(anchor: str) -> None:
    """The cached masks put each glyph where FreeType does (its pen rounded half up), so a
    name or a number stamped in palette indices is the picture ``ImageDraw.text`` draws."""
    texts = ["Knockout · 5-point matches", "Maximilian Alexander", "Club Cup", "Inès 1753"]
    for strong in (False, True):
        for size in (13, 16, 17, 18, 21, 26):
            font = (bold if strong else regular)(size)
            for text in texts:
                drawn = Image.new("L", (640, 60))
                ImageDraw.Draw(drawn).text((320, 30), text, fill=255, font=font, anchor=anchor)
                mask, dx, dy = _stamp_mask(text, strong, size, anchor)
                stamped = Image.new("L", (640, 60))
                stamped.paste(mask, (320 + dx, 30 + dy))
                assert ImageChops.difference(drawn, stamped).getbbox() is None, (text, size)


def test_brackets_and_ladders_are_palette_pictures_in_the_exact_colours() -> None:
    """Drawn in palette indices, not mapped to a palette: the boxes, rows and background are
    the colours of :mod:`render.tournament_draw` exactly."""
    bracket, winners, scores = knockout(8, played_rounds=2)
    png = bracket_picture(bracket, winners, names(8), scores=scores, viewer=1)
    rows = (LadderRow(1, "Ann", "top", top=True), LadderRow(2, "Bob", "", highlight=True))
    ladder = render_ladder(LadderPicture("Club", "1 point", rows, "", ()))
    for picture, flat in ((png, {BG, BOX, WIN_ROW, MINE}), (ladder, {BG, MINE})):
        assert Image.open(BytesIO(picture)).mode == "P"
        counts = sorted(_image(picture).getcolors(256) or [], reverse=True)
        assert {colour for _, colour in counts[: len(flat)]} == flat

"""The text board, the words in each language, and the fonts."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from engine import Position, parse_play
from engine.context import MatchContext
from render import BoardView, GameOver, Resignation, render_board, text_board
from render.fonts import (
    COVERED,
    EMOJI,
    STAND_IN,
    bold,
    clean_name,
    covered,
    fit,
    regular,
    text_width,
)
from render.labels import LABELS, label, points_text
from render.samples import SAMPLES, _sides


def rows(text: str) -> list[str]:
    """The 13 lines of the board itself (borders included), without the info column."""
    lines = text.splitlines()[1:14]
    return [line[:44] for line in lines]


def test_every_language_has_the_same_keys() -> None:
    english = set(LABELS["en"])
    for lang, table in LABELS.items():
        assert set(table) == english, (lang, set(table) ^ english)
        for key, text in table.items():
            # Same placeholders too, or a format call would fail in one language only.
            assert _fields(text) == _fields(LABELS["en"][key]), (lang, key)


def _fields(text: str) -> set[str]:
    import string

    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_french_words_differ_from_english_ones() -> None:
    assert label("fr", "game_over") != label("en", "game_over")
    assert label("fr", "to_play") == "à jouer"
    assert points_text("fr", 1) == "1 point" and points_text("en", 0) == "0 points"
    with pytest.raises(ValueError, match="language"):
        label("de", "pips")


def test_start_position_text_board() -> None:
    text = text_board(Position.initial(), view=BoardView(names=("Ann", "Bob")))
    board = rows(text)
    assert board[0].startswith(" +13-14-15-16-17-18------19-20-21-22-23-24-+")
    assert board[12].startswith(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    assert board[1] == " | X           O    |   | O              X |"
    assert board[11] == " | O           X    |   | X              O |"
    assert "X: Ann (to play)" in text and "O: Bob" in text
    assert text.count("167 pips") == 2
    assert text.splitlines()[0] == "Position ID: 4HPwATDgc/ABMA"


def test_more_than_five_show_a_count_in_the_fifth_row() -> None:
    pos = _sides({6: 11, 5: 4}, {6: 15})
    board = rows(text_board(pos))
    six = board[0].index("19") + 1  # the column of the viewer's 6-point (below 19)
    column = [line[six - 1 : six + 2] for line in board[7:12]]
    assert column == ["11 ", " X ", " X ", " X ", " X "]


def test_bar_checkers_stand_in_the_bar_column() -> None:
    pos = _sides({25: 2, 6: 13}, {25: 1, 6: 14})
    board = rows(text_board(pos))
    bar = [line[21:24] for line in board[1:12]]
    # The bottom player's (X) above the middle, next to the middle; the top player's below.
    assert bar == ["   ", "   ", "   ", " X ", " X ", "BAR", " O ", "   ", "   ", "   ", "   "]


def test_mirrored_text_board_puts_the_home_board_on_the_left() -> None:
    board = rows(text_board(Position.initial(), view=BoardView(mirrored=True)))
    assert board[12].startswith(" +-1--2--3--4--5--6-------7--8--9-10-11-12-+")
    assert board[11] == " | O              X |   |    X           O |"


def test_numbering_from_the_mover_when_the_viewer_is_not_on_roll() -> None:
    mine = text_board(Position.initial(), view=BoardView(viewpoint="opponent"))
    his = text_board(Position.initial(), view=BoardView(viewpoint="opponent", numbering="mover"))
    assert rows(mine)[12].startswith(" +12-11-10--9--8--7-------6--5--4--3--2--1-+")
    assert rows(his)[12].startswith(" +13-14-15-16-17-18------19-20-21-22-23-24-+")


def test_cube_score_dice_and_last_play_are_written() -> None:
    start = Position.initial()
    play = parse_play("24/18 13/11", start, (6, 2))
    view = BoardView(
        names=("Ann", "Bob"),
        dice=(4, 4),
        dice_left=(4,),
        last_play=play,
        context=MatchContext(
            match_length=7, score=(2, 5), cube_value=2, cube_owner=1, crawford=False
        ),
    )
    lines = text_board(start.apply(play), view=view).splitlines()
    assert lines[4].endswith("cube 2")  # the top player owns it: it sits at his end
    assert lines[7].endswith("7-point match")
    assert lines[3].endswith("score 5") and lines[11].endswith("score 2")
    assert lines[14:] == ["rolled 4-4 (doubles), to play: 4", "Bob: 24/18 13/11"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "rolled 6-5, every die played"), ("fr", "dés 6-5, tous les dés joués")],
)
def test_a_move_with_every_die_played_says_so(lang: str, said: str) -> None:
    # It read "to play: -" once the last checker had moved, before the move was confirmed.
    view = BoardView(names=("Ann", "Bob"), dice=(6, 5), dice_left=(), lang=lang)
    assert said in text_board(Position.initial(), view=view).splitlines()
    # The 6 played, and the 5 that no legal play can use: not "every die played".
    stuck = BoardView(
        names=("Ann", "Bob"), dice=(6, 5), dice_left=(5,), playable_dice=(), lang=lang
    )
    nothing = {"en": "nothing more can be played", "fr": "plus rien n’est jouable"}[lang]
    assert f"{said.split(',')[0]}, {nothing}" in text_board(Position.initial(), view=stuck)


@pytest.mark.parametrize(
    ("option", "en", "fr"),
    [
        ({"double_offered_by": "mover"}, "Ann offers a double", "Ann propose de doubler"),
        (
            {"resignation": Resignation(by="opponent", value=2)},
            "Bob offers to resign: gammon · 2 points",
            "Bob propose d’abandonner : gammon · 2 points",
        ),
        (
            {"game_over": GameOver(winner="mover", value=3, points=3)},
            "game over: Ann wins, backgammon · 3 points",
            "partie terminée : Ann gagne, backgammon · 3 points",
        ),
    ],
    ids=["double", "resignation", "game-over"],
)
def test_offers_and_results_in_both_languages(option: dict[str, object], en: str, fr: str) -> None:
    for lang, expected in (("en", en), ("fr", fr)):
        view = BoardView(names=("Ann", "Bob"), lang=lang, **option)  # type: ignore[arg-type]
        assert text_board(Position.initial(), view=view).splitlines()[-1] == expected


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_has_a_text_board(name: str) -> None:
    position, view = SAMPLES[name]()
    text = text_board(position, view=view)
    assert len(text.splitlines()) >= 14
    assert position.position_id() in text


# -- fonts ----------------------------------------------------------------------------------


def glyph(font: object, ch: str) -> bytes:
    im = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(im).text((4, 4), ch, font=font, fill=255)  # type: ignore[arg-type]
    return im.tobytes()


@pytest.mark.parametrize("make", [bold, regular], ids=["bold", "regular"])
def test_every_covered_character_has_a_real_glyph(make: object) -> None:
    font = make(24)  # type: ignore[operator]
    missing = glyph(font, "\U0001f700")  # an alchemical sign: in neither font, drawn as .notdef
    blank = glyph(font, " ")
    bad = [
        f"U+{code:04X}"
        for lo, hi in COVERED
        for code in range(lo, hi + 1)
        if covered(chr(code))
        and not chr(code).isspace()
        # Combining marks draw nothing on their own, and the soft hyphen is invisible by design.
        and unicodedata.category(chr(code))[0] != "M"
        and code != 0x00AD
        and glyph(font, chr(code)) in (missing, blank)
    ]
    assert not bad


def test_names_are_cleaned_and_fitted() -> None:
    assert clean_name("Zoë 🎲 Ñ") == "Zoë 🎲 Ñ"  # an emoji is drawn, from the emoji font
    assert clean_name("🎲🎲Zoë") == "🎲🎲Zoë" and clean_name("👩‍👩‍👧 Ann") == "👩 Ann"
    assert clean_name("🇫🇷Zoé\ufe0f") == "🇫🇷Zoé" and clean_name("👍🏽") == "👍"
    assert clean_name("Ann \U0001f700") == f"Ann {STAND_IN}"  # a symbol in neither font
    assert clean_name("李") == "?"
    assert clean_name("\u200bAnn\tLee ") == "Ann Lee"
    long = "Maximilian-Alexander von Hohenzollern-Sigmaringen"
    short = fit(bold(28), long, 300)
    assert short.endswith("…") and text_width(bold(28), short) <= 300
    assert fit(bold(28), "Ann", 300) == "Ann"


# -- the README's Board section -------------------------------------------------------------

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_shows_every_sample_and_the_current_text_board() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("### The board", 1)[1].split("\n### ", 1)[0]
    for name in SAMPLES:
        picture = f"docs/board-{name}.png"
        assert f"]({picture})" in section and (README.parent / picture).is_file(), name
    position, view = SAMPLES["start"]()
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    assert block.rstrip("\n") == text_board(position, view=view)


def test_readme_example_runs() -> None:
    text = README.read_text(encoding="utf-8")
    code = text.split("### The board", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, object] = {"print": lambda *a: None}
    exec(code, namespace)
    assert isinstance(namespace["png"], bytes)


def test_every_emoji_has_a_real_glyph() -> None:
    """Every code point the emoji font is said to draw (:data:`EMOJI`) has a glyph of its own,
    in both faces: the list and the shipped font are in step."""
    missing, blank = glyph(regular(24), "\U0001f700"), glyph(regular(24), " ")
    bad = [
        f"U+{code:04X}"
        for lo, hi in EMOJI
        for code in range(lo, hi + 1)
        for face in (bold, regular)
        if glyph(face(24), chr(code)) in (missing, blank)
    ]
    assert not bad


def test_an_emoji_is_drawn_from_the_emoji_font_on_the_line() -> None:
    """``Zoë 🎲`` is Zoë in DejaVu Sans then the die of Noto Emoji, on the same baseline, and
    measured as drawn (so names are fitted and cut right)."""
    from PIL import ImageFont

    face = bold(24)
    noto = ImageFont.truetype(str(Path(str(face.path)).with_name("NotoEmoji.ttf")), 24)
    die = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(die).text((4, 30), "🎲", font=noto, fill=255, anchor="ls")
    both = Image.new("L", (140, 40), 0)
    ImageDraw.Draw(both).text((4, 30), "Zoë 🎲", font=face, fill=255, anchor="ls")
    start = round(face.getlength("Zoë "))
    assert both.crop((start, 0, start + 36, 40)).tobytes() == die.crop((0, 0, 36, 40)).tobytes()
    assert face.getlength("Zoë 🎲") == face.getlength("Zoë ") + noto.getlength("🎲")
    assert die.getbbox() is not None


def test_an_emoji_in_a_name_is_drawn_in_every_picture() -> None:
    """The board, the bracket and the table draw ``🎲Zoë`` with the die: not as ``Zoë`` with
    the emoji lost, nor as the ``◆Zoë`` of a font without emoji."""
    from bot.tournaments import Bracket, MatchResult, swiss_standings
    from bot.tournaments.pictures import bracket_picture, standings_picture
    from render import render_board

    def pictures(name: str) -> tuple[bytes, bytes, bytes]:
        names = {1: "Ann", 2: name, 3: "Cy"}
        table = swiss_standings([1, 2, 3], [MatchResult(2, 1)])
        return (
            standings_picture("swiss", table, names),
            bracket_picture(Bracket.seeded([1, 2, 3]), {}, names),
            render_board(Position.initial(), view=BoardView(names=(name, "Bob"))),
        )

    emoji, stand_in, plain = pictures("🎲Zoë"), pictures("◆Zoë"), pictures("Zoë")
    for k in range(3):
        assert emoji[k] != stand_in[k] and emoji[k] != plain[k], k


@pytest.mark.parametrize(
    ("option", "en", "fr"),
    [
        ({"double_offered_by": "mover"}, "to take or drop", "accepte ou refuse"),
        (
            {"resignation": Resignation(by="mover", value=1)},
            "to accept or reject",
            "accepte ou refuse",
        ),
    ],
    ids=["double", "resignation"],
)
def test_the_player_who_must_answer_an_offer_is_named(
    option: dict[str, object], en: str, fr: str
) -> None:
    # Ann (on roll, at the bottom) offers; Bob decides, and his line says so, not Ann's.
    for lang, words in (("en", en), ("fr", fr)):
        view = BoardView(names=("Ann", "Bob"), lang=lang, **option)  # type: ignore[arg-type]
        lines = text_board(Position.initial(), view=view).splitlines()
        assert lines[1].endswith(f"O{label(lang, 'colon')}Bob ({words})"), lines[1]
        assert lines[13].endswith(f"X{label(lang, 'colon')}Ann"), lines[13]


def test_names_in_captions_and_charts_are_drawn_as_in_the_strips() -> None:
    """A caption (a mistake card's, a hint's) and a chart's title and legend draw a name as
    the strips do (:func:`clean_name`): the first emoji of a joined sequence, ``?`` for a
    script the fonts lack, never three emoji or a missing-glyph box."""
    from render.chart import chances_chart, line_chart

    def pictures(name: str) -> tuple[bytes, bytes, bytes]:
        view = BoardView(caption=(f"Game 1, move 2: {name} rolled 4-1",))
        return (
            render_board(Position.initial(), view=view),
            chances_chart([0.5, 0.6, 0.4], title=f"{name}'s chances", legend=(name, "Bob")),
            line_chart([1500.0, 1510.0], title=f"{name}'s rating"),
        )

    raw = "李 👩\u200d👩\u200d👧 Zoë"
    assert clean_name(raw) == "? 👩 Zoë"
    assert pictures(raw) == pictures(clean_name(raw))


def test_the_text_of_a_mistake_card_does_not_call_the_better_play_played() -> None:
    """Its two plays are named by the caption only: no ``Bob: 13/9 6/5`` line, as if Bob had
    played the better play."""
    position, view = SAMPLES["mistake"]()
    lines = text_board(position, view=view).splitlines()
    assert not [line for line in lines if "13/9 6/5" in line and "Better" not in line]
    assert lines[-2:] == list(view.caption[1:])

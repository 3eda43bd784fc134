"""Writing and reading standard notation."""

from __future__ import annotations

import pytest

from engine import (
    AmbiguousPlayError,
    IllegalPlayError,
    Move,
    Play,
    PlaySyntaxError,
    Position,
    legal_plays,
    parse_play,
)
from engine.notation import format_play, parse_segments
from tests.test_position import board

INITIAL = Position.initial()


@pytest.mark.parametrize(
    ("moves", "text"),
    [
        ([Move(8, 5, 3), Move(6, 5, 1)], "8/5 6/5"),
        ([Move(25, 22, 3, True), Move(13, 11, 2)], "bar/22* 13/11"),
        ([Move(6, 0, 6), Move(5, 0, 5)], "6/off 5/off"),
        ([Move(8, 5, 3)] * 2 + [Move(6, 5, 1)] * 2, "8/5(2) 6/5(2)"),
        ([Move(13, 7, 6, True), Move(7, 5, 2)], "13/7*/5"),
        ([Move(24, 18, 6), Move(18, 16, 2)], "24/16"),
        ([Move(6, 4, 2, True), Move(6, 4, 2)], "6/4*(2)"),
        ([Move(24, 20, 4)] * 2 + [Move(20, 16, 4)] * 2, "24/16(2)"),
    ],
)
def test_format_play(moves: list[Move], text: str) -> None:
    assert format_play(Play(moves)) == text


@pytest.mark.parametrize(
    ("text", "dice", "expected"),
    [
        ("24/18 13/11", (6, 2), "24/18 13/11"),
        ("13/11 24/18", (6, 2), "24/18 13/11"),
        ("13/11, 24/18", (2, 6), "24/18 13/11"),
        ("13-11 24-18", (6, 2), "24/18 13/11"),
        ("  24/18   13/11  ", (6, 2), "24/18 13/11"),
        ("24/16", (6, 2), "24/16"),
        ("24/18/16", (6, 2), "24/16"),
        ("24/22/16", (6, 2), "24/16"),
        ("24/18 18/16", (6, 2), "24/16"),
        ("8/5(2) 6/3(2)", (3, 3), "8/5(2) 6/3(2)"),
        ("8/5 8/5 6/3 6/3", (3, 3), "8/5(2) 6/3(2)"),
        ("8/5x2 6/3 x2", (3, 3), "8/5(2) 6/3(2)"),
        ("8/2(2)", (3, 3), "8/2(2)"),
        ("8/5* 6/5", (3, 1), "8/5 6/5"),  # a stray '*' does not make a good play illegal
    ],
)
def test_parse_play_accepts_usual_writings(text: str, dice: tuple[int, int], expected: str) -> None:
    play = parse_play(text, INITIAL, dice)
    assert str(play) == expected
    assert play in legal_plays(INITIAL, dice)


def test_bar_and_off_spellings() -> None:
    pos = Position.from_board(board(bar=1, p6=14, o22=-1))
    for text in ("bar/22*", "25/22", "b/22", "BAR/22", "Bar/22* 6/5"):
        dice = (3, 1)
        play = parse_play(text if " " in text else text + " 6/5", pos, dice)
        assert str(play) == "bar/22* 6/5"
    home = Position.from_board(board(p6=1, p5=1))
    for text in ("6/off 5/off", "6/0 5/0", "6/o 5/o", "5/off 6/off"):
        assert str(parse_play(text, home, (6, 5))) == "6/off 5/off"


def test_hit_on_intermediate_point_is_chosen_when_written() -> None:
    pos = Position.from_board(board(p24=1, o18=-1, o1=-2))
    via_hit = parse_play("24/18*/16", pos, (6, 2))
    quiet = parse_play("24/16", pos, (6, 2))
    assert str(via_hit) == "24/18*/16"
    assert str(quiet) == "24/22/16" or str(quiet) == "24/16"
    assert pos.apply(via_hit) != pos.apply(quiet)
    # Naming the intermediate point without '*' still means going through it.
    assert parse_play("24/18/16", pos, (6, 2)) == via_hit


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("24", "needs a destination"),
        ("24/", "destination is missing"),
        ("/18", "point on each side"),
        ("24//18", "point on each side"),
        ("18/24", "from higher to lower"),
        ("24/26", "no point 26"),
        ("off/5", "borne off"),
        ("6/bar", "onto the bar"),
        ("24/18 hello", "cannot read"),
        ("8/5(5)", "impossible"),
        ("(2)", "follows a move"),
        ("*", "marks a hit"),
        ("24/18(2) 13/7(2) 8/2(2)", "more moves than any roll"),
        ("x" * 300, "too long"),
    ],
)
def test_syntax_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PlaySyntaxError, match=message):
        parse_play(text, INITIAL, (6, 2))


@pytest.mark.parametrize(
    ("text", "dice", "message"),
    [
        ("24/18", (6, 2), "plays only one die, but both dice of 6-2"),
        ("24/20 13/11", (6, 2), "is a move of 4, which 6-2 cannot make"),
        ("6/off 13/7", (6, 6), "bear off only when all"),
        ("bar/22 13/11", (3, 2), "no checker on the bar"),
        ("7/1 13/11", (6, 2), "no checker on your 7-point"),
        ("13/7 8/2 6/off 6/off", (6, 6), "bear off only"),
    ],
)
def test_illegal_plays_explain_why(text: str, dice: tuple[int, int], message: str) -> None:
    with pytest.raises(IllegalPlayError, match=message):
        parse_play(text, INITIAL, dice)


def test_blocked_point_message() -> None:
    with pytest.raises(IllegalPlayError, match="12-point is held"):
        parse_play("13/12 13/7", INITIAL, (6, 1))


def test_must_enter_from_bar_message() -> None:
    pos = Position.from_board(board(bar=1, p13=14, o1=-2))
    with pytest.raises(IllegalPlayError, match="still on the bar: enter it"):
        parse_play("13/7 13/11", pos, (6, 2))


def test_forced_larger_die_message() -> None:
    pos = Position.from_board(board(p13=1, o6=-2))
    with pytest.raises(IllegalPlayError, match="must be the 6"):
        parse_play("13/12", pos, (6, 1))


def test_no_legal_play_message() -> None:
    cells = board(bar=1, o19=-2, o20=-2, o21=-2, o22=-2, o23=-2, o24=-2, p6=14)
    with pytest.raises(IllegalPlayError, match="turn passes"):
        parse_play("bar/20", Position.from_board(cells), (5, 5))


def test_ambiguous_play_lists_the_candidates() -> None:
    # Two blots on 18 and 22 in front of a checker on 24: 24/16 could hit either way; written
    # with an unmarked intermediate neither, both hit plays remain and none is quieter.
    pos = Position.from_board(board(p24=1, o18=-1, o22=-1, o1=-2))
    with pytest.raises(AmbiguousPlayError, match="could mean"):
        parse_play("24/16", pos, (6, 2))
    assert str(parse_play("24/22*/16", pos, (6, 2))) == "24/22*/16"


def test_parse_segments_structure() -> None:
    (seg,) = parse_segments("13/7*/5(2)")
    assert seg.points == (13, 7, 5) and seg.hits == frozenset({7}) and seg.count == 2
    with pytest.raises(PlaySyntaxError):
        parse_segments(42)  # type: ignore[arg-type]


def test_errors_are_value_errors() -> None:
    for exc in (PlaySyntaxError, IllegalPlayError, AmbiguousPlayError):
        assert issubclass(exc, ValueError)


def test_a_refusal_quotes_the_word_as_typed() -> None:
    # "13/11. 6/5" was quoted as ". 6/5": a piece of two words the player never wrote.
    with pytest.raises(PlaySyntaxError) as refused:
        parse_segments("13/11. 6/5")
    assert refused.value.code == "syntax.unreadable"
    assert refused.value.params["rest"] == "13/11."


def test_a_line_copied_from_a_hint_reads_as_its_play() -> None:
    line = "1. bar/20 24/20 -0.122 (-0.060) · 45.7 %"
    assert parse_segments(line) == parse_segments("bar/20 24/20")
    assert parse_segments("2. 13/7 9/7 +0.166") == parse_segments("13/7 9/7")


def test_a_refusal_quotes_the_word_it_could_not_read() -> None:
    # "13/7 extra" was refused as "I cannot read 13/7": the play the player wrote right.
    for line, word in [("13/7 extra", "extra"), ("13/8 13/11 please", "please")]:
        with pytest.raises(PlaySyntaxError) as refused:
            parse_segments(line)
        assert refused.value.params["rest"] == word


def test_a_line_copied_from_a_french_hint_reads_as_its_play() -> None:
    # French hints write their decimals with commas.
    line = "1. 24/21 13/11 +0,007 · 50,1 %"
    assert parse_segments(line) == parse_segments("24/21 13/11")
    assert parse_segments("2. 13/7 9/7 -0,166 (-0,060) · 45,7 %") == parse_segments("13/7 9/7")
    with pytest.raises(PlaySyntaxError):  # not an equity: not dropped
        parse_segments("8/5 6,5")

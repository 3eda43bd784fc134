"""Fuzzing the inputs people type: the notation parser and the ID decoders raise only their
documented errors, whatever the text. (``bench/bench_fuzz.py`` runs 10,000+ inputs each.)"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    BackgammonError,
    InvalidMatchIdError,
    InvalidPositionIdError,
    Position,
    decode_match_id,
    legal_plays,
    parse_play,
)
from engine.notation import parse_segments

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "300"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None)

# Text that looks like notation often enough to reach deep into the parser.
NOTATION_ALPHABET = st.sampled_from([*list("0123456789/ *()-,xbarofBARF;\t"), "bar", "off", "25"])
notation_like = st.lists(NOTATION_ALPHABET, max_size=40).map("".join)
any_text = st.text(max_size=60)
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
id_like = st.text(alphabet=BASE64 + "=-_ !", min_size=0, max_size=16)
DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))
POSITIONS = [
    Position.initial(),
    Position.from_position_id("sGfwATDgc/ABMA"),
    Position.from_position_id("ScRKrBABAAAAAA"),
]


@FUZZ
@given(text=st.one_of(notation_like, any_text), dice=DICE, which=st.integers(0, 2))
def test_parse_play_raises_only_its_errors(text: str, dice: tuple[int, int], which: int) -> None:
    pos = POSITIONS[which]
    try:
        play = parse_play(text, pos, dice)
    except BackgammonError as exc:
        assert isinstance(exc, ValueError) and str(exc)
        assert exc.code  # every refusal can be translated
        return
    assert play in legal_plays(pos, dice)


@FUZZ
@given(text=st.one_of(notation_like, any_text))
def test_parse_segments_raises_only_syntax_errors(text: str) -> None:
    try:
        segments = parse_segments(text)
    except BackgammonError as exc:
        assert exc.code.startswith("syntax")
        return
    for seg in segments:
        assert all(0 <= p <= 25 for p in seg.points) and 1 <= seg.count <= 4


@FUZZ
@given(text=st.one_of(id_like, any_text))
def test_position_id_decoder(text: str) -> None:
    try:
        pos = Position.from_position_id(text)
    except InvalidPositionIdError:
        return
    assert Position.from_position_id(pos.position_id()) == pos


@FUZZ
@given(text=st.one_of(id_like, any_text))
def test_match_id_decoder(text: str) -> None:
    try:
        key = decode_match_id(text)
    except InvalidMatchIdError:
        return
    assert 1 <= key.cube_value <= 1 << 15


@pytest.mark.slow
@FUZZ
@given(raw=st.binary(min_size=10, max_size=10))
def test_every_ten_byte_key_decodes_or_is_refused(raw: bytes) -> None:
    import base64

    text = base64.b64encode(raw).decode()[:14]
    try:
        pos = Position.from_position_id(text)
    except InvalidPositionIdError:
        return
    mine, theirs = pos.sides()
    assert sum(mine) <= 15 and sum(theirs) <= 15

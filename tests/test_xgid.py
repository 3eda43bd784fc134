"""XGID codec: published XGIDs read, checked and written back, and round trips through the
engine and GNU Backgammon's IDs."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Match, Phase, Position, legal_plays, parse_play
from engine.ids import GameState, MatchKey, decode_match_id
from engine.xgid import InvalidXgidError, Xgid, parse_xgid

# Published XGIDs. The GNU Backgammon IDs are what GNU Backgammon 1.07's ``set xgid`` makes of
# each (recorded with /usr/games/gnubg, ``gnubg.positionid()`` and ``gnubg.matchid()``); the pip
# counts (X, O) and the plays are the ones the source prints beside the XGID.
PUBLISHED = [
    (
        # eXtreme Gammon's documentation and countless posts: the opening, X to play 5-2, money
        # with Jacoby and beavers.
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10",
        "4HPwATDgc/ABMA",
        "cIkKAAAAAAAA",
        (167, 167),
        ["13/11 13/8", "13/8 6/4"],
    ),
    (
        # backgammonforums.com, "How to post positions": 7-point match, X leads 6-4, Crawford.
        "XGID=--A-bBBBB--BbB-----dbbc-B-:0:0:1:31:6:4:1:7:10",
        "3PaAAQZi25gBMA",
        "8InlAEAAMAAE",
        None,
        [],
    ),
    (
        # bgonline.org, "Explain XG rollout results": 5-point match, 2-1, 8/3 best, 6/4 6/3 next.
        "XGID=-BBABBBbB---c-----B-babcb-:0:0:1:32:2:1:0:5:10",
        "uzXAwQBb2wzAAA",
        "cImpABAAEAAE",
        None,
        ["8/3", "6/4 6/3"],
    ),
    (
        # bgonline.org, a "four-score position": Blue (X) pip 121, White 117, money, 5-3.
        "XGID=---CBBBbB---bB----bdBcaa--:0:0:1:53:0:0:0:0:10",
        "6ryBwQDcNoMBAw",
        "cIkOAAAAAAAE",
        (121, 117),
        ["8/5 8/3", "20/17 20/15", "13/10 13/8", "20/15 8/5", "13/5"],
    ),
    (
        # bgonline.org, "Bearing off when opponent has fourteen off": Blue (X) pip 61, White 25
        # (one checker on the bar), Blue owns a 2-cube, money with Jacoby and beavers, 1-4.
        "XGID=aBBBBCC-A-----------------:1:1:1:14:0:0:3:0:10",
        "AAAAbdudAAAAAA",
        "UQkGAAAAAAAA",
        (61, 25),
        [],
    ),
]


@pytest.mark.parametrize(("xgid", "position_id", "match_id", "pips", "plays"), PUBLISHED)
def test_published_xgids(
    xgid: str, position_id: str, match_id: str, pips: tuple[int, int] | None, plays: list[str]
) -> None:
    x = parse_xgid(xgid)
    assert str(x) == xgid  # written back character for character
    assert x.position_id() == position_id
    assert x.match_id() == match_id
    if pips is not None:
        assert x.position.pip_counts() == pips  # X is on roll in every one of them
    legal = legal_plays(x.position, x.dice)
    for text in plays:
        assert parse_play(text, x.position, x.dice) in legal


def test_published_fields() -> None:
    crawford = parse_xgid(PUBLISHED[1][0])
    assert (crawford.match_length, crawford.score, crawford.crawford) == (7, (6, 4), True)
    key = crawford.match_key()
    assert key.score == (4, 6) and key.player_on_roll == 1  # X is GNU Backgammon's player 1
    bearoff = parse_xgid(PUBLISHED[4][0])
    assert bearoff.cube_value == 2 and bearoff.cube_owner == 1
    assert bearoff.position.bar() == (0, 1) and bearoff.position.borne_off() == (0, 14)
    assert bearoff.context().cube_owner == 0  # the player on roll owns it
    m = bearoff.to_match()
    assert (m.game.on_roll, m.game.cube_value, m.game.cube_owner, m.game.dice) == (1, 2, 1, (4, 1))
    assert m.game.phase is Phase.MOVE and m.jacoby


def test_o_on_roll_sees_the_board_from_the_other_side() -> None:
    x = parse_xgid("XGID=---CBBBbB---bB----bdBcaa--:0:0:-1:53:0:0:0:0:10")
    assert x.position == x.board.swap_players()
    assert x.position.pip_counts() == (117, 121)
    assert x.match_key().player_on_roll == 0
    assert Xgid.from_ids(x.position_id(), x.match_id()) == replace(x, max_cube=64)


def test_a_double_on_offer() -> None:
    # O (turn -1) has doubled to 4 from a cube he owned at 2; X must take or pass.
    x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:9:10")
    key = x.match_key()
    assert key.double_offered and key.player_on_roll == 0 and key.turn == 1
    assert key.cube_value == 2 and key.cube_owner == 0 and key.score == (4, 2)
    game = x.to_match().game
    assert game.phase is Phase.DOUBLED and game.on_roll == 0 and game.turn == 1
    assert str(Xgid.from_game(game)).rsplit(":", 1)[0] == str(x).rsplit(":", 1)[0]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "xgid.syntax"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0", "xgid.syntax"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:3:0:10", "xgid.position"),
        ("XGID=Ab----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10", "xgid.position"),  # X on O's bar
        ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:52:0:0:3:0:10", "xgid.position"),  # O on X's bar
        ("XGID=-b----E-C---eE---c-e----C-:0:0:1:52:0:0:3:0:10", "xgid.position"),  # 16 checkers
        ("XGID=-b----E-C---eE---c-e----B?:0:0:1:52:0:0:3:0:10", "xgid.position"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:3:0:10", "xgid.field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:3:0:10", "xgid.field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:3:0:10", "xgid.field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:3:0:10", "xgid.field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:5:0:0:3:0:10", "xgid.field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:3:0:10", "xgid.unsupported"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:7:0:0:7:10", "xgid.field"),  # score >= length
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:7:10", "xgid.field"),  # rules in a match
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:4:0:10", "xgid.field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:-1:0:0:0:10", "xgid.field"),
    ],
)
def test_bad_xgids_are_refused_with_a_reason(text: str, code: str) -> None:
    with pytest.raises(InvalidXgidError) as info:
        parse_xgid(text)
    assert info.value.code == code
    assert str(info.value)


def test_a_finished_game_has_no_xgid() -> None:
    key = MatchKey(game_state=GameState.OVER, match_length=3, score=(3, 0))
    with pytest.raises(InvalidXgidError):
        Xgid.from_key(Position.initial(), key)


# -- round trips ------------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> Position:
    """Any position: up to 15 checkers a side on distinct points, bars included."""
    cells = [0] * 26
    for sign, spots in ((1, range(1, 26)), (-1, range(25))):
        total = draw(st.integers(0, 15))
        for _ in range(total):
            spot = draw(st.sampled_from(list(spots)))
            if cells[spot] * sign >= 0:
                cells[spot] += sign
    return Position(cells)


@st.composite
def xgids(draw: st.DrawFn, *, gnu: bool = False) -> Xgid:
    """Random XGIDs; with ``gnu``, only what GNU Backgammon's IDs can hold too (no beavers, the
    engine's maximum cube, larger die first)."""
    length = draw(st.sampled_from([0, 1, 3, 5, 7, 25]))
    score = (0, 0)
    if length:
        score = (draw(st.integers(0, length - 1)), draw(st.integers(0, length - 1)))
    doubled = draw(st.booleans())
    dice = (0, 0)
    if not doubled and draw(st.booleans()):
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        if gnu:
            dice = (max(dice), min(dice))
    money = not length
    return Xgid(
        board=draw(boards()),
        cube_value=1 << draw(st.integers(0, 6)),
        cube_owner=draw(st.sampled_from([-1, 0, 1])),
        turn=draw(st.sampled_from([-1, 1])),
        dice=dice,
        doubled=doubled,
        score=score,
        crawford=bool(length) and draw(st.booleans()),
        jacoby=money and draw(st.booleans()),
        beavers=money and not gnu and draw(st.booleans()),
        match_length=length,
        max_cube=64 if gnu else 1 << draw(st.integers(0, 15)),
    )


@settings(max_examples=300, deadline=None)
@given(xgids())
def test_text_round_trip(x: Xgid) -> None:
    assert parse_xgid(str(x)) == x
    assert str(parse_xgid(str(x))) == str(x)


@settings(max_examples=300, deadline=None)
@given(xgids(gnu=True))
def test_round_trip_through_gnu_ids(x: Xgid) -> None:
    text = str(x)
    position_id, match_id = x.position_id(), x.match_id()
    again = Xgid.from_ids(position_id, match_id)
    assert str(again) == text
    key = decode_match_id(match_id)
    assert Position.from_position_id(position_id) == x.position
    assert key.score == (x.score[1], x.score[0])


def _check_moment(game: Game) -> None:
    x = Xgid.from_game(game)
    rebuilt = x.to_match().game
    assert rebuilt.position == game.position
    assert (rebuilt.on_roll, rebuilt.phase) == (game.on_roll, game.phase)
    assert sorted(rebuilt.dice or ()) == sorted(game.dice or ())
    assert (rebuilt.cube_value, rebuilt.cube_owner) == (game.cube_value, game.cube_owner)
    assert (rebuilt.score, rebuilt.crawford) == (game.score, game.crawford)
    # The rebuilt game holds the dice larger first, as GNU Backgammon's Match ID does.
    assert str(Xgid.from_game(rebuilt)) == str(replace(x, dice=(max(x.dice), min(x.dice))))
    if game.dice is not None:
        assert x.dice == game.dice  # the XGID writes them in the order rolled


@pytest.mark.parametrize("seed", range(5))
def test_every_moment_of_a_match_round_trips(seed: int) -> None:
    """Each moment of a random match (rolls, plays, doubles) -> XGID -> a new match -> the same
    moment and the same XGID."""
    rng = random.Random(seed)
    match = Match(length=rng.choice([0, 3, 5]))
    checked = 0
    while True:
        game = match.game
        while game.phase is not Phase.OVER:
            if game.phase is Phase.OPENING:
                game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
                continue
            _check_moment(game)
            checked += 1
            if game.phase is Phase.ROLL:
                if game.can_double() and rng.random() < 0.03:
                    game.double()
                else:
                    game.roll((rng.randint(1, 6), rng.randint(1, 6)))
            elif game.phase is Phase.DOUBLED:
                game.take() if rng.random() < 0.9 else game.drop()
            else:
                game.play(rng.choice(game.legal_plays()))
        if match.is_over:
            break
        match.next_game()
    assert checked > 10

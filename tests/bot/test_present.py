"""The game message as the service describes it, on its own."""

from __future__ import annotations

from collections import deque

import pytest

from bot.service import Service
from bot.service.present import Notes, Seat, Table, board_reply
from engine import Match
from tests.bot import conftest
from tests.bot.conftest import ALICE, DM


def test_a_long_chain_of_events_keeps_the_message_within_discord_limits() -> None:
    # Automatic rolls and forced moves of two people (or the computer) can chain many notes
    # in one action, say through a whole bear-off. Discord takes 2000 characters: the oldest
    # notes give way, never the prompt, the result or the IDs at the end.
    long = "A" * 32
    table = Table(7, 3, (Seat(long, user_id=1), Seat("B" * 32, user_id=2)), Match(length=5))
    table.match.game.opening_roll(6, 1)
    notes = Notes()
    for i in range(60):
        notes.add("note.forced", name=long, play=f"{i % 6 + 1}/off(2)")
    reply = board_reply(table, "en", notes)
    assert len(reply.text) <= 2000
    lines = reply.text.splitlines()
    assert lines[0].startswith(f"**{long}**")  # the headline
    assert "earlier" in lines[1]  # says some were left out
    assert lines[-3] == f"{long}'s move is forced: **6/off(2)** was played automatically."
    assert "rolled 6-1" in lines[-2] and lines[-1].startswith("-# Position ID")


def test_every_button_of_the_table_has_its_words() -> None:
    # One table for the buttons: each action has a handler, and its label in both languages.
    from bot.i18n import CATALOGS
    from bot.service.actions import ACTIONS
    from bot.service.customid import GameAction, Press

    assert set(ACTIONS) == set(Press)
    for press, action in ACTIONS.items():
        assert callable(action.run)
        if action.label is not None:
            assert all(action.label in catalog for catalog in CATALOGS.values()), press
        parsed = GameAction.parse(GameAction(1, 2, press, "1").custom_id)
        assert parsed is not None and parsed.action is press


def _practice(position: dict[str, int], dice: tuple[int, int]) -> Table:
    """Alice (seat 0, a person) on roll in ``position`` with ``dice``, against the computer."""
    from engine import MatchKey, Position, encode_match_id
    from tests.test_position import board

    pid = Position.from_board(board(**position)).position_id()
    mid = encode_match_id(MatchKey(dice=dice))
    match = Match.from_ids(pid, mid)
    return Table(7, 1, (Seat("Alice", user_id=1), Seat("Computer", level="expert")), match)


def test_the_picture_knows_which_dice_can_still_be_played() -> None:
    # Issue 15.14 (render) wired here: 5-3 where only the 3 can be played (8/5; the 5 lands
    # on held points from 8 and 24, and no checker may bear off while 24 is out), whatever die
    # the player asked for.
    from bot.service.present import UiState, board_view

    table = _practice({"p8": 1, "p24": 1, "o3": -2, "o19": -2, "o21": -2}, (5, 3))
    assert table.game.partial.playable_dice() == [3]
    view = board_view(table, 0, "en", UiState(die=5), mirrored=False)
    assert view.playable_dice == (3,) and view.selected_die == 3
    # A double: its value as often as checkers can still move with it.
    doubles = _practice({"p8": 1, "p24": 1, "o2": -2}, (2, 2))
    view = board_view(doubles, 0, "en", UiState(), mirrored=False)
    assert view.playable_dice == (2, 2, 2, 2) and view.selected_die == 2
    # The computer's dice are never "chosen" by the person looking.
    assert board_view(doubles, 1, "en", UiState(), mirrored=False).selected_die is None


def test_a_die_playable_once_the_checker_entered_is_not_faded() -> None:
    # 6-3 with a checker on the bar: it enters with the 3 only, then the 6 moves (bar/16,
    # bar/22 13/7): the 6 was drawn faded and "to play: 3" left it out.
    from bot.service.present import UiState, board_view
    from engine import MatchKey, encode_match_id

    mid = encode_match_id(MatchKey(dice=(6, 3)))
    match = Match.from_ids("w87gAyDg8+ABSA", mid)
    table = Table(7, 1, (Seat("Alice", user_id=1), Seat("Computer", level="expert")), match)
    assert table.game.partial.playable_dice() == [3]  # the first step: the 3 only
    view = board_view(table, table.game.turn or 0, "en", UiState(), mirrored=False)
    assert view.playable_dice == (6, 3) and view.selected_die == 3


def test_the_resign_menu_shows_no_chosen_die() -> None:
    # After /undo all picked the 1 again, /resign's board said "die chosen: 4" (a default).
    from bot.service.present import UiState, board_view

    table = _practice({"p8": 2, "p13": 2, "o19": -2}, (4, 1))
    assert board_view(table, 0, "en", UiState(die=1), mirrored=False).selected_die == 1
    menu = board_view(table, 0, "en", UiState(resign_menu=True), mirrored=False)
    assert menu.selected_die is None and not menu.highlights


def test_the_red_and_black_theme_gives_the_player_red() -> None:
    from bot.service.present import UiState, board_view

    table = _practice({"p8": 1, "p24": 1, "o2": -2}, (2, 1))
    for viewer in (0, 1):
        view = board_view(table, viewer, "en", UiState(), mirrored=False, theme="redblack")
        mine = view.colors[0] if viewer == table.game.on_roll else view.colors[1]
        assert mine == "red" and set(view.colors) == {"red", "black"}
    classic = board_view(table, 0, "en", UiState(), mirrored=False)
    assert classic.colors == ("white", "black")


def test_a_roll_is_written_high_first(service: Service, script: deque[int]) -> None:
    # Opening roll: Alice 2, the computer 5, so the computer plays 2-5, written 5-2 (issue 15.14).
    script.extend([2, 5])
    started = service.play(ALICE, DM, level="beginner")
    assert "rolled 5-2 and played" in started.text and "2-5" not in started.text
    script.extend([1, 4])
    rolled = conftest.press(service, ALICE, started, "Roll", DM)
    assert "rolls 4-1" in rolled.text and "rolled 4-1:" in rolled.text


@pytest.mark.parametrize(
    ("lang", "start", "so_far"),
    [
        ("en", "-# At the start of this turn: Position ID `", "Position ID so far: "),
        ("fr", "-# Au début de ce tour : Position ID `", "Position ID du coup en cours : "),
    ],
)
def test_in_the_middle_of_a_move_each_position_id_says_which_it_is(
    lang: str, start: str, so_far: str
) -> None:
    """The message's IDs are the turn's start (the dice in its Match ID), the text board's the
    checkers moved so far: both were written ``Position ID``, one reply giving two of them.
    Out of a move the text board gives none: it would repeat the message's, just above."""
    table = Table(7, 3, (Seat("Ann", user_id=1), Seat("Bob", user_id=2)), Match(length=3))
    table.match.game.opening_roll(6, 1)
    before = board_reply(table, lang, Notes(), with_image=False)
    ids = before.text.splitlines()[-1]
    assert ids.startswith(f"-# Position ID `{before.position_id}`"), ids
    assert before.board_text and before.board_text.startswith(" +13-14-15-")
    assert "Position ID" not in before.board_text
    table.game.step(8, 6)  # one checker moved, the 1 still to play
    moving = board_reply(table, lang, Notes(), with_image=False)
    ids = moving.text.splitlines()[-1]
    assert ids.startswith(f"{start}{before.position_id}`"), ids  # the turn's start
    assert moving.position_id != before.position_id  # the --json field: the position drawn
    assert moving.board_text and moving.board_text.splitlines()[0] == so_far + str(
        moving.position_id
    )
    table.game.step(6, 1)  # the move complete, not confirmed: still in the middle of it
    complete = board_reply(table, lang, Notes(), with_image=False)
    assert complete.text.splitlines()[-1].startswith(start)
    assert complete.board_text and complete.board_text.startswith(so_far)
    table.game.confirm()
    after = board_reply(table, lang, Notes(), with_image=False)
    assert after.text.splitlines()[-1].startswith(f"-# Position ID `{after.position_id}`")
    assert after.board_text and "Position ID" not in after.board_text


def test_the_double_offer_names_the_player_to_take_or_drop() -> None:
    # Bob (on roll after Alice's opening 3-1) doubles: the picture and the text board are
    # Alice's, whose decision it is; her strip (not Bob's, "to play") is the one marked, in
    # each language.
    from bot.service.model import UiState
    from bot.service.present import board_view, text_picture
    from engine import Phase

    table = Table(7, 1, (Seat("Alice", user_id=1), Seat("Bob", user_id=2)), Match(length=5))
    game = table.match.game
    game.opening_roll(3, 1)
    game.play_text("8/5 6/5")
    game.double()
    assert game.phase is Phase.DOUBLED and game.on_roll == 1 and game.turn == 0
    view = board_view(table, 0, "en", UiState(), mirrored=False)
    assert view.decision() == ("opponent", "to_take") and view.bottom_side == "opponent"
    for lang, words in (
        ("en", "X: Alice (to take or drop)"),
        ("fr", "X : Alice (accepte ou refuse)"),
    ):
        text = text_picture(table, lang)
        assert words in text, text
        assert "Bob (" not in text

"""The game message as the service describes it, on its own."""

from __future__ import annotations

from bot.service.present import Notes, Seat, Table, board_reply
from engine import Match


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

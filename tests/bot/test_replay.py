"""``/replay``: a whole game as an animated GIF, one frame per action of the move log, each
frame the moment of the same row of ``/export``'s IDs file."""

from __future__ import annotations

import io
from collections import deque

import pytest
from PIL import Image, ImageSequence

from bot.service import Actor, Service
from bot.service import replays as replays_module
from bot.service.replays import replay_boards
from db import games as game_repo
from db import stats as stats_repo
from engine import Position
from render import BoardView
from render.animation import animate_boards
from tests.bot.conftest import ALICE, BOB, DM, play_out


def _finished_game(service: Service, script: deque[int]) -> int:
    """Alice plays a 1-point match against the beginner to its end: its game number."""
    script.extend((6, 1))  # Alice opens
    play_out(service, ALICE, DM, service.play(ALICE, DM, level="beginner", points=1))
    with service.factory() as s:
        return stats_repo.game_history(s, ALICE.id, limit=1)[0].id


def test_a_finished_game_is_one_frame_per_action(service: Service, script: deque[int]) -> None:
    game_id = _finished_game(service, script)
    reply = service.replay(ALICE, DM, game_id)
    assert not reply.ephemeral and reply.image is not None
    assert reply.image_name == f"game-{game_id}-replay.gif"
    with service.factory() as s:
        events = game_repo.game_events(s, game_id)
    gif = Image.open(io.BytesIO(reply.image))
    assert gif.format == "GIF"
    assert gif.n_frames == len(events)  # type: ignore[attr-defined]
    assert f"{len(events)} actions" in reply.text and f"#{game_id}" in reply.text
    durations = [frame.info["duration"] for frame in ImageSequence.Iterator(gif)]
    assert durations[-1] > durations[0]  # the end stays on screen longer


def test_each_frame_is_the_moment_of_its_row(service: Service, script: deque[int]) -> None:
    game_id = _finished_game(service, script)
    with service.factory() as s:
        events = game_repo.game_events(s, game_id)
    boards = replay_boards(events, ("Alice", "Computer"), "en", "classic")
    assert [p.position_id() for p, _ in boards] == [e.position_id for e in events]
    captions = [view.caption[0] for _, view in boards]
    assert captions[0].startswith("0. Opening roll: Alice 6, Computer 1")
    moves = [(e, view) for e, (_, view) in zip(events, boards, strict=True) if e.kind == "move"]
    played = [(e, view) for e, view in moves if e.play]
    assert played and all(view.last_play is not None for _, view in played)  # as arrows
    assert all(e.play in view.caption[0] for e, view in played)
    # Seat 0 (Alice) sits at the bottom of every frame, whoever is on roll.
    for event, (_, view) in zip(events, boards, strict=True):
        bottom = view.names[0] if view.viewpoint == "mover" else view.names[1]
        assert bottom == "Alice", (event.seq, view.viewpoint, view.names)


def test_french_captions(service: Service, script: deque[int]) -> None:
    game_id = _finished_game(service, script)
    with service.factory() as s:
        events = game_repo.game_events(s, game_id)
    boards = replay_boards(events, ("Alice", "Ordi_nateur"), "fr", "classic")
    captions = [view.caption[0] for _, view in boards]
    assert captions[0] == "0. Lancer d’ouverture : Alice 6, Ordi_nateur 1 ; Alice commence"
    assert any(" joue " in c for c in captions)
    assert "\\" not in "".join(captions)  # names drawn as written, not escaped for markdown


def test_another_persons_game_in_progress_is_refused(service: Service, script: deque[int]) -> None:
    script.extend((6, 1))
    service.play(ALICE, DM, level="beginner", points=1)
    reply = service.replay(BOB, DM, 1)
    assert reply.ephemeral and reply.image is None
    mine = service.replay(ALICE, DM)  # his own game in progress: the actions so far
    assert mine.image is not None and not mine.ephemeral


def test_nothing_to_replay_and_unknown_games(service: Service) -> None:
    newcomer = Actor(909, "Newcomer", locale="fr")
    assert service.replay(newcomer, DM).text == "Vous n’avez pas encore de partie à rejouer."
    for wrong in (999, 2**31, -1):
        reply = service.replay(ALICE, DM, wrong)
        assert reply.ephemeral and reply.image is None


def test_a_game_too_long_for_one_picture_is_refused(
    service: Service, script: deque[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = _finished_game(service, script)
    monkeypatch.setattr(replays_module, "MAX_FRAMES", 5)
    reply = service.replay(ALICE, DM, game_id)
    assert reply.ephemeral and reply.image is None and "/export" in reply.text


def test_a_picture_over_the_limit_is_made_smaller_or_refused() -> None:
    boards = [
        (Position.initial(), BoardView(dice=d, caption=(f"rolls {d}",)))
        for d in ((3, 1), (6, 5), (4, 4))
    ]
    full = animate_boards(boards)
    assert full is not None
    smaller = animate_boards(boards, max_bytes=len(full) - 1)
    assert smaller is not None and len(smaller) < len(full)
    assert Image.open(io.BytesIO(smaller)).width < Image.open(io.BytesIO(full)).width
    assert animate_boards(boards, max_bytes=1000) is None


def test_a_hypergammon_game_replays_with_its_three_checkers(
    service: Service, script: deque[int]
) -> None:
    script.extend((6, 1))
    start = service.play(ALICE, DM, level="beginner", variant="hypergammon")
    play_out(service, ALICE, DM, start)
    with service.factory() as s:
        game_id = stats_repo.game_history(s, ALICE.id, limit=1)[0].id
        events = game_repo.game_events(s, game_id)
    boards = replay_boards(events, ("Alice", "Computer"), "en", "classic", checkers=3)
    for position, _ in boards:  # 3 a side in all: none counted off that never was (15 - 3)
        sides, off = position.sides(), position.borne_off()
        assert [sum(sides[0]) + off[0], sum(sides[1]) + off[1]] == [3, 3]
        assert off[0] < 3 or off[1] < 3
    assert service.replay(ALICE, DM, game_id).image is not None
    # The web board's replay reads the same IDs with the same count.
    for at in (0, 1, len(events)):
        state = service.web_state(game_id, ALICE.id, "en", at=at)
        assert sum(state["mine"]) + state["off"][0] == 3, at
        assert sum(state["theirs"]) + state["off"][1] == 3, at

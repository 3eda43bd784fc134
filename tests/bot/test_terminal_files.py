"""Nothing the terminal writes is ever overwritten (issue 15.3): board pictures go on being
numbered after a restart, and each game's review and export files carry the game's number."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from bot.service import Service
from bot.terminal import Terminal
from tests.bot.test_terminal import choose

# The player on roll has borne off a checker, no contact: a game of some 15 presses (a whole
# game from the opening takes about 80, each drawing its board), with plays made by themselves.
# The tests of numbering play it; the export's .mat file needs a game from the opening.
SHORT = "position:d3cHAADbtg0AAA"

# The reviews here are checked for the files they write, which hold at any depth.
pytestmark = pytest.mark.usefixtures("quick_reviews")


def _session(
    service: Service, images: Path, lines: list[str], start: str = ""
) -> list[dict[str, Any]]:
    """A new terminal (as after a restart: a fresh process, its counters at zero) on the same
    database and pictures folder; it plays a game to the end (from the opening, or from the
    ``start`` option given), then runs ``lines``."""
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=images, user="Ann")
    term.handle(f"/play level:beginner points:1 cube:false {start}".rstrip())
    for _ in range(400):
        last = json.loads(out.getvalue().splitlines()[-1])
        if "Rematch" in last["buttons"]:
            break
        plays = list(last.get("plays", []))
        term.handle(choose(last["buttons"], plays))
    else:
        raise AssertionError("the game did not end")
    for line in lines:
        term.handle(line)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _written(replies: list[dict[str, Any]]) -> list[str]:
    paths = [r["image"] for r in replies if r.get("image")]
    return paths + [f for r in replies for f in r.get("files", [])]


def test_two_sessions_overwrite_nothing(service: Service, tmp_path: Path) -> None:
    images = tmp_path / "boards"
    first = _session(service, images, ["/review", "/export"])
    first_files = {p: Path(p).read_bytes() for p in _written(first)}
    second = _session(service, images, ["/review", "/export", "/export"])
    paths = _written(first) + _written(second)
    assert len(paths) == len(set(paths)), "a file name was used twice"
    # Everything the first session wrote is still there, unchanged.
    assert all(Path(p).read_bytes() == data for p, data in first_files.items())
    assert len(list(images.iterdir())) == len(paths)
    # Each game's review pictures are named after it.
    reviews = [r for r in first + second if "Review of game" in r.get("text", "")]
    assert len(reviews) == 2
    names = [Path(p).name for r in reviews for p in [r["image"], *r.get("files", [])]]
    assert all(n.startswith("game-") for n in names) and len(set(names)) == len(names)


def _number(path: str) -> int:
    return int(Path(path).stem.rsplit("-", 1)[1])


def test_board_numbers_go_on_after_a_restart(service: Service, tmp_path: Path) -> None:
    images = tmp_path / "boards"
    first = _session(service, images, [], SHORT)
    second = _session(service, images, [], SHORT)  # a new game, a new process: numbers go on
    before = [_number(r["image"]) for r in first if r.get("image")]
    after = [_number(r["image"]) for r in second if r.get("image")]
    assert before[0] == 1 and after[0] == max(before) + 1, (before, after)
    assert after == sorted(after)


def test_pictures_of_plays_made_for_you_name_their_game(service: Service, tmp_path: Path) -> None:
    replies = _session(service, tmp_path / "boards", [], SHORT)
    plays = [Path(f).name for r in replies for f in r.get("files", []) if "play-" in f]
    assert plays, "no picture of a play made by itself"
    assert all(name.startswith("game-1-play-") for name in plays), plays


def test_a_replay_is_written_as_a_gif_in_the_numbering(service: Service, tmp_path: Path) -> None:
    images = tmp_path / "boards"
    replies = _session(service, images, ["/replay", "/replay"], SHORT)
    replay, again = replies[-2], replies[-1]
    gif = Path(replay["image"])
    assert gif.suffix == ".gif" and gif.read_bytes()[:6] == b"GIF89a"
    assert "replay" in gif.name
    # Numbered with the boards: the next one takes the number after it, never its name.
    assert _number(again["image"]) == _number(replay["image"]) + 1

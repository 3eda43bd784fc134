"""Jellyfish ``.mat`` match files, as GNU Backgammon exports and imports them.

The layout follows GNU Backgammon's ``ExportGameJF``: player 0 in the left column, player 1 in the
right one, one numbered line per pair of actions, plays written step by step (``25/22 13/7*``,
``6/0`` for a checker borne off) so that the importer needs no guessing.

>>> from engine.match import Match
>>> m = Match(length=1)
>>> m.game.opening_roll(3, 1); _ = m.game.play_text("8/5 6/5")
>>> m.game.resign(1); m.game.accept_resignation()
>>> print(write_mat(m, ("Alice", "Bob")))  # doctest: +NORMALIZE_WHITESPACE
 1 point match
<BLANKLINE>
 Game 1
 Alice : 0                       Bob : 0
  1) 31: 8/5 6/5
       Wins 1 point
<BLANKLINE>
>>> replayed = read_mat(write_mat(m, ("Alice", "Bob")))
>>> replayed.match.score, replayed.names
((1, 0), ('Alice', 'Bob'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import BackgammonError
from engine.game import Event, EventKind, Game, Phase
from engine.match import Match

__all__ = ["MatFile", "MatFileError", "read_mat", "write_mat"]

_LEFT_WIDTH = 27  # "%3d) %-27s " as in GNU Backgammon


class MatFileError(BackgammonError):
    """A .mat file that cannot be read or replayed."""

    code = "matfile.invalid"


def _clean_name(name: str, default: str) -> str:
    # The importer splits the score line on ':', and reads names up to 31 characters.
    name = re.sub(r"\s+", " ", name.replace(":", " ")).strip()
    return (name or default)[:31]


def _plural(points: int) -> str:
    return f"Wins {points} point{'s' if points > 1 else ''}"


def _move_text(event: Event) -> str:
    assert event.dice is not None
    d1, d2 = event.dice
    steps = sorted(event.steps, key=lambda s: (-s[0], -s[1]))
    return f"{d1}{d2}: " + " ".join(f"{s}/{t}{'*' if hit else ''}" for s, t, _, hit in steps)


def _slots(game: Game) -> list[tuple[int, str]]:
    """(player, text) of each action that the file shows, in order."""
    out: list[tuple[int, str]] = []
    for event in game.events:
        if event.kind is EventKind.MOVE:
            out.append((event.player, _move_text(event)))
        elif event.kind is EventKind.DOUBLE:
            out.append((event.player, f" Doubles => {event.value}"))
        elif event.kind is EventKind.TAKE:
            out.append((event.player, " Takes"))
        elif event.kind is EventKind.DROP:
            out.append((event.player, " Drops"))
    return out


def _write_game(game: Game, number: int, names: tuple[str, str]) -> str:
    score = f"{names[0]} : {game.score[0]}"
    lines = [f" Game {number}", f" {score:<31}{names[1]} : {game.score[1]}"]
    row = 0
    line = ""
    column = 0
    for player, text in _slots(game):
        if player != column:  # the other side has nothing to show here
            line, row, column = _put(lines, line, row, column, "")
        line, row, column = _put(lines, line, row, column, text)
    if line:
        lines.append(line.rstrip())
    result = game.result
    if result is not None:
        wins = _plural(result.points)
        lines.append(("      " if result.winner == 0 else " " * 34) + wins)
    return "\n".join(lines) + "\n"


def _put(lines: list[str], line: str, row: int, column: int, text: str) -> tuple[str, int, int]:
    if column == 0:
        row += 1
        return f"{row:3d}) {text:<{_LEFT_WIDTH}} ", row, 1
    lines.append((line + text).rstrip())
    return "", row, 0


def write_mat(match: Match, names: tuple[str, str] = ("Player 1", "Player 2")) -> str:
    """The Jellyfish ``.mat`` text of ``match`` (every game, finished or not).

    A money game is written as a 0-point match, as GNU Backgammon does.
    """
    clean = (_clean_name(names[0], "Player 1"), _clean_name(names[1], "Player 2"))
    parts = [f" {match.length} point match\n"]
    for i, game in enumerate(match.games, 1):
        parts.append(_write_game(game, i, clean))
    return "\n".join(parts)


# -- reading (what GNU Backgammon's ImportMat does, replayed with our engine) -------------------


@dataclass
class MatFile:
    """A match read from a .mat file and replayed by the engine."""

    match: Match
    names: tuple[str, str]


_HEADER = re.compile(r"^\s*(\d+)\s+point\s+match", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(.+?)\s*:\s*(\d+)\s+(.+?)\s*:\s*(\d+)\s*$")
_ROLL = re.compile(r"^([1-6])([1-6]):(.*)$")


def _split(line: str) -> tuple[str, str | None]:
    """Left and right parts of a move line, the way GNU Backgammon's importer splits it."""
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    if first >= 0 and second > 3:
        left, right = line[: second - 3], line[second - 2 :]
    elif len(line) > 15 and "  " in line[15:]:
        cut = line.index("  ", 15)
        left, right = line[:cut], line[cut + 1 :]
    else:
        left, right = line, None
    paren = left.find(")")
    return (left[paren + 1 :] if paren >= 0 else left), right


def read_mat(text: str) -> MatFile:
    """Replay a .mat file with the engine (every play checked by :func:`engine.parse_play`).

    Dice of the opening roll are taken from the first play, as the format records no more.

    :raises MatFileError: when the file is not a .mat file or holds an illegal action.
    """
    lines = [ln.rstrip("\r\n") for ln in text.splitlines()]
    header = next((m for ln in lines if (m := _HEADER.match(ln))), None)
    if header is None:
        raise MatFileError("not a .mat file: no 'N point match' line")
    match = Match(length=int(header.group(1)))
    names = ("Player 1", "Player 2")
    first_game = True
    for index, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith((";", "#")) or _HEADER.match(line):
            continue
        if _GAME.match(line):
            if not first_game:
                if match.is_over:
                    break
                match.next_game()
            first_game = False
            continue
        score = _SCORE.match(line)
        if score and ")" not in line:
            names = (score.group(1), score.group(3))
            expected = (int(score.group(2)), int(score.group(4)))
            if expected != match.game.score:
                raise MatFileError(
                    f"line {index + 1}: score {expected} but the replay has {match.game.score}"
                )
            continue
        left, right = _split(line)
        try:
            _action(match.game, 0, left)
            if right is not None:
                _action(match.game, 1, right)
        except (BackgammonError, ValueError) as exc:
            raise MatFileError(f"line {index + 1}: {exc}") from None
    return MatFile(match, names)


def _action(game: Game, player: int, text: str) -> None:
    text = text.strip()
    if not text:
        return
    roll = _ROLL.match(text)
    if roll:
        dice = (int(roll.group(1)), int(roll.group(2)))
        if game.phase is Phase.OPENING:
            hi, lo = max(dice), min(dice)
            game.opening_roll(*((hi, lo) if player == 0 else (lo, hi)))
        else:
            if game.on_roll != player:
                raise MatFileError(f"player {player + 1} rolls out of turn")
            game.roll(dice)
        if game.phase is Phase.MOVE:
            game.play_text(roll.group(3))
        return
    word = text.lower()
    if word.startswith("double"):
        game.double()
    elif word.startswith("take"):
        game.take()
    elif word.startswith("drop"):
        game.drop()
    elif word.startswith("win") and not game.is_over:
        points = int(re.sub(r"\D.*", "", word[4:].strip()) or "1")
        value = 1 if points <= game.cube_value else 2 if points <= 2 * game.cube_value else 3
        game.resign(1 - player, value)
        game.accept_resignation()
    elif not word.startswith(("win", "resign")):
        raise MatFileError(f"cannot read {text!r}")

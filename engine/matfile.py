"""Jellyfish ``.mat`` match files, as GNU Backgammon exports and imports them.

The layout follows GNU Backgammon's ``ExportGameJF``: player 0 in the left column, player 1 in the
right one, one numbered line per pair of actions, rolls with the larger die first, plays written
step by step (``25/22 13/7*``, ``6/0`` for a checker borne off) so that the importer needs no
guessing, a roll not played (the roller resigned) as the dice alone (``41:``), and the result
where gnubg puts it. tests/test_gnubg_mat.py checks both directions against gnubg 1.07.

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
from engine.variant import UnknownVariantError, Variant

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


def _roll_text(dice: tuple[int, int]) -> str:
    return f"{max(dice)}{min(dice)}: "  # the larger die first, as gnubg records rolls


def _move_text(event: Event) -> str:
    assert event.dice is not None
    steps = sorted(event.steps, key=lambda s: (-s[0], -s[1]))
    moves = " ".join(f"{s}/{t}{'*' if hit else ''}" for s, t, _, hit in steps)
    return _roll_text(event.dice) + moves


def _slots(game: Game) -> list[tuple[int, str]]:
    """(player, text) of each action that the file shows, in order.

    A roll that was not played (the roller resigned, or the game stops there) is written as the
    dice alone (``41:``), as GNU Backgammon exports it: without it a game given up right after the
    opening roll would have no line at all, and gnubg's importer rejects such a game.
    """
    out: list[tuple[int, str]] = []
    pending: tuple[int, tuple[int, int]] | None = None
    for event in game.events:
        if event.kind is EventKind.ROLL or (event.kind is EventKind.OPENING and event.player != -1):
            assert event.dice is not None
            pending = (event.player, event.dice)
        if event.kind is EventKind.MOVE:
            pending = None
            out.append((event.player, _move_text(event)))
        elif event.kind is EventKind.DOUBLE:
            out.append((event.player, f" Doubles => {event.value}"))
        elif event.kind is EventKind.TAKE:
            out.append((event.player, " Takes"))
        elif event.kind is EventKind.DROP:
            out.append((event.player, " Drops"))
    if pending is not None:
        out.append((pending[0], _roll_text(pending[1])))
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
    result = game.result
    wins = None if result is None else (result.winner, _plural(result.points))
    if wins is not None and wins[0] == 1 and line:
        # Player 1 wins after an action in the left column: "Wins" fills the right column of
        # that line, as gnubg writes it ("  3)  Drops    Wins 1 point"). On a line of its own
        # after a left-column drop, gnubg's importer takes the drop for a resignation.
        line, row, column = _put(lines, line, row, column, " " + wins[1])
        wins = None
    if line:
        lines.append(line.rstrip())
    if wins is not None:
        lines.append(("      " if wins[0] == 0 else " " * 34) + wins[1])
    return "\n".join(lines) + "\n"


def _put(lines: list[str], line: str, row: int, column: int, text: str) -> tuple[str, int, int]:
    if column == 0:
        row += 1
        return f"{row:3d}) {text:<{_LEFT_WIDTH}} ", row, 1
    lines.append((line + text).rstrip())
    return "", row, 0


def write_mat(match: Match, names: tuple[str, str] = ("Player 1", "Player 2")) -> str:
    """The Jellyfish ``.mat`` text of ``match`` (every game, finished or not).

    A money game is written as a 0-point match, as GNU Backgammon does. A variant is named in
    the header as GNU Backgammon writes it (``; [Variation "NackGammon"]``), which its importer
    reads to set up the games.

    >>> write_mat(Match(length=3, variant=Variant.HYPERGAMMON)).splitlines()[:3]
    ['; [Variation "HyperGammon (3)"]', '', ' 3 point match']
    """
    clean = (_clean_name(names[0], "Player 1"), _clean_name(names[1], "Player 2"))
    parts = [f" {match.length} point match\n"]
    if match.variant.mat_name is not None:
        parts[0] = f'; [Variation "{match.variant.mat_name}"]\n\n' + parts[0]
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
_VARIATION = re.compile(r'^\s*;\s*\[Variation\s+"([^"]*)"\]', re.IGNORECASE)


def _variant(lines: list[str]) -> Variant:
    """The variant a header line names (the standard game without one)."""
    named = next((m.group(1) for ln in lines if (m := _VARIATION.match(ln))), None)
    if named is None:
        return Variant.STANDARD
    try:
        return Variant.from_mat_name(named)
    except UnknownVariantError as exc:
        raise MatFileError(str(exc), code="matfile.variation", name=named) from None


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
    match = Match(length=int(header.group(1)), variant=_variant(lines))
    names = ("Player 1", "Player 2")
    first_game = True
    score_next = False  # GNU Backgammon reads the line after "Game N" as the score line
    for index, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith((";", "#")) or _HEADER.match(line):
            continue
        if _GAME.match(line):
            if not first_game:
                if match.is_over:
                    break
                match.next_game()
            first_game = False
            score_next = True
            continue
        score = _SCORE.match(line) if score_next else None
        score_next = False
        if score:
            names = (score.group(1), score.group(3))
            expected = (int(score.group(2)), int(score.group(4)))
            if expected != match.game.score:
                raise MatFileError(
                    f"line {index + 1}: score {expected} but the replay has {match.game.score}"
                )
            continue
        _play_line(match.game, index, line)
    return MatFile(match, names)


def _play_line(game: Game, index: int, line: str) -> None:
    """Replay the actions of a move line (the first player's, then the second's)."""
    left, right = _split(line)
    try:
        _action(game, 0, left)
        if right is not None:
            _action(game, 1, right)
    except (BackgammonError, ValueError) as exc:
        raise MatFileError(f"line {index + 1}: {exc}") from None


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
        if game.phase is Phase.MOVE and roll.group(3).strip():
            game.play_text(roll.group(3))
        # Dice alone with a legal play left to make: the roll was not played (a resignation
        # follows, or the file stops there), as GNU Backgammon writes it.
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

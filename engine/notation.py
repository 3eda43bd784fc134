"""Standard backgammon notation: writing plays (``"13/7*/5 6/5"``) and reading what players type.

Points are numbered from the mover's view; ``bar`` is 25 and ``off`` is 0. Writing follows GNU
Backgammon's ``FormatMove``: steps sorted from the highest point, a checker's consecutive steps
joined (the intermediate point is shown only when it hits), identical steps counted as ``(2)``.

>>> from engine.position import Position
>>> from engine.movegen import legal_plays
>>> str(parse_play("24/18 13/11", Position.initial(), (6, 2)))
'24/18 13/11'
>>> str(parse_play("13-11, 24/18*", Position.initial(), (2, 6)))
'24/18 13/11'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from engine.errors import AmbiguousPlayError, IllegalPlayError, PlaySyntaxError
from engine.movegen import Dice, Play, legal_plays, validate_dice
from engine.position import BAR, OFF, Position
from engine.refusals import why_illegal
from engine.writing import format_moves, format_point

__all__ = ["format_play", "format_point", "parse_play", "parse_segments"]


def format_play(play: Play) -> str:
    """Standard notation of ``play`` (what ``str(play)`` returns).

    >>> from engine.movegen import Move
    >>> format_play(Play([Move(8, 5, 3), Move(8, 5, 3), Move(6, 3, 3), Move(6, 3, 3)]))
    '8/5(2) 6/3(2)'
    >>> format_play(Play([Move(13, 7, 6, True), Move(7, 5, 2)]))
    '13/7*/5'
    """
    return format_moves(play.moves)


# -- reading --------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<num>\d+)
      | (?P<bar>bar|b|barre)\b
      | (?P<off>off|o|dehors|out)\b
      | (?P<slash>[/\-])
      | (?P<star>\*)
      | (?P<count>\(\s*(?P<n>\d+)\s*\)|[x×]\s*(?P<n2>\d+))
      | (?P<sep>[,;])
    )""",
    re.VERBOSE | re.IGNORECASE,
)


@dataclass(frozen=True)
class Segment:
    """One written checker journey: its points in order, the points marked ``*``, its count."""

    points: tuple[int, ...]
    hits: frozenset[int]
    count: int = 1


def parse_segments(text: str) -> list[Segment]:
    """Read notation into segments, without looking at any position.

    >>> parse_segments("bar/22* 8/5(2)")  # doctest: +NORMALIZE_WHITESPACE
    [Segment(points=(25, 22), hits=frozenset({22}), count=1),
     Segment(points=(8, 5), hits=frozenset(), count=2)]

    :raises PlaySyntaxError: when the text is not notation, with what is wrong and where.
    """
    _check_text(text)
    segments = _SegmentReader(_hint_play(text)).read()
    for seg in segments:
        _check_segment(seg)
    # Every written step uses at least one die, and no roll gives more than four.
    if sum(s.count * (len(s.points) - 1) for s in segments) > 4:
        raise PlaySyntaxError(
            "that is more moves than any roll allows (four at most)", code="syntax.too_many"
        )
    return segments


def _check_text(text: object) -> None:
    """Refuse what cannot be notation at all: not text, far too long, or empty."""
    if not isinstance(text, str):
        raise PlaySyntaxError(
            f"a play is text like '24/18 13/11', not {type(text).__name__}", code="syntax.type"
        )
    if len(text) > 200:
        raise PlaySyntaxError("that play is too long to be backgammon notation", code="syntax.long")
    if not text.strip():
        raise PlaySyntaxError("the play is empty: write it like '24/18 13/11'", code="syntax.empty")


def _word_at(text: str, pos: int, longest: int = 24) -> str:
    """The word, as typed, that holds ``text[pos]`` (its whitespace-separated piece), or the
    next word when ``text[pos]`` is a space, cut to ``longest`` characters: what a refusal
    quotes, never a piece of two words.

    >>> _word_at("1. bar/20", 1)
    '1.'
    >>> _word_at("13/7 extra", 4)  # the reader stops at the space before what it cannot read
    'extra'
    """
    start = pos
    while start < len(text) - 1 and text[start].isspace():
        start += 1
    while start and not text[start - 1].isspace():
        start -= 1
    end = start
    while end < len(text) and not text[end].isspace():
        end += 1
    word = text[start:end]
    return word if len(word) <= longest else word[: longest - 1] + "…"


_HINT_NUMBER = re.compile(r"^\s*\d+\.\s+")  # "2. " before a play copied from a hint
# " -0.122 (-0.060) · 45.7 %" after it, or in French " -0,122 (-0,060) · 45,7 %"
_HINT_TAIL = re.compile(r"\s+[+-]?\d*[.,]\d{2,}(?:\s.*)?$")  # an equity: 3 decimals


def _hint_play(text: str) -> str:
    """The play in a line copied whole from a hint (its number and equities dropped); other
    text as it is.

    >>> _hint_play("2. 13/7 9/7 -0.166 (-0.060) · 45.7 %")
    '13/7 9/7'
    >>> _hint_play("1. 24/21 13/11 +0,007 · 50,1 %")  # a French hint
    '24/21 13/11'
    """
    return _HINT_TAIL.sub("", _HINT_NUMBER.sub("", text, count=1), count=1)


class _SegmentReader:
    """Notation read token by token: the segments written so far, the points and hits of the
    one being written, and whether a point must come next (after '/' or at a segment's start)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.segments: list[Segment] = []
        self.points: list[int] = []
        self.hits: set[int] = set()
        self.expect_point = True

    def read(self) -> list[Segment]:
        text, pos = self.text, 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                if not text[pos:].strip():
                    break
                word = _word_at(text, pos)
                raise PlaySyntaxError(
                    f"cannot read {word!r} in {text!r}: write plays like '24/18 13/11', "
                    "'bar/22*', '6/off' or '8/5(2)'",
                    code="syntax.unreadable",
                    rest=word,
                )
            pos = m.end()
            self._token(m)
        if self.points and self.expect_point:
            raise PlaySyntaxError(
                f"{text!r} ends with '/': a destination is missing", code="syntax.trailing_slash"
            )
        self._close()
        return self.segments

    def _token(self, m: re.Match[str]) -> None:
        kind = m.lastgroup
        if kind in ("num", "bar", "off"):
            self._point(_point_value(m))
        elif kind == "slash":
            if not self.points or self.expect_point:
                raise self._slash_error()
            self.expect_point = True
        elif kind == "star":
            if not self.points or self.expect_point or len(self.points) < 2:
                raise PlaySyntaxError(
                    "'*' marks a hit after a destination, as in '13/7*'", code="syntax.star"
                )
            self.hits.add(self.points[-1])
        elif kind == "count":
            self._count(int(m.group("n") or m.group("n2")))
        else:  # separator
            if self.expect_point and self.points:
                raise self._slash_error()
            self._close()
            self.expect_point = True

    def _point(self, value: int) -> None:
        if not self.expect_point:
            self._close()
        self.points.append(value)
        self.expect_point = False

    def _count(self, n: int) -> None:
        if self.expect_point or len(self.points) < 2:
            raise PlaySyntaxError(
                "a count like '(2)' follows a move, as in '8/5(2)'", code="syntax.count"
            )
        if not 1 <= n <= 4:
            raise PlaySyntaxError(
                f"a checker count of {n} is impossible: at most 4 moves",
                code="syntax.count_range",
                count=n,
            )
        self._close(n)
        self.expect_point = True

    def _close(self, count: int = 1) -> None:
        """End the segment being written (``count`` checkers making it)."""
        if len(self.points) == 1:
            start = format_point(self.points[0])
            raise PlaySyntaxError(
                f"{start!r} needs a destination, like '{start}/…'",
                code="syntax.no_destination",
                start=start,
            )
        if self.points:
            self.segments.append(Segment(tuple(self.points), frozenset(self.hits), count))
        self.points, self.hits = [], set()

    def _slash_error(self) -> PlaySyntaxError:
        return PlaySyntaxError(
            f"a '/' needs a point on each side in {self.text!r}", code="syntax.slash"
        )


def _point_value(m: re.Match[str]) -> int:
    """The point a number, ``bar`` or ``off`` token names (refused past 25)."""
    if m.lastgroup != "num":
        return BAR if m.lastgroup == "bar" else OFF
    value = int(m.group("num"))
    if value > 25:
        raise PlaySyntaxError(
            f"there is no point {value}: points run from 1 to 24",
            code="syntax.no_point",
            point=value,
        )
    return value


def _check_segment(seg: Segment) -> None:
    text = "/".join(format_point(p) for p in seg.points)
    if seg.points[0] == OFF:
        raise PlaySyntaxError(
            f"{text}: a checker borne off cannot move again", code="syntax.from_off", move=text
        )
    for a, b in zip(seg.points, seg.points[1:], strict=False):
        if b == BAR:
            raise PlaySyntaxError(
                f"{text}: a checker cannot move onto the bar", code="syntax.to_bar", move=text
            )
        if a == OFF:
            raise PlaySyntaxError(
                f"{text}: 'off' can only end a move", code="syntax.off_middle", move=text
            )
        if b >= a:
            raise PlaySyntaxError(
                f"{text}: checkers move from higher to lower points (your 24 toward your 1)",
                code="syntax.backwards",
                move=text,
            )


def _flow(moves: list[tuple[int, int]]) -> tuple[int, ...]:
    flow = [0] * 26
    for src, dst in moves:
        flow[src] -= 1
        flow[dst] += 1
    return tuple(flow)


def _written(segments: list[Segment]) -> tuple[list[tuple[int, int]], set[int], set[int]]:
    """The steps written (each count spelt out), the points landed on, the points marked ``*``."""
    steps: list[tuple[int, int]] = []
    landings: set[int] = set()
    marked: set[int] = set()
    for seg in segments:
        for _ in range(seg.count):
            steps.extend(zip(seg.points, seg.points[1:], strict=False))
        landings.update(seg.points[1:])
        marked.update(seg.hits)
    return steps, landings, marked


def _closest(candidates: list[Play], landings: set[int], marked: set[int]) -> list[Play]:
    """The plays of the written net movement that also land and hit where it was written.

    The checkers' net movement decides; what else was written only breaks ties, because one
    play stands for every way of reaching its position (24/18/16 and 24/22/16 are one play
    unless one of them hits) and a stray '*' should not make a good play illegal."""
    preferences: list[Callable[[Play], bool]] = [
        lambda p: landings <= {m.dst for m in p.moves},
        lambda p: marked <= {m.dst for m in p.moves if m.hit},
        lambda p: marked == {m.dst for m in p.moves if m.hit},
    ]
    for prefer in preferences:
        if len(candidates) > 1:
            candidates = [p for p in candidates if prefer(p)] or candidates
    return candidates


def parse_play(text: str, position: Position, dice: Dice) -> Play:
    """The legal play of ``dice`` in ``position`` that ``text`` describes.

    Accepts every usual way of writing it: any order, ``bar`` or ``25``, ``off`` or ``0``,
    ``(2)`` counts, ``*`` optional, one checker's steps combined (``24/16``) or spelt out
    (``24/18/16``, ``24/18 18/16``), commas or spaces between moves.

    >>> str(parse_play("6/3(2) 8/5 x2", Position.initial(), (3, 3)))
    '8/5(2) 6/3(2)'
    >>> parse_play("24/23", Position.initial(), (3, 1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.IllegalPlayError: '24/23' plays only one die, but both dice of 3-1 can be ...

    :raises PlaySyntaxError: when the text is not notation.
    :raises IllegalPlayError: when no legal play matches.
    :raises AmbiguousPlayError: when several legal plays match equally well.
    """
    d1, d2 = validate_dice(dice)
    segments = parse_segments(text)
    by_flow = _plays_by_flow(position, (d1, d2))
    if not by_flow:
        raise IllegalPlayError(
            f"no legal play with {d1}-{d2} in {position.position_id()}: the turn passes",
            code="illegal.no_move",
            dice=f"{d1}-{d2}",
        )
    steps, landings, marked = _written(segments)
    want = _flow(steps)
    candidates = list(by_flow.get(want, ()))
    candidates = _closest(candidates, landings, marked)
    if len(candidates) == 1:
        return candidates[0]
    if candidates:
        raise _ambiguous(text, candidates)
    raise why_illegal(text, steps, position, (d1, d2))


@lru_cache(maxsize=16)
def _plays_by_flow(position: Position, dice: Dice) -> dict[tuple[int, ...], tuple[Play, ...]]:
    """The legal plays of ``dice`` in ``position`` by what they move from where to where (in
    the order :func:`legal_plays` gives them). Kept for the last few positions: the plays of
    one turn are read again and again (each move typed, each play of a list checked)."""
    by_flow: dict[tuple[int, ...], list[Play]] = {}
    for play in legal_plays(position, dice):
        by_flow.setdefault(_flow([(m.src, m.dst) for m in play.moves]), []).append(play)
    return {flow: tuple(plays) for flow, plays in by_flow.items()}


def _ambiguous(text: str, candidates: list[Play]) -> AmbiguousPlayError:
    listed = ", ".join(str(p) for p in candidates)
    return AmbiguousPlayError(
        f"{text!r} could mean {listed}: write the one you mean",
        code="ambiguous",
        text=text,
        candidates=listed,
    )

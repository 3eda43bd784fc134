"""The variants of the game: standard backgammon, nackgammon and hypergammon.

Only the starting position changes; the rules, the cube, matches and the Crawford rule stay:

* **nackgammon** (Nack Ballard's): two checkers on each side's 24- and 23-points, four on the
  13-point, three on the 8-point and four on the 6-point (15 checkers);
* **hypergammon**: three checkers each, one on each of the 24-, 23- and 22-points. A side that
  has borne off none of its three is gammoned, as in the standard game.

The names and starting positions are GNU Backgammon's (``set variation nackgammon``,
``set variation 3-chequer-hypergammon``), and so are the ``.mat`` headers
(:attr:`Variant.mat_name`).

>>> Variant.NACKGAMMON.initial_position().position_id()
'4Dl4ADbgOXgANg'
>>> Variant.HYPERGAMMON.initial_position().position_id()
'AACgAgAAKgAAAA'
>>> Variant.parse("Hyper").checkers
3
"""

from __future__ import annotations

from enum import StrEnum

from engine.errors import BackgammonError
from engine.position import CHECKERS, Position

__all__ = ["UnknownVariantError", "Variant"]


class UnknownVariantError(BackgammonError):
    """A variant name that is none of :class:`Variant`'s."""

    code = "variant.unknown"


def _board(points: dict[int, int]) -> tuple[int, ...]:
    """A symmetric starting board from the mover's counts on his points."""
    cells = [0] * 26
    for point, count in points.items():
        cells[point] += count
        cells[25 - point] -= count
    return tuple(cells)


class Variant(StrEnum):
    """A variant of the game, stored by its value (``"standard"``, ...)."""

    STANDARD = "standard"
    NACKGAMMON = "nackgammon"
    HYPERGAMMON = "hypergammon"

    @property
    def checkers(self) -> int:
        """How many checkers each side has.

        >>> Variant.STANDARD.checkers, Variant.HYPERGAMMON.checkers
        (15, 3)
        """
        return 3 if self is Variant.HYPERGAMMON else CHECKERS

    def initial_position(self) -> Position:
        """The starting position, seen by either player (it is symmetric).

        >>> Variant.NACKGAMMON.initial_position().pip_counts()
        (194, 194)
        >>> Variant.STANDARD.initial_position() == Position.initial()
        True
        """
        if self is Variant.STANDARD:
            return Position.initial()
        return Position.from_board(_board(_STARTS[self]), checkers=self.checkers)

    @property
    def mat_name(self) -> str | None:
        """The ``; [Variation "..."]`` value GNU Backgammon writes in a ``.mat`` file (None for
        the standard game, which it does not name).

        >>> Variant.HYPERGAMMON.mat_name
        'HyperGammon (3)'
        """
        return _MAT_NAMES.get(self)

    @classmethod
    def from_mat_name(cls, name: str) -> Variant:
        """The variant a ``.mat`` header names (GNU Backgammon's spelling, any case).

        >>> Variant.from_mat_name("NackGammon")
        <Variant.NACKGAMMON: 'nackgammon'>

        :raises UnknownVariantError: for a variation this engine does not play.
        """
        for variant, mat in _MAT_NAMES.items():
            if mat.lower() == name.strip().lower():
                return variant
        if name.strip().lower() in ("standard", "standard backgammon", "backgammon"):
            return cls.STANDARD
        raise UnknownVariantError(f"the variation {name!r} is not played here", name=name)

    @classmethod
    def parse(cls, text: str) -> Variant:
        """The variant named by ``text``: its value or a prefix of it, in any case (``"nack"``,
        ``"Hypergammon"``).

        >>> Variant.parse(" Nack ")
        <Variant.NACKGAMMON: 'nackgammon'>

        :raises UnknownVariantError: when ``text`` names no variant.
        """
        key = text.strip().lower()
        found = [v for v in cls if key and v.value.startswith(key)]
        if len(found) != 1:
            raise UnknownVariantError(
                f"unknown variant {text!r}: choose standard, nackgammon or hypergammon", name=text
            )
        return found[0]


_STARTS: dict[Variant, dict[int, int]] = {
    Variant.NACKGAMMON: {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    Variant.HYPERGAMMON: {24: 1, 23: 1, 22: 1},
}

_MAT_NAMES: dict[Variant, str] = {
    Variant.NACKGAMMON: "NackGammon",
    Variant.HYPERGAMMON: "HyperGammon (3)",
}

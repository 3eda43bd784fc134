"""Puzzle ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) from the
``glicko2-py`` library, each answer one rating period of one game between the player and the
puzzle (both rated, as on chess sites).

>>> me = Glicko(1500, 200, 0.06)
>>> new = me.updated([(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)])
>>> round(new.rating, 2), round(new.rd, 2), round(new.volatility, 5)
(1464.05, 151.52, 0.06)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from glicko2.math.algorithm import update_rating
from glicko2.math.conversions import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi

__all__ = ["MAX_RD", "MIN_RD", "PROVISIONAL_RD", "TAU", "Glicko"]

TAU = 0.5  # Glickman's system constant (his example's)
MAX_RD = 350.0  # a newcomer's deviation
MIN_RD = 45.0  # a floor, so that a rating keeps moving (lichess uses a similar floor)
PROVISIONAL_RD = 110.0  # above this a rating is shown as provisional (lichess' rule)


@dataclass(frozen=True)
class Glicko:
    """A rating, its deviation and its volatility, on the Glicko scale (1500 / 350 / 0.06)."""

    rating: float = 1500.0
    rd: float = MAX_RD
    volatility: float = 0.06

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD

    def updated(self, results: Sequence[tuple[Glicko, float]]) -> Glicko:
        """The rating after one period of ``(opponent, score)`` results (1 win, 0 loss)."""
        new = update_rating(
            rating_to_mu(self.rating),
            rd_to_phi(self.rd),
            self.volatility,
            [(rating_to_mu(o.rating), rd_to_phi(o.rd), score) for o, score in results],
            tau=TAU,
        )
        return Glicko(mu_to_rating(new.mu), phi_to_rd(new.phi), new.sigma)

    def bounded(self) -> Glicko:
        """The same with the deviation kept between :data:`MIN_RD` and :data:`MAX_RD`."""
        return Glicko(self.rating, min(MAX_RD, max(MIN_RD, self.rd)), self.volatility)

    def shown(self) -> str:
        """``1523`` or ``1523?`` while provisional."""
        return f"{self.rating:.0f}?" if self.provisional else f"{self.rating:.0f}"

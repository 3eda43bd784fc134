"""Analysis: hints for the player on roll and the post-game review (error rates, ratings, luck,
the worst mistakes, winning chances move by move), on the computer players' evaluation.

Pure functions without I/O, like the rest of the engine; they block (milliseconds for a hint,
about a second for the review of a game), so the bot runs them off the event loop. bgsage
evaluates when it is installed; otherwise the pure-Python fallback of :mod:`engine.bots` does,
with lower accuracy.

>>> from engine import Position, legal_plays
>>> from engine.context import MatchContext
>>> pos = Position.initial()
>>> best = hint(pos, (6, 5), MatchContext(), engine="fallback")[0]
>>> str(best.play), best.play in legal_plays(pos, (6, 5))
('24/13', True)
>>> cube_hint(pos, MatchContext(), engine="fallback").action
'no double'

A review (here of a short game: a poor opening play, then a resignation), cached as JSON:

>>> import json
>>> from engine import Game
>>> game = Game()
>>> game.opening_roll(6, 5)
>>> game.play_text("8/3 8/2")
<Play 8/3 8/2>
>>> game.resign(1)
>>> game.accept_resignation()
>>> review = review_game(game, engine="fallback")
>>> [(d.played, d.best) for d in review.decisions]
[('8/3 8/2', '24/13')]
>>> Review.from_dict(json.loads(json.dumps(review.to_dict()))) == review
True
>>> review.stats(0).rating in {name for _, name in RATINGS} | {"awful"}
True
"""

from engine.analysis.evaluator import Probs, get_evaluator
from engine.analysis.hints import CubeAction, CubeHint, HintMove, cube_hint, hint
from engine.analysis.review import (
    CLOSE_CUBE,
    LUCK_RATINGS,
    RATINGS,
    Chance,
    Decision,
    DecisionKind,
    PlayerStats,
    Review,
    combine_reviews,
    error_size,
    luck_rating,
    rating_name,
    review_game,
    review_match,
)

__all__ = [
    "CLOSE_CUBE",
    "LUCK_RATINGS",
    "RATINGS",
    "Chance",
    "CubeAction",
    "CubeHint",
    "Decision",
    "DecisionKind",
    "HintMove",
    "PlayerStats",
    "Probs",
    "Review",
    "combine_reviews",
    "cube_hint",
    "error_size",
    "get_evaluator",
    "hint",
    "luck_rating",
    "rating_name",
    "review_game",
    "review_match",
]

"""The GNU Backgammon IDs right after each action of a move log.

One user request can log many actions (the player's move, then the computer's roll, its move, a
double...), but the engine keeps only the latest state. So the IDs of each new row are found by
replaying the new rows, one engine call each, onto the match as it stood before the request
(the stored state): a ``roll`` row carries its dice in the Match ID with the position before the
move, a ``move`` row the position right after that move, an ``opening`` row the board before
anyone has played, and an ``end`` row the finished game's IDs.
"""

from __future__ import annotations

from dataclasses import replace

from engine import Event, EventKind, Game, Match, encode_match_id

__all__ = ["LogRow", "log_rows", "replayed_ids"]

LogRow = tuple[int, int | None]
"""(index of the game in the match, index of the event in that game, or None for its end)."""

Ids = tuple[str, str]


def log_rows(match: Match) -> list[LogRow]:
    """Every row of the match's flattened move log, in order (see ``db.gamestate``)."""
    rows: list[LogRow] = []
    for g, game in enumerate(match.games):
        rows.extend((g, e) for e in range(len(game.events)))
        if game.result is not None:
            rows.append((g, None))
    return rows


def replayed_ids(before: Match, match: Match, start: int) -> list[Ids] | None:
    """The Position ID and Match ID right after each row of ``match``'s log from ``start`` on,
    replaying those rows onto ``before`` (``match`` as it stood with ``start`` rows; it is
    changed). None when ``before`` is not that match (the caller falls back to the final IDs).

    >>> m = Match(length=3)
    >>> before = Match.from_dict(m.to_dict())
    >>> m.game.opening_roll(3, 1); _ = m.game.play_text("8/5 6/5"); m.game.roll((6, 6))
    >>> [pid for pid, _ in replayed_ids(before, m, 0)]
    ['4HPwATDgc/ABMA', 'sGfwATDgc/ABMA', 'sGfwATDgc/ABMA']
    """
    rows = log_rows(match)
    if len(log_rows(before)) != start or start > len(rows):
        return None
    out: list[Ids] = []
    try:
        for g, e in rows[start:]:
            if g == len(before.games):
                before.next_game()
            game = before.games[g]
            if e is not None and e >= len(game.events):
                out.append(_apply(game, match.games[g].events[e]))
            else:  # an end, or a pass the engine logged by itself with the roll before it
                out.append((game.position_id(), game.match_id()))
    except ValueError:  # the engine's refusals: the log does not follow from ``before``
        return None
    return out


def _apply(game: Game, event: Event) -> Ids:
    """Play ``event`` on ``game``; the IDs it leaves (a roll: the dice, before any move)."""
    kind, who = event.kind, event.player
    if kind is EventKind.ROLL:
        assert event.dice is not None
        rolled = (game.position_id(), encode_match_id(replace(game.match_key(), dice=event.dice)))
        game.roll(event.dice)
        return rolled
    if kind is EventKind.OPENING:
        assert event.dice is not None
        game.opening_roll(*event.dice)
    elif kind is EventKind.MOVE:
        game.play_text(event.play or "")
    elif kind is EventKind.DOUBLE:
        game.double()
    elif kind is EventKind.TAKE:
        game.take()
    elif kind is EventKind.DROP:
        game.drop()
    elif kind is EventKind.RESIGN:
        game.resign(who, event.value or 1)
    elif kind is EventKind.ACCEPT:
        game.accept_resignation()
    elif kind is EventKind.REJECT:
        game.reject_resignation()
    else:
        game.forfeit(who, event.value or 1)
    return game.position_id(), game.match_id()

"""``/replay``: a whole game as one animated picture, a frame per action, to share in the chat
when there is no web board to link to.

Frame K shows the position after the K-th action of the move log, the same moment as row K of
``/export``'s IDs file: it is drawn from that row's Position ID and Match ID, with the play that
led there as arrows and the action as the caption. Seat 0 sits at the bottom of every frame, so
the checkers do not jump from side to side with the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot import heavy
from bot.i18n import t
from bot.service.analysis import chosen_game
from bot.service.deps import Deps, answers, shared_lang
from bot.service.people import Actor, Where
from bot.service.replies import Reply
from bot.service.shots import checker_colors
from bot.service.tables import load_table, localized
from bot.service.turns import resign_offer
from db import games as game_repo
from db.models import GameEvent
from engine import MatchContext, Play, Position, Variant, parse_play
from engine.ids import MatchKey, decode_match_id
from render import BoardView
from render.animation import animate_boards

__all__ = ["MAX_FRAMES", "Replays", "replay_boards"]

# A money game takes 50 to 150 actions, a 7-point match about 600: beyond this the picture
# would take too long to draw and to watch (/export gives every position of any game).
MAX_FRAMES = 800


class Replays:
    """``/replay``."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    @answers
    def replay(self, actor: Actor, where: Where, game_id: int | None = None) -> Reply:
        """``/replay [game]``: the game as an animated picture (the same game as ``/export``
        without a number: the one here, else the actor's last finished one)."""
        with self.deps.unit() as s:
            who = self.deps.who(s, actor)
            row = chosen_game(s, actor, where, game_id, "replay.none")
            # Posted for everyone here: in the server's language (a refusal, in his own).
            lang = shared_lang(who, where)
            table = localized(load_table(self.deps, s, row), lang)
            events = game_repo.game_events(s, row.id)
            number = row.id
        names = (table.seats[0].name, table.seats[1].name)
        gif = None
        if len(events) <= MAX_FRAMES:
            prefs, checkers = who.prefs, Variant(table.match.variant).checkers
            boards = replay_boards(
                events,
                names,
                lang,
                prefs.theme,
                prefs.mirrored,
                checkers,
                cube=table.game.cube_enabled,
            )
            gif = heavy.POOLS.analyse(animate_boards, boards) if boards else None
        if gif is None:
            refusal = t("replay.too_long", who.lang, id=number, count=len(events))
            return Reply(refusal, ephemeral=True)
        p0, p1 = names
        text = t("replay.done", lang, id=number, p0=p0, p1=p1, count=len(events))
        return Reply(text=text, image=gif, image_name=f"game-{number}-replay.gif")


def replay_boards(
    events: Sequence[GameEvent],
    names: tuple[str, str],
    lang: str,
    theme: str,
    mirrored: bool = False,
    checkers: int = 15,
    *,
    cube: bool = True,
) -> list[tuple[Position, BoardView]]:
    """What each frame draws: the position after each event, seen with seat 0 at the bottom,
    its play as arrows and the action as the caption; ``checkers`` a side (3 in hypergammon:
    the IDs hold the checkers still in play, the others are borne off); ``cube``: whether the
    game was played with the cube (False: none drawn)."""
    boards: list[tuple[Position, BoardView]] = []
    before: tuple[Position, int] | None = None  # the last position and whose view it is
    several = len({e.game_no for e in events}) > 1
    still = BoardView(mirrored=mirrored, theme=theme, cube=cube, turn_marker=False, lang=lang)
    for event in events:
        position = Position.from_position_id(event.position_id, checkers=checkers)
        key = decode_match_id(event.match_id)
        mover = key.player_on_roll
        view = replace(
            still,
            viewpoint="mover" if mover == 0 else "opponent",
            names=(names[mover], names[1 - mover]),
            colors=checker_colors(0, mover, theme),
            dice=key.dice if key.dice != (0, 0) else None,
            context=_context(key),
            last_play=_arrows(event, before),
            last_play_by="mover" if event.player == mover else "opponent",
            double_offered_by="mover" if key.double_offered else None,
            caption=(_caption(event, names, lang, several),),
        )
        boards.append((position, view))
        before = (position, mover)
    return boards


def _context(key: MatchKey) -> MatchContext:
    """The cube and score of a Match ID, seen by the player on roll."""
    return MatchContext.seen_by(
        key.player_on_roll,
        cube_value=key.cube_value,
        cube_owner=key.cube_owner,
        match_length=key.match_length,
        score=key.score,
        crawford=key.crawford,
        jacoby=key.jacoby,
    )


def _arrows(event: GameEvent, before: tuple[Position, int] | None) -> Play | None:
    """A recorded play read again from the position it was played from (the event before
    it), to draw as arrows; None for any other action or a play that does not read (a log
    written before plays were recorded in full)."""
    if event.kind != "move" or not event.play or before is None or event.die1 is None:
        return None
    position, seen_by = before
    if seen_by != event.player:
        position = position.swap_players()
    try:
        return parse_play(event.play, position, (event.die1, event.die2 or event.die1))
    except ValueError:
        return None


def _caption(event: GameEvent, names: tuple[str, str], lang: str, several: bool) -> str:
    """``12. Ann plays 6-4: 24/14`` (with the game's number in a match of several)."""
    name = names[event.player] if event.player in (0, 1) else ""
    dice = {
        "d1": max(event.die1 or 0, event.die2 or 0),
        "d2": min(event.die1 or 0, event.die2 or 0),
    }
    text = _action(event, name, names, dice, lang)
    if several:
        return t("replay.line_game", lang, game=event.game_no, n=event.seq, text=text)
    return t("replay.line", lang, n=event.seq, text=text)


def _action(
    event: GameEvent, name: str, names: tuple[str, str], dice: dict[str, int], lang: str
) -> str:
    kind = event.kind
    if kind == "opening":
        if event.player not in (0, 1):
            return t("replay.opening_tie", lang, die=event.die1)
        return t(
            "replay.opening",
            lang,
            p0=names[0],
            p1=names[1],
            d0=event.die1,
            d1=event.die2,
            name=name,
        )
    if kind == "move" and not event.play:
        return t("replay.cannot_move", lang, name=name, **dice)
    if kind == "move":
        return t("replay.move", lang, name=name, play=event.play, **dice)
    if kind == "roll":
        return t("replay.roll", lang, name=name, **dice)
    if kind == "double":
        return t("replay.double", lang, name=name, value=event.cube_value or 2)
    if kind == "resign":
        offer = resign_offer(event.points or 1).render(lang)
        return t("replay.resign", lang, name=name, offer=offer)
    if kind == "end":
        return t("replay.end", lang, name=name, points=event.points or 1)
    return t(f"replay.{kind}", lang, name=name)

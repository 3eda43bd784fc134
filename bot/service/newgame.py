"""Starting a game: the checks every start makes (the length, a free seat in the channel), the
match from a practice position, and :meth:`NewGames.start`, which rolls the opening, plays on
to the first human decision and stores the new row."""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from bot.service.deps import Deps
from bot.service.model import Notes, Table
from bot.service.people import Prefs, Where
from bot.service.refusal import Refusal
from bot.service.turns import advance, save
from bot.service.variants import variant_named
from db import games as games_repo
from db.games import NewGame, active_game_in_channel
from db.gamestate import create_match_game
from db.models import Game as GameRow
from engine import MAX_CUBE, Match, MatchKey, Variant, decode_match_id, encode_match_id
from engine.movegen import nobody_can_move
from engine.xgid import Xgid, is_xgid

__all__ = ["NewGames", "renumbered", "xgid_rules_left_out"]


class NewGames:
    """What every way of starting a game shares (``/play``, an accepted challenge, Rematch)."""

    def __init__(self, deps: Deps) -> None:
        self.deps = deps

    def length(self, points: int) -> int:
        """A match length as asked: 0 (a money game) up to the configured maximum."""
        top = self.deps.settings.max_match_length
        if not isinstance(points, int) or not 0 <= points <= top:
            raise Refusal("error.match_length", max=top)
        return points

    def no_game_here(
        self, s: Session, player_id: int, where: Where, key: str, **params: str
    ) -> None:
        """Refused with ``key`` when the player already has a game in this channel."""
        if active_game_in_channel(s, where.channel_id, player_id=player_id) is not None:
            raise Refusal(key, **params)

    @staticmethod
    def match(
        length: int,
        cube: bool,
        position_id: str | None,
        match_id: str | None,
        *,
        variant: Variant | str = Variant.STANDARD,
    ) -> Match:
        """A new match; from a GNU Backgammon Position ID (and Match ID) or an XGID (which holds
        both) to practise one. The person practising is player 0 and takes the side whose
        decision it is (the player on roll, the one to take or pass a double), X or O of an
        XGID, player 0 or 1 of a Match ID: the computer plays the other side. ``variant``: its
        value or name (refused when unknown)."""
        variant = variant_named(variant)
        position_id, match_id = _ids(position_id, match_id)
        if not position_id:
            if match_id:
                raise Refusal("error.match_id_alone")
            return Match(length=length, cube=cube, variant=variant)
        if match_id and length and _length_of(match_id) not in (None, length):
            # Both say how long the match is: neither is silently left out.
            raise Refusal("error.points_and_match_id", points=length, length=_length_of(match_id))
        if not match_id and length:
            match_id = encode_match_id(MatchKey(match_length=length))
        if match_id:
            match_id = _decider_first(match_id.strip())
        match = Match.from_ids(
            position_id.strip(), (match_id or "").strip() or None, cube=cube, variant=variant
        )
        if match.game.position.winner() is not None:
            # A side with every checker borne off: no roll could ever be played.
            raise Refusal("error.position_over")
        if nobody_can_move(match.game.position):
            raise Refusal("error.position_stuck")
        return match

    def start(
        self,
        s: Session,
        table: Table,
        new: NewGame,
        notes: Notes,
        prefs: tuple[Prefs, Prefs],
        lang: str,
    ) -> GameRow:
        """Publish the dice commitment, play on to the first human decision and store the
        game; ``table`` gets the row's id and version."""
        deps = self.deps
        dice = deps.new_dice()
        notes.add("dice.commitment", commitment=dice.commitment)
        before = Match.from_dict(table.match.to_dict())  # for the IDs of each logged action
        advance(table, dice, notes, prefs, lang)
        new = replace(new, dice_commitment=dice.commitment, dice_seed=dice.seed.hex())
        try:
            row = create_match_game(s, table.match, new, now=deps.clock(), before=before)
        except IntegrityError:
            # A race with another start in the same channel (two commands at once, two
            # processes) loses on the database's one-active-game-per-seat index.
            raise Refusal("error.game_here") from None
        games_repo.count_dice(row, dice.counter)
        s.flush()
        table.game_id, table.version = row.id, row.version
        if table.match.is_over:  # a resignation loop cannot happen here, but be exact
            posted = save(deps, s, row, table, dice)
            # A new game is no tournament's match yet (its match row comes after): its end
            # posts nothing, and nothing may be lost here unseen.
            assert not posted, "a game ended as it started posted something"
        return row

    def start_in_channel(
        self,
        s: Session,
        table: Table,
        new: NewGame,
        notes: Notes,
        prefs: tuple[Prefs, Prefs],
        lang: str,
    ) -> GameRow | None:
        """:meth:`start` in a savepoint, for a game the bot starts by itself (a tournament's or
        a ladder's match): None when the database's one-active-game-per-seat index refuses it
        in ``new``'s channel (a player already plays there), so that the caller can start it
        outside the channel instead; a refusal anywhere else is raised."""
        try:
            with s.begin_nested():
                return self.start(s, table, new, notes, prefs, lang)
        except Refusal as refusal:
            if new.channel_id is None or refusal.text.key != "error.game_here":
                raise
            return None


def _ids(position_id: str | None, match_id: str | None) -> tuple[str | None, str | None]:
    """The Position ID and Match ID given, from an XGID or GNU Backgammon's joined IDs."""
    if position_id and is_xgid(position_id):
        if match_id:
            raise Refusal("error.xgid_and_match_id")
        xgid = Xgid.parse(position_id)
        return xgid.position_id(), xgid.match_id()
    if position_id and ":" in position_id:
        # GNU Backgammon's "PositionID:MatchID", as its Edit › Copy ID and our IDs file
        # give them.
        position_id, _, joined = position_id.strip().partition(":")
        if match_id and joined:
            raise Refusal("error.ids_and_match_id")
        match_id = match_id or joined
    return position_id, match_id


def renumbered(position_id: str | None, match_id: str | None) -> str | None:
    """The Match ID typed (alone or after a Position ID and a colon), when the bot numbers its
    players the other way (the decision was its player 1's): the new game's own Match ID
    differs from it, and the practice note says why. None for an XGID (its Match ID is the
    bot's reading, not something typed) and for a Match ID kept as typed."""
    if not position_id or is_xgid(position_id):
        return None
    given = (_ids(position_id, match_id)[1] or "").strip()
    return given if given and _decider_first(given) != given else None


def xgid_rules_left_out(position_id: str | None) -> list[tuple[str, dict[str, int]]]:
    """The notes (key, values) on what an XGID typed asks that the game from it will not play:
    beavers allowed (a money game's rules field; XG's money sessions often allow them), a cube
    stopped below the engine's 64. Nothing for other IDs, or an XGID that asks neither (XG's
    usual maximum cube, 1,024, plays as 64: a cube that high is never reached in practice)."""
    if not position_id or not is_xgid(position_id):
        return []
    xgid = Xgid.parse(position_id)
    notes: list[tuple[str, dict[str, int]]] = []
    if xgid.beavers:
        notes.append(("note.xgid_beavers", {}))
    if xgid.max_cube < MAX_CUBE:
        notes.append(("note.xgid_max_cube", {"max": xgid.max_cube, "engine": MAX_CUBE}))
    return notes


def _length_of(match_id: str) -> int | None:
    """The match length a Match ID gives (0: a money game); None when it is not one (the
    game's set-up then says what is wrong with it)."""
    try:
        return decode_match_id(match_id.strip()).match_length
    except ValueError:
        return None


def _decider_first(match_id: str) -> str:
    """``match_id`` with the players numbered so that the decision is player 0's, the person's
    seat (the Position ID is seen by the player on roll, whatever his number)."""
    try:
        key = decode_match_id(match_id)
    except ValueError:
        return match_id  # Match.from_ids says what is wrong with it
    return encode_match_id(key.swap_players()) if key.turn == 1 else match_id

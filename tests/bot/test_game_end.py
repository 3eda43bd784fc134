"""The end of a match is an explicit event: :class:`~bot.service.deps.GameEnded` (the row, the
match as just saved, its stored result) goes to the subscribers of ``Deps.game_end``, which
the composition root registers; what they return is posted with the reply of the action that
ended the match, or as the sweep's notices, never left in a mailbox nobody empties."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from bot.ladders.running import Ladders
from bot.service import Actor, Reply, Service, Where
from bot.service.deps import Deps, GameEnded
from bot.service.tournaments import Tournaments
from db.games import get_game
from tests.bot.conftest import Clock

HERE = Where(channel_id=7100, guild_id=9200, guild_locale="en-US")
ANN = Actor(501, "Ann", locale="en-US")
BOB = Actor(502, "Bob", locale="en-US")


def _accept(reply: Reply) -> str:
    return next(b.custom_id for b in reply.buttons if b.custom_id.endswith(":accept"))


def _mover(service: Service, game_id: int) -> Actor:
    with service.factory() as s:
        row = get_game(s, game_id)
        assert row.turn is not None
        return ANN if row.player_id(row.turn) == ANN.id else BOB


def test_a_subscriber_gets_the_loaded_match_and_its_posts_go_with_the_reply(
    service: Service,
) -> None:
    heard: list[GameEnded] = []

    def subscriber(s: Session, ended: GameEnded) -> list[Reply]:
        heard.append(ended)
        return [Reply(text=f"game {ended.row.id} is over")]

    service.deps.game_end.append(subscriber)
    challenge = service.challenge(ANN, HERE, BOB)
    board = service.press(BOB, HERE, _accept(challenge))
    assert not board.ephemeral, board.text
    assert board.game_id is not None
    mover = _mover(service, board.game_id)
    offer = service.resign(mover, HERE, value=1)
    assert not offer.ephemeral, offer.text
    assert heard == []  # an offer ends nothing
    other = BOB if mover is ANN else ANN
    done = service.press(other, HERE, _accept(offer))
    assert not done.ephemeral, done.text
    assert len(heard) == 1
    ended = heard[0]
    assert ended.match.is_over and ended.match.winner is not None
    assert ended.row.player_id(ended.match.winner) == other.id
    assert ended.result is not None and ended.row.id == board.game_id
    assert [f.text for f in done.followups] == [f"game {board.game_id} is over"]


def test_the_tournaments_subscribe_in_the_composition_root_only(
    factory: sessionmaker[Session], clock: Clock
) -> None:
    """Building the tournaments' (or the ladders') use cases subscribes nothing behind the
    reader's back; the service (the composition root) subscribes the tournaments' clock and
    results, and the ladders' results."""
    deps = Deps(factory, clock=clock)
    Tournaments(deps)
    Ladders(deps)
    assert deps.game_end == [] and deps.game_saving == []
    service = Service(factory, clock=clock)
    assert len(service.deps.game_end) == 2 and len(service.deps.game_saving) == 1
    owners = {type(getattr(f, "__self__", None)).__name__ for f in service.deps.game_end}
    assert owners == {"Runner", "Ladders"}

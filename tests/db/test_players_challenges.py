"""Players (upserts, preferences, guild activity) and challenges (answered exactly once)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import Engine, event
from sqlalchemy.orm import Session, sessionmaker

from db import challenges, players
from db.errors import ChallengeClosed
from db.models import ChallengeStatus, GuildMember
from tests.db.conftest import NOW, later
from tests.db.helpers import ALICE, BOB, CAROL, add_players

Factory = sessionmaker[Session]


def test_a_player_is_created_once_and_renamed_later(factory: Factory) -> None:
    with factory.begin() as s:
        first = players.ensure_player(s, 2**62, "Alice", now=NOW)
        assert (first.id, first.display_name, first.preferences) == (2**62, "Alice", {})
    with factory.begin() as s:
        players.set_preferences(s, 2**62, language="fr")
        again = players.ensure_player(s, 2**62, "Alice B.", now=later(60))
    assert again.display_name == "Alice B." and again.seen_at == later(60)
    assert again.created_at == NOW and again.preferences == {"language": "fr"}


def test_players_read_in_one_transaction_are_read_again_in_the_next(factory: Factory) -> None:
    """A session kept across transactions does not serve the first one's rows: another
    process may have changed them in between."""
    with factory.begin() as s:
        players.ensure_player(s, 7, "Alice", now=NOW)
    with factory() as s:
        with s.begin():
            players.read_players(s, [7])
            first = players.get_player(s, 7)
            assert first is not None and first.display_name == "Alice"  # still referenced
        with factory.begin() as other:
            players.ensure_player(other, 7, "Alice B.", now=later(600))
        with s.begin():
            players.read_players(s, [7])
            again = players.get_player(s, 7)
            assert again is first and again.display_name == "Alice B."


def test_preferences_merge_and_none_removes_a_key(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s, ALICE)
        players.set_preferences(s, ALICE, language="fr", auto_play_forced=True)
    with factory.begin() as s:
        assert players.set_preferences(s, ALICE, language=None, board="dark") == {
            "auto_play_forced": True,
            "board": "dark",
        }
    with factory() as s:
        p = players.get_player(s, ALICE)
        assert p is not None and p.preferences == {"auto_play_forced": True, "board": "dark"}
    with pytest.raises(LookupError), factory.begin() as s:
        players.set_preferences(s, 424242, language="fr")


def test_guild_activity_counts_games_per_server(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s, ALICE)
        players.note_guild_activity(s, 7, ALICE, now=NOW)
        players.note_guild_activity(s, 7, ALICE, games_played=1, now=later(10))
        players.note_guild_activity(s, 8, ALICE, games_played=1, now=later(20))
    with factory() as s:
        member = s.get(GuildMember, (7, ALICE))
        assert member is not None
        assert (member.games_played, member.first_seen, member.last_seen) == (1, NOW, later(10))
        assert [m.player_id for m in players.guild_members(s, 8)] == [ALICE]


def _challenge(s: Session, expires: float = 600, **kw: object) -> int:
    return challenges.create_challenge(
        s,
        challenger_id=ALICE,
        challenged_id=BOB,
        expires_at=later(expires),
        now=NOW,
        **kw,  # type: ignore[arg-type]
    ).id


def test_a_challenge_is_answered_once(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        cid = _challenge(s, match_length=5, cube=False, rated=True, guild_id=7)
    with factory.begin() as s:
        ch = challenges.answer_challenge(s, cid, ChallengeStatus.ACCEPTED, now=later(5))
        assert (ch.status, ch.resolved_at, ch.match_length, ch.cube) == (
            ChallengeStatus.ACCEPTED,
            later(5),
            5,
            False,
        )
    for status in (ChallengeStatus.ACCEPTED, ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED):
        with pytest.raises(ChallengeClosed) as info, factory.begin() as s:
            challenges.answer_challenge(s, cid, status, now=later(6))
        assert info.value.status == ChallengeStatus.ACCEPTED


def test_a_late_answer_finds_the_challenge_expired(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        cid = _challenge(s, expires=60)
    with pytest.raises(ChallengeClosed) as info, factory.begin() as s:
        challenges.answer_challenge(s, cid, ChallengeStatus.ACCEPTED, now=later(60))
    assert info.value.status == ChallengeStatus.EXPIRED
    with pytest.raises(ChallengeClosed) as missing, factory.begin() as s:
        challenges.answer_challenge(s, cid + 1000, ChallengeStatus.DECLINED, now=NOW)
    assert missing.value.status is None


def test_impossible_challenges_are_refused(factory: Factory) -> None:
    with factory.begin() as s:
        add_players(s)
        with pytest.raises(ValueError, match="himself"):
            challenges.create_challenge(
                s, challenger_id=CAROL, challenged_id=CAROL, expires_at=later(60), now=NOW
            )
        with pytest.raises(ValueError, match="expire"):
            challenges.create_challenge(
                s, challenger_id=ALICE, challenged_id=BOB, expires_at=NOW - timedelta(1), now=NOW
            )
        cid = _challenge(s)
        with pytest.raises(ValueError, match="answered with"):
            challenges.answer_challenge(s, cid, ChallengeStatus.EXPIRED, now=NOW)


def test_a_known_player_clicking_again_costs_no_write(factory: Factory, engine: Engine) -> None:
    with factory.begin() as s:
        players.ensure_player(s, ALICE, "alice", now=NOW)
    statements: list[str] = []

    def record(_conn: object, _cursor: object, sql: str, *_args: object) -> None:
        statements.append(sql.split()[0].upper())

    event.listen(engine, "before_cursor_execute", record)
    try:
        with factory.begin() as s:
            again = players.ensure_player(s, ALICE, "alice", now=later(60))
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert statements == ["SELECT"]
    assert again.seen_at == NOW  # within SEEN_RESOLUTION: left as it was
    with factory.begin() as s:
        later_on = players.ensure_player(s, ALICE, "alice", now=NOW + players.SEEN_RESOLUTION)
        assert later_on.seen_at == NOW + players.SEEN_RESOLUTION
    with factory() as s:
        stored = players.get_player(s, ALICE)
        assert stored is not None and stored.seen_at == NOW + players.SEEN_RESOLUTION

"""get_bot, the level names, the protocol, and the random source of the noise."""

from __future__ import annotations

import logging
import random
import sys

import pytest

from engine import Position, legal_plays
from engine.bots import LEVELS, ComputerPlayer, backend, get_bot, level_spec
from engine.bots.fallback import FallbackPlayer
from tests.conftest import load_corpus

HAVE_BGSAGE = backend() == "bgsage"
needs_bgsage = pytest.mark.skipif(not HAVE_BGSAGE, reason="bgsage is not installed")
ENGINES = ["bgsage", "fallback"] if HAVE_BGSAGE else ["fallback"]


def test_levels_in_order() -> None:
    assert LEVELS == ("beginner", "casual", "intermediate", "advanced", "expert", "world class")


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("engine", ENGINES)
def test_get_bot_builds_every_level(level: str, engine: str) -> None:
    bot = get_bot(level, engine=engine)
    assert bot.level == level
    assert isinstance(bot, ComputerPlayer)


@pytest.mark.parametrize("alias", ["world_class", "worldclass", "World Class", "world-class"])
def test_world_class_aliases(alias: str) -> None:
    assert get_bot(alias).level == "world class"


def test_unknown_level_lists_the_levels() -> None:
    with pytest.raises(ValueError, match="beginner, casual, intermediate, advanced, expert"):
        get_bot("grandmaster")


def test_unknown_engine() -> None:
    with pytest.raises(ValueError, match="unknown engine"):
        get_bot("expert", engine="gnubg")


def test_levels_get_deeper_or_less_noisy() -> None:
    specs = [level_spec(name) for name in LEVELS]
    noises = [s.noise for s in specs]
    assert noises == sorted(noises, reverse=True) and noises[-1] == noises[-2] == 0
    assert specs[-1].ply > specs[-2].ply


def _noisy_choices(bot: ComputerPlayer) -> list[str]:
    out = []
    for case in load_corpus()[:60]:
        pos = Position.from_position_id(str(case["position_id"]))
        play = bot.choose_play(pos, tuple(case["dice"]))  # type: ignore[arg-type]
        out.append(str(play))
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_a_seed_makes_noise_reproducible(engine: str) -> None:
    first = _noisy_choices(get_bot("beginner", rng=7, engine=engine))
    again = _noisy_choices(get_bot("beginner", rng=random.Random(7), engine=engine))
    other = _noisy_choices(get_bot("beginner", rng=8, engine=engine))
    assert first == again
    assert first != other  # the noise does change choices


@pytest.mark.parametrize("engine", ENGINES)
def test_bots_leave_the_global_random_state_alone(engine: str) -> None:
    random.seed(12345)
    state = random.getstate()
    _noisy_choices(get_bot("beginner", rng=3, engine=engine))
    assert random.getstate() == state


@pytest.fixture
def fresh_backend() -> object:
    backend.cache_clear()
    yield
    backend.cache_clear()


def test_without_bgsage_get_bot_falls_back_and_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, fresh_backend: object
) -> None:
    monkeypatch.setitem(sys.modules, "bgsage", None)  # makes `import bgsage` fail
    with caplog.at_level(logging.INFO, logger="engine.bots"):
        bot = get_bot("expert")
    assert isinstance(bot, FallbackPlayer)
    assert "computer players: pure-Python fallback (bgsage not installed)" in caplog.messages
    pos = Position.initial()
    assert bot.choose_play(pos, (6, 4)) in legal_plays(pos, (6, 4))


@needs_bgsage
def test_with_bgsage_the_log_names_it(
    caplog: pytest.LogCaptureFixture, fresh_backend: object
) -> None:
    with caplog.at_level(logging.INFO, logger="engine.bots"):
        bot = get_bot("expert")
    assert type(bot).__name__ == "SagePlayer"
    assert any(m.startswith("computer players: bgsage 2.") for m in caplog.messages)


def test_import_engine_works_without_bgsage(monkeypatch: pytest.MonkeyPatch) -> None:
    # The core and the bots package must not need bgsage at import time.
    for name in [m for m in sys.modules if m == "engine" or m.startswith("engine.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "bgsage", None)
    monkeypatch.setitem(sys.modules, "bgbot_cpp", None)
    import engine.bots.sage as sage

    assert not sage.available()
    import engine.bots

    assert engine.bots.LEVELS[0] == "beginner"


@needs_bgsage
def test_players_pickle_for_a_process_pool() -> None:
    import pickle

    bot = get_bot("advanced", rng=5)
    clone = pickle.loads(pickle.dumps(bot))
    assert _noisy_choices(clone) == _noisy_choices(get_bot("advanced", rng=5))


@pytest.mark.parametrize("engine", ENGINES)
def test_players_can_be_called_from_several_threads(engine: str) -> None:
    # The service layer runs computer moves in a thread pool: concurrent calls on shared
    # analyzers must give the same answers as serial ones.
    from concurrent.futures import ThreadPoolExecutor

    cases = [
        (Position.from_position_id(str(c["position_id"])), tuple(c["dice"]))
        for c in load_corpus()[:80]
    ]
    bot = get_bot("expert", engine=engine)
    serial = [bot.choose_play(pos, dice) for pos, dice in cases]  # type: ignore[arg-type]
    with ThreadPoolExecutor(max_workers=4) as pool:
        parallel = list(pool.map(lambda c: bot.choose_play(*c), cases))
    assert parallel == serial

# ruff: noqa: F811 - the fixtures of test_discord_sim are imported, and named as parameters
"""Drills through the real bot and a simulated Discord (SimCord): the daily drill comes as a
direct message with its menu, answered there once (a second press is refused and changes
nothing); ``/drill`` in a server channel answers privately; in French for a French client."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import Env, ResponseMessage
from sqlalchemy import select
from sqlalchemy.orm import Session

from bot.service import Actor, Service
from db.models import DrillAnswer, DrillCard, Puzzle
from tests.bot.conftest import Clock
from tests.bot.test_discord_sim import (  # noqa: F401 - fixtures
    SETTLE_TIMEOUT,
    components,
    env,
    guild,
    locales,
    member,
    new_bot,
    response,
    simcord_bot,
)
from tests.bot.test_discord_together import dms, notices
from tests.bot.test_drills import give_blunders

pytestmark = pytest.mark.simcord(settle_timeout=SETTLE_TIMEOUT)


def best_of(service: Service, message: ResponseMessage) -> tuple[str, str]:
    """The drill menu's custom id and its best answer."""
    menu = next(c for c in components(message) if c["custom_id"].startswith("dr:"))
    with Session(service.factory.kw["bind"]) as s:
        card = s.get(DrillCard, int(menu["custom_id"].split(":")[1]))
        assert card is not None
        puzzle = s.get(Puzzle, card.puzzle_id)
        assert puzzle is not None
        return menu["custom_id"], str(puzzle.choices["choices"][0]["answer"])


async def test_the_daily_drill_by_dm_answered_once(
    env: Env, guild: Any, service: Service, clock: Clock
) -> None:
    ann = env.create_user("ann")
    annie = guild.add_member(ann)  # ann in the server
    give_blunders(service.factory, Actor(ann.id, "ann"), 4)
    saved = response(await ann.slash("settings", drills="9"))
    assert "Daily drill message of your blunders: 09:00" in saved.content
    cog = notices(env.bot)
    assert await cog.send_due() == 1
    assert await cog.send_due() == 0  # once a day, however often the sweep runs
    (dm,) = dms(ann)
    assert "Your drill of the day" in dm.content and dm.attachments
    await env.restart_bot(new_bot(service))  # the DM's menu answers after a restart
    assert await notices(env.bot).send_due() == 0  # and the new process sends nothing again
    custom_id, best = best_of(service, dm)
    answered = response(await ann.select(dm, [best], custom_id=custom_id))
    assert "is the best answer" in answered.content and "streak **1** day" in answered.content
    following = response(await ann.click(answered, label="Next drill"))  # in the DM
    assert "3 left today" in following.content and components(following)
    again = response(await ann.select(dm, [best], custom_id=custom_id))
    assert "answered this drill already" in again.content
    with Session(service.factory.kw["bind"]) as s:
        assert len(s.scalars(select(DrillAnswer)).all()) == 1
    # The next one, now, in a server channel: privately.
    channel = guild.create_text_channel("practice")
    result = await annie.slash(channel, "drill")
    asked = response(result)
    assert result.ephemeral and "3 left today" in asked.content  # the same, by the command
    custom_id, best = best_of(service, asked)
    answered = response(await annie.select(asked, [best], custom_id=custom_id))
    assert "2 left today" in answered.content
    clock.advance(days=1)
    assert await notices(env.bot).send_due() == 1 and len(dms(ann)) == 2


async def test_in_french_for_a_french_client(
    env: Env, guild: Any, service: Service, locales: dict[int, str]
) -> None:
    user = env.create_user("zoe")
    zoe = guild.add_member(user)
    locales[user.id] = "fr"
    channel = guild.create_text_channel("entrainement")
    nothing = response(await zoe.slash(channel, "drill"))
    assert "pas encore d’exercice" in nothing.content
    give_blunders(service.factory, Actor(zoe.id, "zoe"), 2)
    asked = response(await zoe.slash(channel, "drill"))
    assert "une de vos propres erreurs" in asked.content
    custom_id, best = best_of(service, asked)
    answered = response(await zoe.select(asked, [best], custom_id=custom_id))
    assert "est la meilleure réponse" in answered.content and "série **1** jour" in answered.content
    again = response(await zoe.select(asked, [best], custom_id=custom_id))
    assert "Vous avez déjà répondu à cet exercice" in again.content
    refused = response(await user.slash("settings", drills="25"))
    assert "n’est pas une heure" in refused.content

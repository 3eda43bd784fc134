"""/puzzle through the real bot and a simulated Discord (SimCord): the private question with its
menu or buttons, and the answer to a press, after a restart of the components' registry too
(the answers are dynamic items: ``pz:<puzzle>:<choice>``)."""

from __future__ import annotations

from typing import Any

from simcord import Env
from sqlalchemy.orm import Session

from bot.service import Service
from db.models import Puzzle
from tests.bot import test_discord_sim as sim
from tests.bot.test_discord_sim import components, member, response

# SimCord's fixtures, as test_discord_sim defines them.
locales, simcord_bot, env = sim.locales, sim.simcord_bot, sim.env
guild, channel = sim.guild, sim.channel
pytestmark = sim.pytestmark  # SimCord's settle limit a hang guard, not 5 s


async def test_a_puzzle_is_asked_and_answered_privately(
    env: Env, guild: Any, channel: Any, service: Service
) -> None:
    ann = member(env, guild, "ann")
    asked = response(await ann.slash(channel, "puzzle"))
    assert "Puzzle #" in asked.content and asked.attachments
    found = components(asked)
    answer_id = found[0]["custom_id"]
    assert answer_id.startswith("pz:")
    with Session(service.factory.kw["bind"]) as s:
        puzzle = s.get(Puzzle, int(answer_id.split(":")[1]))
        assert puzzle is not None
        best = puzzle.choices["choices"][0]["answer"]
    if found[0]["type"] == 3:  # a checker play: the menu
        answered = response(await ann.select(asked, [best], custom_id=answer_id))
    else:  # a cube decision: the button of the best answer (index 0)
        answered = response(
            await ann.click(
                asked,
                custom_id=next(c["custom_id"] for c in found if c["custom_id"].endswith(":0")),
            )
        )
    assert "is the best answer" in answered.content
    assert "Puzzle rating" in answered.content

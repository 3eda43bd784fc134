"""What ``backgammon-bot sync`` sends to Discord, as JSON, without connecting.

    python -m bot.discord_app.payload > tests/data/commands.json

rewrites the snapshot the tests compare with (run it when a command, or its text in the
catalog, changes on purpose; then sync again).
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from bot.config import Config
from bot.discord_app.client import BackgammonBot

__all__ = ["command_payload", "dumps"]


async def command_payload(bot: BackgammonBot) -> list[dict[str, Any]]:
    """The global commands of ``bot`` (after its ``setup_hook``) exactly as ``tree.sync()``
    sends them: with a translator, sync sends the translated payload, not ``to_dict``."""
    tree = bot.tree
    translator = tree.translator
    out = []
    for command in tree.get_commands():
        if translator is not None:
            out.append(await command.get_translated_payload(tree, translator))
        else:
            out.append(command.to_dict(tree))
    return out


def dumps(payload: list[dict[str, Any]]) -> str:
    return json.dumps(payload, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


async def _main() -> str:
    async with BackgammonBot(None, config=Config()) as bot:  # sets up, never connects
        await bot.setup_hook()
        return dumps(await command_payload(bot))


if __name__ == "__main__":
    sys.stdout.write(asyncio.run(_main()))

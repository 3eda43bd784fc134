"""The application: the service layer and its Discord and terminal adapters.

``bot.create_bot()`` (the Discord bot from the environment, not connected) is imported on first
use, so that ``import bot`` stays light for the terminal adapter.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_bot"]


def __getattr__(name: str) -> Any:
    if name == "create_bot":
        from bot.discord_app import create_bot

        return create_bot
    raise AttributeError(f"module 'bot' has no attribute {name!r}")

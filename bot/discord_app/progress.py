"""A long action's progress shown in place (:data:`bot.service.replies.PROGRESS`): each line
edits the deferred "thinking" message of the interaction, which the reply then replaces.

Lines come from a worker thread; the edits are made on the event loop, one at a time, the
latest line only (a line that arrives while an edit is under way replaces the one waiting).
Before the interaction is deferred there is nothing to edit and a line is dropped; once the reply
is ready, :meth:`ProgressEdits.close` waits for the edit under way so that no late line can
overwrite the answer. A button press gets none (its deferral would edit the pressed message).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord

from bot.service.replies import PROGRESS

__all__ = ["ProgressEdits"]

log = logging.getLogger(__name__)
T = TypeVar("T")


class ProgressEdits:
    """The progress lines of one interaction (see the module docstring)."""

    def __init__(self, interaction: discord.Interaction[Any], *, enabled: bool = True) -> None:
        self.interaction = interaction
        self.enabled = enabled
        self._loop = asyncio.get_running_loop()
        self._closed = False
        self._waiting: str | None = None
        self._task: asyncio.Task[None] | None = None

    def wrap(self, call: Callable[[], T]) -> Callable[[], T]:
        """``call`` with this object as the progress sink while it runs (in its thread)."""
        if not self.enabled:
            return call

        def run() -> T:
            token = PROGRESS.set(self.post)
            try:
                return call()
            finally:
                PROGRESS.reset(token)

        return run

    def post(self, text: str) -> None:
        """Show ``text`` (from any thread)."""
        self._loop.call_soon_threadsafe(self._want, text)

    def _want(self, text: str) -> None:
        if self._closed:
            return
        self._waiting = text
        if self._task is None or self._task.done():
            self._task = self._loop.create_task(self._edit())

    async def _edit(self) -> None:
        while self._waiting is not None and not self._closed:
            text, self._waiting = self._waiting, None
            if not self.interaction.response.is_done():
                continue  # not deferred yet: no message to edit
            try:
                await self.interaction.edit_original_response(content=text)
            except discord.HTTPException:
                log.warning("could not show the progress of interaction %s", self.interaction.id)

    async def close(self) -> None:
        """No more lines; wait for the edit under way, if any."""
        self._closed = True
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task

"""News of changed games between bot processes sharing one PostgreSQL database.

A process's own web pages hear of a change from its service once the action has committed;
pages served by *another* process (several shards on one database) hear of it here: the unit
of work that changed games sends ``NOTIFY`` on :data:`CHANNEL` inside its transaction
(:func:`announce`, so PostgreSQL delivers it at commit, and never for a rolled-back action),
and each process with a web board listens (:class:`Listener`). SQLite has one process: nothing
is sent there. The payload is ``origin:id,id,...``; a process skips its own origin (its pages
already know).

>>> parse("a1b2:3,17")
('a1b2', [3, 17])
>>> parse("garbage") is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable

from sqlalchemy import URL, text
from sqlalchemy.orm import Session

__all__ = ["CHANNEL", "Listener", "announce", "parse"]

CHANNEL = "bg_game_changed"
log = logging.getLogger(__name__)
_PER_NOTE = 500  # game ids per notification (PostgreSQL refuses a payload of 8,000 bytes)
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def announce(session: Session, origin: str, game_ids: Iterable[int]) -> None:
    """Tell the other processes, at this transaction's commit, that these games changed."""
    ids = sorted(set(game_ids))
    if not ids or session.get_bind().dialect.name != "postgresql":
        return
    for start in range(0, len(ids), _PER_NOTE):  # a payload stays far under 8,000 bytes
        payload = f"{origin}:{','.join(str(i) for i in ids[start : start + _PER_NOTE])}"
        session.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})


def parse(payload: str) -> tuple[str, list[int]] | None:
    """The origin and the game ids of a notification, or None if it is not one of ours."""
    origin, colon, ids = payload.partition(":")
    try:
        games = [int(i) for i in ids.split(",")]
    except ValueError:
        return None
    return (origin, games) if colon and origin else None


class Listener:
    """Listens on :data:`CHANNEL` on its own connection, on the running event loop, and calls
    ``changed(game_id)`` for each game another origin changed; after a lost connection it
    reconnects (waiting 1 s, then up to 30 s between tries) and calls ``missed()``, since
    news may have gone by meanwhile."""

    def __init__(
        self, url: URL, origin: str, changed: Callable[[int], None], missed: Callable[[], None]
    ) -> None:
        # Named, so that an operator (or a test) finds this connection in pg_stat_activity.
        named = url.set(drivername="postgresql").update_query_dict(
            {"application_name": f"backgammon-bot-listen-{origin}"}
        )
        self.conninfo = named.render_as_string(hide_password=False)
        self.origin = origin
        self.changed = changed
        self.missed = missed
        self.listening = asyncio.Event()  # set while a connection listens (tests wait on it)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="pg-listen")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        import psycopg

        pause, first = 1.0, True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        self.missed()
                    first, pause = False, 1.0
                    async for note in conn.notifies():
                        self._heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: try again, more slowly
                log.warning(
                    "listening for changed games failed (%s); again in %.0f s", error, pause
                )
            self.listening.clear()
            first = False
            await asyncio.sleep(pause)
            pause = min(pause * 2, 30.0)

    def _heard(self, payload: str) -> None:
        found = parse(payload)
        if found is None or found[0] == self.origin:
            return
        for game_id in found[1]:
            self.changed(game_id)

"""What keeps the pages live and the server fair: the news of a changed game fanned out to the
pages open on it (:class:`Hub`), one read of a state shared by every page asking for it at once
(:class:`States`), and per-person and per-address rate limits (:class:`RateLimit`). Event loop
only, except :meth:`Hub.changed_from_thread`."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

__all__ = ["Hub", "RateLimit", "States"]

T = TypeVar("T")


class Hub:
    """The pages open on each game, woken when it changes. A page's wake-up is an
    :class:`asyncio.Event`: a page that has not yet drawn the last news gets one wake-up for
    any number of changes (it draws the latest state), so a slow page costs no memory."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._pages: dict[int, set[asyncio.Event]] = {}
        self.generation: dict[int, int] = {}
        self.closing = False

    def join(self, game_id: int) -> asyncio.Event:
        wake = asyncio.Event()
        self._pages.setdefault(game_id, set()).add(wake)
        return wake

    def leave(self, game_id: int, wake: asyncio.Event) -> None:
        pages = self._pages.get(game_id)
        if pages is not None:
            pages.discard(wake)
            if not pages:
                del self._pages[game_id]

    def pages(self, game_id: int | None = None) -> int:
        if game_id is not None:
            return len(self._pages.get(game_id, ()))
        return sum(len(p) for p in self._pages.values())

    def games(self) -> list[int]:
        """The games some page is open on."""
        return list(self._pages)

    def changed(self, game_id: int) -> None:
        """Game ``game_id`` changed: every page open on it draws it again."""
        self.generation[game_id] = self.generation.get(game_id, 0) + 1
        for wake in self._pages.get(game_id, ()):
            wake.set()

    def changed_from_thread(self, game_id: int) -> None:
        """:meth:`changed`, called from any thread (the service's subscriber)."""
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.changed, game_id)

    def close(self) -> None:
        """Wake every page so that its stream ends (the server stops)."""
        self.closing = True
        for pages in self._pages.values():
            for wake in pages:
                wake.set()


class States(Generic[T]):
    """One read per game, generation and kind of page: the pages woken by one change ask for
    the same state at once and share its read, and a state read is served again for ``keep``
    seconds (a page many people open). Every change this process makes is a new generation,
    hence a new read; ``keep`` bounds how long a change made by another process (several bot
    processes on one database) can go unseen by a page being opened."""

    def __init__(
        self, read: Callable[..., Awaitable[T]], keep: float = 2.0, size: int = 5000
    ) -> None:
        self._read = read
        self.keep = keep
        self._size = size
        self._flights: OrderedDict[Hashable, tuple[float, asyncio.Future[T]]] = OrderedDict()

    async def get(self, generation: int, *args: Any) -> T:
        key, now = (generation, *args), time.monotonic()
        found = self._flights.get(key)
        if found is None or now - found[0] > self.keep or _failed(found[1]):
            found = (now, asyncio.ensure_future(self._read(*args)))
            self._flights[key] = found
            self._flights.move_to_end(key)
            while len(self._flights) > self._size or (
                self._flights and now - next(iter(self._flights.values()))[0] > self.keep
            ):
                self._flights.popitem(last=False)
        return await asyncio.shield(found[1])


def _failed(flight: asyncio.Future[Any]) -> bool:
    return flight.done() and (flight.cancelled() or flight.exception() is not None)


class RateLimit:
    """A token bucket per key (a person, an address): ``rate`` requests a second, ``burst`` at
    once. At most ``keys`` buckets are kept, the oldest forgotten first."""

    def __init__(self, rate: float, burst: float, keys: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.keys = keys
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()

    def allow(self, key: Hashable, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        allowed = tokens >= 1
        self._buckets[key] = (tokens - 1 if allowed else tokens, now)
        while len(self._buckets) > self.keys:
            self._buckets.popitem(last=False)
        return allowed

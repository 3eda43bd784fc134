"""A clock moved forward by hand, for trying what the calendar drives (a week of drills, a
ladder's deadlines and drops, turn timers, tournaments' dates) without waiting for it:
``CLOCK_FILE=path`` makes the bot's time the real time plus the offset written in that file,
read again whenever the file changes, so another shell (or a test harness) moves the bot's
time while it runs, and across a restart. Never set it on a real server.

The file holds a duration: ``+7d``, ``+36h``, ``+1d 2h 30m``, ``+90s``, or a number of
seconds; empty or missing means no offset. The clock never runs backwards (an offset made
smaller holds the time where it was until the real time catches up).

>>> parse_offset("+1d 2h 30m")
datetime.timedelta(days=1, seconds=9000)
>>> parse_offset("3600")
datetime.timedelta(seconds=3600)
>>> parse_offset("soon")
Traceback (most recent call last):
...
ValueError: CLOCK_FILE holds 'soon': write a duration such as +7d, +36h or +1d 2h 30m
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from db.types import utcnow

__all__ = ["FileClock", "parse_offset"]

log = logging.getLogger(__name__)
_UNITS = {"d": "days", "h": "hours", "m": "minutes", "s": "seconds"}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([dhms])")


def parse_offset(text: str) -> timedelta:
    """The offset a clock file holds (see the module's docstring)."""
    raw = text.strip().lstrip("+").strip()
    if not raw:
        return timedelta(0)
    try:
        return timedelta(seconds=float(raw))
    except ValueError:
        pass
    parts = _PART.findall(raw)
    if not parts or _PART.sub("", raw).strip():
        raise ValueError(
            f"CLOCK_FILE holds {text.strip()!r}: write a duration such as +7d, +36h or +1d 2h 30m"
        )
    return sum((timedelta(**{_UNITS[unit]: float(n)}) for n, unit in parts), timedelta(0))


class FileClock:
    """The real time plus the offset in ``path`` (read again when the file changes)."""

    def __init__(self, path: Path, real: Callable[[], datetime] = utcnow) -> None:
        self.path = path
        self.real = real
        self._seen: int | None = None  # the file's mtime when last read (None: missing)
        self._offset = timedelta(0)
        self._last: datetime | None = None
        self._bad: str | None = None  # a bad content already logged
        self._lock = threading.Lock()  # several threads ask the time at once

    def offset(self) -> timedelta:
        """The last good offset the file held (read again when the file changed)."""
        self._read()
        return self._offset

    def _read(self) -> bool:
        """Read the file again if it changed; whether a new good offset was read. A bad
        content keeps the last good offset and is logged once (the file is read again at
        every call until it changes, perhaps half written)."""
        try:
            stamp = self.path.stat().st_mtime_ns
        except OSError:
            stamp = None
        if stamp == self._seen:
            return False
        self._seen = stamp
        text = self.path.read_text(encoding="utf-8") if stamp is not None else ""
        try:
            self._offset = parse_offset(text)
        except ValueError as error:
            if text != self._bad:
                log.error("%s", error)
            self._bad, self._seen = text, None
            return False
        self._bad = None
        return True

    def __call__(self) -> datetime:
        with self._lock:
            changed = self._read()
            wanted = self.real() + self._offset
            now = wanted if self._last is None else max(wanted, self._last)  # never backwards
            if changed:
                self._tell(now, wanted)
            self._last = now
            return now

    def _tell(self, now: datetime, wanted: datetime) -> None:
        """Log the time really in effect after the file changed."""
        if now == wanted:
            log.warning("CLOCK_FILE: the bot's time is the real time + %s", self._offset)
        else:
            log.warning(
                "CLOCK_FILE: the file says the real time + %s, but the bot's time never runs "
                "backwards: it stays at %s (the real time + %s) until the real time catches up",
                self._offset,
                now.isoformat(timespec="seconds"),
                now - self.real(),
            )

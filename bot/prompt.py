"""The terminal's prompt: typed lines with line editing and history, and a Ctrl-C that always
leaves, at the prompt or while a command runs (the computer thinking).

CPython's ``readline`` waits for a key in ``select()`` and looks at signals only when
``select()`` is interrupted. A SIGINT that lands after the prompt is printed but before
``select()`` starts has only run the C-level handler: ``select()`` then sleeps on and Ctrl-C
seems to do nothing (a window of microseconds that a busy machine widens). So a watcher thread
hears of every SIGINT at once (:func:`signal.set_wakeup_fd`: the C handler writes the signal's
number to a pipe, whatever the main thread is doing) and, while the main thread still waits at
the same prompt, sends SIGINT to it again: a signal that reaches ``select()`` interrupts it.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

__all__ = ["Interrupts", "prompt_lines"]

RESEND = 0.1  # seconds a Ctrl-C may stay unheard at the prompt before it is sent again
PROMPT = "> "


class Interrupts:
    """Ctrl-C for the terminal session: KeyboardInterrupt in the main thread, never lost at the
    prompt, and ignored once the session is leaving (a second, impatient Ctrl-C during the
    exit must not print a traceback)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._prompts = 0  # prompts shown so far
        self._waiting = 0  # the number of the prompt waiting for a line, 0 when none waits
        self._main = threading.main_thread().ident or 0

    def install(self) -> None:
        """Take over SIGINT (from the main thread, as :mod:`signal` requires). Where a thread
        cannot be sent a signal (Windows), Python's own handler stays."""
        if not hasattr(signal, "pthread_kill"):
            return
        read, write = os.pipe()
        os.set_blocking(write, False)  # the C handler must never block on a full pipe
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        signal.signal(signal.SIGINT, _interrupt)
        watcher = threading.Thread(target=self._watch, args=(read,), name="ctrl-c", daemon=True)
        watcher.start()

    @staticmethod
    def leave() -> None:
        """The session ends: later SIGINTs are ignored."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def read_line(self) -> str:
        """One typed line (``input``), the prompt marked as waiting meanwhile."""
        with self._lock:
            self._prompts += 1
            self._waiting = self._prompts
        try:
            return input(PROMPT)
        finally:
            with self._lock:
                self._waiting = 0

    def _watch(self, read: int) -> None:
        while True:
            try:
                data = os.read(read, 512)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data:
                self._insist(self._waiting)

    def _insist(self, prompt: int) -> None:
        """Send SIGINT to the main thread again while it still waits at ``prompt`` (the one
        where Ctrl-C was typed; 0: none, the main thread was busy and has heard it)."""
        while prompt:
            time.sleep(RESEND)
            with self._lock:
                if self._waiting != prompt:
                    return
            signal.pthread_kill(self._main, signal.SIGINT)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def prompt_lines(interrupts: Interrupts) -> Iterator[str]:
    """Typed lines, with line editing and history (arrows) where ``readline`` exists; Ctrl-C
    or Ctrl-D at the prompt ends the session."""
    _line_editing()
    while True:
        try:
            yield interrupts.read_line()
        except (EOFError, KeyboardInterrupt):
            interrupts.leave()
            print()
            return


def _line_editing() -> None:
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input, still usable
        return
    # Escape then Enter sends /undo all, as a line holding only Escape does without readline
    # (Escape alone starts the arrow keys' sequences, so it cannot be bound by itself).
    for enter in (r"\r", r"\n"):
        readline.parse_and_bind(rf'"\e{enter}": "\C-a\C-k/undo all\C-m"')

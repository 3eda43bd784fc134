"""The terminal's prompt: typed lines with line editing and history, and a Ctrl-C that always
leaves, at the prompt or while a command runs (the computer thinking).

CPython's ``readline`` looks at signals only when its wait for a key is interrupted: a SIGINT
that lands between the prompt and that wait is lost, and Ctrl-C seems to do nothing. So the
main thread never waits in ``readline``: a reader thread calls ``input()`` when the main thread
asks for a line (prompts and output stay in order), and the main thread waits for the line on
a queue with a short timeout. That wait is Python's own: a Ctrl-C raises KeyboardInterrupt in
it, at the latest at the next timeout (the kernel may give the signal to another thread).
"""

from __future__ import annotations

import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any

__all__ = ["Interrupts", "Terminated", "on_sigterm", "prompt_lines"]

PROMPT = "> "
WAKE = 0.1  # seconds: how late the main thread may notice a SIGINT the kernel sent elsewhere


class Interrupts:
    """Ctrl-C for the terminal session: KeyboardInterrupt in the main thread wherever it is,
    then ignored (a second, impatient Ctrl-C during the exit must not print a traceback), and
    the terminal's modes given back as they were at the start."""

    def __init__(self) -> None:
        self._asks: queue.Queue[None] = queue.Queue()
        self._lines: queue.Queue[str | Exception] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._modes: list[Any] | None = None

    def install(self) -> None:
        """Take over SIGINT (from the main thread, as :mod:`signal` requires) and start the
        reader thread. Without termios (Windows), lines are read by plain ``input()``."""
        try:
            import termios
        except ImportError:
            return
        self._modes = termios.tcgetattr(sys.stdin.fileno())
        signal.signal(signal.SIGINT, _interrupt)
        _raise_dropped_again()
        self._reader = threading.Thread(target=self._read, name="prompt", daemon=True)
        self._reader.start()

    def leave(self) -> None:
        """The session ends: later SIGINTs are ignored and the terminal gets its modes back
        (``readline`` left it in its own when Ctrl-C came at the prompt)."""
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if self._modes is not None:
            import termios

            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, self._modes)

    def read_line(self) -> str:
        """One typed line; EOFError on Ctrl-D, KeyboardInterrupt on Ctrl-C."""
        if self._reader is None:
            return input(PROMPT)
        self._asks.put(None)
        while True:
            try:
                line = self._lines.get(timeout=WAKE)
            except queue.Empty:
                continue  # back in Python: a pending SIGINT's handler runs here
            if isinstance(line, Exception):
                raise line  # EOFError (Ctrl-D), or what input() raised in the reader thread
            return line

    def _read(self) -> None:
        """The reader thread: one ``input()`` per request. SIGINT is blocked here so that the
        kernel gives it to a thread that can act on it (Python runs handlers in the main one);
        SIGTERM too."""
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        while True:
            self._asks.get()
            try:
                self._lines.put(input(PROMPT))
            except EOFError as eof:
                self._lines.put(eof)
                return
            except Exception as error:  # raised in the main thread, as input() there would
                self._lines.put(error)


class Terminated(KeyboardInterrupt):
    """SIGTERM: the session leaves as on Ctrl-C (every path that lets a KeyboardInterrupt
    through lets this one through), and says why."""


def on_sigterm() -> None:
    """SIGTERM raises :class:`Terminated` in the main thread (from the main thread, as
    :mod:`signal` requires), wherever it waits: at the prompt, in a read of a pipe or a FIFO
    (the read is interrupted), or while a command runs."""
    signal.signal(signal.SIGTERM, _terminate)
    _raise_dropped_again()


# The exception the last handler raised: until something catches it, the session has not left.
_raised: list[KeyboardInterrupt] = []


def _terminate(signum: int, frame: FrameType | None) -> None:
    # The session is leaving: a second signal must not raise in the middle of the exit.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _raised[:] = [Terminated()]
    raise _raised[0]


def _interrupt(signum: int, frame: FrameType | None) -> None:
    # Ignored from the first one on: the session is leaving, a second Ctrl-C typed while it
    # leaves must not raise in the middle of the exit.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _raised[:] = [KeyboardInterrupt()]
    raise _raised[0]


def _raise_dropped_again() -> None:
    """A handler runs wherever the main thread is when the signal lands, also in a weakref
    callback or a ``__del__``: Python prints what those raise and goes on, and the session,
    its signals now ignored, waited in its read forever. What one of our handlers raised and
    Python dropped is raised again: the handler is put back and the signal sent again to the
    main thread once it has left the hook (again if it lands in another such callback)."""
    previous = sys.unraisablehook
    if getattr(previous, "raises_dropped_signals", False):
        return

    def hook(unraisable: Any) -> None:
        if not _raised or unraisable.exc_value is not _raised[0]:
            previous(unraisable)
            return
        _raised.clear()
        again = signal.SIGTERM if isinstance(unraisable.exc_value, Terminated) else signal.SIGINT
        signal.signal(again, _terminate if again == signal.SIGTERM else _interrupt)
        # Not sent from here: the main thread would run the handler inside this hook, and
        # Python would drop that raise too.
        threading.Thread(
            target=_signal_main_after, args=(sys._getframe(), again), daemon=True
        ).start()

    hook.raises_dropped_signals = True  # type: ignore[attr-defined]
    sys.unraisablehook = hook


def _signal_main_after(hook: FrameType, signum: int) -> None:
    main = threading.main_thread().ident
    assert main is not None
    while _on_stack(sys._current_frames().get(main), hook):
        time.sleep(0.001)
    signal.pthread_kill(main, signum)


def _on_stack(frame: FrameType | None, wanted: FrameType) -> bool:
    while frame is not None:
        if frame is wanted:
            return True
        frame = frame.f_back
    return False


GRACE = 10.0  # seconds the interpreter's own exit may take once the session has left


def leave_by(seconds: float = GRACE) -> None:
    """The session has left (the game is saved after every action): if the interpreter's exit,
    which waits for every thread, is still not over after ``seconds``, end the process with
    code 0. A Ctrl-C lands anywhere in the main thread, also between a lock's acquire and its
    release in the standard library's code; a thread then waiting for that lock would hold the
    exit forever (seen, rarely, as a terminal that did not leave after Ctrl-C)."""

    def end() -> None:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os._exit(0)

    timer = threading.Timer(seconds, end)
    timer.daemon = True  # it does not hold the exit itself
    timer.start()


def prompt_lines(interrupts: Interrupts) -> Iterator[str]:
    """Typed lines, with line editing and history (arrows) where ``readline`` exists; Ctrl-C
    or Ctrl-D at the prompt ends the session."""
    _line_editing()
    while True:
        try:
            yield interrupts.read_line()
        except Terminated:
            raise  # said by the caller, who leaves the terminal as it was
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

"""The terminal's prompt reads lines in a reader thread (``bot.prompt``): what ``input()`` raises
there reaches the main thread, which would otherwise wait for a line forever."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from bot.prompt import Interrupts


def test_what_input_raises_in_the_reader_thread_is_raised_in_the_main_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    typed: list[str | Exception] = [
        "/rules",
        UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
        "/help",
        EOFError(),
    ]

    def fake_input(prompt: str = "") -> str:
        line = typed.pop(0)
        if isinstance(line, Exception):
            raise line
        return line

    monkeypatch.setattr("builtins.input", fake_input)
    interrupts = Interrupts()
    interrupts._reader = threading.Thread(target=interrupts._read, daemon=True)
    interrupts._reader.start()
    assert interrupts.read_line() == "/rules"
    with pytest.raises(UnicodeDecodeError):
        interrupts.read_line()
    assert interrupts.read_line() == "/help"  # the reader is still there
    with pytest.raises(EOFError):
        interrupts.read_line()


STUCK = """
import sys, threading
from bot.prompt import leave_by
threading.Thread(target=threading.Event().wait).start()  # never ends, holds the exit
print("left the session", flush=True)
leave_by(0.5)
"""


def test_a_thread_stuck_forever_does_not_hold_the_exit() -> None:
    """A thread that never ends (as one left waiting for a lock an interrupt did not release)
    would hold the interpreter's exit forever: after the session leaves, the process ends
    anyway, with code 0 and what it printed flushed."""
    done = subprocess.run(
        [sys.executable, "-c", STUCK], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0 and done.stdout == "left the session\n"

"""The terminal's prompt reads lines in a reader thread (``bot.prompt``): what ``input()`` raises
there reaches the main thread, which would otherwise wait for a line forever."""

from __future__ import annotations

import signal
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


SWALLOWED = """
import os, signal, sys, weakref
from bot.prompt import _interrupt, on_sigterm
on_sigterm()
signal.signal(signal.SIGINT, _interrupt)  # as Interrupts.install() does at a terminal

def gone(_ref):
    os.kill(os.getpid(), {signum})
    for _ in range(100_000):  # the handler runs here, in the callback, whose raise is dropped
        pass

class Thing:
    pass

thing = Thing()
ref = weakref.ref(thing, gone)
try:
    del thing
    os.read(0, 1)  # a read that never ends: the signal must interrupt it, or nothing will
except KeyboardInterrupt as stop:
    print(type(stop).__name__, flush=True)
"""


@pytest.mark.parametrize(
    ("signum", "raised"), [(signal.SIGTERM, "Terminated"), (signal.SIGINT, "KeyboardInterrupt")]
)
def test_a_signal_whose_raise_python_drops_is_raised_again(signum: int, raised: str) -> None:
    """A signal landing in a weakref callback (or a ``__del__``): Python prints the handler's
    exception and drops it, and the session then waited in its read forever (SIGTERM and
    SIGINT are ignored once raised). The dropped raise is raised again where it can leave."""
    proc = subprocess.Popen(
        [sys.executable, "-c", SWALLOWED.format(signum=int(signum))],
        stdin=subprocess.PIPE,  # kept open, never written: the read waits
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        code = proc.wait(timeout=120)  # a bound for a hang only: it ends as the signal lands
    except subprocess.TimeoutExpired:
        proc.kill()
        code = proc.wait()
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.close()
    out, err = proc.stdout.read(), proc.stderr.read()
    assert out == f"{raised}\n", err
    assert code == 0 and "Traceback" not in err

"""``backgammon-bot play`` stopped by a signal: SIGTERM leaves as Ctrl-C does (the game kept,
exit code 0, a word of why) even while it waits for a line from a FIFO; and a Ctrl-C landing
as the computer's first search thread starts does not leave the exit waiting for that thread
forever (the tty test's rare hang behind ``/jouer level:world class``)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.i18n import t
from tests.bot.conftest import play_args

PATIENCE = 120.0  # a generous bound for a busy machine: the tests wait for output, not a time
# Ann on roll with a checker on the bar against a closed board, no cube: her dice are rolled
# for her, she cannot enter, and the computer plays at once (its first search).
DANCE = "XGID=----DEE-----------cbbbbbbA:0:0:1:00:0:0:0:0:10"


def _env() -> dict[str, str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "LOG_LEVEL": "WARNING"}
    env.pop("DISCORD_TOKEN", None)
    env.pop("WEB_PORT", None)
    return env


def _read_until(fd: int, seen: bytearray, text: str) -> None:
    """Read ``fd`` until ``text`` has appeared in all of its output so far."""
    deadline = time.monotonic() + PATIENCE
    while text.encode() not in seen:
        if time.monotonic() > deadline:
            pytest.fail(f"never saw {text!r}; output:\n{seen.decode(errors='replace')}")
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                pytest.fail(f"the game left before {text!r}:\n{seen.decode(errors='replace')}")
            seen += chunk


def _finish(proc: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=PATIENCE)
    except subprocess.TimeoutExpired:
        proc.kill()  # a hung game must not outlive its test
        out, err = proc.communicate()
        pytest.fail(f"the game did not leave; stderr:\n{err.decode(errors='replace')}")
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_sigterm_while_reading_a_fifo_leaves_cleanly_and_keeps_the_game(
    tmp_path: Path, lang: str
) -> None:
    fifo = tmp_path / "input"
    os.mkfifo(fifo)
    # Our end stays open for writing: the game waits in a read that never sees the end.
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    writer = os.open(fifo, os.O_WRONLY)
    os.set_blocking(reader, True)
    proc = subprocess.Popen(
        [sys.executable, *play_args(tmp_path, "--lang", lang)],
        stdin=reader,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=_env(),
    )
    os.close(reader)
    try:
        os.write(writer, b"/play level:beginner\n")
        assert proc.stdout is not None
        seen = bytearray()
        _read_until(proc.stdout.fileno(), seen, "\n[")  # the board's buttons: it waits again
        proc.send_signal(signal.SIGTERM)
        code, out, err = _finish(proc)
    finally:
        os.close(writer)
    assert code == 0, err
    assert t("terminal.terminated", lang) in seen.decode() + out
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    # The game was kept: the next session shows it again.
    again = subprocess.run(
        [sys.executable, *play_args(tmp_path, "--lang", lang)],
        input=b"",
        capture_output=True,
        cwd=tmp_path,
        env=_env(),
        timeout=PATIENCE,
    )
    assert again.returncode == 0
    assert t("terminal.resume", lang, id=1) in again.stdout.decode()


# The main thread interrupted while it waits for the first search thread to start: that
# thread runs, but concurrent.futures never learns of it (its exit hook does not wake it) and
# the interpreter's exit waited for it forever. The thread sends the SIGINT itself once it
# counts among the threads the exit waits for, to the main thread, which is then waiting.
LATE_THREAD = """
import signal, sys, threading, time
registered = threading.Thread._set_tstate_lock
def late(self):
    registered(self)
    if self.name.startswith("search"):
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
        time.sleep(0.2)
threading.Thread._set_tstate_lock = late
from bot.__main__ import main
raise SystemExit(main(sys.argv[1:]))
"""


def test_ctrl_c_as_the_first_search_thread_starts_still_leaves(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", LATE_THREAD, *play_args(tmp_path, "--lang", "en")[2:]],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=_env(),
    )
    assert proc.stdin is not None
    proc.stdin.write(f"/play level:world class cube:no position:{DANCE}\n".encode())
    proc.stdin.flush()
    code, out, err = _finish(proc)
    assert code == 0, err
    assert "Buttons:" not in out  # the Ctrl-C stopped the command: no board was printed
    assert "Traceback" not in err and "KeyboardInterrupt" not in err

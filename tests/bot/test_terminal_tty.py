"""``backgammon-bot play`` on a real terminal (a pseudo-terminal): line editing with history,
and Ctrl-C leaving as cleanly as Ctrl-D (issue 15, item 5), typed once, at the prompt or while
a command runs, in either language (issue 27, items 6 and 19)."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from tests.bot.conftest import play_args

pty = pytest.importorskip("pty")
termios = pytest.importorskip("termios")
pytest.importorskip("readline")

UP = "\x1b[A"
CTRL_C = "\x03"
CTRL_D = "\x04"
PATIENCE = 120.0  # a generous bound for a busy machine: the tests wait for output, not a time
PROMPT = "\n> "


def _controlling_terminal() -> None:
    """In the child: a session of its own with the pseudo-terminal as its terminal, so that
    Ctrl-C sends it SIGINT as a real terminal would."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Tty:
    """The game on the slave side of a pseudo-terminal; we type on the master side."""

    def __init__(self, tmp_path: Path, lang: str = "en", argv: list[str] | None = None) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "LOG_LEVEL": "WARNING", "TERM": "xterm"}
        env.pop("DISCORD_TOKEN", None)
        play = play_args(tmp_path, "--lang", lang)
        self.proc = subprocess.Popen(
            [sys.executable, *(argv or play)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=tmp_path,
            env=env,
            close_fds=True,
            preexec_fn=_controlling_terminal,  # only setsid and an ioctl: safe before exec
        )
        os.close(slave)
        self.seen = ""
        self.modes: list[Any] = []  # the terminal's modes once the game has left

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait_for(self, text: str, count: int = 1) -> str:
        """Read until ``text`` has appeared ``count`` times in all the output so far."""
        deadline = time.monotonic() + PATIENCE
        while self.seen.count(text) < count:
            if time.monotonic() > deadline:
                pytest.fail(f"never saw {text!r} x{count}; output:\n{self.seen}")
            ready, _, _ = select.select([self.master], [], [], 1.0)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the child closed the terminal
                    break
                self.seen += chunk.decode(errors="replace")
        return self.seen

    def finish(self) -> int:
        # Read what the game writes while it leaves: a terminal nobody reads fills up, and the
        # game would then wait in a write forever (and its output would not show what it did).
        deadline = time.monotonic() + PATIENCE
        while self.proc.poll() is None:
            if time.monotonic() > deadline:
                self.proc.kill()  # a hung game must not outlive its test
                self.proc.wait()
                pytest.fail(f"the game did not leave; output:\n{self.seen}")
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    self.seen += os.read(self.master, 4096).decode(errors="replace")
                except OSError:  # the game closed the terminal: it is leaving
                    time.sleep(0.05)
        code = self.proc.returncode
        try:
            while True:
                ready, _, _ = select.select([self.master], [], [], 0.2)
                if not ready:
                    break
                chunk = os.read(self.master, 4096)
                if not chunk:
                    break
                self.seen += chunk.decode(errors="replace")
        except OSError:
            pass
        self.modes = termios.tcgetattr(self.master)
        os.close(self.master)
        return code

    def sane(self) -> bool:
        """The terminal was left as the shell needs it: lines (canonical mode) and echo."""
        lflag = self.modes[3]
        return bool(lflag & termios.ICANON and lflag & termios.ECHO)


def test_ctrl_c_leaves_cleanly(tmp_path: Path) -> None:
    tty = Tty(tmp_path)
    tty.wait_for(PROMPT)
    tty.type(CTRL_C)  # once, right after the prompt: the moment readline could lose it
    assert tty.finish() == 0
    assert "Traceback" not in tty.seen and "KeyboardInterrupt" not in tty.seen
    assert tty.sane()  # readline was reading: its raw mode must not outlive the game


# A SIGINT sent after the prompt is printed, before readline waits for a key (from the
# pre-input hook): the window where readline alone would drop it. The prompt must still leave
# at once.
LOST_SIGINT = """
import os, readline, signal
from bot.prompt import Interrupts, prompt_lines
interrupts = Interrupts()
interrupts.install()
lost = []
def hook():
    if not lost:
        lost.append(1)
        os.kill(os.getpid(), signal.SIGINT)
readline.set_pre_input_hook(hook)
for line in prompt_lines(interrupts):
    print("typed:", line)
print("left the prompt")
"""


def test_a_ctrl_c_that_readline_does_not_hear_still_leaves(tmp_path: Path) -> None:
    tty = Tty(tmp_path, argv=["-c", LOST_SIGINT])
    tty.wait_for("left the prompt")
    assert tty.finish() == 0
    assert "typed:" not in tty.seen and "Traceback" not in tty.seen


@pytest.mark.parametrize(("lang", "play"), [("en", "/play"), ("fr", "/jouer")])
def test_ctrl_c_while_the_computer_plays_leaves_cleanly(
    tmp_path: Path, lang: str, play: str
) -> None:
    tty = Tty(tmp_path, lang)
    tty.wait_for(PROMPT)
    command = f"{play} level:world class"
    tty.type(command + "\r")
    # The whole line and its Enter echoed (the greeting names the command, not this line):
    # the line is read and the command runs; Ctrl-C comes while it runs or at the next prompt.
    tty.wait_for(f"{PROMPT}{command}\r\n")
    tty.type(CTRL_C + CTRL_C)  # twice, impatiently: the second must not break the exit
    assert tty.finish() == 0
    assert "Traceback" not in tty.seen and "KeyboardInterrupt" not in tty.seen
    assert tty.sane()


@pytest.mark.parametrize(("lang", "play"), [("en", "/play"), ("fr", "/jouer")])
def test_ctrl_c_typed_right_behind_a_command_leaves_cleanly(
    tmp_path: Path, lang: str, play: str
) -> None:
    tty = Tty(tmp_path, lang)
    tty.wait_for(PROMPT)
    tty.type(f"{play} level:world class\r")
    # At once, not waiting for the echo: Ctrl-C lands as readline takes the line, or as the
    # command starts, or at the next prompt (where readline alone could lose it).
    tty.type(CTRL_C + CTRL_C)
    assert tty.finish() == 0
    assert "Traceback" not in tty.seen and "KeyboardInterrupt" not in tty.seen
    assert tty.sane()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_sigterm_at_the_prompt_leaves_cleanly(tmp_path: Path, lang: str) -> None:
    """SIGTERM while readline waits for a key: the session leaves as on Ctrl-C, says why, and
    gives the terminal back in the mode it was in."""
    tty = Tty(tmp_path, lang)
    tty.wait_for(PROMPT)
    tty.proc.send_signal(signal.SIGTERM)
    assert tty.finish() == 0
    assert t("terminal.terminated", lang) in tty.seen
    assert "Traceback" not in tty.seen and "KeyboardInterrupt" not in tty.seen
    assert tty.sane()


def test_ctrl_d_leaves_cleanly(tmp_path: Path) -> None:
    tty = Tty(tmp_path)
    tty.wait_for(PROMPT)
    tty.type(CTRL_D)
    assert tty.finish() == 0
    assert "Traceback" not in tty.seen


def test_up_arrow_brings_back_the_last_line(tmp_path: Path) -> None:
    tty = Tty(tmp_path)
    tty.wait_for(PROMPT)
    tty.type("/rules\r")
    tty.wait_for(PROMPT, 2)
    tty.type(UP + "\r")  # the same command again, from the history
    tty.wait_for("Backgammon rules", 2)
    tty.wait_for(PROMPT, 3)
    tty.type(CTRL_D)
    assert tty.finish() == 0
    assert "Unknown command" not in tty.seen and "^[[A" not in tty.seen


def test_escape_then_enter_undoes_the_whole_move(tmp_path: Path) -> None:
    tty = Tty(tmp_path)
    tty.wait_for(PROMPT)
    tty.type("/play level:beginner cube:no\r")
    tty.wait_for(PROMPT, 2)
    moved = tty.seen.count("[Undo]")
    buttons = tty.seen.rsplit("Buttons:", 1)[1].split("\n", 1)[0]
    point = next(b.strip("[]") for b in buttons.split() if b.strip("[]").isdigit())
    tty.type(f"{point}\r")  # a checker from the first point offered
    tty.wait_for("[Undo]", moved + 1)
    tty.wait_for(PROMPT, 3)
    tty.type("\x1b\r")  # Escape then Enter: the line becomes /undo all and is sent
    tty.wait_for("/undo all")
    tty.wait_for(PROMPT, 4)
    after = tty.seen.rsplit("/undo all", 1)[1]
    assert "[Undo]" not in after and "Buttons:" in after  # the whole move is back
    tty.type(CTRL_D)
    assert tty.finish() == 0

"""The terminal adapter, driven by a script as a player would: whole games, text and JSON."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.service import Service
from bot.terminal import Terminal, user_id
from engine import Position, decode_match_id
from tests.bot.conftest import play_args

ROOT = Path(__file__).resolve().parents[2]

# The player on roll has borne off a checker, no contact: a game of some 15 presses to its end
# (one from the opening takes about 80, each drawing its board), with rolls, moves, plays the
# computer makes and the result, every reply written as a process does.
SHORT = "position:d3cHAADbtg0AAA"


def choose(buttons: list[str], plays: list[str]) -> str:
    """What a simple scripted player types next, from what the last message offers."""
    for wanted in ("Confirm", "Take", "Roll", "Reject"):
        if wanted in buttons:
            return wanted
    points = [b for b in buttons if b.isdigit() or b == "Bar"]
    if points:
        return points[0]
    if plays:
        return plays[0]
    raise AssertionError(f"nothing to press in {buttons}")


class Player:
    """A running ``backgammon-bot play`` process."""

    def __init__(self, tmp_path: Path, *extra: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "LOG_LEVEL": "WARNING"}
        env.pop("DISCORD_TOKEN", None)
        # Without --lang the terminal speaks the system locale's language: English here, whatever
        # the developer's machine is set to.
        for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
            env.pop(key, None)
        env["LANG"] = "C.UTF-8"
        self.proc = subprocess.Popen(
            [sys.executable, *play_args(tmp_path, *extra)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            cwd=tmp_path,
            env=env,
        )

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(timeout=600)  # a hang guard: it exits once stdin closes


@pytest.mark.slow
def test_a_whole_game_in_json_mode(tmp_path: Path) -> None:
    player = Player(tmp_path, "--json")
    assert player.proc.stdout is not None
    player.send(f"/play level:beginner {SHORT}")
    replies: list[dict[str, Any]] = []
    for _ in range(400):
        line = player.proc.stdout.readline()
        assert line, "the process ended early"
        reply = json.loads(line)
        assert set(reply) >= {"text", "image", "position_id", "match_id", "buttons"}
        replies.append(reply)
        assert not reply.get("ephemeral"), reply["text"]
        if "Rematch" in reply["buttons"]:
            break
        plays = _plays_of(reply)
        player.send(choose(reply["buttons"], plays))
    else:
        pytest.fail("the game did not end")
    assert player.close() == 0
    last = replies[-1]
    assert "wins" in last["text"]
    assert Path(last["image"]).is_file() and Path(last["image"]).read_bytes()[:4] == b"\x89PNG"
    Position.from_position_id(last["position_id"])
    assert decode_match_id(last["match_id"]).game_state >= 2  # over, resigned or dropped
    # One board per reply, plus a picture for each play the computer made that the board
    # of its reply does not show (issue 15.2): every one written, none overwritten.
    extra = [f for r in replies for f in r.get("files", []) if f.endswith(".png")]
    assert len(list((tmp_path / "boards").glob("*.png"))) == len(replies) + len(extra)


def _plays_of(reply: dict[str, Any]) -> list[str]:
    # JSON replies list buttons; whole plays come from /move autocomplete in Discord, and the
    # point buttons are always enough to finish a turn.
    return []


@pytest.mark.slow
def test_a_whole_game_in_text_mode(tmp_path: Path) -> None:
    player = Player(tmp_path, "--lang", "en")
    assert player.proc.stdout is not None
    player.send(f"/play level:beginner {SHORT}")
    blocks = []
    for _ in range(400):
        block = _read_block(player)
        blocks.append(block)
        buttons = _buttons_in(block)
        if "Rematch" in buttons:
            break
        plays = _plays_in(block)
        player.send(choose(buttons, plays))
    else:
        pytest.fail("the game did not end")
    assert player.close() == 0
    assert "wins" in blocks[-1]
    assert "+13-14-15-16-17-18------19-20-21-22-23-24-+" in blocks[-1]  # the text board
    assert "[image:" in blocks[-1]


def _read_block(player: Player) -> str:
    assert player.proc.stdout is not None
    lines = []
    while True:
        line = player.proc.stdout.readline()
        assert line, "the process ended early"
        if line == "\n" and lines and not lines[0].startswith("Backgammon in the terminal"):
            return "".join(lines)
        if line != "\n":
            lines.append(line)
        if lines and lines[0].startswith("Backgammon in the terminal") and len(lines) == 1:
            lines = []  # the welcome line


def _buttons_in(block: str) -> list[str]:
    for line in block.splitlines():
        if line.startswith("Buttons: "):
            return [b.strip("[]") for b in line[len("Buttons: ") :].split("  ")]
    return []


def _plays_in(block: str) -> list[str]:
    for line in block.splitlines():
        if line.startswith("Whole plays: "):
            return line[len("Whole plays: ") :].split(" | ")
    return []


def test_two_people_on_one_keyboard(service: Service, script) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    script.extend([5, 2])
    term.run(
        [
            "/challenge Ben points:1",
            "/as Ben",
            "Accept",
            "/as Ann",
            "/move 13/8 13/11",
            "/as Ben",
            "/resign 1",
            "/as Ann",
            "Accept",
        ]
    )
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    texts = [r["text"] for r in replies]
    assert "Ann challenges you" in texts[0]
    assert "Ben accepts the challenge" in texts[2]
    assert "Ann played 13/11 13/8" in texts[4]
    assert "Ann wins a single game" in texts[-1]
    assert replies[-1]["buttons"] == ["Rematch"]


def test_nobody_takes_the_computers_name(service: Service) -> None:
    """A person called "Computer (intermediate)" sat at "Computer (intermediate) vs Computer
    (intermediate)": /as refuses the computer's names, in either language, and keeps the
    player as he was."""
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    names = ["Computer (intermediate)", " ordinateur   (EXPERT) ", "Computer", "@Computer (expert)"]
    term.run([*(f"/as {name}" for name in names), "/play"])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    for refused in replies[:4]:
        assert refused["ephemeral"] and "is the computer's name" in refused["text"]
    assert "Ann ⚪ vs Computer (intermediate) ⚫" in replies[4]["text"]
    term.run(["/as Computer Science Club"])  # a name that only begins like it is a name
    assert "You are now Computer Science Club." in out.getvalue().splitlines()[-1]
    # Nor from the command line: --user "Computer (expert)" plays as the default name.
    named = Terminal(
        service, out=io.StringIO(), images=Path("/tmp/unused"), user="Computer (expert)"
    )
    assert named.name == "Player"


def test_a_play_typed_without_move_is_played(service: Service) -> None:
    # As /hint lists plays: "13/11 12/11" alone is /move 13/11 12/11 when it is his move, even
    # with no menu of plays to pick it from (2-1 here has 58 plays: more than a menu holds).
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    spread = "/play level:beginner cube:false position:AACA/z+gbdsGAA match:MAEFAAAAAAAE"
    term.run([spread, "13/11 12/11", "24/23"])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert not replies[0].get("plays")  # no menu: the play is typed
    assert "Ann played 13/11 12/11" in replies[1]["text"] and not replies[1].get("ephemeral")
    assert replies[2]["ephemeral"]  # not his turn any more: the service's refusal


def test_an_at_sign_names_the_same_person(service: Service, script) -> None:  # type: ignore[no-untyped-def]
    # On Discord one types @Rita to name Rita: the terminal reads it so, not as "@Rita".
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    script.extend([5, 2])
    term.run(["/challenge @Ben points:1", "/as @Ben", "Accept"])
    texts = [json.loads(line)["text"] for line in out.getvalue().splitlines()]
    assert texts[0].startswith("@Ben, Ann challenges you")
    assert "Ben accepts the challenge" in texts[2] and "@Ben accepts" not in texts[2]


def test_bad_input_gets_a_clear_message(service: Service) -> None:
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    term.run(["/fly", "Roll", "/move 8/5 6/5", "/play level:godlike", "/play points:abc", "/as"])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert all(r["ephemeral"] for r in replies)
    assert "Unknown command /fly" in replies[0]["text"]
    assert "the latest message has no buttons" in replies[1]["text"]
    assert "no game in this channel" in replies[2]["text"]
    assert "not a valid level" in replies[3]["text"] and "world class" in replies[3]["text"]
    assert "points takes a whole number, not “abc”" in replies[4]["text"]
    assert "/as NAME" in replies[5]["text"]


def test_french_terminal(service: Service, script) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    term = Terminal(
        service, out=out, json_mode=True, lang="fr", images=Path("/tmp/unused"), user="Ann"
    )
    script.extend([6, 1])
    term.run(["/play level:expert"])
    reply = json.loads(out.getvalue().splitlines()[0])
    assert "Lancer d’ouverture" in reply["text"] and "Dé 1" in reply["buttons"]


def test_local_user_ids_are_stable() -> None:
    assert user_id("Ann") == user_id(" ann ")
    assert user_id("Ann") != user_id("Ben")


def test_french_command_names_work_too(service: Service, script) -> None:  # type: ignore[no-untyped-def]
    # The French help and refusals name the commands as Discord's French command picker does.
    out = io.StringIO()
    term = Terminal(
        service, out=out, json_mode=True, lang="fr", images=Path("/tmp/unused"), user="Ann"
    )
    script.extend([6, 1])
    term.run(["/aide", "/jouer niveau:expert videau:false", "/déplacer 13/7 8/7", "/règles"])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert "/jouer [niveau]" in replies[0]["text"]
    assert "Ordinateur (expert)" in replies[1]["text"] and "Doubler" not in replies[1]["buttons"]
    assert "Ann a joué 13/7 8/7" in replies[2]["text"]
    assert "Les règles du backgammon" in replies[3]["text"]


def test_mentions_read_as_names(service: Service) -> None:
    # Discord turns <@id> into a name; the terminal must too, not print the raw id.
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    term.run(["/challenge Ben"])
    text = json.loads(out.getvalue().splitlines()[0])["text"]
    assert "<@" not in text and text.startswith("@Ben, Ann challenges you")


def test_the_help_lists_every_command_the_terminal_accepts(service: Service) -> None:
    # One command table: whatever the terminal accepts, its help lists, in both languages.
    from bot.service.command_spec import Surface, command_name, press_words
    from bot.service.commands import COMMANDS

    for lang, help_word in (("en", "/help"), ("fr", "/aide")):
        out = io.StringIO()
        term = Terminal(service, out=out, json_mode=True, lang=lang, images=Path("/tmp/unused"))
        term.run([help_word])
        text = json.loads(out.getvalue().splitlines()[0])["text"]
        names = [
            command_name(c, lang) for c in COMMANDS if c.surface is not Surface.DISCORD
        ] + list(press_words(lang))
        for name in names:
            assert f"/{name}" in text, (lang, name)
        for name in ("hint", "review", "export", "verify", "dice", "as", "quit"):
            assert any(c.name == name for c in COMMANDS)
        assert "autocompl" not in text.lower()  # the terminal has none


def test_settings_choose_a_theme_and_refuse_unknown_values(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.drawers as drawers  # where the service's pictures are drawn
    from bot.service.settings import theme_label
    from render import THEMES

    themes: list[str] = []
    draw = drawers.render_board

    def spy(position, *, view):  # type: ignore[no-untyped-def]
        themes.append(view.theme)
        return draw(position, view=view)

    monkeypatch.setattr(drawers, "render_board", spy)
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    theme = sorted(THEMES)[-1]
    term.run([f"/settings theme:{theme}", "/settings theme:plaid", "/settings language:xx"])
    chosen, plaid, xx = (json.loads(line)["text"] for line in out.getvalue().splitlines())
    assert "Saved" in chosen and f"Board theme: {theme_label(theme, 'en')}" in chosen
    assert "not a valid theme" in plaid and all(theme_label(n, "en") in plaid for n in THEMES)
    assert "not a valid language" in xx and "English, French, automatic (your app's language)" in xx
    term.run(["/play level:beginner"])  # the player's boards are drawn in his theme
    assert themes and set(themes) == {theme}


def test_watch_and_games_in_the_terminal(service: Service, script) -> None:  # type: ignore[no-untyped-def]
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    script.extend([5, 2])
    term.run(
        [
            "/challenge Ben",
            "/as Ben",
            "Accept",
            "/as Cid",
            "/watch player:Ben",
            "Refresh",
            "/as Ann",
            "/games",
            "/help",
        ]
    )
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    watched, refreshed, games = replies[4], replies[5], replies[7]
    assert "Watching game #1" in watched["text"] and watched["buttons"] == ["Refresh"]
    assert watched["image"] and watched.get("ephemeral") is True  # only for Cid
    assert "Watching game #1" in refreshed["text"] and refreshed["buttons"] == ["Refresh"]
    assert "#1 against Ben" in games["text"] and "your turn" in games["text"]
    help_text = replies[8]["text"]
    assert "/watch" in help_text and "/games" in help_text
    assert "/server" not in help_text  # no server settings in the terminal


def test_a_puzzle_is_answered_by_typing_a_play_of_its_menu(service: Service) -> None:
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    asked = None
    for _ in range(20):  # the draw is random: until a checker play (a menu, not two buttons)
        term.run(["/puzzle"])
        asked = json.loads(out.getvalue().splitlines()[-1])
        if asked["plays"]:
            break
    assert asked is not None and asked["plays"], asked
    term.run(["24/1"])  # not one of its answers: the message names the ones it has
    refused = json.loads(out.getvalue().splitlines()[-1])
    assert "24/1 is not one of this puzzle's answers" in refused["text"]
    assert all(play in refused["text"] for play in asked["plays"])
    term.run([asked["plays"][-1]])
    answered = json.loads(out.getvalue().splitlines()[-1])
    assert "best answer" in answered["text"] and "Puzzle rating" in answered["text"]
    # Answered, the puzzle reads nothing more: a word typed, a move without a game.
    term.run(["hello", "/move 13/7"])
    stray, move = (json.loads(line) for line in out.getvalue().splitlines()[-2:])
    assert "puzzle" not in stray["text"] and "neither a command nor a button" in stray["text"]
    assert move["text"] == "You have no game in this channel. Start one with /play or /challenge."
    term.run([asked["plays"][0]])  # a play of its menu still shows its answer, as in Discord
    again = json.loads(out.getvalue().splitlines()[-1])
    assert "best answer" in again["text"] and "answered this puzzle already" in again["text"]


def test_a_puzzle_in_text_mode_shows_its_board(service: Service, tmp_path: Path) -> None:
    # It printed only the XGID and the picture's file: no position to look at.
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=False, images=tmp_path, user="Ann")
    term.run(["/puzzle"])
    shown = out.getvalue()
    assert "+13-14-15-16-17-18------19-20-21-22-23-24-+" in shown, shown
    assert shown.index("XGID=") < shown.index("+13-14-15"), shown  # the text, then its board


def test_a_long_line_is_quoted_back_cut(service: Service) -> None:
    """A pasted page came back whole in the refusal: 100,134 characters in one message."""
    out = io.StringIO()
    term = Terminal(service, out=out, json_mode=True, images=Path("/tmp/unused"), user="Ann")
    term.run(["x" * 100_000, "/" + "y" * 100_000, "/play", "z" * 100_000])
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    refusals = [r["text"] for r in replies if r.get("ephemeral")]
    assert len(refusals) == 3 and all(len(text) < 400 for text in refusals), refusals
    assert "x" * 39 + "…" in refusals[0]
    assert "/" + "y" * 38 + "…" in refusals[1] and "z" * 39 + "…" in refusals[2]


def test_a_private_commands_progress_is_marked_private(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rollout's progress lines came unmarked before its private answer: on Discord they
    edit the private "thinking" message; in the terminal they say "(only you)" too."""
    from bot.service.replies import PROGRESS, Reply

    def run(command, actor, where, **values):  # type: ignore[no-untyped-def]
        PROGRESS.get()("🎲 Rolling out… 4 of 12 trials")
        return Reply(text="done", ephemeral=command.private)

    monkeypatch.setattr(service, "run", run)
    out = io.StringIO()
    term = Terminal(service, out=out, images=Path("/tmp/unused"), user="Ann")
    term.handle("/hint rollout:12")  # private
    term.handle("/leaderboard")  # public: its progress would be public too
    lines = [line for line in out.getvalue().splitlines() if "Rolling out" in line]
    assert lines == ["(only you) 🎲 Rolling out… 4 of 12 trials", "🎲 Rolling out… 4 of 12 trials"]

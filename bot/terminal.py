"""The terminal adapter: the bot's commands typed as text, on one keyboard.

``backgammon-bot play`` reads commands such as ``/play level:expert``, ``/roll``,
``/move 8/5 6/5`` or a button label (``Roll``, ``Take``, ``Confirm``, ``13``...) and prints each
reply: its text, a text board, the path of the PNG it rendered and the buttons the Discord
message would carry. With ``--json`` every reply is one JSON object on one line, flushed at once::

    {"text": str, "image": str | null, "position_id": str | null, "match_id": str | null,
     "buttons": [str]}

``/as NAME`` switches the acting person, so two people can play on one keyboard.
"""

from __future__ import annotations

import json
import re
import shlex
import sys
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bot.i18n import CATALOGS, t
from bot.service import Actor, Reply, Service, Where

__all__ = ["Terminal", "user_id"]

TERMINAL_CHANNEL = 1
TERMINAL_GUILD = 1
_BUTTON_ALIASES = {
    "/roll": "roll",
    "/double": "double",
    "/take": "take",
    "/drop": "drop",
    "/accept": "accept",
    "/reject": "reject",
    "/confirm": "confirm",
    "/rematch": "rematch",
    "/decline": "decline",
    "/cancel": "cancel",
}


def _command_names() -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    """The slash command and option names of every language (``/jouer niveau:expert``, as the
    French help and refusals name them) mapped to the English ones, from the catalog keys
    ``cmd.<command>.name`` and ``cmd.<command>.opt.<option>.name``."""
    commands: dict[str, str] = {}
    options: dict[tuple[str, str], str] = {}
    for catalog in CATALOGS.values():
        for key, text in catalog.items():
            parts = key.split(".")
            if parts[0] != "cmd" or parts[-1] != "name":
                continue
            if len(parts) == 3:
                commands[text.lower()] = parts[1]
            elif len(parts) == 5 and parts[2] == "opt":
                options[(parts[1], text.lower())] = parts[3]
    return commands, options


_COMMANDS, _OPTIONS = _command_names()


def user_id(name: str) -> int:
    """A stable id for a local player (records survive between runs, by name).

    >>> user_id("alice") == user_id("Alice") and user_id("alice") != user_id("bob")
    True
    """
    return 10**15 + zlib.crc32(name.strip().lower().encode())


@dataclass
class Terminal:
    """One local session: who acts, where images go, how replies are printed."""

    service: Service
    out: IO[str] = field(default_factory=lambda: sys.stdout)
    json_mode: bool = False
    lang: str = "en"
    images: Path = field(default_factory=lambda: Path("boards"))
    user: str = "Player"
    _buttons: dict[str, str] = field(default_factory=dict)
    _selects: dict[str, str] = field(default_factory=dict)
    _labels: list[str] = field(default_factory=list)
    _images_written: int = 0

    @property
    def actor(self) -> Actor:
        return Actor(user_id(self.user), self.user, locale=self.lang)

    @property
    def where(self) -> Where:
        return Where(channel_id=TERMINAL_CHANNEL, guild_id=TERMINAL_GUILD, guild_locale=self.lang)

    # -- the loop -----------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> None:
        if not self.json_mode:
            self._print_text(t("terminal.welcome", self.lang, name=self.user))
        for raw in lines:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line in ("/quit", "/exit"):
                break
            self.handle(line)

    def handle(self, line: str) -> None:
        """Run one typed command and print its reply (never raises on bad input)."""
        try:
            reply = self._dispatch(line)
        except Exception as exc:
            reply = Reply(text=t("terminal.error", self.lang, detail=str(exc)), ephemeral=True)
        self.show(reply)

    def _dispatch(self, line: str) -> Reply:
        if not line.startswith("/"):
            return self._press_label(line)
        command, _, rest = line.partition(" ")
        command = "/" + _COMMANDS.get(command.lower()[1:], command.lower()[1:])
        if command in _BUTTON_ALIASES:
            return self._press_action(_BUTTON_ALIASES[command], rest.strip())
        options = {_OPTIONS.get((command[1:], k), k): v for k, v in _options(rest).items()}
        s, a, w = self.service, self.actor, self.where
        if command == "/as":
            name = rest.strip()
            if not name:
                return Reply(text=t("terminal.as_usage", self.lang), ephemeral=True)
            self.user = name[:32]
            return Reply(text=t("terminal.as", self.lang, name=self.user), ephemeral=True)
        if command == "/play":
            return s.play(
                a,
                w,
                level=options.get("level", "intermediate"),
                points=_number(options.get("points", "0")),
                cube=_flag(options.get("cube", "true")),
                position_id=options.get("position"),
                match_id=options.get("match"),
            )
        if command == "/challenge":
            name = options.get("opponent") or options.get("_", "")
            if not name:
                return Reply(text=t("terminal.challenge_usage", self.lang), ephemeral=True)
            opponent = Actor(user_id(name), name, locale=self.lang)
            return s.challenge(
                a,
                w,
                opponent,
                points=_number(options.get("points", "0")),
                cube=_flag(options.get("cube", "true")),
                rated=_flag(options.get("rated", "true")),
            )
        if command == "/move":
            notation = rest.strip()
            notation = notation[5:] if notation.lower().startswith("play:") else notation
            return s.move(a, w, notation)
        if command == "/undo":
            return s.undo(a, w)
        if command == "/board":
            return s.board(a, w)
        if command == "/resign":
            return s.resign(a, w, _number(options.get("value", options.get("_", "1"))))
        if command == "/leaderboard":
            return s.leaderboard(a, w, options.get("scope", options.get("_", "server")))  # type: ignore[arg-type]
        if command == "/stats":
            name = options.get("user") or options.get("_")
            other = Actor(user_id(name), name) if name else None
            return s.stats(a, w, other)
        if command == "/history":
            return s.history(a, w)
        if command == "/hint":
            return s.hint(a, w)
        if command == "/review":
            game = options.get("game", options.get("_"))
            return s.review(a, w, _number(game) if game else None)
        if command == "/export":
            game = options.get("game", options.get("_"))
            return s.export(a, w, _number(game) if game else None)
        if command == "/verify":
            return s.verify(a, w, _number(options.get("game", options.get("_", "0"))))
        if command == "/dice":
            name = options.get("user") or options.get("_")
            return s.dice_stats(a, w, Actor(user_id(name), name) if name else None)
        if command == "/rules":
            return s.rules(a, w)
        if command == "/help":
            return s.help(a, w)
        if command == "/settings":
            return s.settings_command(
                a,
                w,
                language=options.get("language"),
                auto_roll=_maybe_flag(options.get("auto_roll")),
                auto_forced=_maybe_flag(options.get("auto_forced")),
                mirrored=_maybe_flag(options.get("mirrored")),
            )
        return Reply(text=t("terminal.unknown", self.lang, command=command), ephemeral=True)

    def _press_label(self, label: str) -> Reply:
        key = label.strip().lower()
        if key in self._buttons:
            return self.service.press(self.actor, self.where, self._buttons[key])
        if key in self._selects:
            custom_id = self._selects[key]
            return self.service.press(self.actor, self.where, custom_id, label.strip())
        return Reply(
            text=t(
                "terminal.no_button",
                self.lang,
                label=label,
                buttons=", ".join(self._button_labels()) or "-",
            ),
            ephemeral=True,
        )

    def _press_action(self, action: str, arg: str) -> Reply:
        """``/roll`` and friends: press the button of the latest message with that action."""
        for custom_id in self._buttons.values():
            parts = custom_id.split(":")
            if (
                custom_id.startswith("bg:")
                and parts[3] == action
                and (not arg or (len(parts) > 4 and parts[4] == arg))
            ):
                return self.service.press(self.actor, self.where, custom_id)
            if custom_id.startswith("ch:") and parts[2] == action:
                return self.service.press(self.actor, self.where, custom_id)
        return Reply(
            text=t(
                "terminal.no_button",
                self.lang,
                label=action,
                buttons=", ".join(self._button_labels()) or "-",
            ),
            ephemeral=True,
        )

    def _button_labels(self) -> list[str]:
        return list(self._labels)

    # -- printing -------------------------------------------------------------------------------

    def show(self, reply: Reply) -> None:
        """Print one reply and remember its buttons (the latest message's are the live ones)."""
        if reply.rows:
            self._buttons = {}
            self._selects = {}
            self._labels = []
            for button in reply.buttons:
                if button.disabled:
                    continue
                self._buttons.setdefault(button.label.lower(), button.custom_id)
                self._labels.append(button.label)
            for select in reply.selects:
                for choice in select.choices:
                    self._selects[choice.value.lower()] = select.custom_id
        elif reply.edit and not reply.ephemeral:
            self._buttons, self._selects, self._labels = {}, {}, []
        image_path = self._save_image(reply)
        files = self._save_attachments(reply)
        if self.json_mode:
            self._print_json(reply, image_path, files)
        else:
            self._print_reply(reply, image_path, files)

    def _save_image(self, reply: Reply) -> str | None:
        if reply.image is None:
            return None
        self.images.mkdir(parents=True, exist_ok=True)
        self._images_written += 1
        stem = Path(reply.image_name).stem
        game = f"game{reply.game_id}-" if reply.game_id else ""
        path = self.images / f"{game}{stem}-{self._images_written:04d}.png"
        path.write_bytes(reply.image)
        return str(path)

    def _save_attachments(self, reply: Reply) -> list[str]:
        """Write every attached file (a .mat export, more pictures) next to the boards."""
        paths = []
        for attachment in reply.attachments:
            self.images.mkdir(parents=True, exist_ok=True)
            path = self.images / Path(attachment.name).name
            path.write_bytes(attachment.data)
            paths.append(str(path))
        return paths

    def _print_json(self, reply: Reply, image: str | None, files: list[str] = ()) -> None:  # type: ignore[assignment]
        obj: dict[str, Any] = {
            "text": _plain(reply.text),
            "image": image,
            "position_id": reply.position_id,
            "match_id": reply.match_id,
            "buttons": [b.label for b in reply.buttons if not b.disabled],
        }
        if files:
            # The first non-picture file (the .mat of /export) is "file"; "files" lists them all.
            obj["file"] = next((f for f in files if not f.endswith(".png")), files[0])
            obj["files"] = list(files)
        if reply.ephemeral:
            obj["ephemeral"] = True
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.out.flush()

    def _print_reply(self, reply: Reply, image: str | None, files: list[str] = ()) -> None:  # type: ignore[assignment]
        prefix = "(only you) " if reply.ephemeral else ""
        self._print_text(prefix + _plain(reply.text))
        if reply.position_id and reply.game_id is not None:
            board = self.service.text_board(self.actor, self.where, reply.game_id)
            if board:
                self._print_text(board)
        if image:
            self._print_text(t("terminal.image", self.lang, path=image))
        for path in files:
            self._print_text(t("terminal.file", self.lang, path=path))
        labels = [b.label for b in reply.buttons if not b.disabled]
        if labels:
            self._print_text(
                t("terminal.buttons", self.lang, buttons="  ".join(f"[{x}]" for x in labels))
            )
        for select in reply.selects:
            self._print_text(
                t("terminal.select", self.lang, plays=" | ".join(c.label for c in select.choices))
            )
        self.out.write("\n")
        self.out.flush()

    def _print_text(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()


def _plain(text: str) -> str:
    """Discord markdown made readable on a terminal."""
    text = re.sub(r"^-# ", "", text, flags=re.MULTILINE)
    return text.replace("**", "").replace("`", "")


def _options(rest: str) -> dict[str, str]:
    """``level:expert points:5`` -> {"level": "expert", "points": "5"}; a bare word -> "_"."""
    out: dict[str, str] = {}
    try:
        words = shlex.split(rest)
    except ValueError:
        words = rest.split()
    bare = []
    for word in words:
        key, sep, value = word.partition(":")
        if sep and key.isidentifier():
            out[key.lower()] = value
        else:
            bare.append(word)
    if bare:
        out["_"] = " ".join(bare)
    return out


def _number(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        return -1  # refused by the service with a clear message


def _flag(value: str) -> bool:
    return value.strip().lower() not in ("false", "no", "off", "0", "non")


def _maybe_flag(value: str | None) -> bool | None:
    return None if value is None else _flag(value)

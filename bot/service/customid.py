"""Component ids: what a button or a select menu sends back when pressed.

Game components carry the game and the version of its state they were drawn for, so that a
press on a stale message (an earlier state) is refused, never applied twice::

    bg:<game>:<version>:<action>[:<argument>]      e.g. bg:42:17:pt:13-6
    ch:<challenge>:<action>                         e.g. ch:7:accept

Both stay far below Discord's 100-character limit.

>>> GameAction.parse("bg:42:17:pt:13-6")
GameAction(game_id=42, version=17, action='pt', arg='13-6')
>>> GameAction(42, 17, "roll").custom_id
'bg:42:17:roll'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CHALLENGE_ID_RE", "GAME_ID_RE", "ChallengeAction", "GameAction"]

GAME_ID_RE = (
    r"bg:(?P<game>\d{1,12}):(?P<version>\d{1,9}):(?P<action>[a-z_]{1,16})"
    r"(?::(?P<arg>[\w\-/*() ]{1,60}))?"
)
CHALLENGE_ID_RE = r"ch:(?P<challenge>\d{1,12}):(?P<action>accept|decline|cancel)"

_GAME = re.compile(GAME_ID_RE)
_CHALLENGE = re.compile(CHALLENGE_ID_RE)


@dataclass(frozen=True)
class GameAction:
    game_id: int
    version: int
    action: str
    arg: str | None = None

    @property
    def custom_id(self) -> str:
        base = f"bg:{self.game_id}:{self.version}:{self.action}"
        return base if self.arg is None else f"{base}:{self.arg}"

    @classmethod
    def parse(cls, custom_id: str) -> GameAction | None:
        m = _GAME.fullmatch(custom_id)
        if m is None:
            return None
        return cls(int(m["game"]), int(m["version"]), m["action"], m["arg"])


@dataclass(frozen=True)
class ChallengeAction:
    challenge_id: int
    action: str

    @property
    def custom_id(self) -> str:
        return f"ch:{self.challenge_id}:{self.action}"

    @classmethod
    def parse(cls, custom_id: str) -> ChallengeAction | None:
        m = _CHALLENGE.fullmatch(custom_id)
        if m is None:
            return None
        return cls(int(m["challenge"]), m["action"])

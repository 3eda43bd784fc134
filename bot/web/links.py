"""The web board's addresses and what proves them: every value here is an HMAC-SHA-256 of the
server's secret, so nothing is stored and nothing can be guessed.

- A game's page: ``/g/<game>/<key>``, ``key`` the MAC of the game's number. Knowing a game's
  number is not enough to find its page (a game in a DM stays private).
- A player's private link: the page's address with ``?as=<user>.<expires>.<mac>``, scoped to
  one game and one person, valid until ``expires`` (Unix seconds).
- A page's token: each page a player opens carries a fresh one (``<nonce>.<mac>``) that its
  acting requests send in a header; a page of another site can neither read it nor send the
  header without the server's consent (no cross-site request can act).

>>> links = Links(b"k" * 32, "http://127.0.0.1:8080", clock=lambda: 1000.0)
>>> links.game_path(42) == "/g/42/" + links.key(42)
True
>>> token = links.player_token(42, 7)
>>> links.player_of(42, token), links.player_of(43, token), links.player_of(42, token + "x")
(7, None, None)
>>> page = links.page_token(42, 7)
>>> links.check_page(42, 7, page), links.check_page(42, 8, page)
(True, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import time
from collections.abc import Callable, Mapping
from pathlib import Path

__all__ = ["LINK_HOURS", "Links", "load_secret"]

LINK_HOURS = 24  # how long a player's private link lasts
_KEY_CHARS = 16  # 96 bits of the MAC in a page's address
_MAC_CHARS = 22  # 132 bits in a player's or a page's token


def load_secret(env: Mapping[str, str], path: Path) -> bytes:
    """The signing secret: ``WEB_SECRET`` when set, else the one stored in ``path``, made
    (32 random bytes, readable by the owner only) the first time."""
    given = env.get("WEB_SECRET", "").strip()
    if given:
        return given.encode("utf-8")
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        pass
    made = secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(made.hex() + "\n")
    return made


class Links:
    """Makes and checks the web board's addresses and tokens."""

    def __init__(
        self,
        secret: bytes,
        public_url: str,
        *,
        hours: int = LINK_HOURS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._secret = secret
        self.public_url = public_url.rstrip("/")
        self.hours = hours
        self._clock = clock

    def _mac(self, text: str, chars: int) -> str:
        digest = hmac.new(self._secret, text.encode("utf-8"), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii")[:chars]

    def sign(self, text: str) -> str:
        """A MAC of ``text`` with the server's secret (the Activity's sessions, for one)."""
        return self._mac(text, _MAC_CHARS)

    def now(self) -> float:
        return self._clock()

    def key(self, game_id: int) -> str:
        """The unguessable part of game ``game_id``'s address."""
        return self._mac(f"game:{game_id}", _KEY_CHARS)

    def check_key(self, game_id: int, key: str) -> bool:
        return hmac.compare_digest(self.key(game_id), key)

    def game_path(self, game_id: int) -> str:
        return f"/g/{game_id}/{self.key(game_id)}"

    def game_url(self, game_id: int, *, at: int | None = None) -> str:
        """The page anyone may watch (the replay at the ``at``-th action)."""
        url = self.public_url + self.game_path(game_id)
        return url if at is None else f"{url}?at={at}"

    def player_token(self, game_id: int, user_id: int) -> str:
        expires = int(self._clock()) + self.hours * 3600
        mac = self._mac(f"player:{game_id}:{user_id}:{expires}", _MAC_CHARS)
        return f"{user_id}.{expires}.{mac}"

    def player_url(self, game_id: int, user_id: int) -> str:
        """The private link of ``user_id`` for game ``game_id``."""
        return f"{self.game_url(game_id)}?as={self.player_token(game_id, user_id)}"

    def player_of(self, game_id: int, token: str) -> int | None:
        """The person a player's token names, if it is genuine, for this game and not expired."""
        parts = token.split(".")
        if len(parts) != 3 or not all(p.isdigit() for p in parts[:2]) or len(parts[0]) > 20:
            return None
        user_id, expires = int(parts[0]), int(parts[1])
        mac = self._mac(f"player:{game_id}:{user_id}:{expires}", _MAC_CHARS)
        if not hmac.compare_digest(mac, parts[2]) or expires < self._clock():
            return None
        return user_id

    def page_token(self, game_id: int, user_id: int) -> str:
        """A fresh token for one page a player opened."""
        nonce = secrets.token_urlsafe(9)
        return f"{nonce}.{self._mac(f'page:{game_id}:{user_id}:{nonce}', _MAC_CHARS)}"

    def check_page(self, game_id: int, user_id: int, token: str) -> bool:
        nonce, _, mac = token.partition(".")
        expected = self._mac(f"page:{game_id}:{user_id}:{nonce}", _MAC_CHARS)
        return bool(nonce) and hmac.compare_digest(expected, mac)

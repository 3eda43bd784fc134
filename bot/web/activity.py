"""The web board as a Discord Activity (see README, "Discord Activity"): the same page, framed
by the Discord client, showing the game of the channel the Activity was launched in to everyone
in it; its players act through the board's own requests (:mod:`bot.web.server`).

How a launch goes (the page's side is ``static/activity.js``, a small client of the Embedded
App SDK's ``postMessage`` protocol; no Node build):

1. Discord frames ``GET /`` with ``frame_id``, ``instance_id``, ``platform`` and
   ``channel_id`` in the query. The page shakes hands with the client and asks it to
   ``AUTHORIZE`` the ``identify`` scope: the client answers a one-time code.
2. ``POST /api/activity/token`` (``{code, instance_id}``): the server exchanges the code with
   Discord (``/oauth2/token``, the application's secret never leaves the server), reads who it
   belongs to (``/users/@me``), and asks Discord, with the bot's token, where that Activity
   instance runs and who is in it (``/applications/<id>/activity-instances/<instance>``): the
   channel comes from Discord, never from the page, and a person not in the instance is
   refused. It answers Discord's access token (for the page's ``AUTHENTICATE``) and a session
   token: an HMAC of the person, the channel and an expiry (:data:`SESSION_SECONDS`).
3. ``GET /api/activity/game`` (header ``Authorization: Bearer <session>``): the game in
   progress in that channel (:meth:`Service.activity_game`), as the board page's boot data: a
   seated player's carries his private link's token and a page token, so that the board's
   ``/act`` lets him act as the Discord buttons would; anyone else's carries none and watches.

Settings (the environment): ``DISCORD_CLIENT_ID`` and ``DISCORD_CLIENT_SECRET`` turn it on
(with the bot's ``DISCORD_TOKEN``); ``DISCORD_API_URL`` replaces ``https://discord.com/api``
(tests talk to a fake Discord); ``DISCORD_ACTIVITY_ORIGINS`` adds origins the page accepts
messages from besides Discord's own (a local test host). Without them every endpoint answers
that the Activity is not set up.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp

__all__ = [
    "CODE_FORM",
    "DISCORD_ORIGINS",
    "INSTANCE_FORM",
    "ActivitySettings",
    "DiscordApi",
    "DiscordDown",
    "DiscordRefused",
    "Instance",
    "Sessions",
    "UsedCodes",
]

log = logging.getLogger(__name__)

API_URL = "https://discord.com/api"
SESSION_SECONDS = 3600  # how long an Activity's session lasts (the page then authorizes again)
DISCORD_ORIGINS = (
    "https://discord.com",
    "https://ptb.discord.com",
    "https://canary.discord.com",
    "https://discordapp.com",
    "https://ptb.discordapp.com",
    "https://canary.discordapp.com",
    "null",  # a client page without an origin (as the SDK accepts; the mobile apps')
)  # the Discord clients that frame an Activity (the web client, and the desktop apps' pages)
TIMEOUT = 10.0  # seconds for one request to Discord
MAX_ANSWER = 65536  # bytes read of one answer from Discord
CODE_FORM = re.compile(r"[A-Za-z0-9_.~-]{1,200}")
INSTANCE_FORM = re.compile(r"[A-Za-z0-9_-]{1,200}")


@dataclass(frozen=True)
class ActivitySettings:
    """The application's credentials and where Discord's API is."""

    client_id: str
    client_secret: str
    bot_token: str
    api_url: str = API_URL
    origins: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ActivitySettings | None:
        """The settings when ``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET`` and
        ``DISCORD_TOKEN`` are all set, else None (the Activity is off)."""
        client_id = env.get("DISCORD_CLIENT_ID", "").strip()
        secret = env.get("DISCORD_CLIENT_SECRET", "").strip()
        token = env.get("DISCORD_TOKEN", "").strip()
        if not (client_id.isdigit() and secret and token):
            return None
        extra = env.get("DISCORD_ACTIVITY_ORIGINS", "")
        return cls(
            client_id,
            secret,
            token,
            env.get("DISCORD_API_URL", "").strip().rstrip("/") or API_URL,
            tuple(o.strip().rstrip("/") for o in extra.split(",") if o.strip()),
        )


class DiscordRefused(Exception):
    """Discord said no (a 4xx): a bad or used code, a revoked token, an unknown instance;
    401 or 403 to the application's own credentials means they are wrong (:attr:`ours`)."""

    def __init__(self, text: str, status: int) -> None:
        super().__init__(text)
        self.status = status

    @property
    def ours(self) -> bool:
        return self.status in (401, 403)


class DiscordDown(Exception):
    """Discord could not be asked: unreachable, too slow, a 5xx, or an answer not understood."""


@dataclass(frozen=True)
class Instance:
    """Where an Activity instance runs and who is in it, as Discord says."""

    channel_id: int
    guild_id: int | None
    users: frozenset[int]


class DiscordApi:
    """The three questions the Activity asks Discord, over one HTTP client made on the
    running loop (closed with the server). Nothing here blocks the loop."""

    def __init__(self, settings: ActivitySettings) -> None:
        self.settings = settings
        self._http: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None

    async def _ask(self, method: str, path: str, **kwargs: Any) -> Any:
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT))
        url = self.settings.api_url + path
        try:
            async with self._http.request(method, url, **kwargs) as answer:
                body = await answer.content.read(MAX_ANSWER)
                status = answer.status
        except (aiohttp.ClientError, TimeoutError) as failed:
            raise DiscordDown(f"{method} {path}: {failed!r}") from None
        if 400 <= status < 500:
            raise DiscordRefused(f"{method} {path}: {status}", status)
        try:
            if status != 200:
                raise ValueError(status)
            return json.loads(body)
        except ValueError:
            raise DiscordDown(f"{method} {path}: {status}") from None

    async def exchange(self, code: str) -> str:
        """The access token an ``AUTHORIZE`` code stands for (a code serves once)."""
        form = {
            "client_id": self.settings.client_id,
            "client_secret": self.settings.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        answer = await self._ask("POST", "/oauth2/token", data=form)
        token = answer.get("access_token") if isinstance(answer, dict) else None
        if not isinstance(token, str) or not token:
            raise DiscordDown("/oauth2/token: no access_token")
        return token

    async def user(self, access_token: str) -> tuple[int, str]:
        """The person an access token belongs to: his id and the name he shows."""
        headers = {"Authorization": f"Bearer {access_token}"}
        answer = await self._ask("GET", "/users/@me", headers=headers)
        try:
            name = answer.get("global_name") or answer["username"]
            return int(answer["id"]), str(name)[:100]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DiscordDown("/users/@me: not a user") from None

    async def instance(self, instance_id: str) -> Instance:
        """Where the Activity instance ``instance_id`` of this application runs."""
        path = f"/applications/{self.settings.client_id}/activity-instances/{instance_id}"
        headers = {"Authorization": f"Bot {self.settings.bot_token}"}
        answer = await self._ask("GET", path, headers=headers)
        try:
            where = answer["location"]
            guild = where.get("guild_id")
            users = frozenset(int(u) for u in answer["users"])
            return Instance(int(where["channel_id"]), None if guild is None else int(guild), users)
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DiscordDown(f"{path}: not an instance") from None


@dataclass(frozen=True)
class Session:
    """One person in an Activity launched in one channel (of one server, or None)."""

    user_id: int
    channel_id: int
    guild_id: int | None


class Sessions:
    """An Activity's session tokens, ``<user>.<channel>.<guild>.<expires>.<mac>`` (guild 0 out
    of a server): signed with the web board's secret (:meth:`Links.sign
    <bot.web.links.Links.sign>`), nothing stored."""

    def __init__(
        self,
        sign: Callable[[str], str],
        clock: Callable[[], float] = time.time,
        seconds: int = SESSION_SECONDS,
    ) -> None:
        self._sign = sign
        self._clock = clock
        self.seconds = seconds

    def make(self, user_id: int, channel_id: int, guild_id: int | None = None) -> str:
        expires = int(self._clock()) + self.seconds
        fields = f"{user_id}.{channel_id}.{guild_id or 0}.{expires}"
        return f"{fields}.{self._sign('activity:' + fields)}"

    def check(self, token: str) -> Session | None:
        """The session a token stands for, if genuine and not expired."""
        parts = token.split(".")
        if len(parts) != 5 or not all(p.isdigit() and len(p) <= 20 for p in parts[:4]):
            return None
        user_id, channel_id, guild_id, expires = (int(p) for p in parts[:4])
        mac = self._sign("activity:" + ".".join(parts[:4]))
        if not hmac.compare_digest(mac, parts[4]) or expires < self._clock():
            return None
        return Session(user_id, channel_id, guild_id or None)


class UsedCodes:
    """The codes exchanged lately (their hashes), so that a code sent again is refused here
    before Discord is asked; at most ``size`` are kept, the oldest forgotten first."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self._seen: OrderedDict[bytes, None] = OrderedDict()

    @staticmethod
    def _key(code: str) -> bytes:
        return hashlib.sha256(code.encode("utf-8")).digest()

    def take(self, code: str) -> bool:
        """True the first time ``code`` is seen."""
        key = self._key(code)
        if key in self._seen:
            return False
        self._seen[key] = None
        while len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return True

    def forget(self, code: str) -> None:
        """``code`` may be tried again (Discord could not be asked about it)."""
        self._seen.pop(self._key(code), None)

"""The Discord Activity's routes on the web board's server (see :mod:`bot.web.activity`):

- ``GET  /``                   the Activity's page: the board's page, whose script first
  speaks to the Discord client (``static/activity.js``), then loads the board's;
- ``POST /api/activity/token`` ``{code, instance_id}``: a session for the person and channel;
- ``GET  /api/activity/game``  the channel's game as the board's boot data.

Every refusal is a catalog message in the page's language; nothing here decides a game's
rules: the board's ``/act`` presses as a Discord button does.
"""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from aiohttp import web

from bot.i18n import t
from bot.service import Service
from bot.web.activity import (
    CODE_FORM,
    DISCORD_ORIGINS,
    INSTANCE_FORM,
    ActivitySettings,
    DiscordApi,
    DiscordDown,
    DiscordRefused,
    Instance,
    Sessions,
    UsedCodes,
)
from bot.web.links import Links
from bot.web.live import RateLimit
from bot.web.notice import notice

__all__ = ["ACTIVITY_WORDS", "ActivityRoutes", "Board", "activity_page"]

log = logging.getLogger(__name__)
T = TypeVar("T")


class Board(Protocol):
    """What the Activity uses of the board's server (:class:`bot.web.server.WebServer`): its
    page, links, limits and calls, so that a refusal or a state reads as the board's."""

    service: Service
    links: Links
    _page: str

    def _limit(self, request: web.Request, person: int | None = None) -> None: ...
    def _lang(self, request: web.Request) -> str: ...
    def _call(self, fn: Callable[[], T], user: int | None = None) -> Awaitable[T]: ...
    def _generation_state(
        self, game_id: int, viewer: int | None, lang: str, at: int | None
    ) -> Awaitable[dict[str, Any]]: ...


ACTIVITY_WORDS = ("connecting", "outside", "declined", "no_game", "expired", "player", "watcher")
EXCHANGES = (0.2, 10)  # code exchanges an address may ask: a second, at once
_BOARD_SCRIPT = '<script src="../../static/board.js" defer></script>'
_STYLE = '<link rel="stylesheet" href="../../static/board.css">'
_BODY = "<body>"


def activity_page(board_page: str) -> str:
    """The Activity's page made from the board's: its own script first (which loads the
    board's once it has the game), its own style, and a line for what it is doing."""
    for anchor in (_BOARD_SCRIPT, _STYLE, _BODY):
        if anchor not in board_page:  # the board's page changed: say so at once (tests)
            raise RuntimeError(f"page.html has no {anchor!r} any more")
    return (
        board_page.replace(
            _BOARD_SCRIPT,
            '<script id="activity" type="application/json">__ACTIVITY__</script>\n'
            '<script src="static/activity.js" defer></script>',
        )
        .replace(_STYLE, _STYLE + '\n<link rel="stylesheet" href="static/activity.css">')
        .replace(_BODY, _BODY + '\n<p id="activity-status" role="status"></p>', 1)
    )


class ActivityRoutes:
    """The Activity's page and endpoints, for one :class:`~bot.web.server.WebServer`."""

    def __init__(
        self,
        server: Board,
        settings: ActivitySettings | None,
        page_words: tuple[str, ...],
        script_json: Callable[[object], str],
    ) -> None:
        self.server = server
        self.settings = settings
        self.page_words = page_words  # the board's words (bot.web.server.PAGE_WORDS)
        self.script_json = script_json
        self.api = None if settings is None else DiscordApi(settings)
        links = server.links
        self.sessions = Sessions(links.sign, links.now)
        self.codes = UsedCodes()
        self.exchanges = RateLimit(*EXCHANGES)  # code exchanges per address
        self._page = activity_page(server._page)

    def add(self, app: web.Application) -> None:
        app.router.add_get("/", self.page)
        app.router.add_post("/api/activity/token", self.token)
        app.router.add_get("/api/activity/game", self.game)
        app.on_cleanup.append(self._close)

    async def _close(self, app: web.Application) -> None:
        if self.api is not None:
            await self.api.close()

    def _no(self, request: web.Request, status: int, key: str) -> web.Response:
        text = t(key, self.server._lang(request))
        return web.json_response({"ok": False, "text": text}, status=status, headers=_NO_STORE)

    # -- the page --------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        self.server._limit(request)
        lang = self.server._lang(request)
        if self.settings is None and "frame_id" not in request.query:
            # No Activity, and not framed by Discord: a visitor come back from another page.
            # (Framed, the page says the Activity is not set up: a hint for the bot's host.)
            return notice(request, lang, 200, t("web.home", lang), back=False)
        conf = {
            "client_id": None if self.settings is None else self.settings.client_id,
            "origins": [*DISCORD_ORIGINS, *(self.settings.origins if self.settings else ())],
            "off": t("activity.off", lang),
            "lang": lang,
            "words": {w: t(f"activity.{w}", lang) for w in ACTIVITY_WORDS},
        }
        text = (
            self._page.replace("__LANG__", lang)
            .replace("__TITLE__", html.escape(t("activity.title", lang)))
            .replace("__BOOT__", "{}")
            .replace("__ACTIVITY__", self.script_json(conf))
        )
        return web.Response(text=text, content_type="text/html", headers=_NO_STORE)

    # -- the code's exchange -----------------------------------------------------------------

    async def token(self, request: web.Request) -> web.Response:
        self.server._limit(request)
        if not self.exchanges.allow(request.remote or "?"):
            return self._no(request, 429, "web.too_many")
        if self.api is None:
            return self._no(request, 503, "activity.off")
        try:
            body = await _json_body(request)
        except web.HTTPRequestEntityTooLarge:
            return self._no(request, 413, "web.too_big")
        if body is None:
            return self._no(request, 400, "web.bad_request")
        code, instance_id = body.get("code"), body.get("instance_id")
        if not (_matches(CODE_FORM, code) and _matches(INSTANCE_FORM, instance_id)):
            return self._no(request, 400, "web.bad_request")
        assert isinstance(code, str) and isinstance(instance_id, str)
        if not self.codes.take(code):
            return self._no(request, 403, "activity.bad_code")  # a code serves once
        try:
            access = await self.api.exchange(code)
        except DiscordRefused as refused:
            if refused.ours:  # the application's id or secret: the host's to fix
                log.error("activity: Discord refused DISCORD_CLIENT_ID/SECRET: %s", refused)
                return self._no(request, 503, "activity.off")
            log.info("activity: Discord refused a code: %s", refused)
            return self._no(request, 403, "activity.bad_code")
        except DiscordDown as down:
            self.codes.forget(code)
            log.warning("activity: Discord could not be asked: %s", down)
            return self._no(request, 502, "activity.discord_down")
        return await self._signed_in(request, access, instance_id)

    async def _signed_in(self, request: web.Request, access: str, instance_id: str) -> web.Response:
        """The session of the person ``access`` stands for, in the instance's channel."""
        assert self.api is not None
        try:
            user_id, name = await self.api.user(access)
        except DiscordRefused:
            return self._no(request, 403, "activity.bad_code")
        except DiscordDown as down:
            log.warning("activity: Discord could not be asked: %s", down)
            return self._no(request, 502, "activity.discord_down")
        where = await self._instance(instance_id)
        if where is None:
            return self._no(request, 502, "activity.discord_down")
        if where is _OURS:
            return self._no(request, 503, "activity.off")
        if user_id not in where.users:
            return self._no(request, 403, "activity.not_here")
        session = self.sessions.make(user_id, where.channel_id, where.guild_id)
        user = {"id": str(user_id), "name": name}
        answer = {"ok": True, "access_token": access, "session": session, "user": user}
        return web.json_response(answer, headers=_NO_STORE)

    async def _instance(self, instance_id: str) -> Instance | None:
        """Where the instance runs (no users when Discord does not know it), None when
        Discord could not be asked, :data:`_OURS` when it refused the bot's token."""
        assert self.api is not None
        try:
            return await self.api.instance(instance_id)
        except DiscordRefused as refused:
            if refused.ours:  # the bot's token, or an instance of another application
                log.error("activity: Discord refused the bot's token: %s", refused)
                return _OURS
            return Instance(0, None, frozenset())
        except DiscordDown as down:
            log.warning("activity: Discord could not be asked: %s", down)
            return None

    # -- the channel's game --------------------------------------------------------------------

    async def game(self, request: web.Request) -> web.Response:
        self.server._limit(request)
        if self.api is None:
            return self._no(request, 503, "activity.off")
        given = request.headers.get("Authorization", "")[:200]
        session = self.sessions.check(given[7:]) if given.startswith("Bearer ") else None
        if session is None:
            return self._no(request, 401, "activity.expired")
        self.server._limit(request, session.user_id)
        server, user = self.server, session.user_id
        channel, guild = session.channel_id, session.guild_id
        game_id = await server._call(lambda: server.service.activity_game(channel, guild))
        lang = server._lang(request)
        if game_id is None:
            answer = {"ok": True, "game": None, "text": t("activity.no_game", lang)}
            return web.json_response(answer, headers=_NO_STORE)
        key = await server._call(lambda: server.service.web_key(game_id))
        seated = user in key.players
        state = await server._generation_state(game_id, user if seated else None, lang, None)
        boot = self._boot(game_id, user if seated else None, state, lang)
        return web.json_response({"ok": True, "game": game_id, "boot": boot}, headers=_NO_STORE)

    def _boot(
        self, game_id: int, player: int | None, state: dict[str, Any], lang: str
    ) -> dict[str, Any]:
        """What the board's page carries (see ``WebServer.page``), for a seated player (his
        link's token and a page token: he may act) or for anyone else (none: he watches)."""
        links = self.server.links
        return {
            "state": state,
            "base": links.game_path(game_id),
            "as": None if player is None else links.player_token(game_id, player),
            "page": None if player is None else links.page_token(game_id, player),
            "lang": lang,
            "words": {w: t(f"web.{w}", lang) for w in self.page_words},
        }


async def _json_body(request: web.Request) -> dict[str, Any] | None:
    try:
        body = json.loads(await request.read())
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


def _matches(pattern: Any, value: object) -> bool:
    return isinstance(value, str) and pattern.fullmatch(value) is not None


_NO_STORE = {"Cache-Control": "no-store"}
_OURS = Instance(-1, None, frozenset())  # Discord refused the bot's own credentials

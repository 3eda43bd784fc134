"""The web board's HTTP server (aiohttp, on the event loop of the process that runs it).

Routes, under a game's unguessable address ``/g/<game>/<key>`` (:mod:`bot.web.links`):

- ``GET  …``          the page (``?as=`` a player's private link, ``?at=K`` a replay,
  ``?lang=en|fr`` over the browser's Accept-Language);
- ``GET  …/state``    the page's data as JSON (same parameters);
- ``GET  …/events``   server-sent events: the state again each time the game changes;
- ``POST …/act``      a player's action (JSON ``{version, action, arg}``, header
  ``X-Page-Token``), pressed as the Discord button would be (:meth:`Service.press`);
- ``POST …/review``   ask for the game's review (:meth:`Service.web_review`, ``/review``'s);
- ``GET  …/game.mat`` the game's ``.mat`` file; ``GET /static/<file>`` the page's script and style.

Any other address gets the board's own page saying there is nothing there (:mod:`bot.web.notice`).

Every service call runs in the pool of ordinary interactions (:data:`bot.heavy.POOLS`), as a
button press does: the loop never waits for the database. Nothing here says why an action is
refused: the service does, in the player's language.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar

from aiohttp import web

from bot import heavy
from bot.i18n import LANGUAGES, language, t
from bot.service import Actor, Service, Where
from bot.service.customid import GameAction, Press
from bot.service.webboard import GameKey
from bot.web.activity import ActivitySettings
from bot.web.activity_routes import ActivityRoutes
from bot.web.links import Links
from bot.web.live import Hub, RateLimit, States
from bot.web.notice import notice, styled_not_found
from db.errors import GameNotFound
from db.notify import Listener

__all__ = ["MAX_BODY", "PAGE_WORDS", "WebServer"]

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_BODY = 2048  # bytes of an acting request
KEEPALIVE = 15.0  # seconds between comments on a quiet event stream
STALLED = 10.0  # seconds a page's stream may stop reading before it is closed
PRESSES = {
    "roll": Press.ROLL,
    "double": Press.DOUBLE,
    "take": Press.TAKE,
    "drop": Press.DROP,
    "accept": Press.ACCEPT,
    "reject": Press.REJECT,
    "undo": Press.UNDO,
    "confirm": Press.CONFIRM,
    "resign": Press.RESIGN,
    "move": Press.POINT,
    "claim": Press.CLAIM,
}
PAGE_WORDS = (
    "spectator", "player", "first", "prev", "next", "last", "pips", "score", "cube", "clock",
    "live", "offline", "mat", "replay", "live_page", "other_lang", "die_in_use", "xgid_turn",
)  # fmt: skip
STATIC = resources.files("bot.web") / "static"
_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}


class WebServer:
    """The web board of one service, served on ``host:port`` while started."""

    def __init__(
        self,
        service: Service,
        links: Links,
        host: str,
        port: int,
        activity: ActivitySettings | None = None,
    ) -> None:
        self.service = service
        self.activity = activity  # the Discord Activity's settings (bot.web.activity)
        self.links = links
        self.host, self.port = host, port
        self.hub: Hub | None = None
        self.listener: Listener | None = None  # news from other processes (PostgreSQL)
        self.states: States[dict[str, Any]] = States(self._read_state)
        self.news: States[bytes] = States(self._read_news)  # a stream's event, encoded once
        self.per_address = RateLimit(rate=20, burst=40)
        self.per_person = RateLimit(rate=5, burst=15)
        self._runner: web.AppRunner | None = None
        self._page = (STATIC / "page.html").read_text(encoding="utf-8")

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[styled_not_found(self._lang)])
        app.router.add_get(r"/g/{game:\d{1,10}}/{key}", self.page)
        app.router.add_get(r"/g/{game:\d{1,10}}/{key}/state", self.state)
        app.router.add_get(r"/g/{game:\d{1,10}}/{key}/events", self.events)
        app.router.add_post(r"/g/{game:\d{1,10}}/{key}/act", self.act)
        app.router.add_get(r"/g/{game:\d{1,10}}/{key}/game.mat", self.mat)
        app.router.add_post(r"/g/{game:\d{1,10}}/{key}/review", self.review)
        app.router.add_get(r"/static/{name:[a-z]+\.(?:js|css)}", self.static)
        ActivityRoutes(self, self.activity, PAGE_WORDS, _script_json).add(app)
        app.on_startup.append(self._started)
        app.on_shutdown.append(self._stopping)
        return app

    async def _started(self, app: web.Application) -> None:
        self.hub = Hub(asyncio.get_running_loop())
        self.service.on_game_changed(self._changed)
        self.service.serve_web(self.links)  # replies carry their games' links
        url = self.service.database_url
        # Changes made by other bot processes on the same PostgreSQL reach us by NOTIFY.
        if url is not None and url.get_backend_name() == "postgresql":
            self.listener = Listener(url, self.service.deps.origin, self.hub.changed, self._missed)
            self.listener.start()

    def _missed(self) -> None:
        """The news from other processes was interrupted: every open page reads again."""
        if self.hub is not None:
            for game_id in self.hub.games():
                self.hub.changed(game_id)

    def _changed(self, game_id: int) -> None:
        if self.hub is not None:
            self.hub.changed_from_thread(game_id)

    async def _stopping(self, app: web.Application) -> None:
        if self.listener is not None:
            await self.listener.stop()
        self.service.serve_web(None)
        if self.hub is not None:
            self.hub.close()

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app(), handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:  # an ephemeral port (tests): the one the system chose
            server = site._server
            sockets = getattr(server, "sockets", None) or []
            self.port = sockets[0].getsockname()[1] if sockets else self.port
        log.info(
            "web board on http://%s:%s (public: %s)", self.host, self.port, self.links.public_url
        )

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- helpers ---------------------------------------------------------------------------

    async def _call(self, fn: Callable[[], T], user: int | None = None) -> T:
        return await heavy.POOLS.ordinary_submit(fn, user=user)

    async def _read_state(
        self, game_id: int, viewer: int | None, lang: str, at: int | None
    ) -> dict[str, Any]:
        state = await self._call(lambda: self.service.web_state(game_id, viewer, lang, at))
        state["mat"] = self.links.game_path(game_id) + "/game.mat"
        state["replay"] = self.links.game_path(game_id) + "?at="
        state["live_url"] = self.links.game_path(game_id)
        return state

    async def _read_news(
        self, generation: int, game_id: int, viewer: int | None, lang: str
    ) -> bytes:
        state = await self.states.get(generation, game_id, viewer, lang, None)
        return f"data: {json.dumps(state, ensure_ascii=False)}\n\n".encode()

    def _game(self, request: web.Request) -> int:
        game_id = int(request.match_info["game"])
        if not self.links.check_key(game_id, request.match_info["key"]):
            raise self._refuse(request, 404, "web.no_game")
        return game_id

    def _viewer(self, request: web.Request, game_id: int) -> int | None:
        token = request.query.get("as")
        if token is None:
            return None
        user = self.links.player_of(game_id, token)
        if user is None:
            raise self._refuse(request, 403, "web.bad_link")
        return user

    @staticmethod
    def _lang(request: web.Request) -> str:
        asked = request.query.get("lang")
        if asked in LANGUAGES:
            return asked
        header = request.headers.get("Accept-Language", "")[:200]
        for part in header.split(","):
            tag = part.split(";")[0].strip().replace("_", "-").split("-")[0].lower()
            if tag in LANGUAGES:
                return language(tag)
        return "en"

    def _refuse(self, request: web.Request, status: int, key: str) -> web.HTTPException:
        body = json.dumps({"ok": False, "text": t(key, self._lang(request))})
        if status == 413:
            return web.HTTPRequestEntityTooLarge(
                MAX_BODY, MAX_BODY + 1, text=body, content_type="application/json"
            )
        kinds = {403: web.HTTPForbidden, 404: web.HTTPNotFound, 429: web.HTTPTooManyRequests}
        kind = kinds.get(status, web.HTTPBadRequest)
        return kind(text=body, content_type="application/json")

    @staticmethod
    def _at(request: web.Request) -> int | None:
        raw = request.query.get("at", "")
        return int(raw) if raw.isdigit() and len(raw) <= 6 else None

    def _limit(self, request: web.Request, person: int | None = None) -> None:
        """Refused when the address (or, with ``person``, that person) asks too often."""
        allowed = (
            self.per_address.allow(request.remote or "?")
            if person is None
            else self.per_person.allow(person)
        )
        if not allowed:
            raise self._refuse(request, 429, "web.too_many")

    async def _generation_state(
        self, game_id: int, viewer: int | None, lang: str, at: int | None
    ) -> dict[str, Any]:
        generation = self.hub.generation.get(game_id, 0) if self.hub else 0
        try:
            return await self.states.get(generation, game_id, viewer, lang, at)
        except GameNotFound:
            body = json.dumps({"ok": False, "text": t("web.no_game", lang)})
            raise web.HTTPNotFound(text=body, content_type="application/json") from None

    # -- routes ----------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        try:
            return await self._page_of(request)
        except web.HTTPException as refused:
            if refused.status not in (403, 404, 429):
                raise
            text = json.loads(refused.text or "{}").get("text", "")
            return notice(request, self._lang(request), refused.status, text)

    async def _page_of(self, request: web.Request) -> web.Response:
        self._limit(request)
        game_id = self._game(request)
        viewer = self._viewer(request, game_id)
        lang = self._lang(request)
        state = await self._generation_state(game_id, viewer, lang, self._at(request))
        boot = {
            "state": state,
            "base": self.links.game_path(game_id),
            "as": request.query.get("as"),
            "page": None if viewer is None else self.links.page_token(game_id, viewer),
            "lang": lang,
            "words": {w: t(f"web.{w}", lang) for w in PAGE_WORDS},
        }
        title = t("web.title", lang, id=game_id, p0=state["names"][0], p1=state["names"][1])
        text = (
            self._page.replace("__LANG__", lang)
            .replace("__TITLE__", html.escape(title))
            .replace("__BOOT__", _script_json(boot))
        )
        return web.Response(text=text, content_type="text/html", headers=_NO_STORE)

    async def state(self, request: web.Request) -> web.Response:
        self._limit(request)
        game_id = self._game(request)
        viewer = self._viewer(request, game_id)
        state = await self._generation_state(
            game_id, viewer, self._lang(request), self._at(request)
        )
        return web.json_response(state, headers=_NO_STORE)

    async def events(self, request: web.Request) -> web.StreamResponse:
        self._limit(request)
        game_id = self._game(request)
        viewer = self._viewer(request, game_id)
        lang = self._lang(request)
        assert self.hub is not None
        response = web.StreamResponse(headers={**_NO_STORE, "Content-Type": "text/event-stream"})
        await response.prepare(request)
        wake = self.hub.join(game_id)
        wake.set()  # the state as it is now first: a change made since the page was read
        try:
            await self._stream(response, wake, game_id, viewer, lang)
        except (ConnectionError, TimeoutError, asyncio.CancelledError):
            pass  # the page went away, stopped reading, or the server stops
        finally:
            self.hub.leave(game_id, wake)
        return response

    async def _stream(
        self,
        response: web.StreamResponse,
        wake: asyncio.Event,
        game_id: int,
        viewer: int | None,
        lang: str,
    ) -> None:
        assert self.hub is not None
        await asyncio.wait_for(response.write(b"retry: 1000\n\n"), STALLED)
        while not self.hub.closing:
            try:
                await asyncio.wait_for(wake.wait(), KEEPALIVE)
            except TimeoutError:
                await asyncio.wait_for(response.write(b": keepalive\n\n"), STALLED)
                continue
            wake.clear()
            if self._closing():
                break
            generation = self.hub.generation.get(game_id, 0)
            news = await self.news.get(generation, generation, game_id, viewer, lang)
            await asyncio.wait_for(response.write(news), STALLED)

    def _closing(self) -> bool:
        return self.hub is None or self.hub.closing

    async def act(self, request: web.Request) -> web.Response:
        self._limit(request)
        game_id = self._game(request)
        user = self._viewer(request, game_id)
        lang = self._lang(request)
        if user is None:
            raise self._refuse(request, 403, "web.watch_only")
        page = request.headers.get("X-Page-Token", "")
        if not self.links.check_page(game_id, user, page):
            raise self._refuse(request, 403, "web.forged")
        self._limit(request, user)
        custom_id = await self._custom_id(request, game_id)
        key = await self._call(lambda: self.service.web_key(game_id))
        if user not in key.players:
            raise self._refuse(request, 403, "web.watch_only")
        actor = Actor(user, _name_of(key, user), locale=lang)
        where = Where(channel_id=key.channel_id, guild_id=key.guild_id, web=True)
        try:
            reply = await self._call(lambda: self.service.press(actor, where, custom_id), user)
        except heavy.Busy:
            raise self._refuse(request, 429, "web.busy") from None
        state = await self._read_state(game_id, user, lang, None)
        ok = not reply.ephemeral
        # What happened on the way (the computer's roll and play, its take, forced moves):
        # the state alone shows only where it led.
        events = list(reply.events) if ok else []
        answer = {"ok": ok, "text": "" if ok else reply.text, "events": events, "state": state}
        return web.json_response(answer)

    async def _custom_id(self, request: web.Request, game_id: int) -> str:
        try:
            body = await request.json()
            press = PRESSES[body["action"]]
            version, arg = body["version"], body.get("arg")
            if type(version) is not int or not (arg is None or isinstance(arg, str)):
                raise TypeError(version)
            return GameAction(game_id, version, press, arg).custom_id
        except web.HTTPRequestEntityTooLarge:
            raise self._refuse(request, 413, "web.too_big") from None
        except (ValueError, KeyError, TypeError, AttributeError):
            raise self._refuse(request, 400, "web.bad_request") from None

    async def mat(self, request: web.Request) -> web.Response:
        self._limit(request)
        game_id = self._game(request)
        found = await self._call(lambda: self.service.web_mat(game_id))
        if found is None:
            raise self._refuse(request, 404, "web.no_game")
        name, data = found
        disposition = f'attachment; filename="{name}"'
        return web.Response(
            body=data, content_type="text/plain", headers={"Content-Disposition": disposition}
        )

    async def review(self, request: web.Request) -> web.Response:
        """Ask for the game's review (``/review game:<id>``, its refusals included), then
        the page's data at ``?at=`` with it. A JSON request only: a form of another site
        cannot send one. Anyone who may see the page may ask: a game is reviewed once."""
        self._limit(request)
        game_id = self._game(request)
        viewer = self._viewer(request, game_id)
        lang = self._lang(request)
        if request.content_type != "application/json":
            raise self._refuse(request, 400, "web.bad_request")
        try:  # in the reviews' lane, as /review runs (one at a time per game)
            refused = await heavy.POOLS.analysis.run(
                lambda: self.service.web_review(game_id, viewer, lang), key=("review", game_id)
            )
        except heavy.Busy:
            raise self._refuse(request, 429, "web.busy") from None
        if refused is not None:
            body = {"ok": False, "text": refused}
            return web.json_response(body, status=403, headers=_NO_STORE)
        state = await self._read_state(game_id, viewer, lang, self._at(request))
        return web.json_response({"ok": True, "text": "", "state": state}, headers=_NO_STORE)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        path = STATIC / name
        if not path.is_file():
            raise web.HTTPNotFound()
        kind = _TYPES["." + name.rsplit(".", 1)[1]]
        headers = {"Cache-Control": "public, max-age=3600"}
        return web.Response(body=path.read_bytes(), content_type=kind, headers=headers)


_NO_STORE = {"Cache-Control": "no-store"}


def _name_of(key: GameKey, user: int) -> str:
    """The stored name of a person playing this game (his own seat's), else his number: the
    service keeps the name it has (see ``Deps.who``)."""
    for seat, player in enumerate(key.players):
        if player == user:
            return key.names[seat]
    return str(user)


def _script_json(value: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``</script>`` or comment can close it."""
    text = json.dumps(value, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")

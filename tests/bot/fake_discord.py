"""A fake of what the Discord Activity talks to, for tests (no network here): Discord's HTTP API
(the code's exchange, ``/users/@me``, an Activity instance) on an aiohttp app, and a host page
that frames the Activity and speaks the Embedded App SDK's ``postMessage`` protocol as the
Discord client does (handshake, READY, AUTHORIZE, AUTHENTICATE).

A code ``good-<user id>-<anything>`` is genuine for that user, once; the access token it gives
is ``tok-<user id>``. Instance ``i-1`` runs in :data:`CHANNEL_ID` with :data:`IN_INSTANCE`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from aiohttp import web

CLIENT_ID = "123456789012345678"
CLIENT_SECRET = "s3cret"
BOT_TOKEN = "bot-token"
CHANNEL_ID = 5000
GUILD_ID = 9000
IN_INSTANCE = (101, 202, 303)  # Alice, Bob and Carol (a spectator)
NAMES = {101: "Alice", 202: "Bob", 303: "Carol <b>&", 404: "Dave"}


@dataclass
class FakeDiscord:
    """What the fake was asked, and how it behaves now."""

    down: bool = False  # answer 503 to everything
    used: set[str] = field(default_factory=set)
    exchanged: list[str] = field(default_factory=list)  # codes sent to /oauth2/token
    hang: asyncio.Event | None = None  # the code's exchange waits for it (a slow Discord)

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_post("/api/oauth2/token", self.token)
        app.router.add_get("/api/users/@me", self.me)
        app.router.add_get("/api/applications/{app}/activity-instances/{instance}", self.instance)
        app.router.add_get("/host", self.host)
        return app

    async def token(self, request: web.Request) -> web.Response:
        if self.down:
            return web.Response(status=503, text="upstream connect error")
        form = await request.post()
        code = str(form.get("code", ""))
        self.exchanged.append(code)
        if self.hang is not None:
            await self.hang.wait()
        genuine = (
            form.get("client_id") == CLIENT_ID
            and form.get("client_secret") == CLIENT_SECRET
            and form.get("grant_type") == "authorization_code"
        )
        if not genuine:
            return web.json_response({"error": "invalid_client"}, status=401)
        parts = code.split("-")
        if len(parts) < 2 or parts[0] != "good" or code in self.used:
            return web.json_response({"error": "invalid_grant"}, status=400)
        self.used.add(code)
        answer = {"access_token": f"tok-{parts[1]}", "token_type": "Bearer", "scope": "identify"}
        return web.json_response(answer)

    async def me(self, request: web.Request) -> web.Response:
        if self.down:
            return web.Response(status=503)
        token = request.headers.get("Authorization", "").removeprefix("Bearer tok-")
        if not token.isdigit():
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        user = int(token)
        name = NAMES.get(user, "someone")
        return web.json_response({"id": str(user), "username": name.lower(), "global_name": name})

    async def instance(self, request: web.Request) -> web.Response:
        if self.down:
            return web.Response(status=503)
        if request.headers.get("Authorization") != f"Bot {BOT_TOKEN}":
            return web.json_response({"message": "401: Unauthorized"}, status=401)
        if request.match_info["app"] != CLIENT_ID or request.match_info["instance"] != "i-1":
            return web.json_response({"message": "Unknown Activity Instance"}, status=404)
        where = {"id": f"gc-{GUILD_ID}-{CHANNEL_ID}", "kind": "gc"}
        location = where | {"channel_id": str(CHANNEL_ID), "guild_id": str(GUILD_ID)}
        users = [str(u) for u in IN_INSTANCE]
        answer = {"application_id": CLIENT_ID, "instance_id": "i-1", "launch_id": "1"}
        return web.json_response(answer | {"location": location, "users": users})

    async def host(self, request: web.Request) -> web.Response:
        """The Discord client's side: frames ``?activity=<url>`` and answers its messages
        with ``?code=<code>``; ``window.log`` keeps what the Activity sent."""
        activity, code = request.query["activity"], request.query["code"]
        page = HOST_PAGE.replace("__ACTIVITY__", json.dumps(activity))
        page = page.replace("__CODE__", json.dumps(code)).replace(
            "__CLIENT__", json.dumps(CLIENT_ID)
        )
        return web.Response(text=page, content_type="text/html")


HOST_PAGE = """<!doctype html>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fake Discord client</title>
<style>body { margin: 0 } iframe { border: 0; width: 100vw; height: 100vh; display: block }</style>
<iframe id="activity" name="activity"></iframe>
<script>
"use strict";
const url = new URL(__ACTIVITY__);
const frame = document.getElementById("activity");
window.log = [];
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || event.origin !== url.origin) return;
  const [op, p] = event.data;
  window.log.push([op, p.cmd || null, p.frame_id || null, p.client_id || null]);
  const reply = (message) => frame.contentWindow.postMessage(message, url.origin);
  if (op === 0 && p.v === 1 && p.encoding === "json" && p.client_id === __CLIENT__) {
    reply([1, { cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: {} } }]);
  } else if (op === 1 && p.cmd === "AUTHORIZE") {
    const ok = p.args.client_id === __CLIENT__ && p.args.scope.includes("identify");
    const refused = { code: 4009, message: "no" };
    reply([1, ok ? { cmd: "AUTHORIZE", evt: null, nonce: p.nonce, data: { code: __CODE__ } }
                 : { cmd: "AUTHORIZE", evt: "ERROR", nonce: p.nonce, data: refused }]);
  } else if (op === 1 && p.cmd === "AUTHENTICATE") {
    window.authenticated = p.args.access_token;
    reply([1, { cmd: "AUTHENTICATE", evt: null, nonce: p.nonce,
                data: { access_token: p.args.access_token, scopes: ["identify"], user: {} } }]);
  }
});
frame.src = url.href;
</script>
"""

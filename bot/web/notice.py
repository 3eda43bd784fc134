"""The web board's own page for an address with nothing to show (an unknown address, a game
that is not there, a link that is not valid): the board's style, a catalog message in the
visitor's language, a link back and the other language's switch, instead of the HTTP
library's bare "404: Not Found"."""

from __future__ import annotations

import html
from collections.abc import Callable
from importlib import resources

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from bot.i18n import LANGUAGES, t

__all__ = ["NOTICE", "notice", "styled_not_found"]

NOTICE = (resources.files("bot.web") / "static" / "notice.html").read_text(encoding="utf-8")


def _up(request: web.Request) -> str:
    """The way from the request's address back to the server's root, relative (the server
    may sit under a path of a reverse proxy): ``./`` from ``/x``, ``../../`` from ``/g/1/k``.
    Counted on the address as sent, so that an escaped slash never makes it short."""
    depth = request.raw_path.split("?", 1)[0].count("/") - 1
    return "../" * depth or "./"


def _back_link(up: str, lang: str) -> str:
    word = html.escape(t("web.back", lang))
    return f'  <p><a id="back" href="{html.escape(up)}">{word}</a></p>\n'


def notice(
    request: web.Request, lang: str, status: int, text: str, *, back: bool = True
) -> web.Response:
    """The page saying ``text`` (already in ``lang``) with ``status``, and a link back unless
    ``back`` is off (the server's own root: back from there led to itself)."""
    title = t("web.not_found_title" if status == 404 else "web.notice_title", lang)
    other = next(code for code in LANGUAGES if code != lang)
    up = _up(request)
    page = (
        NOTICE.replace("__LANG__", lang)
        .replace("__TITLE__", html.escape(title))
        .replace("__STATIC__", up + "static/")
        .replace("__SWITCH__", html.escape(f"?lang={other}"))
        .replace("__OTHER__", html.escape(t("web.other_lang", lang)))
        .replace("__TEXT__", html.escape(text))
        .replace("__BACKLINK__", _back_link(up, lang) if back else "")
    )
    headers = {"Cache-Control": "no-store"}
    return web.Response(status=status, text=page, content_type="text/html", headers=headers)


def styled_not_found(lang_of: Callable[[web.Request], str]) -> Middleware:
    """A middleware answering the HTTP library's own "not found" (no route for the address,
    a static file that is not there) with :func:`notice`; a refusal in JSON (the page's data
    and actions) goes out as it is."""

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPNotFound as missing:
            if missing.content_type == "application/json":
                raise
            lang = lang_of(request)
            return notice(request, lang, 404, t("web.not_found", lang))

    return middleware

"""The FastAPI application: wiring only."""

from __future__ import annotations

import asyncio
import ctypes
import json
import os
from contextlib import asynccontextmanager
from typing import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from app import logs
from app.collector import collector
from app.api import archive as api_archive
from app.api import takeback as api_takeback
from app.api import bots as api_bots
from app.api import games as api_games
from app.api import hosting as api_hosting
from app.api import notifications as api_notifications
from app.api import ws as api_ws
from app.api import direct as api_direct
from app.api.headers import MAX_BODY, secured
from app.api import chat as api_chat
from app.api import endings as api_endings
from app.api.ratelimit import ACTION_MESSAGE, CHAT_MESSAGE, CREATE_MESSAGE, make_limiter
from app.hub import make_hub
from app.hub.local import Hub
from app.bots import hooks as bot_hooks
from app.notify import hooks as notify_hooks
from app.settings import ROOT, Settings, get_settings
from app.store.db import Database
from app.store.migrate import upgrade
from app.table.errors import TableError
from app.table.history import History
from app.table.service import Table
from app.web import bots as bot_pages
from app.web import endings as ending_pages
from app.web import hosting as host_pages
from app.web import pages
from app.web import replay as replay_pages
from app.web import social as social_pages


class Keydom(FastAPI):
    """The app. A game's websocket (app.api.ws) is served straight from here, behind only the
    proxy-headers step that every request gets: the rest of the stack is for HTTP (the
    security headers and body limit pass websockets by), and keeping its layers alive for
    every socket's lifetime cost memory per connected seat and CPU per frame. So is an
    ordinary action (app.api.direct): the one request every move makes, whose way through
    FastAPI's layers cost about a sixth of the server's work per action."""

    _sockets: ASGIApp | None = None
    _actions: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            self._sockets = self._sockets or self._behind_proxies(self._serve_socket)
            scope["app"] = self
            await self._sockets(scope, receive, send)
            return
        if api_direct.takes(scope):
            self._actions = self._actions or self._behind_proxies(self._serve_action)
            scope["app"] = self
            await self._actions(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def _behind_proxies(self, serve: ASGIApp) -> ASGIApp:
        """``serve`` with the proxy-headers step every request gets (see create_app)."""
        return ProxyHeadersMiddleware(serve, trusted_hosts=self.state.settings.forwarded_allow_ips)

    async def _serve_socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not await api_ws.serve_directly(scope, receive, send):
            await super().__call__(scope, receive, send)  # no such socket: the router refuses it

    async def _serve_action(self, scope: Scope, receive: Receive, send: Send) -> None:
        await api_direct.serve(self, scope, receive, send, everything_else=super().__call__)


def create_app(settings: Settings | None = None, *, migrate: bool = True) -> FastAPI:
    settings = settings or get_settings()
    logs.install()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if migrate and not os.environ.get("KEYDOM_MIGRATED"):
            await asyncio.to_thread(upgrade, settings.database_url)
        db = Database(settings.database_url)
        hub = make_hub(settings)
        await hub.start()
        app.state.table = Table(db, hub)
        app.state.history = History(app.state.table)
        notifier = await notify_hooks.start(app, app.state.table)
        bots = await bot_hooks.start(app, app.state.table)
        app.state.create_limiter = make_limiter(settings, db.engine, "create", settings.create_per_minute,
                                                settings.create_burst, CREATE_MESSAGE)
        # Actions draw a second's worth at a time: one round trip to the shared bucket per lease.
        app.state.action_limiter = make_limiter(settings, db.engine, "act", settings.actions_per_minute,
                                                settings.actions_burst, ACTION_MESSAGE,
                                                lease=max(1, settings.actions_per_minute // 60))
        app.state.chat_limiter = make_limiter(settings, db.engine, "chat", settings.chat_per_minute,
                                              settings.chat_burst, CHAT_MESSAGE)
        limiters = (app.state.create_limiter, app.state.action_limiter, app.state.chat_limiter)
        for limiter in limiters:
            await limiter.start()
        collector.install()  # short young collections, survivors frozen (app/collector.py)
        janitor = asyncio.create_task(_give_back_memory(hub))
        collecting = asyncio.create_task(collector.run())
        try:
            yield
        finally:
            janitor.cancel()
            collecting.cancel()
            collector.uninstall()
            for limiter in limiters:
                await limiter.stop()
            await bots.stop()
            await notifier.stop()
            await hub.stop()
            await db.dispose()

    app = Keydom(
        title="Keydom",
        summary="Play Tiny Towns, Keythedral, Key Harvest, Keyper and Key Flow with friends.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.sockets_by_address = {}  # live websockets per client address (app.api.ws)
    app.include_router(api_games.router)
    app.include_router(api_archive.router)
    app.include_router(api_chat.router)
    app.include_router(api_endings.router)
    app.include_router(api_takeback.router)
    app.include_router(api_ws.router)
    app.include_router(api_notifications.router)
    app.include_router(api_hosting.router)
    app.include_router(api_bots.router)
    app.include_router(bot_pages.router)
    app.include_router(host_pages.router)
    app.include_router(replay_pages.router)
    app.include_router(social_pages.router)
    app.include_router(ending_pages.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    _install_error_handlers(app)
    _install_security_headers(app)
    _truthful_openapi(app)
    return app


def _truthful_openapi(app: FastAPI) -> None:
    """Whatever a router declared, the document says what the server does: every refusal is
    ErrorOut (422 too: describe_validation turns pydantic's list into one sentence) and
    every route may answer 413 (BodyLimit sees every request), every route with a body 400."""
    from app.api.games import REFUSALS, ErrorOut

    build = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        error = {"$ref": "#/components/schemas/ErrorOut"}
        for methods in schema.get("paths", {}).values():
            for operation in methods.values():
                responses = operation.setdefault("responses", {})
                responses.setdefault("413", {"description": REFUSALS[413]})
                if "requestBody" in operation:  # FastAPI answers 400 to a body it cannot read
                    responses.setdefault("400", {"description": REFUSALS[400]})
                for status, response in responses.items():
                    if status.startswith("4"):
                        response["content"] = {"application/json": {"schema": error}}
                        if response.get("description") in (None, "", "Validation Error"):
                            response["description"] = REFUSALS.get(int(status), "Refused.")
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components.setdefault("ErrorOut", ErrorOut.model_json_schema())
        for unused in ("HTTPValidationError", "ValidationError"):
            components.pop(unused, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


async def _give_back_memory(hub: Hub, every_s: float = 5.0) -> None:
    """After many websockets close (a crowd of spectators leaves), collect their garbage and
    hand the freed heap back to the system: with survivors frozen (app/collector.py), a
    closed socket's reference cycles would otherwise wait for the collector's next full pass,
    and the freed memory would stay with the process (3,000 spectators kept ~115 MB after
    leaving). Between departures, that full pass runs here when it is due."""
    peak = 0
    while True:
        await asyncio.sleep(every_s)
        now = hub.connection_count()
        peak = max(peak, now)
        if peak - now >= 200 and now <= peak * 3 // 4:
            collector.sweep()  # one pause, only after a mass departure
            _trim_heap()
            peak = now
        elif collector.sweep_if_due():
            _trim_heap()


def _trim_heap() -> None:
    """glibc keeps freed memory for reuse; malloc_trim returns it. Elsewhere, nothing to do."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(TableError)
    async def table_error(request: Request, exc: TableError) -> JSONResponse:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": exc.message}, status_code=exc.status)
        return pages.error_page(request, exc.status, exc.message)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        if not request.url.path.startswith("/api/"):  # a page's address: say it on a page
            return pages.error_page(request, 422, f"This address is not one Keydom makes: {describe_validation(exc)}")
        return JSONResponse({"detail": describe_validation(exc)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else "Request refused."
        if exc.status_code == 404 and not request.url.path.startswith("/api/"):
            return pages.error_page(request, 404, "There is no page here.")
        allowed = (exc.headers or {}).get("Allow")
        if exc.status_code == 405 and allowed:
            message = f"{request.method} is not accepted here; use {allowed}."
        # Keep the headers the exception carries (Allow on 405).
        return JSONResponse({"detail": message}, status_code=exc.status_code, headers=exc.headers)


def describe_validation(exc: RequestValidationError) -> str:
    """One readable sentence from pydantic's list of problems."""
    parts = []
    for problem in exc.errors()[:3]:
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        kind = problem.get("type", "")
        if kind == "json_invalid":
            parts.append("The request body is not valid JSON")
        elif kind == "missing":
            parts.append(f"'{where}' is required")
        else:
            parts.append(f"'{where}': {problem.get('msg', 'invalid value')}" if where else problem.get("msg", ""))
    return "; ".join(parts) + "." if parts else "The request is not valid."


class SecurityHeaders:
    """Plain ASGI middleware (no per-request task or body buffering)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        docs = scope["path"].startswith("/docs")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = secured(message, docs)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Refuse request bodies over MAX_BODY with 413, whether announced or streamed, and
    requests with more than ``max_headers`` headers with 431."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY, max_headers: int = 100,
                 larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.default_limit = limit
        self.max_headers = max_headers
        self.larger = larger or {}  # path -> its own limit (a game import is larger)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if len(scope.get("headers", ())) > self.max_headers:
            # The head's size is limited as it arrives (app.api.connections); their number here.
            await _refuse(send, 431, f"The request has too many headers (the limit is {self.max_headers}).")
            return
        limit = self.larger.get(scope["path"], self.default_limit)
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _too_large(send, limit)
            return
        seen = 0
        refused = False

        async def limited_receive() -> Message:
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit and not refused:
                    # Answer now; the app sees a client that went away and its reply is dropped.
                    refused = True
                    await _too_large(send, limit)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            if not refused:
                await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except Exception:
            if not refused:
                raise


async def _too_large(send: Send, limit: int) -> None:
    await _refuse(send, 413, f"The request body is too large (the limit is {limit // 1024} KB).")


async def _refuse(send: Send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _install_security_headers(app: FastAPI) -> None:
    app.add_middleware(BodyLimit, max_headers=app.state.settings.max_headers,
                       larger={"/api/games/import": api_archive.MAX_IMPORT})
    app.add_middleware(SecurityHeaders)
    # Outermost: every limit and log below sees the real client, but X-Forwarded-For is
    # believed only from the proxies the host names (FORWARDED_ALLOW_IPS; none by default).
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=app.state.settings.forwarded_allow_ips)

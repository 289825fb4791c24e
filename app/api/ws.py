"""Websocket: the seat's view at connect and after every change of what it sees.

A frame goes out only when the viewer's own view changed (its ``version`` grew): another
seat's private step, which changes nothing this viewer sees, sends it nothing. Clients may
send ``{"since": <version>}`` (e.g. after reconnecting; the version of the view they hold);
the server answers with the current view if it is newer.

Chat lines come as ``{"chat": [<line>, ...]}`` frames (at connect, the newest lines; then
each new one), to the seats and, if the host allows it, spectators; such a frame carries
``"rematch": true`` once "Play again" made a new game from this one.

A seat may also act here, as with ``POST /api/games/{id}/actions``:
``{"act": "<option id>", "version": <its view's version>}``. It is answered with
``{"acted": "<option id>", "version": <the new version>}`` (the new view follows as a frame
when it changed), or refused with ``{"error": "<message>", "status": 401|403|409|422|429}``,
the same refusals and statuses as over HTTP, and nothing changes. Anything else gets an
``{"error": ..., "status": 422}`` frame.

With ``?frames=changes`` a client is sent its whole view first (and after every
``since``), then only what changed: ``{"version", "base", "set": [[path, value]...],
"unset": [path...]}`` against the view of version ``base`` it was sent last on this socket
(``app.wire.apply_changes`` shows how to apply one). A client whose view is not at ``base``
sends ``{"since": -1}`` for the whole view again.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.types import Receive, Scope, Send

from app.api.chat import chat_frame
from app.api.deps import same_origin
from app.api.games import MAX_OPTION
from app.api.ratelimit import check_action_rate, client_address
from app.hub.local import Subscription
from app.notify.hooks import page_open
from app.table.changes import view_changes
from app.table.errors import BadRequest, TableError, Unauthorized
from app.table.service import SHARED_VIEW_PARTS, Table, Viewer
from app.wire import encode

router = APIRouter()

CLOSE_REFUSED = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429
MAX_FRAME = 4096


FRAMES = ("full", "changes")


class Frames:
    """What this socket sent last, so that with ``changes`` only what changed goes out."""

    __slots__ = ("changes", "last")

    def __init__(self, changes: bool) -> None:
        self.changes = changes
        self.last: dict[str, Any] | None = None

    def encode(self, view: dict[str, Any], whole: bool) -> str:
        last, self.last = self.last, (view if self.changes else None)
        if last is None or whole:
            return encode(view)
        return encode(view_changes(last, view, SHARED_VIEW_PARTS))


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None, frames: str = "full") -> None:
    table: Table = websocket.app.state.table
    if not same_origin(websocket):
        await websocket.close(code=CLOSE_REFUSED, reason="Cross-site websocket refused.")
        return
    await websocket.accept()
    if frames not in FRAMES:
        await websocket.close(code=CLOSE_REFUSED, reason="frames must be 'full' or 'changes'.")
        return
    out = Frames(frames == "changes")
    address = client_address(websocket)
    if not _admit(websocket, address):
        await websocket.close(code=CLOSE_TOO_MANY, reason="Too many live connections from your address; close some tabs.")
        return
    try:
        viewer = await table.viewer(game_id, token)
    except TableError as refusal:
        _release(websocket, address)
        code = CLOSE_NOT_FOUND if refusal.status == 404 else CLOSE_REFUSED
        await websocket.close(code=code, reason=refusal.message[:120])
        return
    except BaseException:
        _release(websocket, address)
        raise
    with table.hub.subscribe(game_id) as sub, page_open(websocket.app, game_id, viewer.seat):
        listener = asyncio.create_task(_listen(websocket, sub, table, game_id, token))
        try:
            sent = await _send_view(websocket, out, table, viewer, -1)  # the version of the view sent last
            chatted = await _send_chat(websocket, table, viewer, -1)  # the newest chat line sent
            handled = -1  # the newest game version this socket has looked at
            caught_up = -1  # the version this socket last answered a catch-up with
            while True:
                await sub.wait()
                if sub.client_gone:
                    return
                if sub.client_since is not None:  # a reconnecting client catches up
                    # Once per version and from the cache: {"since": -1} sent again and
                    # again costs neither a database read nor another view.
                    if sub.client_since < sent and caught_up != sent:
                        caught_up = sent
                        sent = await _send_view(websocket, out, table, viewer, -1, known_version=handled, whole=True)
                    sub.client_since = None
                if sub.force:  # seats changed (a name was claimed) or the hub reconnected
                    sub.force = False
                    try:  # a link the host replaced stops here too, at once
                        viewer = await table.viewer(game_id, token)
                    except TableError as refusal:
                        await websocket.close(code=CLOSE_REFUSED, reason=refusal.message[:120])
                        return
                    sent = await _send_view(websocket, out, table, viewer, sent, force=True)
                if sub.chat:  # a chat line (or the host's chat policy, or a rematch)
                    sub.chat = False
                    chatted = await _send_chat(websocket, table, viewer, chatted)
                if sub.newest > handled:  # the game moved on; maybe not what this viewer sees
                    handled = sub.newest
                    sent = await _send_view(websocket, out, table, viewer, sent, known_version=sub.newest)
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            listener.cancel()
            _release(websocket, address)


GAME_SOCKET = re.compile(r"/ws/games/([^/]+)")


async def serve_directly(scope: Scope, receive: Receive, send: Send) -> bool:
    """Serve a game's websocket without the HTTP stack around it (error pages, routing,
    dependency solving): each of its coroutines stays alive as long as the socket, and
    each frame sent passed through their wrappers. False: not a game socket's path."""
    found = GAME_SOCKET.fullmatch(scope["path"])
    if found is None:
        return False
    websocket = WebSocket(scope, receive, send)
    query = websocket.query_params
    await game_socket(websocket, found[1], query.get("token"), query.get("frames", "full"))
    return True


def _admit(websocket: WebSocket, address: str) -> bool:
    """At most WEBSOCKETS_PER_ADDRESS live sockets per client address."""
    live: dict[str, int] = websocket.app.state.sockets_by_address
    if live.get(address, 0) >= websocket.app.state.settings.websockets_per_address:
        return False
    live[address] = live.get(address, 0) + 1
    return True


def _release(websocket: WebSocket, address: str) -> None:
    live: dict[str, int] = websocket.app.state.sockets_by_address
    left = live.get(address, 0) - 1
    if left > 0:
        live[address] = left
    else:
        live.pop(address, None)


async def _send_view(websocket: WebSocket, out: Frames, table: Table, viewer: Viewer, sent: int,
                     force: bool = False, known_version: int | None = None, whole: bool = False) -> int:
    """Send the viewer's view if its version is past ``sent`` (or ``force``); returns the
    version of the view the client now holds. ``whole``: never as changes (a catch-up)."""
    if force:
        view = await table.view(viewer, known_version)
    else:
        view = await table.view_if_changed(viewer, sent, known_version)
        if view is None:
            return sent
    await websocket.send_text(out.encode(view, whole))
    return max(sent, view["version"])


async def _send_chat(websocket: WebSocket, table: Table, viewer: Viewer, after: int) -> int:
    """Send the chat lines newer than ``after`` this viewer may read, as ``{"chat": [...]}``."""
    frame, newest = await chat_frame(table, viewer, after)
    if frame is not None:
        await websocket.send_text(encode(frame))
    return newest


async def _listen(websocket: WebSocket, sub: Subscription, table: Table, game_id: str, token: str | None) -> None:
    """Pass the client's ``since`` frames to the subscription, and its going away; take
    its actions one at a time, in the order sent. Anything else (binary frames, other
    JSON, garbage) gets an error frame."""
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            sub.client_asks(None)
            return
        if message["type"] == "websocket.disconnect":
            sub.client_asks(None)
            return
        request = _parse(message.get("text") or "")
        if isinstance(request, int):
            sub.client_asks(request)
            continue
        try:
            answer = await _act(websocket, table, game_id, token, request)
        except TableError as refusal:
            answer = {"error": refusal.message, "status": refusal.status}
        try:
            await websocket.send_text(encode(answer))
        except (WebSocketDisconnect, RuntimeError):
            sub.client_asks(None)
            return


async def _act(websocket: WebSocket, table: Table, game_id: str, token: str | None,
               request: dict[str, object] | None) -> dict[str, object]:
    """One action sent over the socket: the same checks, in the same order, as the HTTP
    route (the token is checked again each time: a link replaced meanwhile stops here)."""
    if request is None:
        raise BadRequest('Send {"since": <version>} or {"act": "<option id>", "version": <version>} as a text frame.')
    option, version = request.get("act"), request.get("version")
    if not isinstance(option, str) or len(option) > MAX_OPTION or not isinstance(version, int) or isinstance(version, bool):
        raise BadRequest('An action is {"act": "<option id>", "version": <your view\'s version>}.')
    if not token:
        raise Unauthorized("Acting needs your seat's link: spectators cannot act.")
    viewer = await table.viewer(game_id, token)
    if viewer.seat is not None:
        await check_action_rate(websocket.app.state, viewer.game_id, viewer.seat)
    view = await table.act(viewer, option, version, answer=False)
    return {"acted": option, "version": view["version"]}


def _parse(raw: str) -> int | dict[str, object] | None:
    """A ``since`` (its version), an action (the message), or None for anything else."""
    if len(raw) > MAX_FRAME:
        return None
    try:
        message = orjson.loads(raw)
    except ValueError:  # orjson's JSONDecodeError is one
        return None
    if not isinstance(message, dict):
        return None
    since = message.get("since")
    if isinstance(since, int) and not isinstance(since, bool):
        return since
    return message if "act" in message else None


"""Websocket: the seat's view at connect and after every change of what it sees.

A frame goes out only when the viewer's own view changed (its ``version`` grew): another
seat's private step, which changes nothing this viewer sees, sends it nothing. Clients may
send ``{"since": <version>}`` (e.g. after reconnecting; the version of the view they hold);
the server answers with the current view if it is newer. Anything else gets an
``{"error": ...}`` frame.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.deps import same_origin
from app.api.ratelimit import client_address
from app.hub.local import Subscription
from app.notify.hooks import page_open
from app.table.errors import TableError
from app.table.service import Table, Viewer
from app.wire import encode

router = APIRouter()

CLOSE_REFUSED = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_TOO_MANY = 4429
MAX_FRAME = 4096


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
    table: Table = websocket.app.state.table
    if not same_origin(websocket):
        await websocket.close(code=CLOSE_REFUSED, reason="Cross-site websocket refused.")
        return
    await websocket.accept()
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
        listener = asyncio.create_task(_listen(websocket, sub))
        try:
            sent = await _send_view(websocket, table, viewer, -1)  # the version of the view sent last
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
                        sent = await _send_view(websocket, table, viewer, -1, known_version=handled)
                    sub.client_since = None
                if sub.force:  # seats changed (a name was claimed) or the hub reconnected
                    sub.force = False
                    try:  # a link the host replaced stops here too, at once
                        viewer = await table.viewer(game_id, token)
                    except TableError as refusal:
                        await websocket.close(code=CLOSE_REFUSED, reason=refusal.message[:120])
                        return
                    sent = await _send_view(websocket, table, viewer, sent, force=True)
                if sub.newest > handled:  # the game moved on; maybe not what this viewer sees
                    handled = sub.newest
                    sent = await _send_view(websocket, table, viewer, sent, known_version=sub.newest)
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            listener.cancel()
            _release(websocket, address)


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


async def _send_view(websocket: WebSocket, table: Table, viewer: Viewer, sent: int, force: bool = False,
                     known_version: int | None = None) -> int:
    """Send the viewer's view if its version is past ``sent`` (or ``force``); returns the
    version of the view the client now holds."""
    if force:
        view = await table.view(viewer, known_version)
    else:
        view = await table.view_if_changed(viewer, sent, known_version)
        if view is None:
            return sent
    await websocket.send_text(encode(view))
    return max(sent, view["version"])


async def _listen(websocket: WebSocket, sub: Subscription) -> None:
    """Pass the client's ``since`` frames to the subscription, and its going away.
    Anything else (binary frames, other JSON, garbage) gets an error frame."""
    while True:
        try:
            message = await websocket.receive()
        except (WebSocketDisconnect, RuntimeError):
            sub.client_asks(None)
            return
        if message["type"] == "websocket.disconnect":
            sub.client_asks(None)
            return
        since = _parse_since(message.get("text") or "")
        if since is None:
            try:
                await websocket.send_text(encode({"error": 'Send {"since": <version>} as a text frame, or nothing.'}))
            except (WebSocketDisconnect, RuntimeError):
                sub.client_asks(None)
                return
            continue
        sub.client_asks(since)


def _parse_since(raw: str) -> int | None:
    if len(raw) > MAX_FRAME:
        return None
    try:
        message = json.loads(raw)
    except ValueError:
        return None
    since = message.get("since") if isinstance(message, dict) else None
    return since if isinstance(since, int) and not isinstance(since, bool) else None


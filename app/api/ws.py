"""Websocket: the seat's view at connect and after every change of the game.

Clients may send ``{"since": <version>}`` (e.g. after reconnecting); the server answers
with the current view if it is newer. Anything else gets an ``{"error": ...}`` frame.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.table.errors import TableError
from app.table.service import Table, Viewer

router = APIRouter()

CLOSE_REFUSED = 4403
CLOSE_NOT_FOUND = 4404
MAX_FRAME = 4096


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
    table: Table = websocket.app.state.table
    if not origin_allowed(websocket):
        await websocket.close(code=CLOSE_REFUSED, reason="Cross-site websocket refused.")
        return
    await websocket.accept()
    try:
        viewer = await table.viewer(game_id, token)
    except TableError as refusal:
        code = CLOSE_NOT_FOUND if refusal.status == 404 else CLOSE_REFUSED
        await websocket.close(code=code, reason=refusal.message[:120])
        return
    with table.hub.subscribe(game_id) as sub:
        sent = await _send_view(websocket, table, viewer, -1)
        listener = asyncio.create_task(_listen(websocket))
        try:
            while True:
                waiter = asyncio.create_task(sub.next())
                done, _ = await asyncio.wait({waiter, listener}, return_when=asyncio.FIRST_COMPLETED)
                if listener in done:
                    waiter.cancel()
                    since = listener.result()
                    if since is None:  # client went away
                        return
                    listener = asyncio.create_task(_listen(websocket))
                    if since < sent:
                        sent = await _send_view(websocket, table, viewer, -1)
                    continue
                notice = waiter.result()
                if notice < 0:  # seats changed (a name was claimed) or the hub reconnected
                    sent = await _send_view(websocket, table, viewer, sent, force=True)
                elif notice > sent:
                    sent = await _send_view(websocket, table, viewer, sent, known_version=notice)
        except (WebSocketDisconnect, RuntimeError):
            return
        finally:
            listener.cancel()


async def _send_view(websocket: WebSocket, table: Table, viewer: Viewer, sent: int, force: bool = False,
                     known_version: int | None = None) -> int:
    view = await table.view(viewer, known_version)
    if view["version"] > sent or force:
        await websocket.send_json(view)
    return max(sent, view["version"])


async def _listen(websocket: WebSocket) -> int | None:
    """Wait for one useful client frame; return its ``since`` version, None on disconnect."""
    while True:
        try:
            raw = await websocket.receive_text()
        except (WebSocketDisconnect, RuntimeError, KeyError):
            return None
        since = _parse_since(raw)
        if since is None:
            await websocket.send_json({"error": 'Send {"since": <version>} or nothing at all.'})
            continue
        return since


def _parse_since(raw: str) -> int | None:
    if len(raw) > MAX_FRAME:
        return None
    try:
        message = json.loads(raw)
    except ValueError:
        return None
    since = message.get("since") if isinstance(message, dict) else None
    return since if isinstance(since, int) and not isinstance(since, bool) else None


def origin_allowed(websocket: WebSocket) -> bool:
    """Browsers send Origin; it must be this server. Non-browser clients send none."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    public = websocket.app.state.settings.public_url
    allowed = {f"http://{host}", f"https://{host}"} | ({public} if public else set())
    return origin in allowed

"""JSON API for a game's chat (app/table/chat.py), and the chat frames of its websocket.

Writing needs a seat's or the host's link (``Authorization: Bearer <token>``); reading
needs one too unless the host lets spectators read. Lines are plain text: show them as
text, never as HTML.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.table.chat import MAX_CHAT, ChatLine
from app.table.errors import Forbidden
from app.table.seats import Viewer
from app.table.service import Table

from .deps import TableDep, TokenDep
from .games import refusals

router = APIRouter(prefix="/api", tags=["chat"], responses=refusals(413))


class ChatLineOut(BaseModel):
    id: int = Field(description="Grows with each line of the game's chat.")
    seat: int | None = Field(description="The seat that wrote it; null: the host.")
    name: str
    text: str = Field(description="Plain text: escape it before putting it in a page.")
    at: datetime


class ChatOut(BaseModel):
    policy: Literal["read", "hidden"] = Field(description="'read': spectators may read the chat; 'hidden': they see none of it.")
    lines: list[ChatLineOut] = Field(description="The newest lines, oldest first.")


class ChatIn(BaseModel):
    text: str = Field(max_length=4000, description=f"One line of at most {MAX_CHAT} characters (spaces are folded).")


class PolicyIn(BaseModel):
    policy: Literal["read", "hidden"]


def line_out(line: ChatLine) -> dict[str, Any]:
    return line.as_json()


@router.get("/games/{game_id}/chat", response_model=ChatOut, responses=refusals(401, 403, 404))
async def read_chat(game_id: str, table: TableDep, token: TokenDep) -> dict[str, Any]:
    """The newest chat lines, for a seat, the host, or a spectator if the host allows it."""
    spectator = True
    if token:
        await table.chat.writer(game_id, token)  # a seat or the host: refused otherwise
        spectator = False
    chat = await table.chat.game_chat(game_id)
    lines = chat.for_viewer(spectator)
    if lines is None:
        raise Forbidden("The host keeps this game's chat to the players.")
    return {"policy": chat.policy, "lines": [line_out(line) for line in lines]}


@router.post("/games/{game_id}/chat", status_code=201, response_model=ChatLineOut,
             responses=refusals(401, 403, 404, 422, 429))
async def write_chat(game_id: str, body: ChatIn, table: TableDep, token: TokenDep, request: Request) -> dict[str, Any]:
    """Send one line to everyone who may read the chat (live, over the game's websocket)."""
    writer = await table.chat.writer(game_id, token)
    await request.app.state.chat_limiter.spend(writer.key)
    return line_out(await table.chat.post(writer, body.text))


@router.put("/games/{game_id}/chat/policy", status_code=204, responses=refusals(401, 403, 404, 422))
async def set_chat_policy(game_id: str, body: PolicyIn, table: TableDep, token: TokenDep) -> None:
    """The host's choice (the host link's token): may spectators read the chat?"""
    await table.chat.set_policy(game_id, token or "", body.policy)


async def chat_frame(table: Table, viewer: Viewer, after: int) -> tuple[dict[str, Any] | None, int]:
    """A websocket frame with the chat lines newer than line id ``after`` this viewer may
    read (None: nothing new), and the newest id sent. ``rematch``: the game has one."""
    chat = await table.chat.game_chat(viewer.game_id)
    lines = chat.for_viewer(viewer.seat is None)
    fresh = [line for line in lines or () if line.id > after]
    if not fresh and not chat.rematch_id:
        return None, after
    frame: dict[str, Any] = {"chat": [line_out(line) for line in fresh]}
    if chat.rematch_id:
        frame["rematch"] = True
    return frame, max([after, *(line.id for line in fresh)])

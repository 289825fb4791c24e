"""The game page's social parts: the chat (app/table/chat.py), "Play again" and each seat's
link into the new game (rematch.py), "Concede" (endings.py); on the host page, the host's
chat choice, "End as abandoned" and "Play again". Page routes call ``game_social`` /
``host_social`` for their context; the forms here answer with a redirect."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.api.deps import TableDep
from app.table.chat import MAX_CHAT, POLICIES
from app.table.service import Table

from .forms import refuse_cross_site, text_form

router = APIRouter(include_in_schema=False)


async def game_social(table: Table, view: dict[str, Any], token: str | None) -> dict[str, Any]:
    """What a game page (a seat's or a spectator's) shows of the chat."""
    seat = view["seat"]
    spectator = seat is None
    return {
        "chat": await table.chat.visible(view["id"], spectator), "chat_game": view["id"],
        "chat_can_write": not spectator and not view["seats"][seat]["open"],
        "chat_token": token, "chat_max": MAX_CHAT, "chat_poll": False,
        "log_times": await table.log_times.view_times(view),
        **await after_game(table, view, token),
    }


async def after_game(table: Table, view: dict[str, Any], token: str | None) -> dict[str, Any]:
    """The rematch as this page enters it; whether (and what) this seat may concede."""
    seat = view["seat"]
    players = len(view["seats"])
    playing = seat is not None and not view["seats"][seat]["open"] and view["status"] == "active" and players > 1
    others = [s["name"] for s in view["seats"] if s["seat"] != seat]
    question = (f"Concede? {others[0]} wins and the game ends." if players == 2 else
                "Concede? The game ends for everyone: you are ranked last and the others share the win.")
    rematch = await table.rematch.next_game(view["id"], token) if view["status"] == "finished" else None
    return {"rematch": rematch, "can_concede": playing and bool(token), "concede_question": question}


async def host_social(table: Table, game_id: str, host_token: str) -> dict[str, Any]:
    """What the host page shows: the chat (the host writes as the host) and its policy."""
    chat = await table.chat.game_chat(game_id)
    view = await table.view(await table.viewer(game_id, None))
    return {
        "ended_reason": view["result"]["reason"] if view["result"] and view["result"].get("ended") else None,
        "game_over": view["status"] == "finished",
        "rematch": await table.rematch.next_game(game_id, host_token) if view["status"] == "finished" else None,
        "social": True, "chat": list(chat.lines), "chat_game": game_id, "chat_policy": chat.policy, "chat_policies": POLICIES,
        "chat_can_write": True, "chat_token": host_token, "chat_max": MAX_CHAT, "chat_poll": True,
    }


@router.post("/g/{game_id}/host/{host_token}/chat-policy")
async def chat_policy(request: Request, game_id: str, host_token: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    policy = (await text_form(request)).get("policy", "")
    await table.chat.set_policy(game_id, host_token, policy)
    return RedirectResponse(f"/g/{game_id}/host/{host_token}?done=chat#chat-policy", status_code=303)


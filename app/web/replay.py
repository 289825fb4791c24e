"""The replay page: a game step by step as one viewer saw it (app.table.history), with
first / back / forward / last and a slider; after the game, any seat's screen."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from app.api.deps import HistoryDep, TableDep, TokenDep

from .pages import templates
from .render import game_context

router = APIRouter(include_in_schema=False)
NO_STORE = {"Cache-Control": "no-store"}
Step = Annotated[int | None, Query(ge=0)]
AsSeat = Annotated[int | None, Query(alias="as", ge=0, le=63)]


@router.get("/g/{game_id}/replay", response_class=HTMLResponse)
async def spectator_replay(request: Request, game_id: str, table: TableDep, history: HistoryDep,
                           at: Step = None, as_seat: AsSeat = None) -> Response:
    view = await history.view_at(await table.viewer(game_id, None), at, as_seat)
    return _page(request, view, token=None)


@router.get("/g/{game_id}/seat/{token}/replay", response_class=HTMLResponse)
async def seat_replay(request: Request, game_id: str, token: str, table: TableDep, history: HistoryDep,
                      at: Step = None, as_seat: AsSeat = None) -> Response:
    view = await history.view_at(await table.viewer(game_id, token), at, as_seat)
    return _page(request, view, token=token)


@router.get("/g/{game_id}/replay/fragment", response_class=HTMLResponse)
async def replay_fragment(request: Request, game_id: str, table: TableDep, history: HistoryDep, token: TokenDep,
                          at: Step = None, as_seat: AsSeat = None) -> Response:
    """One step of the replay, for the page's controls (the seat's token as a Bearer header)."""
    view = await history.view_at(await table.viewer(game_id, token), at, as_seat)
    return templates.TemplateResponse(request, "_replay_body.html", _context(view, token), headers=NO_STORE)


def _page(request: Request, view: dict, token: str | None) -> Response:  # type: ignore[type-arg]
    return templates.TemplateResponse(request, "replay.html", _context(view, token), headers=NO_STORE)


def _context(view: dict, token: str | None) -> dict:  # type: ignore[type-arg]
    context = game_context(view, token=token)
    context["replay"] = view["replay"]
    context["back_to_game"] = f"/g/{view['id']}/seat/{token}" if token else f"/g/{view['id']}"
    return context

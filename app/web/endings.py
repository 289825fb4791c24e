"""The end of a game from the pages: a seat concedes, the host ends a game as abandoned,
"Play again" (app/table/endings.py, rematch.py). Each form answers with a redirect."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.api.deps import TableDep
from app.table.errors import BadRequest, Forbidden, NotFound

from .forms import refuse_cross_site
from .pages import broken_link_page, error_page

router = APIRouter(include_in_schema=False)


@router.post("/g/{game_id}/host/{host_token}/abandon")
async def abandon(request: Request, game_id: str, host_token: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    try:
        await table.endings.abandon(game_id, host_token)
    except BadRequest as refusal:
        return error_page(request, refusal.status, refusal.message)
    return RedirectResponse(f"/g/{game_id}/host/{host_token}", status_code=303)


@router.post("/g/{game_id}/host/{host_token}/rematch")
async def host_rematch(request: Request, game_id: str, host_token: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    found = await table.rematch.play_again(game_id, host_token)
    if found.token is None:  # the new game's host link came from another host link (cannot happen twice)
        return error_page(request, 403, "The new game's host page opens only from this game's host link.")
    return RedirectResponse(f"/g/{found.game_id}/host/{found.token}", status_code=303)


@router.post("/g/{game_id}/seat/{token}/rematch")
async def seat_rematch(request: Request, game_id: str, token: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    try:
        found = await table.rematch.play_again(game_id, token)
    except (Forbidden, NotFound):
        return broken_link_page(request, await table.hosting.explain_link(game_id, token))
    if found.token is None:
        return error_page(request, 403, "Your seat in the new game has a link of its own now: ask the host for it.")
    return RedirectResponse(f"/g/{found.game_id}/seat/{found.token}", status_code=303)


@router.post("/g/{game_id}/seat/{token}/concede")
async def concede(request: Request, game_id: str, token: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    try:
        viewer = await table.viewer(game_id, token)
    except (Forbidden, NotFound):
        return broken_link_page(request, await table.hosting.explain_link(game_id, token))
    await table.endings.concede(viewer)
    return RedirectResponse(f"/g/{game_id}/seat/{token}", status_code=303)

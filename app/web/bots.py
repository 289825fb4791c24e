"""Bots standing in, on the pages: the host page's "hand this seat to a bot" form, and the
player's "I'm back" button. Each answers with a redirect; a refusal gets the error page."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.api.deps import SeatIndex, TableDep

from .forms import refuse_cross_site, text_form

router = APIRouter(include_in_schema=False)


async def away_level(request: Request, game_id: str, seat: int | None) -> str | None:
    """The bot playing this seat now, if any (None: its player)."""
    driver = getattr(request.app.state, "bots", None)
    if driver is None or seat is None:
        return None
    return (await driver.bot_seats(game_id)).get(seat)


@router.post("/g/{game_id}/host/{host_token}/seat/{seat}/bot")
async def hand_seat(request: Request, game_id: str, host_token: str, seat: SeatIndex, table: TableDep) -> Response:
    refuse_cross_site(request)
    level = (await text_form(request)).get("bot", "") or None
    await table.hosting.hand_to_bot(game_id, host_token, seat, level)
    return RedirectResponse(f"/g/{game_id}/host/{host_token}#seat-{seat}", status_code=303)


@router.post("/g/{game_id}/seat/{token}/back")
async def back(request: Request, game_id: str, token: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    viewer = await table.viewer(game_id, token)
    if viewer.seat is not None:
        await table.hosting.hand_seat(game_id, viewer.seat, None, by="player")
    return RedirectResponse(f"/g/{game_id}/seat/{token}", status_code=303)

"""Bots standing in, on the pages: the host page's "hand this seat to a bot" form, and the
player's "I'm back" button; what pages need of time limits per decision (the forms' two
fields, each timed seat's time left). Each form answers with a redirect; a refusal gets
the error page."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.api.deps import SeatIndex, TableDep
from app.bots.clocks import CHOICES, ON_TIMEOUT, Limit, check_limit, duration  # noqa: F401 (duration: a page filter)


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


# --- Time limits per decision (app/bots/clocks.py) ---
def time_limit_from(form: dict[str, str]) -> Limit | None:
    """The new-game and host forms' two fields; BadRequest says what is wrong."""
    return check_limit(form.get("time_limit", ""), form.get("on_timeout", "wait"))


def clocks_of(request: Request) -> Any:
    driver = getattr(request.app.state, "bots", None)
    return None if driver is None else driver.clocks


async def clocks_context(request: Request, game_id: str) -> dict[str, Any]:
    """What a page shows of the game's clocks: the limit, and each timed seat's clock."""
    clocks = clocks_of(request)
    if clocks is None or not game_id:  # no game yet (the new-game form): the choices only
        return {"time_limit": None, "clocks": {}, "limit_choices": CHOICES, "on_timeout_choices": ON_TIMEOUT}
    return {"time_limit": await clocks.limit(game_id), "clocks": {c.seat: c for c in await clocks.shown(game_id)},
            "limit_choices": CHOICES, "on_timeout_choices": ON_TIMEOUT}

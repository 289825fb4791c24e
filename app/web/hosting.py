"""The host page: every seat's link again, who took which seat and when each last looked;
forms to replace a seat's link, rename or re-open a seat (each answers with a redirect)."""

from __future__ import annotations

from datetime import datetime, timezone

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.api.deps import SeatIndex, TableDep, base_url
from app.table.errors import BadRequest
from app.table.hosting import HostedGame

from .forms import refuse_cross_site, text_form
from .pages import templates

router = APIRouter(include_in_schema=False)
NO_STORE = {"Cache-Control": "no-store"}  # the page holds every seat's secret
DONE = {"link": "Seat {n} has a new link; the old one no longer opens anything.",
        "name": "Seat {n} is renamed.", "reopen": "Seat {n} is open again: its link is an invite now."}


def ago(moment: datetime | None, now: datetime | None = None) -> str:
    """'just now', '5 minutes ago', '3 hours ago', '2 days ago'."""
    if moment is None:
        return "never"
    if moment.tzinfo is None:  # SQLite hands back naive times; they were written in UTC
        moment = moment.replace(tzinfo=timezone.utc)
    seconds = ((now or datetime.now(timezone.utc)) - moment).total_seconds()
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'s' if count != 1 else ''} ago"
    return "just now"


templates.env.filters["ago"] = ago


def _host_page(request: Request, hosted: HostedGame, host_token: str, error: str | None = None,
               done: str | None = None, status: int = 200) -> Response:
    root = base_url(request)
    context = {
        "game": hosted, "host_token": host_token, "error": error, "done": done,
        "seat_url": {s.seat: f"{root}/g/{hosted.id}/seat/{s.token}" for s in hosted.seats},
        "host_url": f"{root}/g/{hosted.id}/host/{host_token}", "spectator_url": f"{root}/g/{hosted.id}",
    }
    return templates.TemplateResponse(request, "host.html", context, status_code=status, headers=NO_STORE)


@router.get("/g/{game_id}/host/{host_token}", response_class=HTMLResponse)
async def host_page(request: Request, game_id: str, host_token: str, table: TableDep,
                    done: str | None = None, seat: int | None = None) -> Response:
    hosted = await table.hosting.hosted(game_id, host_token)
    message = DONE[done].format(n=seat + 1) if done in DONE and seat is not None and seat >= 0 else None
    return _host_page(request, hosted, host_token, done=message)


async def _then_back(request: Request, table: TableDep, game_id: str, host_token: str, seat: int, done: str,
                     change) -> Response:  # type: ignore[no-untyped-def]
    """Run one change; answer with a redirect to the host page (reloading repeats nothing),
    or the page again with the refusal."""
    refuse_cross_site(request)
    try:
        await change()
    except BadRequest as refusal:
        hosted = await table.hosting.hosted(game_id, host_token)
        return _host_page(request, hosted, host_token, error=refusal.message, status=422)
    return RedirectResponse(f"/g/{game_id}/host/{host_token}?done={done}&seat={seat}#seat-{seat}", status_code=303)


@router.post("/g/{game_id}/host/{host_token}/seat/{seat}/new-link")
async def new_link(request: Request, game_id: str, host_token: str, seat: SeatIndex, table: TableDep) -> Response:
    return await _then_back(request, table, game_id, host_token, seat, "link",
                            lambda: table.hosting.replace_link(game_id, host_token, seat))


@router.post("/g/{game_id}/host/{host_token}/seat/{seat}/name")
async def rename(request: Request, game_id: str, host_token: str, seat: SeatIndex, table: TableDep) -> Response:
    name = (await text_form(request)).get("name", "")
    return await _then_back(request, table, game_id, host_token, seat, "name",
                            lambda: table.hosting.rename(game_id, host_token, seat, name))


@router.post("/g/{game_id}/host/{host_token}/seat/{seat}/reopen")
async def reopen(request: Request, game_id: str, host_token: str, seat: SeatIndex, table: TableDep) -> Response:
    return await _then_back(request, table, game_id, host_token, seat, "reopen",
                            lambda: table.hosting.reopen(game_id, host_token, seat))


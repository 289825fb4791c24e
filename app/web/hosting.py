"""The host page: every seat's link again (with a QR code), who took which seat and when
each last looked, whether the links can reach anyone but this machine; forms to replace a
seat's link, rename or re-open a seat, and choose the address links are made with (each
answers with a redirect)."""

from __future__ import annotations

import ipaddress
import re
from datetime import datetime, timezone

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app import reach
from app.api.deps import SeatIndex, TableDep, base_url
from app.table.errors import BadRequest, Forbidden, NotFound
from app.table.hosting import HostedGame

from .bots import clocks_context, clocks_of, time_limit_from
from .forms import refuse_cross_site, text_form
from .pages import broken_link_page, templates
from .qr import seat_qr
from .social import host_social

router = APIRouter(include_in_schema=False)
NO_STORE = {"Cache-Control": "no-store"}  # the page holds every seat's secret
DONE = {"link": "Seat {n} has a new link; the old one no longer opens anything.",
        "name": "Seat {n} is renamed.", "reopen": "Seat {n} is open again: its link is an invite now.",
        "address": "Links are now made with the address you chose.",
        "limit": "The time limit is changed; every running clock started again.",
        "same-limit": "The time limit was already so.", "chat": "The chat setting is saved."}
_HOST_PORT = re.compile(r"[A-Za-z0-9.-]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?")


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


def link_reach(request: Request) -> reach.Reach:
    """Where this server's links lead, and which of its own addresses could do better."""
    settings = request.app.state.settings
    chosen = request.app.state.table.hosting.link_address
    source = "public_url" if settings.public_url else "chosen" if chosen else "request"
    return reach.judge(base_url(request), source, settings.host, settings.port)


def may_choose_address(request: Request) -> bool:
    """The link address is the whole server's: it may be changed from this machine or its
    local network (or VPN) only, never from the internet, and not when PUBLIC_URL is set."""
    if request.app.state.settings.public_url or request.client is None:
        return False
    try:
        client = ipaddress.ip_address(request.client.host)
    except ValueError:
        return False
    return reach.address_kind(client) in ("this-machine", "lan", "vpn", "link-local")


def _request_root(request: Request) -> str | None:
    """The address this page was opened with, if it looks like one (it is offered as a choice)."""
    host = request.headers.get("host", "")
    return f"{request.url.scheme}://{host}" if _HOST_PORT.fullmatch(host) else None


async def _host_page(request: Request, hosted: HostedGame, host_token: str, error: str | None = None,
                     done: str | None = None, status: int = 200, social: dict | None = None) -> Response:
    root = base_url(request)
    seat_url = {s.seat: f"{root}/g/{hosted.id}/seat/{s.token}" for s in hosted.seats if s.token}
    context = {
        "game": hosted, "host_token": host_token, "error": error, "done": done, "seat_url": seat_url,
        "seat_qr": {seat: seat_qr(url) for seat, url in seat_url.items()},
        "host_url": f"{root}/g/{hosted.id}/host/{host_token}", "spectator_url": f"{root}/g/{hosted.id}",
        "reach": link_reach(request), "may_choose": may_choose_address(request),
        "this_page": _request_root(request),
        **await clocks_context(request, hosted.id), **(social or {}),
    }
    return templates.TemplateResponse(request, "host.html", context, status_code=status, headers=NO_STORE)


@router.get("/g/{game_id}/host/{host_token}", response_class=HTMLResponse)
async def host_page(request: Request, game_id: str, host_token: str, table: TableDep,
                    done: str | None = None, seat: int | None = None) -> Response:
    await table.hosting.link_address_now()
    try:
        hosted = await table.hosting.hosted(game_id, host_token)
    except (Forbidden, NotFound):
        return broken_link_page(request, await table.hosting.explain_link(game_id, host_token, role="host"))
    message = (DONE[done].format(n=(seat or 0) + 1) if done in DONE and (done in ("address", "limit", "same-limit", "chat") or seat is not None and seat >= 0)
               else None)
    social = await host_social(table, game_id, host_token)  # chat, the end of the game (web/social.py)
    return await _host_page(request, hosted, host_token, done=message, social=social)


@router.post("/g/{game_id}/host/{host_token}/link-address")
async def choose_link_address(request: Request, game_id: str, host_token: str, table: TableDep) -> Response:
    """Make links with one of this machine's addresses (or, with an empty choice, with the
    address each page is opened with)."""
    refuse_cross_site(request)
    if not may_choose_address(request):
        raise Forbidden("The address links are made with can be changed only from this computer or its local "
                        "network, and not at all when the server's PUBLIC_URL is set.")
    chosen = (await text_form(request)).get("address", "")
    offered = {a.url for a in link_reach(request).candidates} | {_request_root(request)}
    if chosen and chosen not in offered:
        hosted = await table.hosting.hosted(game_id, host_token)
        return await _host_page(request, hosted, host_token, status=422,
                          error="That address is not one of this computer's: choose one of the addresses listed.")
    await table.hosting.choose_link_address(game_id, host_token, chosen)
    return RedirectResponse(f"/g/{game_id}/host/{host_token}?done=address#links-reach", status_code=303)


async def _then_back(request: Request, table: TableDep, game_id: str, host_token: str, seat: int, done: str,
                     change) -> Response:  # type: ignore[no-untyped-def]
    """Run one change; answer with a redirect to the host page (reloading repeats nothing),
    or the page again with the refusal."""
    refuse_cross_site(request)
    try:
        await change()
    except BadRequest as refusal:
        hosted = await table.hosting.hosted(game_id, host_token)
        return await _host_page(request, hosted, host_token, error=refusal.message, status=422)
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



@router.post("/g/{game_id}/host/{host_token}/time-limit")
async def set_time_limit(request: Request, game_id: str, host_token: str, table: TableDep) -> Response:
    """The time limit per decision (app/bots/clocks.py): set, changed or taken off."""
    refuse_cross_site(request)
    try:
        limit = time_limit_from(await text_form(request))
        changed = await clocks_of(request).set_limit(game_id, host_token, limit)
    except BadRequest as refusal:
        hosted = await table.hosting.hosted(game_id, host_token)
        return await _host_page(request, hosted, host_token, error=refusal.message, status=422)
    return RedirectResponse(f"/g/{game_id}/host/{host_token}?done={'limit' if changed else 'same-limit'}#time-limit",
                            status_code=303)

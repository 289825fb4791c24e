"""Server-rendered pages: home, new game, game (seat or spectator), claim, rules."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import FileSystemLoader, select_autoescape

from app.api.deps import TableDep, TokenDep, base_url
from app.api.ratelimit import check_create_rate
from app.games import LISTINGS, get_title, is_playable
from app.settings import ROOT
from app.table.errors import BadRequest, Forbidden, NotFound
from app.table.hosting import BrokenLink, LinkToOpen

from . import bots as bot_pages
from .social import game_social
from .forms import refuse_cross_site, text_form
from .qr import seat_qr
from .render import ViewEnvironment, drawn_once, frozen, game_context, hex_points, title_content

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(env=ViewEnvironment(loader=FileSystemLoader(ROOT / "templates"),
                                                autoescape=select_autoescape()))  # as Jinja2Templates(directory=...) would
templates.env.filters["duration"] = bot_pages.duration
templates.env.globals["drawn_once"] = drawn_once
templates.env.globals["frozen"] = frozen
templates.env.globals["hex_points"] = hex_points


NO_STORE = {"Cache-Control": "no-store"}  # pages that carry a seat's secret


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "error.html", {"status": status, "message": message, "broken": None}, status_code=status
    )


def broken_link_page(request: Request, broken: BrokenLink) -> HTMLResponse:
    """A link that opens nothing says what happened to it and what to do."""
    status = 404 if broken.kind == "no-game" else 403
    return templates.TemplateResponse(
        request, "error.html", {"status": status, "message": broken.message, "broken": broken},
        status_code=status, headers=NO_STORE)


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> Response:
    return templates.TemplateResponse(request, "home.html", {"listings": LISTINGS, "is_playable": is_playable})


@router.get("/new/{title_id}", response_class=HTMLResponse)
async def new_game_form(request: Request, title_id: str) -> Response:
    if not is_playable(title_id):
        raise NotFound("That title is not playable yet.")
    spec = get_title(title_id).TITLE
    return templates.TemplateResponse(request, "new_game.html", {"spec": spec, "form": {}, "error": None,
                                                                 **await bot_pages.clocks_context(request, "")})


@router.post("/new/{title_id}", response_class=HTMLResponse)
async def create_from_form(request: Request, title_id: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    if not is_playable(title_id):
        raise NotFound("That title is not playable yet.")
    spec = get_title(title_id).TITLE
    await check_create_rate(request)
    form: dict[str, str] = {}
    try:
        form = await text_form(request)
        players, options, seed = _read_new_game_form(spec, form)
        limit = bot_pages.time_limit_from(form)
        created = await table.create_game(title_id, players, seed, options, host_plays=form.get("host_plays") == "on",
                                          also=bot_pages.clocks_of(request).writer(limit),
                                          chat_policy="hidden" if form.get("chat_hidden") == "on" else "read")
    except BadRequest as refusal:
        return templates.TemplateResponse(
            request, "new_game.html", {"spec": spec, "form": form, "error": refusal.message,
                                       **await bot_pages.clocks_context(request, "")}, status_code=422
        )
    # Post/redirect/get: the host page shows every link, and reloading it creates nothing.
    return RedirectResponse(f"/g/{created.id}/host/{created.host_token}", status_code=303)


def _read_new_game_form(spec: Any, form: Any) -> tuple[list[Any], dict[str, Any], int | None]:
    try:
        count = int(form.get("seats", ""))
    except ValueError:
        raise BadRequest("Choose how many players.") from None
    if not spec.min_players <= count <= spec.max_players:
        raise BadRequest(f"{spec.name} is for {spec.min_players}–{spec.max_players} players.")
    players: list[Any] = [(form.get(f"name{i}") or "").strip() or None for i in range(count)]
    for i in range(count):  # a seat given to a bot (app/bots); its name box is ignored
        if form.get(f"bot{i}"):
            players[i] = {"bot": form[f"bot{i}"]}
    options: dict[str, Any] = {}
    for o in spec.option_specs:
        if o.kind == "bool":
            options[o.key] = form.get(o.key) == "on"
        else:
            options[o.key] = form.get(o.key, o.default)
    # No seed from the page: a game made here always deals from a fresh server secret, so
    # a "rematch" cannot repeat the hidden order. The API still takes one for tests and replays.
    return players, options, None


@router.get("/g/{game_id}", response_class=HTMLResponse)
async def spectate(request: Request, game_id: str, table: TableDep) -> Response:
    view = await table.view(await table.viewer(game_id, None))
    context = {**game_context(view, token=None), **await bot_pages.clocks_context(request, game_id)}
    context.update(await game_social(table, view, None))  # the chat (web/social.py)
    return templates.TemplateResponse(request, "game.html", context)


@router.get("/g/{game_id}/seat/{token}", response_class=HTMLResponse)
async def play(request: Request, game_id: str, token: str, table: TableDep) -> Response:
    try:
        view = await table.view(await table.viewer(game_id, token))
    except LinkToOpen:
        return await _open_page(request, table, game_id, token)
    except (Forbidden, NotFound):
        return broken_link_page(request, await table.hosting.explain_link(game_id, token))
    me = view["seats"][view["seat"]]
    if me["open"]:
        return await _claim_page(request, table, view, token)
    context = {**game_context(view, token=token), **await bot_pages.clocks_context(request, game_id)}
    context["away"] = await bot_pages.away_level(request, game_id, view["seat"])  # a bot plays for this seat
    context.update(await game_social(table, view, token))  # the chat (web/social.py)
    return templates.TemplateResponse(request, "game.html", context, headers=NO_STORE)


async def _claim_page(request: Request, table: TableDep, view: dict[str, Any], token: str,
                      error: str | None = None, name: str = "") -> Response:
    invite = await table.hosting.invitation(view["id"], view["seat"])
    context = {"view": view, "invite": invite, "token": token, "error": error, "name": name}
    return templates.TemplateResponse(request, "claim.html", context, status_code=422 if error else 200,
                                      headers=NO_STORE)


@router.post("/g/{game_id}/seat/{token}/claim")
async def claim(request: Request, game_id: str, token: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    name = ""
    try:
        form = await text_form(request)
        name = form.get("name", "")
        private = await table.claim_seat(game_id, token, name)
    except BadRequest as refusal:
        view = await table.view(await table.viewer(game_id, token))
        return await _claim_page(request, table, view, token, refusal.message, name[:40])
    except (Forbidden, NotFound):  # taken a moment ago, or the link was spent or replaced
        return broken_link_page(request, await table.hosting.explain_link(game_id, token))
    # The invite is spent: the seat now answers to a link that only this player has.
    return RedirectResponse(f"/g/{game_id}/seat/{private}/yours", status_code=303)


async def _open_page(request: Request, table: TableDep, game_id: str, token: str) -> Response:
    """A "host who plays" seat link, not yet opened: one press swaps it for a private one
    (a press, not the visit itself, so a chat app previewing the link does not spend it)."""
    invite = await table.hosting.invitation(game_id, None, token=token)
    return templates.TemplateResponse(request, "claim.html", {"invite": invite, "token": token, "to_open": True,
                                                              "error": None, "name": ""}, headers=NO_STORE)


@router.post("/g/{game_id}/seat/{token}/open")
async def open_seat(request: Request, game_id: str, token: str, table: TableDep) -> Response:
    refuse_cross_site(request)
    try:
        private = await table.hosting.open_seat(game_id, token)
    except (Forbidden, NotFound):
        return broken_link_page(request, await table.hosting.explain_link(game_id, token))
    return RedirectResponse(f"/g/{game_id}/seat/{private}/yours", status_code=303)


@router.get("/g/{game_id}/seat/{token}/yours", response_class=HTMLResponse)
async def seat_is_yours(request: Request, game_id: str, token: str, table: TableDep) -> Response:
    """After taking or opening a seat: its private link, to bookmark (the host cannot show
    it again); this browser keeps it under "Your games"."""
    try:
        view = await table.view(await table.viewer(game_id, token))
    except (Forbidden, NotFound):
        return broken_link_page(request, await table.hosting.explain_link(game_id, token))
    me = view["seats"][view["seat"]]
    await table.hosting.link_address_now()
    link = f"{base_url(request)}/g/{game_id}/seat/{token}"
    return templates.TemplateResponse(request, "yours.html", {
        "view": view, "me": me, "link": link, "title_name": get_title(view["title"]).TITLE.name,
        "qr": seat_qr(link)}, headers=NO_STORE)


@router.get("/g/{game_id}/fragment", response_class=HTMLResponse)
async def fragment(request: Request, game_id: str, table: TableDep, token: TokenDep, seen: int | None = None) -> Response:
    """The live part of the game page, re-rendered for a websocket update. ``seen``: the
    version of the view that update (or the action's answer) carried; a game this process
    holds at least that new is drawn without reading the database."""
    view = await table.view(await table.viewer(game_id, token), seen=seen)
    context = {**game_context(view, token=token), **await bot_pages.clocks_context(request, game_id)}
    context.update(await game_social(table, view, token))  # play again, concede (web/social.py)
    return templates.TemplateResponse(request, "_game_body.html", context, headers={"Cache-Control": "no-store"})


@router.get("/rules/{title_id}", response_class=HTMLResponse)
async def rules(request: Request, title_id: str) -> Response:
    if not is_playable(title_id):
        raise NotFound("There are no rules here for that title yet.")
    spec = get_title(title_id).TITLE
    return templates.TemplateResponse(
        request, f"rules/{title_id}.html", {"spec": spec, "content": title_content(title_id)}
    )


"""JSON API for hosts and for "my games". Handlers call one table function each.

Seats are numbered from 0, as everywhere in the API (pages say "seat 1" for seat 0).
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.table.errors import Unauthorized
from app.table.hosting import MAX_MY_GAMES, HostedGame, MyGame

from .bots import ClockOut, clocks_out
from .deps import SeatIndex, TableDep, TokenDep, base_url
from .games import refusals

router = APIRouter(prefix="/api", tags=["hosting"], responses=refusals(413))

class HostedSeatOut(BaseModel):
    seat: int
    name: str | None = Field(description="The player's name; null while the seat waits for a player.")
    open: bool
    token: str | None = Field(description="The seat's link secret, shown again from the host link; null once the "
                                          "seat's player has a private link of their own (taken from its invite, or "
                                          "opened in a 'host who plays' game).")
    url: str | None
    must_open: bool = Field(description="A 'host who plays' link its player has not opened yet.")
    claimed_at: datetime | None = Field(description="When the seat was taken (null: open, or named at creation).")
    seen_at: datetime | None = Field(description="When the seat's link was last used (to the minute).")
    awaited: bool = Field(description="Play waits for this seat's choice now.")


class HostedOut(BaseModel):
    """The host page as data: every seat's link again, who sits where, who looked when."""

    id: str
    title: str
    title_name: str
    status: str
    host_name: str | None
    url: str = Field(description="The host page (the host link).")
    spectator_url: str
    waiting_on_open: list[int] = Field(description="Open seats play waits for: send them their invite link.")
    seats: list[HostedSeatOut]
    winners: list[str] | None
    host_plays: bool = Field(description="Seat links are shown only until each player opens theirs.")
    created_at: datetime
    updated_at: datetime


class NameIn(BaseModel):
    name: str = Field(max_length=200, examples=["Ann"])


class NewLinkOut(BaseModel):
    seat: int
    token: str
    url: str


class MyGamesIn(BaseModel):
    tokens: list[str] = Field(description=f"Seat or host link secrets this browser holds (at most {MAX_MY_GAMES}).")


class SeatSummaryOut(BaseModel):
    seat: int
    name: str
    open: bool


class MyGameOut(BaseModel):
    """One link as the home page lists it: public facts only."""

    token: str
    role: str = Field(description="'seat' (a player's link) or 'host' (the host link).")
    id: str
    title: str
    title_name: str
    url: str = Field(description="The page this link opens.")
    seat: int | None
    you: str | None = Field(description="The seat's player (null for a host link or an open seat).")
    seats: list[SeatSummaryOut]
    to_act: list[int]
    your_turn: bool
    waiting_on_open: bool = Field(description="Play waits for a player to take an open seat.")
    status: str
    winners: list[str] | None
    updated_at: datetime = Field(description="The game's last change.")
    clocks: list[ClockOut] = Field(default=[], description="Time left for each seat whose decision is timed.")


def _host_token(token: str | None) -> str:
    if token is None:
        raise Unauthorized("Send the host link's secret as 'Authorization: Bearer <host token>'.")
    return token


def _hosted_out(hosted: HostedGame, host_token: str, root: str) -> HostedOut:
    return HostedOut(
        id=hosted.id, title=hosted.title, title_name=hosted.title_name, status=hosted.status,
        host_name=hosted.host_name, url=f"{root}/g/{hosted.id}/host/{host_token}", spectator_url=f"{root}/g/{hosted.id}",
        waiting_on_open=[s.seat for s in hosted.waiting_on_open], winners=hosted.winners,
        host_plays=hosted.host_plays, created_at=hosted.created_at, updated_at=hosted.updated_at,
        seats=[HostedSeatOut(seat=s.seat, name=s.name, open=s.open, token=s.token,
                             url=f"{root}/g/{hosted.id}/seat/{s.token}" if s.token else None, claimed_at=s.claimed_at,
                             seen_at=s.seen_at, awaited=s.awaited, must_open=s.must_open) for s in hosted.seats],
    )


def _my_game_out(game: MyGame, root: str) -> MyGameOut:
    path = f"/g/{game.id}/host/{game.token}" if game.role == "host" else f"/g/{game.id}/seat/{game.token}"
    return MyGameOut(**{**game.__dict__, "seats": [SeatSummaryOut(**s) for s in game.seats]}, url=root + path)


@router.get("/games/{game_id}/host", response_model=HostedOut, responses=refusals(401, 403, 404, 422))
async def get_hosted(game_id: str, table: TableDep, token: TokenDep, request: Request) -> HostedOut:
    """Every seat's link again, with the host link's secret as the bearer token."""
    host_token = _host_token(token)
    await table.hosting.link_address_now()
    return _hosted_out(await table.hosting.hosted(game_id, host_token), host_token, base_url(request))


@router.post("/games/{game_id}/host/seats/{seat}/new-link", response_model=NewLinkOut,
             responses=refusals(401, 403, 404, 409, 422))
async def replace_link(game_id: str, seat: SeatIndex, table: TableDep, token: TokenDep, request: Request) -> NewLinkOut:
    """A new link for the seat (lost or leaked); the old one stops working at once."""
    new = await table.hosting.replace_link(game_id, _host_token(token), seat)
    return NewLinkOut(seat=seat, token=new, url=f"{base_url(request)}/g/{game_id}/seat/{new}")


@router.put("/games/{game_id}/host/seats/{seat}/name", response_model=HostedOut,
            responses=refusals(400, 401, 403, 404, 422))
async def rename_seat(game_id: str, seat: SeatIndex, body: NameIn, table: TableDep, token: TokenDep,
                      request: Request) -> HostedOut:
    """Rename the seat's player; naming an open seat seats that player (its link plays at once)."""
    host_token = _host_token(token)
    await table.hosting.rename(game_id, host_token, seat, body.name)
    return _hosted_out(await table.hosting.hosted(game_id, host_token), host_token, base_url(request))


@router.post("/games/{game_id}/host/seats/{seat}/reopen", response_model=HostedOut,
             responses=refusals(401, 403, 404, 422))
async def reopen_seat(game_id: str, seat: SeatIndex, table: TableDep, token: TokenDep, request: Request) -> HostedOut:
    """The seat's player left: its link becomes an invite again (replace it too to keep them out)."""
    host_token = _host_token(token)
    await table.hosting.reopen(game_id, host_token, seat)
    return _hosted_out(await table.hosting.hosted(game_id, host_token), host_token, base_url(request))


@router.post("/my-games", response_model=list[MyGameOut], responses=refusals(400, 422))
async def my_games(body: MyGamesIn, table: TableDep, request: Request) -> list[MyGameOut]:
    """One entry per link that opens a seat or a host page, your turn first; links that open
    nothing are left out without an error."""
    await table.hosting.link_address_now()
    root = base_url(request)
    games = await table.hosting.my_games(body.tokens)
    clocks = await request.app.state.bots.clocks.shown_for([g.id for g in games if g.status == "active"])
    return [_my_game_out(game, root).model_copy(update={"clocks": clocks_out(clocks.get(game.id, []))})
            for game in games]

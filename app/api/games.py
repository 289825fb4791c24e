"""JSON API: titles, games, actions. Handlers call one table function each."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.games import titles_json
from app.table.errors import Unauthorized
from app.web.encode import JSONView

from .deps import TableDep, TokenDep, base_url
from .ratelimit import check_create_rate

router = APIRouter(prefix="/api", tags=["games"])


class NewGame(BaseModel):
    title: str = Field(max_length=40, examples=["tiny-towns"])
    players: list[str | None] = Field(
        max_length=12, description="One entry per seat: a name, or null to leave the seat open."
    )
    seed: int | None = Field(default=None, description=("Deal from this seed instead of a fresh server secret, for tests and deliberate "
                                   "replays only: anyone who knows it knows every hidden draw. The game's view says so."))
    options: dict[str, Any] | None = None


class SeatLinkOut(BaseModel):
    seat: int
    name: str | None
    token: str
    url: str


class CreatedOut(BaseModel):
    id: str
    title: str
    url: str
    seats: list[SeatLinkOut]


class ActionIn(BaseModel):
    option: str = Field(max_length=200)
    version: int


@router.get("/healthz", include_in_schema=False)
async def health(table: TableDep) -> dict[str, str]:
    """For load balancers and compose health checks: the database answers."""
    await table.ping()
    return {"status": "ok"}


@router.get("/titles")
async def list_titles() -> list[dict[str, Any]]:
    return titles_json()


@router.post("/games", status_code=201, response_model=CreatedOut)
async def create_game(body: NewGame, table: TableDep, request: Request) -> CreatedOut:
    check_create_rate(request)
    created = await table.create_game(body.title, body.players, body.seed, body.options)
    root = base_url(request)
    return CreatedOut(
        id=created.id,
        title=created.title,
        url=f"{root}/g/{created.id}",
        seats=[
            SeatLinkOut(seat=s.seat, name=s.name, token=s.token, url=f"{root}/g/{created.id}/seat/{s.token}")
            for s in created.seats
        ],
    )


@router.get("/games/{game_id}", response_class=JSONView)
async def get_game(game_id: str, table: TableDep, token: TokenDep) -> JSONView:
    """The game as this seat sees it (no token: as a spectator)."""
    return JSONView(await table.view(await table.viewer(game_id, token)))


@router.post("/games/{game_id}/actions", response_class=JSONView)
async def take_action(game_id: str, body: ActionIn, table: TableDep, token: TokenDep) -> JSONView:
    """Take one of the options your view lists; answers with your new view."""
    if token is None:
        raise Unauthorized("Acting needs your seat token: 'Authorization: Bearer <token>'.")
    return JSONView(await table.act(await table.viewer(game_id, token), body.option, body.version))

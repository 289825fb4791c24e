"""JSON API for the end of a game: concede (a seat), abandon (the host), play again (a seat
or the host). Handlers call one table function each (app/table/endings.py, rematch.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.table.errors import Unauthorized

from .deps import TableDep, TokenDep, base_url
from .games import refusals

router = APIRouter(prefix="/api", tags=["games"], responses=refusals(413))


class RematchOut(BaseModel):
    """The new game as the asker enters it: a seat's own new link, or the new host link."""

    id: str
    url: str = Field(description="The asker's page in the new game: their seat, the host page, or the spectator page.")
    seat: int | None = Field(description="The asker's seat (null for the host).")
    token: str | None = Field(description="The asker's new link secret (a seat's, or the host's).")


def _token(token: str | None) -> str:
    if not token:
        raise Unauthorized("Send your seat's (or the host's) token as 'Authorization: Bearer <token>'.")
    return token


@router.post("/games/{game_id}/concede", status_code=204, responses=refusals(401, 403, 404, 409, 422))
async def concede(game_id: str, table: TableDep, token: TokenDep) -> None:
    """This seat gives up. Two seats: the other wins. More: the game ends, this seat is
    ranked last and the others share the win."""
    await table.endings.concede(await table.viewer(game_id, _token(token)))


@router.post("/games/{game_id}/abandon", status_code=204, responses=refusals(401, 403, 404, 409, 422))
async def abandon(game_id: str, table: TableDep, token: TokenDep) -> None:
    """The host (host token) ends a game nobody plays any more: recorded as abandoned, no winner."""
    await table.endings.abandon(game_id, _token(token))


@router.post("/games/{game_id}/rematch", response_model=RematchOut, responses=refusals(401, 403, 404, 422))
async def rematch(game_id: str, table: TableDep, token: TokenDep, request: Request) -> RematchOut:
    """Play again (a finished game): one new game with the same title, options and seats,
    however often or by however many it is asked for. Each asker gets only their own new link."""
    found = await table.rematch.play_again(game_id, _token(token))
    root = base_url(request)
    if found.host and found.token:
        url = f"{root}/g/{found.game_id}/host/{found.token}"
    elif found.token:
        url = f"{root}/g/{found.game_id}/seat/{found.token}"
    else:
        url = f"{root}/g/{found.game_id}"
    return RematchOut(id=found.game_id, url=url, seat=found.seat, token=found.token)

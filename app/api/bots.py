"""JSON API for bots standing in: the host hands a seat to a bot and back ("away"), and a
player back at the table takes their seat back. Handlers call one table function each."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from app.table.errors import BadRequest, Unauthorized

from .deps import SeatIndex, TableDep, TokenDep
from .games import refusals

router = APIRouter(prefix="/api", tags=["bots"], responses=refusals(413))


class SeatBotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bot: Literal["random", "strong"] | None = Field(
        description='The bot that plays the seat while its player is away; null hands it back to the player.')


class SeatBotOut(BaseModel):
    seat: int
    bot: str | None = Field(description="The bot playing the seat now; null: its player.")
    changed: bool = Field(description="False when the seat was already so.")


@router.put("/games/{game_id}/host/seats/{seat}/bot", response_model=SeatBotOut,
            responses=refusals(400, 401, 403, 404, 409, 422))
async def hand_seat_to_bot(game_id: str, seat: SeatIndex, body: SeatBotIn, table: TableDep,
                           token: TokenDep) -> SeatBotOut:
    """The host hands a seat to a bot (a player going on holiday), or back to its player."""
    if token is None:
        raise Unauthorized("Send the host link's secret as 'Authorization: Bearer <token>'.")
    changed = await table.hosting.hand_to_bot(game_id, token, seat, body.bot)
    return SeatBotOut(seat=seat, bot=body.bot, changed=changed)


@router.post("/games/{game_id}/back", response_model=SeatBotOut, responses=refusals(401, 403, 404, 422))
async def back_at_the_table(game_id: str, table: TableDep, token: TokenDep) -> SeatBotOut:
    """A player whose seat a bot played (away, or their time ran out) plays it again."""
    if token is None:
        raise Unauthorized("Taking your seat back needs your seat token: 'Authorization: Bearer <token>'.")
    viewer = await table.viewer(game_id, token)
    if viewer.seat is None:
        raise BadRequest("Only a seat's own link can take it back.")
    changed = await table.hosting.hand_seat(game_id, viewer.seat, None, by="player")
    return SeatBotOut(seat=viewer.seat, bot=None, changed=changed)

"""JSON API for bots standing in: the host hands a seat to a bot and back ("away"), and a
player back at the table takes their seat back. Handlers call one table function each."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from app.bots.clocks import Clocks, Limit, SeatClock
from app.table.errors import BadRequest, Unauthorized
from app.table.seats import Viewer

from .deps import SeatIndex, TableDep, TokenDep
from .games import TimeLimitIn, refusals

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


# --- Time limits per decision (app/bots/clocks.py) ---
class ClockOut(BaseModel):
    seat: int
    left_seconds: int = Field(description="Seconds left for the seat's current decision (0 once it ran out).")
    expired: bool = Field(description="The time ran out (the host's choice was carried out).")


def clocks_out(shown: list[SeatClock]) -> list[ClockOut]:
    return [ClockOut(seat=c.seat, left_seconds=int(c.left), expired=c.expired) for c in shown]


class TimeLimitOut(BaseModel):
    seconds: int
    on_timeout: str


class GameClocksOut(BaseModel):
    time_limit: TimeLimitOut | None = Field(description="Null: no time limit.")
    clocks: list[ClockOut] = Field(description="A clock per seat whose decision is timed now.")


class TimeLimitChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    time_limit: TimeLimitIn | None = Field(description="The new limit; null takes the limit off.")


def _clocks(request: Request) -> Clocks:
    return request.app.state.bots.clocks  # type: ignore[no-any-return]


async def game_clocks_out(clocks: Clocks, game_id: str) -> GameClocksOut:
    limit: Limit | None = await clocks.limit(game_id)
    return GameClocksOut(time_limit=TimeLimitOut(seconds=limit.seconds, on_timeout=limit.on_timeout) if limit else None,
                         clocks=clocks_out(await clocks.shown(game_id)))


@router.get("/games/{game_id}/clocks", response_model=GameClocksOut, responses=refusals(404, 422))
async def get_clocks(game_id: str, table: TableDep, request: Request) -> GameClocksOut:
    """The game's time limit and each timed seat's time left (public: who owes a decision is)."""
    await table.view(Viewer(game_id, None))  # 404 for no such game
    return await game_clocks_out(_clocks(request), game_id)


@router.put("/games/{game_id}/host/time-limit", response_model=GameClocksOut,
            responses=refusals(400, 401, 403, 404, 422))
async def set_time_limit(game_id: str, body: TimeLimitChange, table: TableDep, token: TokenDep,
                         request: Request) -> GameClocksOut:
    """The host sets, changes or takes off the time limit per decision; running clocks start again."""
    if token is None:
        raise Unauthorized("Send the host link's secret as 'Authorization: Bearer <token>'.")
    clocks = _clocks(request)
    await clocks.set_limit(game_id, token, body.time_limit.limit() if body.time_limit else None)
    return await game_clocks_out(clocks, game_id)

"""JSON API: undo a move at once, or ask the others for a takeback and answer it
(app/table/takeback.py). Each answers with the caller's new view; refusals change nothing."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.table.errors import Unauthorized
from app.table.seats import Viewer
from app.wire import JSONView

from .deps import TableDep, TokenDep
from .games import ViewJSON, ViewOut, refusals
from .ratelimit import check_action_rate

router = APIRouter(prefix="/api", tags=["takebacks"], responses=refusals(413))
STATUSES = refusals(400, 401, 403, 404, 409, 422, 429)


class VersionIn(BaseModel):
    version: int = Field(description="The version of the view you are looking at.")


class AnswerIn(BaseModel):
    request: int = Field(description="The id of the open request (view.takeback.request.id).")
    accept: bool


class RequestIn(BaseModel):
    request: int = Field(description="The id of your open request.")


async def _seat(table: TableDep, game_id: str, token: str | None, request: Request) -> Viewer:
    """The seat asking, charged to the same per-seat budget as its actions (each of these
    may write a line in the log everyone reads)."""
    if token is None:
        raise Unauthorized("Taking back needs your seat token: 'Authorization: Bearer <token>'.")
    viewer = await table.viewer(game_id, token)
    if viewer.seat is not None:
        await check_action_rate(request.app.state, viewer.game_id, viewer.seat)
    return viewer


@router.post("/games/{game_id}/undo", response_class=ViewJSON, response_model=ViewOut, responses=STATUSES)
async def undo(game_id: str, body: VersionIn, table: TableDep, token: TokenDep, request: Request) -> JSONView:
    """Take back your own last move at once: allowed while no other player has acted since
    (that you could see) and the move drew nothing random and showed you nothing hidden
    (``view.takeback.undo``)."""
    return JSONView(await table.takebacks.undo(await _seat(table, game_id, token, request), body.version))


@router.post("/games/{game_id}/takeback", response_class=ViewJSON, response_model=ViewOut, responses=STATUSES)
async def ask(game_id: str, body: VersionIn, table: TableDep, token: TokenDep, request: Request) -> JSONView:
    """Ask every other seated player to let you take back your last move (``view.takeback.ask``);
    bots accept at once. Play waits until the request is settled."""
    return JSONView(await table.takebacks.ask(await _seat(table, game_id, token, request), body.version))


@router.post("/games/{game_id}/takeback/answer", response_class=ViewJSON, response_model=ViewOut,
             responses=STATUSES)
async def answer(game_id: str, body: AnswerIn, table: TableDep, token: TokenDep, request: Request) -> JSONView:
    """Accept or decline the open request. One "no" ends it; the last "yes" returns the game
    to the version before the asker's move."""
    viewer = await _seat(table, game_id, token, request)
    return JSONView(await table.takebacks.answer(viewer, body.request, body.accept))


@router.post("/games/{game_id}/takeback/withdraw", response_class=ViewJSON, response_model=ViewOut,
             responses=STATUSES)
async def withdraw(game_id: str, body: RequestIn, table: TableDep, token: TokenDep, request: Request) -> JSONView:
    """Withdraw your own open request."""
    return JSONView(await table.takebacks.withdraw(await _seat(table, game_id, token, request), body.request))

"""A game's past: replay it step by step (app.table.history), export it as a document and
import one as a new game (app.table.archive)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from app.table.archive import FORMAT, FORMAT_VERSION, Archive

from .deps import HistoryDep, TableDep, TokenDep, base_url
from .games import CreatedOut, ViewJSON, ViewOut, created_out, refusals
from .ratelimit import check_create_rate

router = APIRouter(prefix="/api", tags=["archive"], responses=refusals(413))
MAX_IMPORT = 4 * 1024 * 1024  # an export of the longest games is a few hundred KB


class ExportedAction(BaseModel):
    seat: int
    option: str
    at: str | None = Field(default=None, description="When it was played (ISO 8601).")


class GameExport(BaseModel):
    """A whole game: what it takes to play it again anywhere."""

    format: str = Field(examples=[FORMAT])
    version: int = Field(examples=[FORMAT_VERSION])
    title: str
    options: dict[str, Any]
    players: list[str | None]
    secret: str | None = Field(default=None, description="The game's hidden draws (64 hex digits); finished games only.")
    seed: int | None = Field(default=None, description="Instead of a secret, for a game dealt from a chosen seed.")
    actions: list[ExportedAction]
    result: dict[str, Any] | None = None
    ending: Any = Field(default=None, description='Only for a game the table ended: {"kind": "abandoned"} or '
                                                  '{"kind": "conceded", "seat": n}, with "at".')


@router.get("/games/{game_id}/export", response_model=GameExport, response_model_exclude_unset=True,
            responses=refusals(401, 403, 404))
async def export_game(game_id: str, table: TableDep, token: TokenDep) -> dict[str, Any]:
    """The game as a document. Any seat or the host may export a finished game (with its
    secret, so it can be replayed exactly); only the host a running one (without it)."""
    return await Archive(table).export(game_id, token)


@router.post("/games/import", response_model=CreatedOut, status_code=201, responses=refusals(422, 429))
async def import_game(body: GameExport, request: Request, table: TableDep) -> CreatedOut:
    """A new game, with new links, whose state is the document's actions replayed; or a 422
    naming the first action that does not apply (nothing is stored then). Documents may be
    up to 4 MB."""
    await check_create_rate(request)
    created = await Archive(table).import_game(body.model_dump(exclude_none=True))
    return created_out(created, base_url(request))


class ReplayOut(BaseModel):
    at: int = Field(description="This step, from 0.")
    steps: int = Field(description="How many steps the replay has.")
    every_version: bool = Field(description="Every version of the game (a finished game replayed as a seat).")
    revealable: bool = Field(description="The game is over: any seat's screen may be replayed.")
    as_seat: int | None


class HistoryOut(ViewOut):
    """A view as it was, with ``options`` empty (a replay is looked at, not played) and
    ``version`` the step of the replay."""

    replay: ReplayOut


@router.get("/games/{game_id}/history", response_class=ViewJSON, response_model=HistoryOut,
            responses=refusals(401, 403, 404, 422))
async def history(game_id: str, table: TableDep, history: HistoryDep, token: TokenDep,
                  at: Annotated[int | None, Query(ge=0, description="The step of your replay (from 0); the last if left out.")] = None,
                  seat: Annotated[int | None, Query(ge=0, le=63, description="Once the game is over: replay this seat's screen.")] = None,
                  ) -> Any:
    """Your view at step ``at`` of your replay: the moments what you see changed (a seat its
    own screen, no token: the public view). The answer's ``replay`` says how many steps there
    are. After the game, ``seat`` replays any seat's screen over every version."""
    viewer = await table.viewer(game_id, token)
    return ViewJSON(await history.view_at(viewer, at, seat))

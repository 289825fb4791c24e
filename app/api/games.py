"""JSON API: titles, games, actions. Handlers call one table function each."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.bots.clocks import MAX_SECONDS, MIN_SECONDS, Limit
from app.games import titles_json
from app.table.errors import Unauthorized
from app.table.service import CreatedGame
from app.wire import JSONView

from .deps import TableDep, TokenDep, base_url
from .ratelimit import check_action_rate, check_create_rate


class ViewJSON(JSONView, JSONResponse):
    """JSONView (orjson, no validation on the way out), known to FastAPI as JSON so that
    the OpenAPI document shows the view's schema (ViewOut) instead of a string."""


class ErrorOut(BaseModel):
    """Every refusal: one sentence a player can read. A refusal changes nothing."""

    detail: str = Field(examples=["The game has moved on (you saw version 3, it is now at 4). Choose again."])


REFUSALS = {
    400: "The request body could not be read.",
    401: "No seat token, or not sent as 'Authorization: Bearer <token>'.",
    403: "The token is not a seat of this game, or the seat is still open.",
    404: "No such game (or no playable title by that name).",
    409: "Someone acted first: the version you sent is not the game's version any more.",
    413: "The request body is over 64 KB.",
    422: "The body does not fit the schema, or the option is not one of your choices now.",
    429: "Too many requests (new games per address, actions per seat); the message says when to try again.",
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorOut, "description": REFUSALS[status]} for status in statuses}


router = APIRouter(prefix="/api", tags=["games"], responses=refusals(413))


class BotSeatIn(BaseModel):
    """A seat a bot plays from the server: "random" (any listed option) or "strong" (the title's own bot)."""

    model_config = ConfigDict(extra="forbid")
    bot: Literal["random", "strong"]


class TimeLimitIn(BaseModel):
    """A time limit per decision, and what happens when a seat runs out of it."""

    model_config = ConfigDict(extra="forbid")
    seconds: int = Field(description=f"Time for each decision, in seconds ({MIN_SECONDS} to {MAX_SECONDS}: "
                                     "1 minute to 30 days), e.g. 86400 for 24 hours. A reminder goes out at half.",
                         json_schema_extra={"minimum": MIN_SECONDS, "maximum": MAX_SECONDS}, examples=[86400])
    on_timeout: Literal["wait", "bot-move", "bot-seat"] = Field(
        default="wait", description=("When it runs out: 'wait' (the log says so and the game waits), 'bot-move' "
                                     "(a bot plays that decision), 'bot-seat' (a bot plays the seat until its "
                                     "player opens their link and takes it back)."))

    @field_validator("seconds")
    @classmethod
    def sane(cls, seconds: int) -> int:
        if not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise ValueError(f"a time limit per decision is from {MIN_SECONDS} seconds (1 minute) to "
                             f"{MAX_SECONDS} seconds (30 days); got {seconds}")
        return seconds

    def limit(self) -> Limit:
        return Limit(self.seconds, self.on_timeout)


class NewGame(BaseModel):
    title: str = Field(max_length=40, examples=["tiny-towns"])
    players: list[str | None | BotSeatIn] = Field(
        max_length=12, description=("One entry per seat: a name, null to leave the seat open, or "
                                    '{"bot": "random"} / {"bot": "strong"} for a seat a bot plays.'),
        examples=[["Ann", None, {"bot": "strong"}]],
    )
    seed: int | None = Field(default=None, description=("Deal from this seed instead of a fresh server secret, for tests and deliberate "
                                   "replays only: anyone who knows it knows every hidden draw. The game's view says so."))
    options: dict[str, Any] | None = None
    host_plays: bool = Field(default=False, description=(
        "The host plays too: each seat's link opens the seat only after its player swaps it for a private link "
        "(one press on its page), and the host link no longer shows it. Without it the host link opens every seat."))
    time_limit: TimeLimitIn | None = Field(default=None, description="Null (the default): no time limit.")
    chat_policy: Literal["read", "hidden"] = Field(default="read", description=(
        "Who besides the players and the host sees the game's chat: 'read' (spectators read it) or 'hidden'."))


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
    host_token: str = Field(description="The host link's secret: GET /api/games/{id}/host with it shows every seat's link again.")
    host_url: str = Field(description="The host page: seat links, who took which seat, who looked when.")


MAX_OPTION = 200  # characters in an option id sent back (over HTTP or the websocket)


class ActionIn(BaseModel):
    option: str = Field(max_length=MAX_OPTION)
    version: int


class SeatOut(BaseModel):
    seat: int
    name: str = Field(description="The player's name, or 'Seat N (waiting for a player)' while the seat is open.")
    open: bool = Field(description="Nobody has claimed this seat yet.")


class OptionOut(BaseModel):
    id: str = Field(description="What to send back as 'option'.")
    label: str = Field(description="What a button for it says.")
    kind: str = Field(description="A group of choices, e.g. 'place', 'build'.")
    target: str | None = Field(description="The thing on the board the choice is about, e.g. 'cell:1,2'.")


class ScoreOut(BaseModel):
    seat: int
    score: int
    breakdown: dict[str, int] = Field(description="Points by what earned them.")
    tiebreak: list[int] = Field(description="Compared after the score; higher is better.")
    note: str


class ResultOut(BaseModel):
    scores: list[ScoreOut] = Field(description="Empty for a game the table ended (abandoned, conceded).")
    winners: list[int]
    reason: str
    ended: Literal["abandoned", "conceded"] | None = Field(default=None, description=(
        "Set when the table ended the game before its rules did: the host ended it as abandoned, or a seat conceded."))
    conceded: list[int] = Field(default=[], description="The seats that conceded (ranked last).")


class TakebackRequestOut(BaseModel):
    id: int = Field(description="The request's number in this game; answer with it.")
    seat: int = Field(description="The seat that asks.")
    by: str
    waiting: list[str] = Field(description="Who has not answered yet.")
    accepted: list[str] = Field(description="Who has said yes (bots at once).")
    yours: bool = Field(description="This viewer asked.")
    to_answer: bool = Field(description="This viewer's answer is awaited.")


class TakebackOut(BaseModel):
    undo: bool = Field(description="This seat may undo its last move at once (POST .../undo).")
    ask: bool = Field(description="This seat may ask the others for a takeback (POST .../takeback).")
    request: TakebackRequestOut | None = Field(description="The takeback request waiting for answers, if any.")


class ViewOut(BaseModel):
    """A game as one seat (or a spectator) may see it: the API body and every websocket frame."""

    id: str
    title: str = Field(examples=["tiny-towns"])
    status: Literal["active", "finished"]
    version: int = Field(description=("The version of this view: the game version at which what this seat (or "
                                      "a spectator) sees last changed. Send it back with your action."))
    seed_given: bool = Field(default=False, description="The game was dealt from a seed its creator chose.")
    seat: int | None = Field(description="Whose view this is; null for a spectator.")
    seats: list[SeatOut]
    to_act: list[int] = Field(description="The seats that owe a choice now (several at once is normal).")
    public: dict[str, Any] = Field(description="What everyone sees; its fields are the title's (see docs/titles/).")
    private: dict[str, Any] | None = Field(description="This seat's own screen; null for spectators.")
    log: list[str] = Field(description="What happened lately, oldest first (the last 50 lines; see /log for more).")
    log_total: int = Field(description="Lines written by the game's rules so far; the newest is line `log_total`.")
    log_first: int = Field(description=("The number of the oldest rules line in `log` (lines are numbered from 1); "
                                        "GET /api/games/{id}/log?before=<log_first> gives the ones before it."))
    options: list[OptionOut] = Field(description="Every choice this seat may make now; empty for spectators.")
    result: ResultOut | None = Field(description="Scores and winners once the game is over.")
    takeback: TakebackOut = Field(description="What this viewer may take back, and the takeback request open now.")


@router.get("/healthz", include_in_schema=False)
async def health(table: TableDep) -> dict[str, str]:
    """For load balancers and compose health checks: the database answers."""
    await table.ping()
    return {"status": "ok"}


@router.get("/titles")  # no parameters: nothing to refuse but an oversized body
async def list_titles() -> list[dict[str, Any]]:
    return titles_json()


@router.post("/games", status_code=201, response_model=CreatedOut, responses=refusals(400, 404, 422, 429))
async def create_game(body: NewGame, table: TableDep, request: Request) -> CreatedOut:
    await check_create_rate(request)
    players = [p.model_dump() if isinstance(p, BotSeatIn) else p for p in body.players]
    limit = body.time_limit.limit() if body.time_limit else None
    created = await table.create_game(body.title, players, body.seed, body.options, host_plays=body.host_plays,
                                      also=request.app.state.bots.clocks.writer(limit), chat_policy=body.chat_policy)
    await table.hosting.link_address_now()
    return created_out(created, base_url(request))


def created_out(created: CreatedGame, root: str) -> CreatedOut:
    """A new game's links (made here or imported)."""
    return CreatedOut(
        id=created.id,
        title=created.title,
        url=f"{root}/g/{created.id}",
        host_token=created.host_token,
        host_url=f"{root}/g/{created.id}/host/{created.host_token}",
        seats=[
            SeatLinkOut(seat=s.seat, name=s.name, token=s.token, url=f"{root}/g/{created.id}/seat/{s.token}")
            for s in created.seats
        ],
    )


@router.get("/games/{game_id}", response_class=ViewJSON, response_model=ViewOut,
            responses=refusals(401, 403, 404, 422))
async def get_game(game_id: str, table: TableDep, token: TokenDep) -> JSONView:
    """The game as this seat sees it (no token: as a spectator)."""
    return JSONView(await table.view(await table.viewer(game_id, token)))


class TableLineOut(BaseModel):
    after: int = Field(description="The number of the rules' line just before it (0: before the first).")
    line: str
    at: str | None = Field(default=None, description="When it was written (ISO 8601, UTC).")


class LogPageOut(BaseModel):
    """A stretch of a game's log. Lines are numbered from 1, the first line ever written."""

    total: int = Field(description="Lines written in the whole game so far; the newest is line `total`.")
    first: int = Field(description="The number of the first line in `lines`.")
    lines: list[str] = Field(description="The rules' lines, oldest first, with the players' names written in.")
    times: list[str | None] = Field(default=[], description=(
        "When each of `lines` was written (ISO 8601, UTC): the time of the action that wrote it; null if unknown."))
    table_lines: list[TableLineOut] = Field(description="The table's own lines among them (a seat taken...), oldest first.")


@router.get("/games/{game_id}/log", response_model=LogPageOut, responses=refusals(400, 404, 422))
async def game_log(
    game_id: str, table: TableDep,
    before: int | None = Query(None, ge=1, description="Lines before this line number (none: the newest lines)."),
    limit: int = Query(50, ge=1, le=200, description="How many lines, at most."),
) -> dict[str, Any]:
    """Earlier lines of the game's log: a view carries only the newest, so the page asks
    here for the ones before the oldest it shows. The log is public: no token needed."""
    return await table.log_page(game_id, before, limit)


MINIMAL = "return=minimal"
MINIMAL_APPLIED = {"Preference-Applied": MINIMAL}


def wants_minimal(prefer: str | None) -> bool:
    """Do the ``Prefer`` headers (RFC 7240) ask for ``return=minimal``? The game page does:
    it reads only the new version from the answer (the view comes by its websocket), so
    the server need not build and send the seat's whole view a second time."""
    return prefer is not None and any(p.split(";")[0].strip().lower() == MINIMAL for p in prefer.split(","))


@router.post("/games/{game_id}/actions", response_class=ViewJSON, response_model=ViewOut,
             responses=refusals(400, 401, 403, 404, 409, 422, 429))
async def take_action(game_id: str, body: ActionIn, table: TableDep, token: TokenDep, request: Request) -> JSONView:
    """Take one of the options your view lists; answers with your new view, or with only
    ``{"version": <your view's new version>}`` when sent ``Prefer: return=minimal``."""
    if token is None:
        raise Unauthorized("Acting needs your seat token: 'Authorization: Bearer <token>'.")
    viewer = await table.viewer(game_id, token)
    if viewer.seat is not None:
        await check_action_rate(request.app.state, viewer.game_id, viewer.seat)
    minimal = wants_minimal(", ".join(request.headers.getlist("prefer")))
    return JSONView(await table.act(viewer, body.option, body.version, answer=not minimal),
                    headers=MINIMAL_APPLIED if minimal else None)

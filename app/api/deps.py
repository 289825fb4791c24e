"""Typed dependencies shared by the routers."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Path, Request
from starlette.requests import HTTPConnection

from app.table.errors import Unauthorized
from app.table.history import History
from app.table.service import Table


async def get_table(request: Request) -> Table:  # async: no thread hop per request
    return request.app.state.table


TableDep = Annotated[Table, Depends(get_table)]


async def get_history(request: Request) -> History:
    return request.app.state.history  # type: ignore[no-any-return]


HistoryDep = Annotated[History, Depends(get_history)]
# Every route that names a seat takes it through this type: a number no game can have
# (negative, or too large for the database's integer) is refused before anything is read.
SeatIndex = Annotated[int, Path(ge=0, le=63, description="The seat, from 0.")]


async def bearer_token(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The seat token from ``Authorization: Bearer <token>``, or None for a spectator."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("Send your seat token as 'Authorization: Bearer <token>'.")
    return token.strip()


TokenDep = Annotated[str | None, Depends(bearer_token)]


def base_url(request: Request) -> str:
    """The address links are made with: PUBLIC_URL, else the one the host chose on a host
    page (app.table.hosting), else the one this request came in on."""
    configured = request.app.state.settings.public_url
    table = getattr(request.app.state, "table", None)
    chosen = table.hosting.link_address if table is not None else ""
    return configured or chosen or str(request.base_url).rstrip("/")


def same_origin(conn: HTTPConnection) -> bool:
    """Browsers send Origin on form posts and websockets; it must be this server (or the
    configured PUBLIC_URL). Clients that send none (not browsers) are let through."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    public = conn.app.state.settings.public_url
    return origin in {f"http://{host}", f"https://{host}"} | ({public} if public else set())

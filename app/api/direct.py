"""``POST /api/games/{id}/actions`` served straight from the app (app.main.Keydom).

Every move is this one request. Through FastAPI it crossed a dozen middleware layers,
matched the path against every route, solved its dependencies and validated its body with
pydantic: about a sixth of the whole server's instructions per action, a quarter as much as
the table's own work for it (docs/benchmarks.md, twelfth round). Here the ordinary request (a bearer token, a JSON body
``{"option": <text>, "version": <integer>}``) goes to the same table calls as the route in
app.api.games, in the same order, and gets the same answer and headers.

Anything else — no token or a malformed one, a body that is not that plain object, another
content type, a body over the limit, too many headers — is handed to FastAPI with the body
replayed, so its refusals (and describe_validation's wording) stay the only ones. The route
in app.api.games stays too: the API's documentation, and the fallback, are made from it.
tests/api/test_direct_actions.py sends every case both ways and compares the answers.
"""

from __future__ import annotations

import re

import orjson
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.games import MAX_OPTION, MINIMAL_APPLIED, wants_minimal
from app.api.headers import MAX_BODY, secured
from app.api.ratelimit import check_action_rate
from app.table.errors import TableError
from app.wire import OPTIONS, JSONView

PATH = re.compile(r"/api/games/([^/]+)/actions")
JSON_TYPES = (b"application/json", b"application/json; charset=utf-8")
# An answer's headers but its length, in the order JSONView(headers=...) and ``secured``
# write them (tests/api/test_direct_actions.py compares them with the route's).
_MINIMAL_HEAD = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in MINIMAL_APPLIED.items()]
_ANSWER_TAIL = [(b"content-type", JSONView.media_type.encode("latin-1")),
                *secured({"type": "http.response.start", "headers": [(b"content-type", b"")]})["headers"][1:]]


def takes(scope: Scope) -> bool:
    """Is this request one this module serves (or hands on)?"""
    return scope["type"] == "http" and scope["method"] == "POST" and PATH.fullmatch(scope["path"]) is not None


async def serve(app: ASGIApp, scope: Scope, receive: Receive, send: Send, everything_else: ASGIApp) -> None:
    state = app.state  # type: ignore[attr-defined]
    headers = scope["headers"]
    if len(headers) > state.settings.max_headers:
        await everything_else(scope, receive, send)  # BodyLimit answers 431
        return
    length = kind = authorization = prefer = None
    for name, value in headers:
        if name == b"content-length":
            length = value
        elif name == b"content-type":
            kind = value
        elif name == b"authorization" and authorization is None:
            authorization = value
        elif name == b"prefer":  # several are one list (RFC 7240), as the route joins them
            prefer = value if prefer is None else prefer + b", " + value
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        await everything_else(scope, receive, send)  # BodyLimit answers 413
        return
    body = b""
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return  # the client went away before it finished sending
        body += message.get("body", b"")
        if len(body) > MAX_BODY:
            break
        if not message.get("more_body", False):
            break
    action = _plain(body, kind, authorization)
    if action is None:
        await everything_else(scope, _replay(body, receive), send)
        return
    token, option, version = action
    game_id = PATH.fullmatch(scope["path"]).group(1)  # type: ignore[union-attr]
    table = state.table
    try:
        viewer = await table.viewer(game_id, token)
        if viewer.seat is not None:
            await check_action_rate(state, viewer.game_id, viewer.seat)
        minimal = wants_minimal(prefer.decode("latin-1") if prefer else None)
        answer = await table.act(viewer, option, version, answer=not minimal)
    except TableError as refusal:  # as app.main's handler answers it
        response = JSONResponse({"detail": refusal.message}, status_code=refusal.status)

        async def send_secured(message: Message) -> None:
            await send(secured(message) if message["type"] == "http.response.start" else message)

        await response(scope, receive, send_secured)
        return
    # Every move is answered so: the headers JSONView and the security headers would give,
    # written once at import instead of assembled by starlette's Response on each answer.
    body = orjson.dumps(answer, option=OPTIONS)
    await send({"type": "http.response.start", "status": 200,
                "headers": [*(_MINIMAL_HEAD if minimal else ()), (b"content-length", str(len(body)).encode()),
                            *_ANSWER_TAIL]})
    await send({"type": "http.response.body", "body": body})


def _plain(body: bytes, kind: bytes | None, authorization: bytes | None) -> tuple[str, str, int] | None:
    """(token, option, version) of an ordinary action request, or None for anything else."""
    if len(body) > MAX_BODY or kind is None or kind.lower() not in JSON_TYPES or authorization is None:
        return None
    scheme, _, token = authorization.decode("latin-1").partition(" ")  # as app.api.deps.bearer_token
    if scheme.lower() != "bearer" or not token.strip():
        return None
    try:
        request = orjson.loads(body)
    except ValueError:  # orjson's JSONDecodeError is one
        return None
    if type(request) is not dict:
        return None
    option, version = request.get("option"), request.get("version")
    if type(option) is not str or len(option) > MAX_OPTION or type(version) is not int:
        return None
    return token.strip(), option, version


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then whatever the client sends next."""
    given = False

    async def again() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return again

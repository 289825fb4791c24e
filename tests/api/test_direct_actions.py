"""POST /api/games/{id}/actions is served straight from the app (app.api.direct) when it is
an ordinary action, and by FastAPI's stack otherwise. Each case here is sent both ways — to
the app as the server runs it, and to FastAPI's stack alone — on two games made from the
same seed, and the answers must be the same: status, headers, body (game id and token
aside). Each case also checks which way it went, so a case that stops reaching the direct
route (or stops being handed on) fails rather than comparing FastAPI with itself."""

from __future__ import annotations

import json
from typing import Any, Callable

import httpx
import orjson
import pytest
from fastapi import FastAPI

from app.api.ratelimit import ACTION_MESSAGE, RateLimiter

SEED = 4242
BIG = "x" * (70 * 1024)


async def _new_game(client: httpx.AsyncClient) -> dict[str, Any]:
    created = await client.post("/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bo"], "seed": SEED})
    assert created.status_code == 201
    game = created.json()
    view = (await client.get(f"/api/games/{game['id']}", headers=_bearer(game["seats"][0]["token"]))).json()
    return {"id": game["id"], "tokens": [s["token"] for s in game["seats"]], "view": view}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _ordinary(game: dict[str, Any]) -> dict[str, Any]:
    return {"option": game["view"]["options"][0]["id"], "version": game["view"]["version"]}


# (name, how the request is made from a game: (headers, content), handed to FastAPI?)
Case = tuple[str, Callable[[dict[str, Any]], tuple[dict[str, str], bytes]], bool]


def _json(body: Any, token_of: int | None = 0, **headers: str) -> Callable[[dict[str, Any]], tuple[dict[str, str], bytes]]:
    def make(game: dict[str, Any]) -> tuple[dict[str, str], bytes]:
        sent = body(game) if callable(body) else body
        given = {"Content-Type": "application/json", **headers}
        if token_of is not None:
            given.update(_bearer(game["tokens"][token_of]))
        return given, sent if isinstance(sent, bytes) else json.dumps(sent).encode()

    return make


CASES: list[Case] = [
    ("an ordinary action", _json(_ordinary), False),
    ("extra fields are ignored", _json(lambda g: {**_ordinary(g), "note": "hi"}), False),
    ("a stale version", _json(lambda g: {**_ordinary(g), "version": g["view"]["version"] - 1}), False),
    ("an option not offered", _json(lambda g: {**_ordinary(g), "option": "no-such-option"}), False),
    ("the other seat's token", _json(_ordinary, token_of=1), False),
    ("a token of no seat", _json(_ordinary, token_of=None, Authorization="Bearer not-a-seat-token"), False),
    ("no token", _json(_ordinary, token_of=None), True),
    ("not a bearer token", _json(_ordinary, token_of=None, Authorization="Basic abc"), True),
    ("an empty bearer token", _json(_ordinary, token_of=None, Authorization="Bearer   "), True),
    ("a body that is not JSON", _json(b"{option: 1"), True),
    ("an empty body", _json(b""), True),
    ("a list, not an object", _json([1, 2]), True),
    ("no version", _json(lambda g: {"option": _ordinary(g)["option"]}), True),
    ("a version in quotes (pydantic reads it as a number)",
     _json(lambda g: {**_ordinary(g), "version": str(g["view"]["version"])}), True),
    ("a version that is true", _json(lambda g: {**_ordinary(g), "version": True}), True),
    ("a version with a fraction", _json(lambda g: {**_ordinary(g), "version": 1.5}), True),
    ("an option over 200 characters", _json(lambda g: {**_ordinary(g), "option": "o" * 201}), True),
    ("an option of 200 characters", _json(lambda g: {**_ordinary(g), "option": "o" * 200}), False),
    ("an option that is a number", _json(lambda g: {**_ordinary(g), "option": 7}), True),
    ("a version past 64 bits", _json(lambda g: {**_ordinary(g), "version": 2**70}), True),
    ("plain text", _json(_ordinary, **{"Content-Type": "text/plain"}), True),
    ("a body over the limit", _json(lambda g: {**_ordinary(g), "pad": BIG}), True),
    ("only the version asked back", _json(_ordinary, Prefer="return=minimal"), False),
    ("only the version, among other preferences", _json(_ordinary, Prefer="respond-async, Return=Minimal; x=1"), False),
    ("the whole view asked back", _json(_ordinary, Prefer="return=representation"), False),
    ("a stale version, only the version asked back",
     _json(lambda g: {**_ordinary(g), "version": g["view"]["version"] - 1}, Prefer="return=minimal"), False),
    ("a version in quotes, only the version asked back",
     _json(lambda g: {**_ordinary(g), "version": str(g["view"]["version"])}, Prefer="return=minimal"), True),
]


async def _send(client: httpx.AsyncClient, game: dict[str, Any], case: Case) -> httpx.Response:
    headers, content = case[1](game)
    return await client.post(f"/api/games/{game['id']}/actions", headers=headers, content=content)


def _comparable(response: httpx.Response, game: dict[str, Any]) -> tuple[int, list[tuple[str, str]], str]:
    text = response.text.replace(game["id"], "<game>")
    for token in game["tokens"]:
        text = text.replace(token, "<token>")
    headers = sorted((k, v) for k, v in response.headers.items() if k != "content-length")
    return response.status_code, headers, text


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
async def test_the_direct_route_answers_as_fastapi_does(sqlite_client: httpx.AsyncClient, case: Case,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    app = sqlite_client._transport.app  # type: ignore[attr-defined]
    stack = FastAPI.__call__
    handed: list[str] = []

    async def counted(self: FastAPI, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].endswith("/actions"):
            handed.append(scope["path"])
        await stack(self, scope, receive, send)

    async def fastapi_only(scope: Any, receive: Any, send: Any) -> None:
        await stack(app, scope, receive, send)

    monkeypatch.setattr(FastAPI, "__call__", counted)
    direct_game, stack_game = await _new_game(sqlite_client), await _new_game(sqlite_client)
    assert direct_game["view"]["options"] == stack_game["view"]["options"]
    direct = await _send(sqlite_client, direct_game, case)
    assert handed == ([f"/api/games/{direct_game['id']}/actions"] if case[2] else [])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=fastapi_only), base_url="http://testserver") as raw:
        through_stack = await _send(raw, stack_game, case)
    assert _comparable(direct, direct_game) == _comparable(through_stack, stack_game)
    assert direct.headers["x-frame-options"] == "DENY" and "content-security-policy" in direct.headers


@pytest.mark.parametrize("prefer", [[("Prefer", "return=minimal")],
                                    [("Prefer", "wait=10"), ("Prefer", "return=minimal")]],
                         ids=["one header", "the second of two headers"])
async def test_return_minimal_answers_the_new_version_only(sqlite_client: httpx.AsyncClient,
                                                         prefer: list[tuple[str, str]]) -> None:
    game = await _new_game(sqlite_client)
    headers = [("Content-Type", "application/json"), *_bearer(game["tokens"][0]).items(), *prefer]
    acted = await sqlite_client.post(f"/api/games/{game['id']}/actions", headers=headers,
                                     content=orjson.dumps(_ordinary(game)))
    assert acted.status_code == 200 and acted.headers["preference-applied"] == "return=minimal"
    again = await sqlite_client.get(f"/api/games/{game['id']}", headers=_bearer(game["tokens"][0]))
    assert acted.json() == {"version": again.json()["version"]}
    assert again.json()["version"] > game["view"]["version"]  # the action was taken, and stored


async def test_too_many_headers_are_refused_as_before(sqlite_client: httpx.AsyncClient) -> None:
    game = await _new_game(sqlite_client)
    headers = {**_bearer(game["tokens"][0]), **{f"x-extra-{n}": "1" for n in range(120)}}
    refused = await sqlite_client.post(f"/api/games/{game['id']}/actions", headers=headers, json=_ordinary(game))
    assert refused.status_code == 431 and "too many headers" in refused.json()["detail"]


async def test_the_direct_route_spends_the_seats_action_bucket(sqlite_client: httpx.AsyncClient) -> None:
    app = sqlite_client._transport.app  # type: ignore[attr-defined]
    app.state.action_limiter = RateLimiter(per_minute=1, burst=1, message=ACTION_MESSAGE)
    game = await _new_game(sqlite_client)
    first = await sqlite_client.post(f"/api/games/{game['id']}/actions", headers=_bearer(game["tokens"][0]),
                                     json=_ordinary(game))
    assert first.status_code == 200
    # the bucket is checked before the action is judged: any ordinary request is refused now
    refused = await sqlite_client.post(f"/api/games/{game['id']}/actions", headers=_bearer(game["tokens"][0]),
                                       json={"option": "anything", "version": first.json()["version"]})
    assert refused.status_code == 429 and refused.json()["detail"] == ACTION_MESSAGE.format(wait=60)
    assert refused.headers["x-content-type-options"] == "nosniff"


async def test_an_action_is_stored_once_through_the_direct_route(sqlite_client: httpx.AsyncClient) -> None:
    game = await _new_game(sqlite_client)
    acted = await sqlite_client.post(f"/api/games/{game['id']}/actions", headers=_bearer(game["tokens"][0]),
                                     json=_ordinary(game))
    assert acted.status_code == 200
    again = await sqlite_client.get(f"/api/games/{game['id']}", headers=_bearer(game["tokens"][0]))
    assert again.json()["version"] == acted.json()["version"] > game["view"]["version"]
    assert again.json()["log"] == acted.json()["log"]


async def _asgi_post(app: Any, game: dict[str, Any], chunks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One POST straight to the ASGI app, its body arriving as ``chunks`` (receive messages)."""
    sent: list[dict[str, Any]] = []
    pending = list(chunks)

    async def receive() -> dict[str, Any]:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": f"/api/games/{game['id']}/actions", "raw_path": b"", "query_string": b"", "root_path": "",
             "headers": [(b"host", b"testserver"), (b"content-type", b"application/json"),
                         (b"authorization", f"Bearer {game['tokens'][0]}".encode())],
             "client": ("127.0.0.1", 5000), "server": ("testserver", 80)}
    await app(scope, receive, send)
    return sent


async def test_a_body_that_arrives_in_pieces_is_read_whole(sqlite_client: httpx.AsyncClient,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    app = sqlite_client._transport.app  # type: ignore[attr-defined]
    game = await _new_game(sqlite_client)

    async def not_handed(*args: Any) -> None:
        raise AssertionError("an ordinary action in pieces was handed to FastAPI")

    monkeypatch.setattr(FastAPI, "__call__", not_handed)
    body = orjson.dumps(_ordinary(game))
    pieces = [body[:5], body[5:12], body[12:]]
    sent = await _asgi_post(app, game, [{"type": "http.request", "body": p, "more_body": i < 2}
                                        for i, p in enumerate(pieces)])
    assert sent[0]["status"] == 200
    assert orjson.loads(b"".join(m.get("body", b"") for m in sent[1:]))["version"] > game["view"]["version"]


async def test_a_client_gone_before_its_body_ends_changes_nothing(sqlite_client: httpx.AsyncClient) -> None:
    app = sqlite_client._transport.app  # type: ignore[attr-defined]
    game = await _new_game(sqlite_client)
    body = orjson.dumps(_ordinary(game))
    sent = await _asgi_post(app, game, [{"type": "http.request", "body": body[:8], "more_body": True},
                                        {"type": "http.disconnect"}])
    assert sent == []
    again = await sqlite_client.get(f"/api/games/{game['id']}", headers=_bearer(game["tokens"][0]))
    assert again.json()["version"] == game["view"]["version"]

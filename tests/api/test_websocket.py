"""Websocket: the seat's view at connect and after every change, through a real server."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets
from .. import oneshot


def create(base: str, **extra) -> dict:
    body = {"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 11, "options": {"monuments": False}, **extra}
    response = oneshot.post(f"{base}/api/games", json=body)
    assert response.status_code == 201
    return response.json()


def ws_url(server, game, token=None) -> str:
    base = server.url.replace("http://", "ws://") + f"/ws/games/{game['id']}"
    return base + (f"?token={token}" if token else "")


async def recv(ws, timeout=5.0) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


async def test_every_socket_gets_the_view_on_connect_and_after_an_action(live_server):
    game = create(live_server.url)
    ann, bob = game["seats"]
    async with websockets.connect(ws_url(live_server, game, ann["token"])) as a, \
            websockets.connect(ws_url(live_server, game, bob["token"])) as b, \
            websockets.connect(ws_url(live_server, game)) as watcher:
        first = [await recv(a), await recv(b), await recv(watcher)]
        assert [v["seat"] for v in first] == [0, 1, None]
        assert all(v["version"] == 0 for v in first)
        assert first[2]["private"] is None
        seat = first[0]["to_act"][0]
        token = game["seats"][seat]["token"]
        option = (first[seat]["options"])[0]["id"]
        async with httpx.AsyncClient() as http:
            response = await http.post(
                f"{live_server.url}/api/games/{game['id']}/actions",
                json={"option": option, "version": 0},
                headers={"Authorization": f"Bearer {token}"},
            )
        assert response.status_code == 200
        after = [await recv(a), await recv(b), await recv(watcher)]
        assert [v["version"] for v in after] == [1, 1, 1]
        assert after[0]["private"] != after[1]["private"] or after[0]["private"] is None


async def test_reconnecting_client_with_old_version_gets_current_view(live_server):
    game = create(live_server.url)
    token = game["seats"][0]["token"]
    async with websockets.connect(ws_url(live_server, game, token)) as ws:
        view = await recv(ws)
        await ws.send(json.dumps({"since": view["version"] - 1}))
        again = await recv(ws)
        assert again["version"] == view["version"]


async def test_garbage_frames_get_an_error_frame_and_the_socket_stays_up(live_server):
    game = create(live_server.url)
    async with websockets.connect(ws_url(live_server, game)) as ws:
        await recv(ws)
        await ws.send("this is not json")
        assert "error" in await recv(ws)
        await ws.send(b"\x00\xffbinary garbage")
        assert "error" in await recv(ws)
        await ws.send(json.dumps({"since": "yesterday"}))
        assert "error" in await recv(ws)
        await ws.send("x" * 10_000)
        assert "error" in await recv(ws)
        await ws.send(json.dumps({"since": -5}))
        assert (await recv(ws))["version"] == 0


@pytest.mark.parametrize("token", ["wrong-token"])
async def test_bad_token_closes_with_a_reason(live_server, token):
    game = create(live_server.url)
    async with websockets.connect(ws_url(live_server, game, token)) as ws:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await recv(ws)
    assert closed.value.rcvd.code == 4403
    assert "seat" in closed.value.rcvd.reason


async def test_cross_site_origin_is_refused(live_server):
    game = create(live_server.url)
    with pytest.raises(websockets.InvalidStatus):
        async with websockets.connect(ws_url(live_server, game), origin="http://evil.example"):
            pass


# --- Acting over the websocket ---
async def frames_until(ws, wanted, limit: int = 4) -> list[dict]:
    """Frames from the socket until ``wanted`` holds for one of them."""
    got = []
    for _ in range(limit):
        got.append(await recv(ws))
        if wanted(got[-1]):
            return got
    raise AssertionError(f"no such frame among {got}")


async def test_a_seat_acts_over_its_websocket_and_every_socket_gets_the_new_view(live_server):
    game = create(live_server.url)
    ann, bob = game["seats"]
    async with websockets.connect(ws_url(live_server, game, ann["token"])) as a, \
            websockets.connect(ws_url(live_server, game, bob["token"])) as b, \
            websockets.connect(ws_url(live_server, game)) as watcher:
        first = [await recv(a), await recv(b), await recv(watcher)]
        seat = first[0]["to_act"][0]
        mine, theirs = (a, b) if seat == 0 else (b, a)
        option = first[seat]["options"][0]["id"]
        await mine.send(json.dumps({"act": option, "version": first[seat]["version"]}))
        got = await frames_until(mine, lambda f: "acted" in f)
        got += await frames_until(mine, lambda f: f.get("version") == 1 and "seat" in f) if len(got) == 1 else []
        assert {"acted": option, "version": 1} in got
        assert any(f.get("seat") == seat and f["version"] == 1 for f in got)
        assert (await recv(theirs))["version"] == 1 and (await recv(watcher))["version"] == 1
    async with httpx.AsyncClient() as http:  # the action is stored like one sent over HTTP
        log = (await http.get(f"{live_server.url}/api/games/{game['id']}/log")).json()
    assert log["total"] > 0


async def test_websocket_actions_are_refused_as_over_http_and_change_nothing(live_server):
    game = create(live_server.url, players=["Ann", None])  # seat 2 still open
    ann, open_seat = game["seats"]
    url = f"{live_server.url}/api/games/{game['id']}/actions"
    async with httpx.AsyncClient() as http, \
            websockets.connect(ws_url(live_server, game, ann["token"])) as a, \
            websockets.connect(ws_url(live_server, game, open_seat["token"])) as o, \
            websockets.connect(ws_url(live_server, game)) as watcher:
        view = await recv(a)
        await recv(o), await recv(watcher)
        offered = view["options"][0]["id"] if view["options"] else "name:brick"
        cases = [  # (socket, token for HTTP, action, status)
            (watcher, None, {"act": offered, "version": 0}, 401),  # a spectator
            (o, open_seat["token"], {"act": offered, "version": 0}, 403),  # a seat nobody took yet
            (a, ann["token"], {"act": offered, "version": 99}, 409),  # a view it does not hold
            (a, ann["token"], {"act": "build:nonsense", "version": 0}, 422),  # not one of its choices
        ]
        for ws, token, action, status in cases:
            await ws.send(json.dumps(action))
            refusal = await recv(ws)
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            over_http = await http.post(url, json={"option": action["act"], "version": action["version"]},
                                        headers=headers)
            assert refusal["status"] == over_http.status_code == status, (action, refusal, over_http.text)
            if status != 401:  # HTTP refuses a missing token before it reads anything else
                assert refusal["error"] == over_http.json()["detail"]
        for malformed in ({"act": 5, "version": 0}, {"act": offered}, {"act": offered, "version": "0"}):
            await a.send(json.dumps(malformed))
            assert (await recv(a))["status"] == 422
        assert (await http.get(f"{live_server.url}/api/games/{game['id']}")).json()["version"] == 0
        await a.send(json.dumps({"since": -1}))  # the socket is still up, and nothing moved
        assert (await recv(a))["version"] == 0
        with pytest.raises(asyncio.TimeoutError):
            await recv(watcher, timeout=0.5)

"""Websocket: the seat's view at connect and after every change, through a real server."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets


def create(base: str, **extra) -> dict:
    body = {"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 11, "options": {"monuments": False}, **extra}
    response = httpx.post(f"{base}/api/games", json=body)
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

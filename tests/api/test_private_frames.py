"""Private steps stay private, over real websockets.

While one seat is in the middle of a private choice in several steps (a Tiny Towns Factory
or Warehouse swap, paying cube by cube in Keythedral), the other seats and the spectator
get no frame and their view version does not move; only the seat choosing is sent its own
new view. The other seats act on with the version they hold. When the choice is complete
and something public changes, everyone gets one frame.

"No frame" is checked without waiting for a timeout: frames arrive in order, so the next
frame another socket receives after the private steps must already be the public one.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import websockets

from app.games.keythedral import rules as kt_rules
from app.games.keythedral.notation import position
from app.hub.local import Hub
from app.store.db import Database
from app.table.service import Table
from tests.conftest import LiveServer
from tests.games.keythedral.support import LAND, give
from tests.games.tiny_towns.support import EMPTY, first_game, with_towns
from tests.table.positions import install

TOWN_BLACK = ["cottage", "farm", "well", "chapel", "tavern", "theater"]


async def recv(ws, timeout: float = 10.0) -> dict:
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


def ws_url(server: LiveServer, game_id: str, token: str | None = None) -> str:
    base = server.url.replace("http://", "ws://") + f"/ws/games/{game_id}"
    return base + (f"?token={token}" if token else "")


async def prepared(url: str, title_id: str, names: list[str], options: dict, state: object) -> tuple[str, list[str]]:
    """A game whose state is a position from the rule tests' helpers; its id and seat tokens."""
    setup = Table(Database(url), Hub())
    try:
        created = await setup.create_game(title_id, names, seed=3, options=options)
    finally:
        await setup.db.dispose()
    await install(url, created.id, state, title_id)
    return created.id, [s.token for s in created.seats]


async def act(http: httpx.AsyncClient, server: LiveServer, game_id: str, token: str, option: str,
              version: int) -> httpx.Response:
    return await http.post(f"{server.url}/api/games/{game_id}/actions", json={"option": option, "version": version},
                           headers={"Authorization": f"Bearer {token}"})


async def version_seen(http: httpx.AsyncClient, server: LiveServer, game_id: str, token: str | None) -> int:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return (await http.get(f"{server.url}/api/games/{game_id}", headers=headers)).json()["version"]


@pytest.mark.parametrize("building,town,private_step,last_step", [
    ("factory", "Fc+B . . . / . . . . / . . . . / . . . .", "factory:glass", "place:2,2"),
    ("warehouse", "Wa+S . . . / . . . . / . . . . / . . . .", "warehouse:swap:stone", "place:1,1"),
])
async def test_a_tiny_towns_swap_sends_nothing_to_the_others_until_it_is_placed(
        sqlite_url, building, town, private_step, last_step):
    g = first_game(3, seed=3)
    g.cards = TOWN_BLACK + [building]
    game_id, (ann, bob, cy) = await prepared(
        sqlite_url, "tiny-towns", ["Ann", "Bob", "Cy"], {"monuments": False, "buildings": "first_game"},
        with_towns(g, EMPTY, town, EMPTY))
    with LiveServer(sqlite_url) as server:
        async with httpx.AsyncClient() as http, \
                websockets.connect(ws_url(server, game_id, ann)) as ann_ws, \
                websockets.connect(ws_url(server, game_id, bob)) as bob_ws, \
                websockets.connect(ws_url(server, game_id, cy)) as cy_ws, \
                websockets.connect(ws_url(server, game_id)) as watcher:
            others = [ann_ws, cy_ws, watcher]
            assert [(await recv(ws))["version"] for ws in [*others, bob_ws]] == [0, 0, 0, 0]
            assert (await act(http, server, game_id, ann, "name:brick", 0)).status_code == 200
            assert [(await recv(ws))["version"] for ws in [*others, bob_ws]] == [1, 1, 1, 1]

            # Bob's first step is his alone: only his socket hears of it.
            answer = await act(http, server, game_id, bob, private_step, 1)
            assert answer.status_code == 200 and answer.json()["version"] == 2
            frame = await recv(bob_ws)
            assert frame["version"] == 2 and [o["id"] for o in frame["options"]][-1] == "cancel"
            assert [await version_seen(http, server, game_id, t) for t in (ann, cy, None)] == [1, 1, 1]

            # Ann acts with the version she holds although the game moved on.
            answer = await act(http, server, game_id, ann, "place:0,0", 1)
            assert answer.status_code == 200, answer.text
            # The next frame each other socket gets is Ann's public step: nothing came before
            # it, and its version is the next one they count (Bob's step is not counted).
            assert [(await recv(ws))["version"] for ws in [*others, bob_ws]] == [2, 2, 2, 3]

            # Bob places: his choice is complete, and everyone sees that he is done.
            answer = await act(http, server, game_id, bob, last_step, 3)
            assert answer.status_code == 200, answer.text
            frames = [await recv(ws) for ws in others]
            assert [f["version"] for f in frames] == [3, 3, 3]
            assert all(1 not in f["to_act"] for f in frames)


async def test_paying_cube_by_cube_sends_nothing_to_the_others_until_the_cube_is_bought(sqlite_url):
    g = position(LAND, 2, start=0)
    kt_rules.begin_actions(g)
    give(g, 0, "brown black green", from_supply=True)
    game_id, (ann, bob) = await prepared(sqlite_url, "keythedral", ["Ann", "Bob"], {}, g)
    with LiveServer(sqlite_url) as server:
        async with httpx.AsyncClient() as http, \
                websockets.connect(ws_url(server, game_id, ann)) as ann_ws, \
                websockets.connect(ws_url(server, game_id, bob)) as bob_ws, \
                websockets.connect(ws_url(server, game_id)) as watcher:
            assert [(await recv(ws))["version"] for ws in (ann_ws, bob_ws, watcher)] == [0, 0, 0]
            for version, step in enumerate(["craft:white", "pay:green"]):
                answer = await act(http, server, game_id, ann, step, version)
                assert answer.status_code == 200 and answer.json()["version"] == version + 1
                assert (await recv(ann_ws))["version"] == version + 1
                assert [await version_seen(http, server, game_id, t) for t in (bob, None)] == [0, 0]
            # A reconnecting client that says which view it holds is told nothing new.
            await bob_ws.send(json.dumps({"since": 0}))
            answer = await act(http, server, game_id, ann, "pay:black", 2)
            assert answer.status_code == 200
            for ws in (bob_ws, watcher):
                frame = await recv(ws)  # the first frame since the start is the purchase
                # ... and the next version they count: the two private steps left no gap
                assert frame["version"] == 1 and frame["log"][-1] == "Ann buys an ironwork cube."

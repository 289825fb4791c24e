"""Several server processes on one database: an action accepted by one process reaches
the websockets held by the others (PostgreSQL LISTEN/NOTIFY, or Redis pub/sub)."""

from __future__ import annotations

import asyncio
import json
import os

import httpx
import pytest
import websockets

from ..conftest import reachable
from ..procs import ServerProcess
from .test_races_and_crashes import run_async
from .. import oneshot

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_reachable() -> bool:
    return reachable(6379)


async def _watch_and_act(a: ServerProcess, b: ServerProcess, rounds: int) -> list[int]:
    game = oneshot.post(f"{a.url}/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 3,
                                                   "options": {"monuments": False}}).json()
    seen: list[int] = []
    ws_url = b.url.replace("http", "ws") + f"/ws/games/{game['id']}?token={game['seats'][1]['token']}"
    async with websockets.connect(ws_url) as ws, httpx.AsyncClient() as http:
        view = json.loads(await asyncio.wait_for(ws.recv(), 5))
        for _ in range(rounds):
            seat = view["to_act"][0]
            headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
            mine = (await http.get(f"{a.url}/api/games/{game['id']}", headers=headers)).json()
            option = next(o["id"] for o in mine["options"] if o["id"] != "cancel")
            response = await http.post(f"{a.url}/api/games/{game['id']}/actions",
                                       json={"option": option, "version": mine["version"]}, headers=headers)
            assert response.status_code == 200
            view = json.loads(await asyncio.wait_for(ws.recv(), 5))  # arrives through process b
            seen.append(view["version"])
    return seen


@pytest.mark.postgres
def test_an_action_on_one_process_reaches_sockets_on_another(pg_url):
    with ServerProcess(pg_url) as a, ServerProcess(pg_url) as b:
        seen = run_async(_watch_and_act(a, b, rounds=8))
    assert seen == list(range(1, 9))


@pytest.mark.postgres
def test_two_workers_behind_one_port_deliver_every_update(pg_url):
    with ServerProcess(pg_url, workers=2) as both:
        seen = run_async(_watch_and_act(both, both, rounds=8))
    assert seen == list(range(1, 9))


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_redis_pub_sub_carries_updates_between_processes(database, request):
    if not redis_reachable():
        pytest.skip(f"Redis is not reachable at {REDIS_URL}; skipping the Redis hub test")
    url = request.getfixturevalue("sqlite_url" if database == "sqlite" else "pg_url")
    env = {"REDIS_URL": REDIS_URL}
    with ServerProcess(url, env=env) as a, ServerProcess(url, env=env) as b:
        seen = run_async(_watch_and_act(a, b, rounds=6))
    assert seen == list(range(1, 7))

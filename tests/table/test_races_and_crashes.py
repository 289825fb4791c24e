"""Correct under races and crashes, with real server processes.

- Two processes fire the same action at the same version, over many attempts: exactly
  one applies, the other gets 409 (SQLite file shared by two processes, and PostgreSQL).
- SIGKILL at random moments while bots play eight games at once (so on SQLite actions of
  several games share group-committed transactions): after a restart every acknowledged
  action is in the log, and every game replays to its stored snapshot.
"""

from __future__ import annotations

import asyncio
import os
import random
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from app.settings import Settings
from app.store.db import Database
from app.table.service import Table
from app.hub.local import Hub

from ..procs import ServerProcess
from .. import oneshot

ATTEMPTS = int(os.environ.get("KEYDOM_RACE_ATTEMPTS", "2000"))


def run_async(coro) -> object:
    """asyncio.run in a fresh thread, so it works whatever loop this thread has."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def create(base: str, players: int = 2, seed: int = 1) -> dict:
    body = {"title": "tiny-towns", "players": [f"P{i}" for i in range(players)], "seed": seed,
            "options": {"monuments": True}}
    response = oneshot.post(f"{base}/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def race(database_url: str, attempts: int) -> tuple[int, int]:
    """Returns (contests, games used); asserts exactly one winner per contest."""
    a, b = ServerProcess(database_url).start(), ServerProcess(database_url).start()
    rng = random.Random(4)
    contests = games = 0
    try:
        with httpx.Client(timeout=30) as http, ThreadPoolExecutor(2) as pool:
            game = view = None
            while contests < attempts:
                if game is None:
                    game = create(a.url, seed=games)
                    games += 1
                    view = http.get(f"{a.url}/api/games/{game['id']}").json()
                if view["status"] == "finished":
                    game = None
                    continue
                seat = rng.choice(view["to_act"])
                headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
                mine = http.get(f"{b.url}/api/games/{game['id']}", headers=headers).json()
                ids = [o["id"] for o in mine["options"] if o["id"] != "cancel"] or [o["id"] for o in mine["options"]]
                option = rng.choice(ids)
                body = {"option": option, "version": mine["version"]}

                def fire(server: ServerProcess) -> httpx.Response:
                    return http.post(f"{server.url}/api/games/{game['id']}/actions", json=body, headers=headers)

                answers = sorted(pool.map(fire, [a, b]), key=lambda r: r.status_code)
                codes = [r.status_code for r in answers]
                assert codes == [200, 409], f"contest {contests}: got {codes}"
                contests += 1
                # The seat now sees exactly the winner's answer (its view version is the
                # game version of the one action that applied).
                after = http.get(f"{a.url}/api/games/{game['id']}", headers=headers).json()
                assert after["version"] == answers[0].json()["version"] > mine["version"]
                view = after  # whose turn it is and whether the game is over: every viewer sees it alike
    finally:
        a.stop()
        b.stop()
    return contests, games


def test_two_processes_on_one_sqlite_file_never_both_apply(sqlite_url):
    contests, _ = race(sqlite_url, ATTEMPTS)
    assert contests == ATTEMPTS


@pytest.mark.postgres
def test_two_processes_on_postgresql_never_both_apply(pg_url):
    contests, _ = race(pg_url, ATTEMPTS)
    assert contests == ATTEMPTS


def kill_while_playing(database_url: str, rounds: int, seed: int) -> tuple[list[tuple[str, int]], list[str]]:
    """Bots play several games; the server is SIGKILLed at random moments and restarted.
    Returns every acknowledged (game, version) and the game ids."""
    rng = random.Random(seed)
    acknowledged: list[tuple[str, int]] = []
    server = ServerProcess(database_url).start()
    games = [create(server.url, players=3, seed=i) for i in range(8)]
    try:
        for _ in range(rounds):
            stop = run_async(_play_until_killed(server, games, rng, acknowledged))
            assert stop
            server = ServerProcess(database_url, port=server.port).start()
    finally:
        server.stop()
    return acknowledged, [g["id"] for g in games]


async def _play_until_killed(server: ServerProcess, games: list[dict], rng: random.Random,
                             acknowledged: list[tuple[str, int]]) -> bool:
    async def bot(game: dict) -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            while True:
                try:
                    view = (await http.get(f"{server.url}/api/games/{game['id']}")).json()
                    if view["status"] == "finished":
                        return
                    seat = rng.choice(view["to_act"])
                    headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
                    mine = (await http.get(f"{server.url}/api/games/{game['id']}", headers=headers)).json()
                    ids = [o["id"] for o in mine["options"] if o["id"] != "cancel"] or [o["id"] for o in mine["options"]]
                    response = await http.post(f"{server.url}/api/games/{game['id']}/actions",
                                               json={"option": rng.choice(ids), "version": mine["version"]},
                                               headers=headers)
                    if response.status_code == 200:
                        acknowledged.append((game["id"], response.json()["version"]))
                except (httpx.HTTPError, ValueError):
                    return  # the server died under us

    bots = [asyncio.create_task(bot(g)) for g in games]
    # Kill at a random moment once play is under way: a fixed delay alone could pass
    # before a busy machine (parallel tests) has acknowledged anything.
    before, deadline = len(acknowledged), asyncio.get_running_loop().time() + 60
    while len(acknowledged) < before + 8 and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)
    await asyncio.sleep(rng.uniform(0.0, 0.6))
    server.kill()
    await asyncio.gather(*bots)
    return True


async def _check_log(database_url: str, acknowledged: list[tuple[str, int]], game_ids: list[str]) -> None:
    table = Table(Database(Settings(database_url=database_url).database_url), Hub())
    try:
        for game_id in game_ids:
            assert await table.replay_matches_snapshot(game_id), f"{game_id} does not replay to its snapshot"
        logged = {}
        for game_id in game_ids:
            logged[game_id] = len(await table.action_log(game_id))
        for game_id, version in acknowledged:
            assert version <= logged[game_id], f"acknowledged action {game_id}@{version} is missing"
    finally:
        await table.db.dispose()


def test_sigkill_loses_no_acknowledged_action_sqlite(sqlite_url):
    acknowledged, game_ids = kill_while_playing(sqlite_url, rounds=4, seed=2)
    assert len(acknowledged) > 20, "the bots should have played a while between kills"
    run_async(_check_log(sqlite_url, acknowledged, game_ids))


@pytest.mark.postgres
def test_sigkill_loses_no_acknowledged_action_postgresql(pg_url):
    acknowledged, game_ids = kill_while_playing(pg_url, rounds=3, seed=3)
    assert len(acknowledged) > 20
    run_async(_check_log(pg_url, acknowledged, game_ids))

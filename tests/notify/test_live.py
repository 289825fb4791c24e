"""Notifications through real servers: an open page (a connected websocket) silences a
seat, and two server processes on one PostgreSQL database send each message once."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any, Iterator

import httpx
import pytest
import uvicorn
import websockets

from app.main import create_app
from app.settings import Settings

from ..conftest import free_port
from ..procs import ServerProcess
from .conftest import Clock, Table, quiet_config


class LiveNotifyServer:
    """uvicorn in a thread, with the test's clock and no background notifier loop."""

    def __init__(self, database_url: str, clock: Clock) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(Settings(database_url=database_url), migrate=False)
        self.app.state.notify_config = quiet_config(clock)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    timeout_graceful_shutdown=2))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "LiveNotifyServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def run_pass_blocking(self) -> int:
        """The same, from a thread with no event loop of its own running it."""
        notifier = self.app.state.notifier
        return asyncio.run_coroutine_threadsafe(notifier.run_once(), notifier.loop).result(timeout=30)

    async def run_pass(self) -> int:
        """One notifier pass on the server's own event loop."""
        notifier = self.app.state.notifier
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(notifier.run_once(), notifier.loop))


class LiveTable(Table):
    server: LiveNotifyServer

    async def later(self, seconds: float) -> int:
        self.clock.advance(seconds)
        return await self.server.run_pass()


@pytest.fixture
def live(sqlite_url: str, clock: Clock) -> Iterator[LiveNotifyServer]:
    with LiveNotifyServer(sqlite_url, clock) as server:
        yield server


async def _socket(server: LiveNotifyServer, game: dict[str, Any], seat: int) -> Any:
    ws = await websockets.connect(server.url.replace("http", "ws") + f"/ws/games/{game['id']}?token={game['seats'][seat]['token']}")
    json.loads(await asyncio.wait_for(ws.recv(), 5))  # the view: the socket is registered
    return ws


async def test_no_message_while_the_seat_has_its_page_open(live, clock, receiver):
    async with httpx.AsyncClient(base_url=live.url) as http:
        table = LiveTable(http, live.app.state.notifier, clock)
        table.server = live
        game = await table.new_game()
        await table.set_channels(game, 1, urls=[receiver.url("bob")])
        bob_page = await _socket(live, game, 1)
        await table.step(game, 0)  # Bob owes a decision, with his page open
        assert await table.later(10) == 0
        assert await table.later(600) == 0
        assert receiver.to("bob") == []
        await bob_page.close()
        # Page closed: the next time Bob comes to owe a decision, he is told.
        while 1 in await table.to_act(game):
            await table.step(game)
        while 1 not in await table.to_act(game):
            await table.step(game)
        assert await table.later(10) == 1
        assert [m["title"] for m in receiver.to("bob")] == ["Your turn — Tiny Towns"]


async def test_a_spectator_page_does_not_silence_a_seat(live, clock, receiver):
    async with httpx.AsyncClient(base_url=live.url) as http:
        table = LiveTable(http, live.app.state.notifier, clock)
        table.server = live
        game = await table.new_game()
        await table.set_channels(game, 1, urls=[receiver.url("bob")])
        ann_page = await _socket(live, game, 0)  # another seat's page says nothing about Bob
        await table.step(game, 0)
        assert await table.later(10) == 1
        await ann_page.close()


# --- Several processes ---

GAMES = 24


def _drive(url_a: str, url_b: str, hook: str) -> list[str]:
    """Create games on alternating processes; Bob asks to be told; Ann's first step (on
    the other process) makes Bob owe a decision: exactly one message per game."""
    ids = []
    with httpx.Client() as http:
        for n in range(GAMES):
            here, there = (url_a, url_b) if n % 2 == 0 else (url_b, url_a)
            game = http.post(f"{here}/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": n,
                                                        "options": {"monuments": False}}).json()
            bob = {"Authorization": f"Bearer {game['seats'][1]['token']}"}
            ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
            put = http.put(f"{there}/api/games/{game['id']}/notifications", headers=bob,
                           json={"urls": [f"{hook}/{game['id']}"]})
            assert put.status_code == 200, put.text
            view = http.get(f"{here}/api/games/{game['id']}", headers=ann).json()
            option = next(o["id"] for o in view["options"] if o["id"] != "cancel")
            acted = http.post(f"{there}/api/games/{game['id']}/actions", headers=ann,
                              json={"option": option, "version": view["version"]})
            assert acted.status_code == 200, acted.text
            ids.append(game["id"])
    return ids


@pytest.mark.postgres
def test_two_processes_send_each_message_exactly_once(pg_url, receiver):
    # Both processes poll every 20 ms with no delay, so both see every message as due.
    env = {"NOTIFY_DELAY_SECONDS": "0", "NOTIFY_QUIET_SECONDS": "0", "NOTIFY_TICK_SECONDS": "0.02",
           "NOTIFY_KEY": "the same key in both processes", "OUTGOING_ALLOWED_HOSTS": "127.0.0.1"}
    with ServerProcess(pg_url, env=env) as a, ServerProcess(pg_url, env=env) as b:
        ids = _drive(a.url, b.url, f"json://127.0.0.1:{receiver.port}")
        deadline = time.monotonic() + 30
        while len(receiver.received) < GAMES and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # let a duplicate, if any, arrive
    paths = sorted(m["path"] for m in receiver.received)
    assert paths == sorted(f"/{game_id}" for game_id in ids)


async def _page_open_elsewhere(a: ServerProcess, b: ServerProcess, hook: str) -> tuple[str, str]:
    """Bob's page is open on process b while Ann acts on process a (game 1); in game 2 no
    page is open. Returns the two game ids."""
    ids = []
    async with httpx.AsyncClient() as http:
        for watched in (True, False):
            game = (await http.post(f"{a.url}/api/games", json={
                "title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 1, "options": {"monuments": False}})).json()
            bob = {"Authorization": f"Bearer {game['seats'][1]['token']}"}
            ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
            await http.put(f"{a.url}/api/games/{game['id']}/notifications", headers=bob,
                           json={"urls": [f"{hook}/{game['id']}"]})
            page = None
            if watched:
                page = await websockets.connect(b.url.replace("http", "ws") + f"/ws/games/{game['id']}?token={game['seats'][1]['token']}")
                await asyncio.wait_for(page.recv(), 5)
                await asyncio.sleep(0.5)  # b's notifier records the open page (it is woken at once)
            view = (await http.get(f"{a.url}/api/games/{game['id']}", headers=ann)).json()
            option = next(o["id"] for o in view["options"] if o["id"] != "cancel")
            await http.post(f"{a.url}/api/games/{game['id']}/actions", headers=ann,
                            json={"option": option, "version": view["version"]})
            await asyncio.sleep(3)  # the message is due after 1 s; the page stays open past that
            if page is not None:
                await page.close()
            ids.append(game["id"])
    return ids[0], ids[1]


@pytest.mark.postgres
def test_a_page_open_on_another_process_silences_the_seat(pg_url, receiver):
    env = {"NOTIFY_DELAY_SECONDS": "1", "NOTIFY_QUIET_SECONDS": "0", "NOTIFY_TICK_SECONDS": "0.05",
           "NOTIFY_KEY": "the same key in both processes", "OUTGOING_ALLOWED_HOSTS": "127.0.0.1"}
    with ServerProcess(pg_url, env=env) as a, ServerProcess(pg_url, env=env) as b:
        watched, unwatched = asyncio.run(_page_open_elsewhere(a, b, f"json://127.0.0.1:{receiver.port}"))
        deadline = time.monotonic() + 20
        while not receiver.received and time.monotonic() < deadline:
            time.sleep(0.1)
    assert [m["path"] for m in receiver.received] == [f"/{unwatched}"]


def _to_act(http: httpx.Client, url: str, game: dict[str, Any]) -> list[int]:
    return http.get(f"{url}/api/games/{game['id']}").json()["to_act"]


def _step(http: httpx.Client, url: str, game: dict[str, Any], seat: int) -> None:
    auth = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    view = http.get(f"{url}/api/games/{game['id']}", headers=auth).json()
    option = next(o["id"] for o in view["options"] if o["id"] != "cancel")
    acted = http.post(f"{url}/api/games/{game['id']}/actions", headers=auth,
                      json={"option": option, "version": view["version"]})
    assert acted.status_code == 200, acted.text


@pytest.mark.postgres
def test_a_seat_asking_on_another_process_is_told_by_this_one(pg_url, receiver):
    """Process a remembers, per game, which seats asked to be told (none, here, after its
    first action). Bob then asks on process b: a must forget that, or Bob's next turn,
    reached on a, would go untold."""
    env = {"NOTIFY_DELAY_SECONDS": "0", "NOTIFY_QUIET_SECONDS": "0", "NOTIFY_TICK_SECONDS": "0.02",
           "NOTIFY_KEY": "the same key in both processes", "OUTGOING_ALLOWED_HOSTS": "127.0.0.1"}
    with ServerProcess(pg_url, env=env) as a, ServerProcess(pg_url, env=env) as b, httpx.Client() as http:
        game = http.post(f"{a.url}/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 3,
                                                      "options": {"monuments": False}}).json()
        _step(http, a.url, game, 0)  # Ann names a resource: Bob owes, nobody asked to be told
        while 1 in _to_act(http, a.url, game):
            _step(http, a.url, game, 1)
        bob = {"Authorization": f"Bearer {game['seats'][1]['token']}"}
        put = http.put(f"{b.url}/api/games/{game['id']}/notifications", headers=bob,
                       json={"urls": [f"json://127.0.0.1:{receiver.port}/{game['id']}"]})
        assert put.status_code == 200, put.text
        time.sleep(0.5)  # b's notice reaches a
        while 1 not in _to_act(http, a.url, game):  # on a, until Bob owes a decision again
            _step(http, a.url, game, 0)
        deadline = time.monotonic() + 15
        while not receiver.received and time.monotonic() < deadline:
            time.sleep(0.1)
    assert [m["path"] for m in receiver.received] == [f"/{game['id']}"]

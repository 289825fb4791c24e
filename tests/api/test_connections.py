"""Connection limits: no client can hold the server hostage with slow or many sockets.

Every test client is on loopback, so the per-address limits are set small here, and a
second loopback address (127.0.0.2) plays the greedy client.
"""

from __future__ import annotations

import asyncio
import json
import resource
import time

import httpx
import pytest
import websockets

from ..procs import ServerProcess
from .servers import GuardedServer, open_socket, read_until_closed
from .. import oneshot

PARSERS = pytest.mark.parametrize("parser", ["httptools", "h11"])  # uvicorn's two HTTP parsers
PARTIAL_HEADERS = b"GET /api/titles HTTP/1.1\r\nHost: keydom\r\n"  # no blank line: never finished


@pytest.fixture(scope="module", autouse=True)
def enough_file_descriptors():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2600:
        pytest.skip(f"the hard limit on open files is {hard}; these tests hold ~2,300 sockets")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(4096, hard)), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_one_address_holding_1100_slow_connections_does_not_lock_out_anyone_else(sqlite_url):
    # The real server (python -m app). Its total cap (1,000) is below what the greedy client
    # tries to hold, and the read timeout is long: only the per-address cap can save us.
    env = {"CONNECTIONS_PER_ADDRESS": "40", "MAX_CONNECTIONS": "1000", "REQUEST_TIMEOUT": "120"}
    with ServerProcess(sqlite_url, env=env) as server:
        held, refusals = [], 0
        for _ in range(1100):
            sock = open_socket(server.port, source="127.0.0.2")
            sock.sendall(PARTIAL_HEADERS)
            held.append(sock)
        try:
            for sock in held[40:]:
                answer = read_until_closed(sock)
                assert answer.startswith(b"HTTP/1.1 429"), answer[:80]
                assert b"Too many open connections from your address" in answer
                refusals += 1
            assert refusals == 1060
            # Meanwhile everybody else is served, new connection after new connection.
            for _ in range(5):
                response = oneshot.get(f"{server.url}/api/titles", headers={"Connection": "close"}, timeout=10)
                assert response.status_code == 200
        finally:
            for sock in held:
                sock.close()


@PARSERS
def test_headers_that_never_finish_get_408_and_the_connection_closes(sqlite_url, parser):
    with GuardedServer(sqlite_url, parser, request_timeout=0.5) as server:
        sock = open_socket(server.port)
        sock.sendall(PARTIAL_HEADERS)
        answer = read_until_closed(sock)
        assert answer.startswith(b"HTTP/1.1 408") and b"took too long" in answer


@PARSERS
def test_trickling_bytes_does_not_extend_the_deadline(sqlite_url, parser):
    """Slowloris: one more header byte every 0.1 s would keep a naive timeout alive forever."""
    with GuardedServer(sqlite_url, parser, request_timeout=0.5) as server:
        sock = open_socket(server.port)
        sock.sendall(b"GET /api/titles HTTP/1.1\r\nHost: keydom\r\nX-Slow: ")
        sent = 0
        try:
            for sent in range(1, 200):  # at most 20 s of trickling
                sock.sendall(b"a")
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert sent < 199, "the server kept reading a request that never ends"
        sock.close()


@PARSERS
def test_a_body_that_trickles_in_is_cut_off(sqlite_url, parser):
    with GuardedServer(sqlite_url, parser, request_timeout=0.5) as server:
        sock = open_socket(server.port)
        sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: keydom\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 1000\r\n\r\n{\"title\": ")
        assert read_until_closed(sock) == b""  # closed; the half-read request went nowhere


@PARSERS
def test_a_whole_request_is_answered_and_the_idle_connection_is_closed_later(sqlite_url, parser):
    with GuardedServer(sqlite_url, parser, request_timeout=0.5, keep_alive_timeout=1) as server:
        sock = open_socket(server.port)
        sock.sendall(b"GET /api/titles HTTP/1.1\r\nHost: keydom\r\n\r\n")
        answer = read_until_closed(sock)  # the keep-alive timeout ends it
        assert answer.startswith(b"HTTP/1.1 200") and b"tiny-towns" in answer


def test_trusted_proxies_are_not_limited_per_address(sqlite_url):
    with GuardedServer(sqlite_url, connections_per_address=2, forwarded_allow_ips="127.0.0.1") as server:
        proxied = [open_socket(server.port) for _ in range(5)]
        direct = [open_socket(server.port, source="127.0.0.2") for _ in range(2)]
        while server.guard is None or len(server.guard.open.get("127.0.0.2", ())) < 2:
            time.sleep(0.02)  # the server has taken both before the third knocks
        assert read_until_closed(open_socket(server.port, source="127.0.0.2")).startswith(b"HTTP/1.1 429")
        for sock in proxied + direct:
            sock.sendall(b"GET /api/titles HTTP/1.1\r\nHost: keydom\r\nConnection: close\r\n\r\n")
        assert all(read_until_closed(s).startswith(b"HTTP/1.1 200") for s in proxied + direct)


def ws_url(server: GuardedServer, game: dict, token: str | None = None) -> str:
    return server.url.replace("http://", "ws://") + f"/ws/games/{game['id']}" + (f"?token={token}" if token else "")


def new_game(server: GuardedServer) -> dict:
    response = oneshot.post(f"{server.url}/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"], "seed": 5})
    assert response.status_code == 201
    return response.json()


async def recv(ws, timeout: float = 10) -> dict:  # type: ignore[no-untyped-def]
    return json.loads(await asyncio.wait_for(ws.recv(), timeout))


def test_websockets_are_capped_per_address(sqlite_url):
    async def scenario(server: GuardedServer, game: dict) -> None:
        mine = [await websockets.connect(ws_url(server, game)) for _ in range(3)]
        for ws in mine:
            assert (await recv(ws))["version"] == 0
        extra = await websockets.connect(ws_url(server, game))
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await recv(extra)
        assert closed.value.rcvd.code == 4429 and "Too many live connections" in closed.value.rcvd.reason
        neighbour = await websockets.connect(ws_url(server, game), local_addr=("127.0.0.2", 0))
        assert (await recv(neighbour))["version"] == 0, "another address has its own allowance"
        await mine[0].close()
        while server.app.state.sockets_by_address.get("127.0.0.1") == 3:
            await asyncio.sleep(0.02)
        again = await websockets.connect(ws_url(server, game))
        assert (await recv(again))["version"] == 0, "a closed socket gives its place back"
        for ws in [*mine[1:], neighbour, again]:
            await ws.close()

    with GuardedServer(sqlite_url, websockets_per_address=3) as server:
        asyncio.run(scenario(server, new_game(server)))


def test_game_sockets_are_counted_by_the_address_a_trusted_proxy_names(sqlite_url):
    """Game sockets skip the HTTP stack (app.main.Keydom) but not X-Forwarded-For: behind a
    trusted proxy, each player behind it has an allowance of its own."""
    async def scenario(server: GuardedServer, game: dict) -> None:
        def behind_proxy(player: str):  # type: ignore[no-untyped-def]
            return websockets.connect(ws_url(server, game), additional_headers={"X-Forwarded-For": player})

        ann = await behind_proxy("203.0.113.7")
        assert (await recv(ann))["version"] == 0
        bob = await behind_proxy("198.51.100.9")
        assert (await recv(bob))["version"] == 0, "another player behind the same proxy is let in"
        again = await behind_proxy("203.0.113.7")
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await recv(again)
        assert closed.value.rcvd.code == 4429
        assert set(server.app.state.sockets_by_address) == {"203.0.113.7", "198.51.100.9"}
        for ws in (ann, bob):
            await ws.close()

    with GuardedServer(sqlite_url, websockets_per_address=1, forwarded_allow_ips="127.0.0.1") as server:
        asyncio.run(scenario(server, new_game(server)))


def test_a_websocket_to_no_such_place_is_refused(sqlite_url):
    async def scenario(server: GuardedServer, game: dict) -> None:
        base = server.url.replace("http://", "ws://")
        for path in ("/ws/nothing", f"/ws/games/{game['id']}/more", "/api/titles"):
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(base + path)
            assert refused.value.response.status_code == 403, path

    with GuardedServer(sqlite_url) as server:
        asyncio.run(scenario(server, new_game(server)))


def test_every_table_is_empty_again_after_the_sockets_close(sqlite_url):
    async def scenario(server: GuardedServer, game: dict) -> None:
        sockets = [await websockets.connect(ws_url(server, game)) for _ in range(60)]
        sockets += [await websockets.connect(ws_url(server, game, seat["token"])) for seat in game["seats"]]
        for ws in sockets:
            await recv(ws)
        slow = [open_socket(server.port) for _ in range(20)]
        for sock in slow:
            sock.sendall(PARTIAL_HEADERS)
        hub = server.app.state.table.hub
        assert hub.connection_count() == 62
        assert server.app.state.sockets_by_address == {"127.0.0.1": 62}
        while server.guard.connection_count() < 20:
            await asyncio.sleep(0.02)
        for ws in sockets:
            await ws.close()
        for sock in slow:
            sock.close()
        for _ in range(500):  # wait for the server to notice every close
            if not (hub.connection_count() or server.app.state.sockets_by_address or server.guard.open):
                break
            await asyncio.sleep(0.02)
        assert hub.connection_count() == 0
        assert server.app.state.sockets_by_address == {}
        assert server.guard.open == {}

    with GuardedServer(sqlite_url, websockets_per_address=100, connections_per_address=100) as server:
        asyncio.run(scenario(server, new_game(server)))


def test_repeated_catch_up_requests_cost_one_view_and_no_database_read(sqlite_url):
    async def scenario(server: GuardedServer, game: dict) -> None:
        table = server.app.state.table
        loads = 0
        load = table.load_stored

        async def counted_load(game_id):  # type: ignore[no-untyped-def]
            nonlocal loads
            loads += 1
            return await load(game_id)

        seat = oneshot.get(f"{server.url}/api/games/{game['id']}").json()["to_act"][0]
        mine = oneshot.get(f"{server.url}/api/games/{game['id']}",
                           headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"}).json()
        table.load_stored = counted_load  # from here on, only the socket and the action read
        async with websockets.connect(ws_url(server, game, game["seats"][0]["token"])) as ws:
            await recv(ws)
            for _ in range(200):
                await ws.send(json.dumps({"since": -1}))
            # The catch-up answer first (an action before it would be answered by the same
            # frame as the catch-ups), then an action: its frame comes after every catch-up
            # the server made, so a second answer to them would show before it.
            versions = [(await recv(ws))["version"]]
            await asyncio.to_thread(
                oneshot.post, f"{server.url}/api/games/{game['id']}/actions",
                json={"option": mine["options"][0]["id"], "version": 0},
                headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"})
            while versions[-1] == 0:
                versions.append((await recv(ws))["version"])
        assert versions == [0, 1], "one catch-up answer, then the new version"
        assert loads <= 1, "the socket reads the game once when it opens, never for a catch-up"

    with GuardedServer(sqlite_url) as server:
        asyncio.run(scenario(server, new_game(server)))


def test_forwarded_for_is_believed_only_from_configured_proxies(sqlite_url):
    body = {"title": "tiny-towns", "players": ["A", "B"]}

    def create(server: GuardedServer, forwarded_for: str, source: str = "127.0.0.1") -> int:
        transport = httpx.HTTPTransport(local_address=source)
        with httpx.Client(transport=transport) as http:
            return http.post(f"{server.url}/api/games", json=body, headers={"X-Forwarded-For": forwarded_for}).status_code

    limits = {"create_per_minute": 1, "create_burst": 1}
    with GuardedServer(sqlite_url, **limits) as server:  # FORWARDED_ALLOW_IPS unset: nobody is a proxy
        assert create(server, "203.0.113.5") == 201
        assert create(server, "203.0.113.6") == 429, "a header cannot buy a fresh address"
    with GuardedServer(sqlite_url, forwarded_allow_ips="127.0.0.1", **limits) as server:
        assert create(server, "203.0.113.5") == 201
        assert create(server, "203.0.113.6") == 201, "behind the proxy, clients are told apart"
        assert create(server, "198.51.100.1, 203.0.113.5") == 429, "the address the proxy saw counts"
        assert create(server, "203.0.113.7", source="127.0.0.2") == 201
        assert create(server, "203.0.113.8", source="127.0.0.2") == 429, "127.0.0.2 is not a proxy"


def test_the_server_raises_its_own_open_file_limit():
    from app.__main__ import allow_open_files

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        allow_open_files(2000)
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == (2000 if hard == resource.RLIM_INFINITY else min(2000, hard))
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))

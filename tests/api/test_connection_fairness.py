"""MAX_CONNECTIONS shared fairly, and request heads of bounded size (app.api.connections).

Every client is on loopback; other loopback addresses (127.0.0.x) play the many clients
of an attacker who owns many addresses.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time

import httpx
import pytest
import websockets

from .servers import GuardedServer, open_socket, read_until_closed
from .. import oneshot

PARSERS = pytest.mark.parametrize("parser", ["httptools", "h11"])
PARTIAL_HEADERS = b"GET /api/titles HTTP/1.1\r\nHost: keydom\r\n"  # no blank line: never finished


def served(server: GuardedServer, count: int, source: str = "127.0.0.1") -> list[int]:
    """The statuses of ``count`` requests, each on a new connection from ``source``."""
    statuses = []
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=10) as client:
        for _ in range(count):
            statuses.append(client.get(f"{server.url}/api/titles", headers={"Connection": "close"}).status_code)
    return statuses


def test_many_addresses_holding_unfinished_requests_do_not_lock_out_anyone(sqlite_url):
    # 12 addresses x 16 requests that never finish: more than the whole cap of 120, and
    # each address within its own share. Before, the 121st connection and everyone after
    # it got 503 until the slow ones timed out (and they could start again).
    with GuardedServer(sqlite_url, max_connections=120, connections_per_address=16, request_timeout=120) as server:
        held = []
        try:
            for n in range(12):
                for _ in range(16):
                    sock = open_socket(server.port, source=f"127.0.0.{10 + n}")
                    sock.sendall(PARTIAL_HEADERS)
                    held.append(sock)
            assert served(server, 20) == [200] * 20
            # The places came from the slow requests, which were told why.
            shed = 0
            for sock in held:
                sock.settimeout(0.05)
                try:
                    answer = sock.recv(200)
                except socket.timeout:
                    continue
                if answer:
                    assert answer.startswith(b"HTTP/1.1 503") and b"still arriving" in read_until_closed_quick(sock, answer)
                    shed += 1
            assert shed >= 12 * 16 - 120, shed
            assert len(server.server.server_state.connections) <= 120
        finally:
            for sock in held:
                sock.close()


def read_until_closed_quick(sock: socket.socket, first: bytes) -> bytes:
    sock.settimeout(5)
    return first + read_until_closed(sock)


def test_the_address_holding_most_loses_its_slow_requests_first(sqlite_url):
    with GuardedServer(sqlite_url, max_connections=10, connections_per_address=8, request_timeout=120) as server:
        greedy, modest = [], []
        for held, source in [(greedy, "127.0.0.2")] * 8 + [(modest, "127.0.0.3")] * 2:
            sock = open_socket(server.port, source=source)
            sock.sendall(PARTIAL_HEADERS)
            held.append(sock)
            for _ in range(200):  # one at a time, so which is oldest is certain
                if server.guard is not None and server.guard.connection_count() == len(greedy) + len(modest):
                    break
                time.sleep(0.01)
        try:
            assert served(server, 3) == [200, 200, 200]
            for sock in modest:  # still waiting, untouched
                sock.settimeout(0.2)
                with pytest.raises(socket.timeout):
                    sock.recv(10)
            assert greedy[0].recv(12) == b"HTTP/1.1 503", "the greedy address's oldest went first"
        finally:
            for sock in greedy + modest:
                sock.close()


def test_idle_kept_alive_connections_give_way_to_a_newcomer(sqlite_url):
    # Before, three idle kept-alive connections made the fourth client's request a 503.
    with GuardedServer(sqlite_url, max_connections=3, keep_alive_timeout=30) as server:
        held = []
        for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
            sock = open_socket(server.port, source=source)
            sock.sendall(b"GET /api/healthz HTTP/1.1\r\nHost: keydom\r\n\r\n")
            answer = sock.recv(4096)
            assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"}"), answer
            held.append(sock)
            time.sleep(0.02)  # the first is the longest idle
        try:
            assert served(server, 2) == [200, 200]
            held[0].settimeout(5)
            assert read_until_closed(held[0]) == b"", "the longest-idle connection was closed, quietly"
            held[2].sendall(b"GET /api/healthz HTTP/1.1\r\nHost: keydom\r\n\r\n")
            assert held[2].recv(12) == b"HTTP/1.1 200", "a younger one still works"
        finally:
            for sock in held:
                sock.close()


def test_when_every_connection_is_busy_the_newcomer_gets_503(sqlite_url):
    async def scenario(server: GuardedServer, game: dict) -> None:
        url = server.url.replace("http://", "ws://") + f"/ws/games/{game['id']}"
        sockets = [await websockets.connect(url) for _ in range(3)]
        for ws in sockets:
            json.loads(await asyncio.wait_for(ws.recv(), 10))
        response = await asyncio.to_thread(oneshot.get, f"{server.url}/api/titles", timeout=10)
        assert response.status_code == 503
        assert "as many connections as it can" in response.text
        await sockets.pop().close()
        for _ in range(500):
            if len(server.server.server_state.connections) <= 2:
                break
            await asyncio.sleep(0.01)
        assert (await asyncio.to_thread(oneshot.get, f"{server.url}/api/titles", timeout=10)).status_code == 200
        for ws in sockets:
            await ws.close()

    with GuardedServer(sqlite_url, max_connections=3) as server:
        game = oneshot.post(f"{server.url}/api/games", json={"title": "tiny-towns", "players": ["Ann", "Bob"]}).json()
        for _ in range(500):  # the creating connection has gone
            if len(server.server.server_state.connections) == 0:
                break
            time.sleep(0.01)
        asyncio.run(scenario(server, game))


@PARSERS
def test_a_huge_header_gets_431_before_it_has_all_arrived(sqlite_url, parser):
    with GuardedServer(sqlite_url, http=parser) as server:
        sock = open_socket(server.port)
        sock.sendall(b"GET /api/titles HTTP/1.1\r\nHost: keydom\r\nX-Big: ")
        sent = 0
        try:
            for _ in range(64 * 16):  # up to 64 MB, 64 KB at a time
                sock.sendall(b"a" * 65536)
                sent += 65536
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert sent < 8 * 1024 * 1024, f"the server read {sent} bytes of one header"
        try:
            answer = read_until_closed(sock)
        except OSError:
            answer = b""
        assert answer == b"" or answer.startswith(b"HTTP/1.1 431"), answer[:80]
        sock.close()
        assert served(server, 1) == [200]


@PARSERS
def test_a_head_just_over_the_limit_gets_431_and_one_under_it_is_served(sqlite_url, parser):
    with GuardedServer(sqlite_url, http=parser, max_header_bytes=4096) as server:
        for size, status in ((3500, b"200"), (4200, b"431")):
            sock = open_socket(server.port)
            # Sent in small pieces: the limit holds however the head is split.
            head = b"GET /api/titles HTTP/1.1\r\nHost: keydom\r\nConnection: close\r\nX-Pad: " + b"p" * size + b"\r\n\r\n"
            for start in range(0, len(head), 700):
                sock.sendall(head[start:start + 700])
            answer = read_until_closed(sock)
            assert answer.startswith(b"HTTP/1.1 " + status), (size, answer[:80])
            sock.close()


@PARSERS
def test_too_many_headers_get_431(sqlite_url, parser):
    with GuardedServer(sqlite_url, http=parser) as server:
        many = {f"x-h{i}": "1" for i in range(150)}
        response = oneshot.get(f"{server.url}/api/titles", headers=many)
        assert response.status_code == 431
        assert "too many headers" in response.json()["detail"]
        assert oneshot.get(f"{server.url}/api/titles", headers={f"x-h{i}": "1" for i in range(40)}).status_code == 200


def test_a_body_is_not_counted_as_head(sqlite_url):
    with GuardedServer(sqlite_url, max_header_bytes=2048) as server:
        body = json.dumps({"title": "tiny-towns", "players": ["Ann", "Bob" + " " * 0], "options": {}})
        padded = body + " " * 6000  # a body larger than the head limit, sent with its head in one piece
        response = oneshot.post(f"{server.url}/api/games", content=padded, headers={"content-type": "application/json"})
        assert response.status_code == 201

"""A webhook receiver on loopback, a clock the test moves, and a game driven through the API."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, AsyncIterator, Iterator

import httpx
import pytest

from app.main import create_app
from app.notify.config import NotifyConfig
from app.notify.notifier import Notifier
from app.settings import Settings


class Receiver:
    """Records every JSON notification posted to it; can be told to fail the next N."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []
        self.fail_next = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if receiver.fail_next > 0:
                    receiver.fail_next -= 1
                    self.send_response(503)
                    self.end_headers()
                    return
                receiver.received.append({"path": self.path, **json.loads(body)})
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "hook") -> str:
        return f"json://127.0.0.1:{self.port}/{path}"

    def to(self, path: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m["path"] == f"/{path}"]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


class Clock:
    """Seconds since the epoch, moved only by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _test_vapid_key() -> str:
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid02

    vapid = Vapid02()
    vapid.generate_keys()
    return vapid.private_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()).decode()


VAPID_KEY = _test_vapid_key()  # one per test session: no key file is written beside the code


def quiet_config(clock: Clock, **overrides: Any) -> NotifyConfig:
    """No background loop (the test runs each pass), no environment, a fake clock; the
    outgoing-request policy lets the tests' own receivers on 127.0.0.1 through (tests of
    the policy itself set ``allowed_hosts``)."""
    values: dict[str, Any] = dict(smtp_url="", host_urls=[], delay=10, quiet=300, tick=1, retry_first=30,
                                  background=False, clock=clock, link_key="a test key",
                                  allowed_hosts=["127.0.0.1"], extra_schemes=[], send_timeout=15, senders=8,
                                  keep_days=14, vapid_private_key=VAPID_KEY, vapid_subject="mailto:tests@example.org")
    values.update(overrides)
    return NotifyConfig(**values)


@dataclass
class Table:
    """An app on its own database, its API client, its notifier and its clock."""

    http: httpx.AsyncClient
    notifier: Notifier
    clock: Clock
    games: dict[str, Any] = field(default_factory=dict)

    async def new_game(self, players: list[str | None] | None = None, title: str = "tiny-towns",
                       options: dict[str, Any] | None = None) -> dict[str, Any]:
        response = await self.http.post("/api/games", json={
            "title": title, "players": players or ["Ann", "Bob"], "seed": 3,
            "options": {"monuments": False} if options is None else options})
        assert response.status_code == 201, response.text
        return response.json()

    async def set_channels(self, game: dict[str, Any], seat: int, **body: Any) -> httpx.Response:
        return await self.http.put(f"/api/games/{game['id']}/notifications", json=body,
                                   headers=bearer(game, seat))

    async def step(self, game: dict[str, Any], seat: int | None = None) -> dict[str, Any]:
        """One action by ``seat`` (default: the first seat owing one): its first choice."""
        public = (await self.http.get(f"/api/games/{game['id']}")).json()
        seat = public["to_act"][0] if seat is None else seat
        mine = (await self.http.get(f"/api/games/{game['id']}", headers=bearer(game, seat))).json()
        option = next(o["id"] for o in mine["options"] if o["id"] != "cancel")
        response = await self.http.post(f"/api/games/{game['id']}/actions", headers=bearer(game, seat),
                                        json={"option": option, "version": mine["version"]})
        assert response.status_code == 200, response.text
        return response.json()

    async def to_act(self, game: dict[str, Any]) -> list[int]:
        return (await self.http.get(f"/api/games/{game['id']}")).json()["to_act"]

    async def later(self, seconds: float) -> int:
        """Let time pass, then one notifier pass; how many deliveries it tried."""
        self.clock.advance(seconds)
        return await self.notifier.run_once()


def bearer(game: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['seats'][seat]['token']}"}


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def open_table(url: str, clock: Clock, **overrides: Any) -> AsyncIterator[Table]:
    app = create_app(Settings(database_url=url), migrate=False)
    app.state.notify_config = quiet_config(clock, **overrides)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as http:
            yield Table(http, app.state.notifier, clock)


@pytest.fixture
async def table(sqlite_url: str, clock: Clock) -> AsyncIterator[Table]:
    async for t in open_table(sqlite_url, clock):
        yield t


class SmtpSink:
    """The few SMTP replies Python's smtplib needs; keeps each message as text."""

    def __init__(self) -> None:
        import socket

        self.mails: list[str] = []
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen()
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._session, args=(conn,), daemon=True).start()

    def _session(self, conn: Any) -> None:
        stream = conn.makefile("rwb")

        def reply(line: str) -> None:
            stream.write((line + "\r\n").encode())
            stream.flush()

        reply("220 sink")
        lines: list[str] | None = None
        for raw in stream:
            line = raw.decode(errors="replace").rstrip("\r\n")
            if lines is not None:
                if line == ".":
                    self.mails.append("\n".join(lines))
                    lines = None
                    reply("250 kept")
                else:
                    lines.append(line)
                continue
            command = line[:4].upper()
            if command == "DATA":
                lines = []
                reply("354 go on")
            elif command == "QUIT":
                reply("221 bye")
                break
            else:
                reply("250 ok")
        conn.close()

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def smtp() -> Iterator[SmtpSink]:
    sink = SmtpSink()
    yield sink
    sink.close()

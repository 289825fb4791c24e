"""A real uvicorn in a thread, started with the same options as ``python -m app``
(``app.__main__.server_options``), so tests can set small limits and look inside."""

from __future__ import annotations

import socket
import threading
from dataclasses import replace

import uvicorn

from app.__main__ import server_options
from app.api.connections import guarded_protocol
from app.main import create_app
from app.settings import Settings

from ..conftest import LiveServer, free_port


class GuardedServer(LiveServer):  # started and stopped as a LiveServer
    def __init__(self, database_url: str, http: str | None = None, **limits: object) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.settings = replace(Settings(database_url=database_url), host="127.0.0.1", port=self.port, **limits)
        self.app = create_app(self.settings, migrate=False)
        options = server_options(self.settings)
        if http is not None:
            options["http"] = guarded_protocol(http)
        # This server's limits, not the environment's.
        options["http"] = type("TestProtocol", (options["http"],), {"settings": self.settings})
        config = uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=2, **options)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def guard(self):  # type: ignore[no-untyped-def]
        """The per-address table of open HTTP connections (None before the first one)."""
        return getattr(self.server.server_state, "keydom_guard", None)


def open_socket(port: int, source: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """A plain TCP connection to the server from a chosen loopback address."""
    sock = socket.socket()
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def read_until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)

"""Shared fixtures: an app on a fresh database, an httpx client, a live uvicorn server."""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path
from typing import AsyncIterator, Iterator

import httpx
import pytest
import uvicorn

from app.main import create_app
from app.settings import Settings, async_database_url
from app.store.migrate import upgrade

BASE_PG_URL = os.environ.get("TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
# Parallel test workers (pytest-xdist) each get their own database on the same server.
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
PG_URL = f"{BASE_PG_URL}_{WORKER}" if WORKER else BASE_PG_URL


def reachable(port: int, host: str = "127.0.0.1") -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def postgres_reachable() -> bool:
    return reachable(5432)


def reset_postgres() -> str:
    """Drop everything in the test database and migrate it afresh."""
    import psycopg

    if WORKER:
        with psycopg.connect(BASE_PG_URL, autocommit=True) as conn:
            name = PG_URL.rsplit("/", 1)[1]
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                conn.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(PG_URL, autocommit=True) as conn:  # every table, whoever added it
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
        conn.execute("CREATE SCHEMA public")
    upgrade(PG_URL)
    return async_database_url(PG_URL)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'keydom.db'}"
    upgrade(url)
    return url


@pytest.fixture
def pg_url() -> str:
    if not postgres_reachable():
        pytest.skip(f"PostgreSQL is not reachable at {PG_URL}; skipping PostgreSQL tests")
    return reset_postgres()


@pytest.fixture(params=["sqlite", "postgresql"])
async def client(request: pytest.FixtureRequest) -> AsyncIterator[httpx.AsyncClient]:
    """An API client on a fresh database: every API test runs on SQLite and on PostgreSQL
    (the latter skipped, with the reason, where no PostgreSQL server answers)."""
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    async with _client_for(url) as c:
        yield c


@pytest.fixture
async def sqlite_client(sqlite_url: str) -> AsyncIterator[httpx.AsyncClient]:
    async with _client_for(sqlite_url) as c:
        yield c


class _client_for:
    def __init__(self, url: str) -> None:
        self.app = create_app(Settings(database_url=url), migrate=False)

    async def __aenter__(self) -> httpx.AsyncClient:
        self._lifespan = self.app.router.lifespan_context(self.app)
        await self._lifespan.__aenter__()
        self._client = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url="http://testserver")
        return self._client

    async def __aexit__(self, *exc: object) -> None:
        await self._client.aclose()
        await self._lifespan.__aexit__(None, None, None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """A real uvicorn on loopback, in a thread of this test process."""

    def __init__(self, database_url: str, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        app = create_app(Settings(database_url=database_url), migrate=False)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", access_log=False,
                                timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "LiveServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_server(sqlite_url: str) -> Iterator[LiveServer]:
    with LiveServer(sqlite_url) as server:
        yield server

"""Shared fixtures: an app on a fresh database, an httpx client, a live uvicorn server."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, AsyncIterator, Iterator

import httpx
import pytest
import uvicorn

from app.cli import copy_sqlite
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
    """The test database empty at the newest revision. The first call in a process drops
    everything and migrates afresh; later calls only empty the tables while the schema is
    still the one migrating gave (migrating again costs 0.3 s a test, emptying a few ms),
    and migrate afresh when a test left it otherwise (a downgrade, a table of its own)."""
    import psycopg

    if WORKER:
        with psycopg.connect(BASE_PG_URL, autocommit=True) as conn:
            name = PG_URL.rsplit("/", 1)[1]
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                conn.execute(f'CREATE DATABASE "{name}"')
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        if _PG_MIGRATED and _pg_schema(conn) == _PG_MIGRATED[0]:
            tables = sorted({column[0] for column in _PG_MIGRATED[0][0]} - {"alembic_version"})
            conn.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " RESTART IDENTITY CASCADE")
            return async_database_url(PG_URL)
        conn.execute("DROP SCHEMA IF EXISTS public CASCADE")  # every table, whoever added it
        conn.execute("CREATE SCHEMA public")
    upgrade(PG_URL)
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        _PG_MIGRATED[:] = [_pg_schema(conn)]
    return async_database_url(PG_URL)


_PG_MIGRATED: list[tuple] = []  # the schema as migrating left it, once this process has migrated


def _pg_schema(conn: object) -> tuple:
    """Everything a test could have changed about the schema: columns, indexes,
    constraints, sequences and the revision."""
    queries = (
        "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns"
        " WHERE table_schema = 'public' ORDER BY 1, 2",
        "SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1",
        "SELECT conname, pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace"
        " WHERE n.nspname = 'public' ORDER BY 1, 2",
        "SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = 'public' ORDER BY 1",
        "SELECT version_num FROM alembic_version",
    )
    try:
        return tuple(tuple(conn.execute(q).fetchall()) for q in queries)  # type: ignore[attr-defined]
    except Exception:  # no alembic_version (a test dropped it): not the migrated schema
        return ()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One SQLite database migrated to the newest revision per test process."""
    path = tmp_path_factory.mktemp("migrated") / "keydom.db"
    upgrade(f"sqlite+aiosqlite:///{path}")
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, migrated_sqlite: Path) -> str:
    """A fresh database of its own for the test: a copy of the migrated one (the same
    pages, by SQLite's backup API), which costs a millisecond where migrating costs 0.3 s."""
    target = tmp_path / "keydom.db"
    copy_sqlite(migrated_sqlite, target)
    return f"sqlite+aiosqlite:///{target}"


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


# The longest files of the suite (`--junitxml` times, 2026-12-02), started first. xdist's
# own order (the files with the most tests first) left them for last, and a full run
# ended with one worker busy for minutes and the others idle.
LONG_FILES = (
    "tests/browser/test_choices_in_view.py",  # ~150 s, 8 tests
    "tests/table/test_races_and_crashes.py",  # ~160 s, 4 tests
    "tests/browser/test_game_page.py",
    "tests/api/test_fuzz.py",
    "tests/web/test_drawn_once.py",
    "tests/bots/test_bot_seats.py",
    "tests/notify/test_page.py",
    "tests/browser/test_bots_game.py",
    "tests/browser/test_phone.py",
    "tests/api/test_openapi_conformance.py",
)
# Files of many short independent tests (each on a database of its own), sent last and one
# test at a time: they fill the end of the run on whichever worker is free, where a whole
# file (the twin games: 222 tests, 2-4 minutes of one worker) left the other worker idle.
TAIL_FILES = ("tests/games/test_twins.py",)
# The files whose tests are each sent to whichever worker is free (the others go whole to
# one worker, as with ``--dist loadfile``). Not the fuzzing: its two tests share the
# requests generated (tests/api/test_fuzz.py), so they stay together.
SPREAD_FILES = (*LONG_FILES[:2], *TAIL_FILES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long files first, then the others, most tests first (xdist's order), then
    TAIL_FILES; each file's tests in their own order. Every worker sorts its collection
    the same way."""
    counts = Counter(_file(item) for item in items)

    def rank(item: pytest.Item) -> tuple[int, int, str]:
        file = _file(item)
        if file in LONG_FILES:
            return (0, LONG_FILES.index(file), file)
        if file in TAIL_FILES:
            return (2, TAIL_FILES.index(file), file)
        return (1, -counts[file], file)
    items.sort(key=rank)  # stable: the order within each file stays


def _file(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


@pytest.hookimpl(optionalhook=True)  # xdist's hook: only asked when xdist runs the suite
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` in the order collected (see above), with SPREAD_FILES spread."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class LongFirst(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file = super()._split_scope(nodeid)
            return nodeid if file in SPREAD_FILES else file

    config.option.loadscopereorder = False  # the collection's order is the order wanted
    return LongFirst(config, log)

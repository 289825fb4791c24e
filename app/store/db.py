"""Engine and sessions for SQLite (embedded default) or PostgreSQL.

SQLite: pysqlite does not BEGIN before a SELECT, so a read-then-write would not be
isolated. We follow SQLAlchemy's documented recipe (autocommit at the driver, our own
``BEGIN IMMEDIATE``) and serialise writers in-process, which also removes lock waits.
Actions, the hot path, commit on their own connection in one writer thread.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import AsyncIterator, Callable, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

T = TypeVar("T")


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self.engine: AsyncEngine = create_async_engine(url, connect_args={"timeout": 30})
            _sqlite_recipe(self.engine.sync_engine)
            # Actions commit on one plain sqlite3 connection in one thread: a whole
            # transaction is a single hand-off from the event loop, not one per statement.
            self.action_engine: Engine | None = create_engine(
                url.replace("sqlite+aiosqlite", "sqlite", 1), connect_args={"timeout": 30, "check_same_thread": False}
            )
            _sqlite_recipe(self.action_engine)
            self._action_writes = self.action_engine.execution_options(keydom_write=True)
            self._action_thread: ThreadPoolExecutor | None = ThreadPoolExecutor(1, thread_name_prefix="sqlite-actions")
        else:
            # No pre-ping (a round trip per checkout); stale connections are recycled instead.
            self.engine = create_async_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800)
            self.action_engine = None
            self._action_thread = None
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # Writers take SQLite's write lock at BEGIN, so read-then-write is isolated.
        self.write_sessions = async_sessionmaker(
            self.engine.execution_options(keydom_write=True), expire_on_commit=False
        )
        # One writer at a time inside this process (SQLite allows one writer anyway).
        self._write_lock = asyncio.Lock() if self.is_sqlite else None

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        """One transaction that commits on success and rolls back on any exception."""
        if self._write_lock is None:
            async with self.write_sessions() as session, session.begin():
                yield session
            return
        async with self._write_lock:
            async with self.write_sessions() as session, session.begin():
                yield session

    async def commit_action(self, sync_write: Callable[[Connection], T],
                            async_write: Callable[[AsyncConnection], "asyncio.Future[T]"]) -> T:
        """Run an action's writes in one transaction: on SQLite in the action thread
        (``sync_write``), elsewhere on the async engine (``async_write``)."""
        if self.action_engine is None or self._action_thread is None:
            async with self.write() as session:
                return await async_write(await session.connection())

        def in_transaction() -> T:
            with self._action_writes.begin() as conn:
                return sync_write(conn)

        return await asyncio.get_running_loop().run_in_executor(self._action_thread, in_transaction)

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self.action_engine is not None and self._action_thread is not None:
            self._action_thread.submit(self.action_engine.dispose).result()
            self._action_thread.shutdown()


def _sqlite_recipe(sync_engine: Engine) -> None:
    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        # WAL is stored in the file; switching needs a lock, so only switch when needed
        # (pool connections are opened while the action writer is busy).
        cursor.execute("PRAGMA journal_mode")
        if str(cursor.fetchone()[0]).lower() != "wal":
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn):  # type: ignore[no-untyped-def]
        immediate = conn.get_execution_options().get("keydom_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

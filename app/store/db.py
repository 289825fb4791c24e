"""Engine and sessions for SQLite (embedded default) or PostgreSQL.

SQLite: pysqlite does not BEGIN before a SELECT, so a read-then-write would not be
isolated. We follow SQLAlchemy's documented recipe (autocommit at the driver, our own
``BEGIN IMMEDIATE``) and serialise writers in-process, which also removes lock waits.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import AsyncIterator

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine


class Database:
    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        if self.is_sqlite:
            self.engine: AsyncEngine = create_async_engine(url, connect_args={"timeout": 30})
            _sqlite_recipe(self.engine)
        else:
            # No pre-ping (a round trip per checkout); stale connections are recycled instead.
            self.engine = create_async_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800)
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

    async def dispose(self) -> None:
        await self.engine.dispose()


def _sqlite_recipe(engine: AsyncEngine) -> None:
    sync_engine = engine.sync_engine

    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn):  # type: ignore[no-untyped-def]
        immediate = conn.get_execution_options().get("keydom_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

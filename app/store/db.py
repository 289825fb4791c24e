"""Engine and sessions for SQLite (embedded default) or PostgreSQL.

SQLite: pysqlite does not BEGIN before a SELECT, so a read-then-write would not be
isolated. We follow SQLAlchemy's documented recipe (autocommit at the driver, our own
``BEGIN IMMEDIATE``) and serialise writers in-process, which also removes lock waits.

Durable by default: every SQLite connection runs with ``synchronous=FULL``, so COMMIT
returns only once the write-ahead log is on the disk and an acknowledged action survives
a power cut (``NORMAL`` only survives a killed process). Actions, the hot path, commit in
one writer thread that pays for that disk wait once per batch (see ``ActionWriter``).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import sqlite3
import threading
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable, TypeVar

import orjson
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine

T = TypeVar("T")
log = logging.getLogger("keydom.store")

SYNCHRONOUS_LEVELS = ("NORMAL", "FULL", "EXTRA")
MAX_BATCH = 64  # actions per transaction at most, so one batch never holds the lock long


class ActionWriter:
    """The one thread that commits actions on SQLite, with group commit.

    Whatever actions are waiting when the thread is free go into one transaction, so the
    disk wait of a durable COMMIT is paid once per batch instead of once per action; under
    load batches grow by themselves, with no added delay when it is quiet. In a batch of
    several, each action runs in its own SAVEPOINT: one that fails (a stale version, a write
    that breaks halfway) is rolled back alone and the others still commit; an action alone
    in its batch that fails rolls the whole transaction back. Nobody is answered before COMMIT has
    returned; if COMMIT fails, every action of that batch gets the error and none is kept.
    """

    def __init__(self, engine: Engine, max_batch: int = MAX_BATCH) -> None:
        self.engine = engine
        self._writes = engine.execution_options(keydom_write=True)  # BEGIN IMMEDIATE
        self.max_batch = max(1, max_batch)
        self.transactions = 0  # counters for benchmarks (written by the writer thread only)
        self.committed = 0
        self._queue: queue.SimpleQueue[tuple[Callable[[Connection], Any], asyncio.AbstractEventLoop,
                                             asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._conn: Connection | None = None  # used by the writer thread only
        self._thread = threading.Thread(target=self._run, name="sqlite-actions", daemon=True)
        self._thread.start()

    def submit(self, write: Callable[[Connection], T]) -> "asyncio.Future[T]":
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((write, loop, future))
        return future

    def close(self) -> None:
        """Commit what is queued, then stop the thread and close its connections."""
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            while len(batch) < self.max_batch:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stopping = True
                    break
                batch.append(item)
            self._commit(batch)
        if self._conn is not None:
            self._conn.close()
        self.engine.dispose()

    def _connection(self) -> Connection:
        """The thread's one connection, kept between batches (a checkout from the pool per
        batch cost as much as the batch's own statements); a broken one is replaced."""
        if self._conn is not None and (self._conn.invalidated or self._conn.closed):
            self._conn.close()
            self._conn = None
        if self._conn is None:
            self._conn = self._writes.connect()
        return self._conn

    def _end(self, dbapi: Any) -> None:
        """COMMIT: the moment the batch reaches the disk (a method of its own so the
        durability tests can make it fail as a full disk would)."""
        dbapi.execute("COMMIT")

    def _commit(self, batch: list[tuple[Callable[[Connection], Any], asyncio.AbstractEventLoop,
                                        asyncio.Future[Any]]]) -> None:
        # BEGIN, the savepoints and COMMIT go straight to the driver: SQLAlchemy's own
        # transaction (an object, its events, exec_driver_sql) cost about as much as the
        # action's two writes, once per batch, and batches are of one action at moderate rates.
        outcomes: list[tuple[bool, Any]] = []
        conn: Connection | None = None
        try:
            conn = self._connection()
            dbapi = conn.connection.dbapi_connection
            assert dbapi is not None
            dbapi.execute("BEGIN IMMEDIATE")
            alone = len(batch) == 1  # no savepoint needed: a refusal rolls back everything there is
            for write, _loop, _future in batch:
                if not alone:
                    dbapi.execute("SAVEPOINT action")
                try:
                    outcomes.append((True, write(conn)))
                except Exception as refused:  # this action only: its savepoint (or, alone, its transaction) is undone
                    if not dbapi.in_transaction:  # type: ignore[attr-defined]
                        # SQLite itself rolled the whole transaction back (disk full,
                        # I/O error): the earlier actions are gone too, so all must fail.
                        raise
                    dbapi.execute("ROLLBACK" if alone else "ROLLBACK TO action")
                    outcomes.append((False, refused))
                if not alone:
                    dbapi.execute("RELEASE action")
            if dbapi.in_transaction:  # type: ignore[attr-defined]  # (not if a lone action was refused)
                self._end(dbapi)
                self.transactions += 1
            self.committed += sum(ok for ok, _ in outcomes)
        except Exception as failed:  # BEGIN or COMMIT failed: nothing of this batch is stored
            log.error("an action transaction failed (%d actions refused): %s", len(batch), failed)
            if self._conn is not None:  # back to the pool, which rolls back whatever is left open
                self._conn.close()
                self._conn = None
            conn = None
            outcomes = [(False, failed)] * len(batch)
        if conn is not None and conn.in_transaction():
            # A write that went through SQLAlchemy (the clocks' statements) left it thinking a
            # transaction is open; the driver's is over, so this only resets its bookkeeping.
            try:
                conn.rollback()
            except Exception:  # never leave the batch unanswered: start afresh next time
                self._conn = None
        for (_write, loop, future), (ok, value) in zip(batch, outcomes):
            try:
                loop.call_soon_threadsafe(_settle, future, ok, value)
            except RuntimeError:  # that event loop has closed; nobody is waiting
                pass


class Prepared:
    """One statement of the action path, compiled once: running it is one driver call with
    the values converted as SQLAlchemy would. SQLAlchemy's own per-execution work (and, on
    PostgreSQL, its connection wrappers) cost about as much as the driver's."""

    def __init__(self, statement: Any, dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        if compiled.positiontup is None:
            raise ValueError("the action path's drivers take positional parameters")
        self.sql = compiled.string
        self.fixed = compiled.params  # values written into the statement (status == "active")
        converters = compiled._bind_processors
        self.steps = [(name, converters.get(name)) for name in compiled.positiontup]

    def values(self, params: dict[str, Any]) -> list[Any]:
        values = []
        for name, convert in self.steps:
            value = params[name] if name in params else self.fixed[name]
            values.append(value if convert is None else convert(value))
        return values

    def run(self, conn: Connection, params: dict[str, Any]) -> int:
        """Execute on the writer's sqlite3 connection, inside its transaction; the rows it changed."""
        values = self.values(params)
        dbapi = conn.connection.dbapi_connection
        assert dbapi is not None
        try:
            return dbapi.execute(self.sql, values).rowcount  # type: ignore[attr-defined, no-any-return]
        except sqlite3.Error as failed:  # as SQLAlchemy would raise it (IntegrityError, OperationalError...)
            raise DBAPIError.instance(self.sql, values, failed, sqlite3.Error) from failed


def _settle(future: "asyncio.Future[Any]", ok: bool, value: Any) -> None:
    if future.done():  # the caller stopped waiting (what was committed stays committed)
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _json_text(value: Any) -> str:
    # int dict keys written as strings, as the json module does (some columns key by seat)
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


# JSON columns (an action's log lines, the seats' view versions...) are written on every
# action: orjson instead of the json module SQLAlchemy uses by default.
JSON_CODEC: dict[str, Any] = {"json_serializer": _json_text, "json_deserializer": orjson.loads}


class Database:
    def __init__(self, url: str, *, synchronous: str = "FULL", max_batch: int = MAX_BATCH) -> None:
        """``synchronous`` and ``max_batch`` (1: no group commit) exist for benchmarks;
        the server always runs durable, with group commit."""
        if synchronous not in SYNCHRONOUS_LEVELS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_LEVELS}")
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self._waiting = 0
        self.writer: ActionWriter | None = None
        if self.is_sqlite:
            self.engine: AsyncEngine = create_async_engine(url, connect_args={"timeout": 30}, **JSON_CODEC)
            _sqlite_recipe(self.engine.sync_engine, synchronous)
            # Actions commit on a plain sqlite3 connection in one thread: each action is
            # one hand-off from the event loop and back, not one per statement.
            self.action_engine: Engine | None = create_engine(
                url.replace("sqlite+aiosqlite", "sqlite", 1), connect_args={"timeout": 30, "check_same_thread": False},
                **JSON_CODEC)
            _sqlite_recipe(self.action_engine, synchronous)
            self.writer = ActionWriter(self.action_engine, max_batch)
        else:
            # No pre-ping (a round trip per checkout); stale connections are recycled instead.
            # synchronous_commit is PostgreSQL's default, but a host may turn it off for
            # speed; our COMMIT must wait for the disk whatever the server's default.
            # Overflow connections are closed when handed back, and opening one (TLS included)
            # cost ~7% of the server's CPU under load: most of the 30 are kept open instead.
            self.engine = create_async_engine(url, pool_size=25, max_overflow=5, pool_recycle=1800,
                                              connect_args={"server_settings": {"synchronous_commit": "on"}},
                                              **JSON_CODEC)
            self.action_engine = None
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # Writers take SQLite's write lock at BEGIN, so read-then-write is isolated.
        self.write_sessions = async_sessionmaker(
            self.engine.execution_options(keydom_write=True), expire_on_commit=False
        )
        # One writer at a time inside this process (SQLite allows one writer anyway).
        self._write_lock = asyncio.Lock() if self.is_sqlite else None
        # PostgreSQL: an action is one statement, atomic by itself (no BEGIN and COMMIT round
        # trips), sent straight to asyncpg on a pool of its own (opened at the first action).
        self._alone: Any = None  # asyncpg.Pool
        self._alone_opening = asyncio.Lock()

    @property
    def actions_waiting(self) -> int:
        """Actions handed to ``commit_action`` and not yet answered."""
        return self._waiting

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

    def prepare(self, statement: Any) -> Prepared:
        """``statement`` compiled once: for the action writer's thread on SQLite, for
        ``commit_statement`` on PostgreSQL."""
        return Prepared(statement, (self.action_engine or self.engine.sync_engine).dialect)

    async def commit_action(self, sync_write: Callable[[Connection], T],
                            async_write: Callable[[AsyncConnection], "asyncio.Future[T]"] | None = None) -> T:
        """Run an action's writes atomically: on SQLite in the writer thread (``sync_write``,
        possibly in one transaction with other games' actions), elsewhere in a transaction
        of its own on the async engine (``async_write``). Returns only once committed."""
        self._waiting += 1
        try:
            if self.writer is None:
                assert async_write is not None, "PostgreSQL needs the async form of the writes"
                async with self.write() as session:
                    return await async_write(await session.connection())
            return await self.writer.submit(sync_write)
        finally:
            self._waiting -= 1

    async def commit_statement(self, statement: Prepared, params: dict[str, Any]) -> list[Any]:
        """PostgreSQL: an action's writes as one statement, atomic by itself, so it runs
        autocommitted (no BEGIN and COMMIT round trips), straight on asyncpg; the rows it
        returned. Returns only once committed."""
        import asyncpg

        self._waiting += 1
        values = statement.values(params)
        try:
            pool = self._alone or await self._open_alone()
            async with pool.acquire() as conn:
                return await conn.fetch(statement.sql, *values)  # type: ignore[no-any-return]
        except asyncpg.PostgresError as failed:  # as SQLAlchemy would raise it
            raise DBAPIError.instance(statement.sql, values, failed, asyncpg.PostgresError) from failed
        finally:
            self._waiting -= 1

    async def _open_alone(self) -> Any:
        import asyncpg

        async with self._alone_opening:
            if self._alone is None:
                dialect = self.engine.sync_engine.dialect
                args, kwargs = dialect.create_connect_args(self.engine.url)
                # As the engine's connections: COMMIT waits for the disk whatever the server's default.
                kwargs["server_settings"] = dict(kwargs.get("server_settings") or {}, synchronous_commit="on")
                # reset: a connection goes back as it came (one statement, autocommitted, no
                # session settings, cursors, locks or LISTEN), so asyncpg's reset query after
                # every action (a round trip, ~10% of a process's CPU) is skipped.
                self._alone = await asyncpg.create_pool(*args, min_size=1, max_size=10, reset=_as_it_came,
                                                        max_inactive_connection_lifetime=1800, **kwargs)
        return self._alone

    async def dispose(self) -> None:
        if self._alone is not None:
            await self._alone.close()
            self._alone = None
        await self.engine.dispose()
        if self.writer is not None:
            await asyncio.to_thread(self.writer.close)


async def _as_it_came(_connection: Any) -> None:
    """asyncpg's pool reset, for connections that only ever run one autocommitted statement."""


def _sqlite_recipe(sync_engine: Engine, synchronous: str = "FULL") -> None:
    @event.listens_for(sync_engine, "connect")
    def _on_connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        # WAL is stored in the file; switching needs a lock, so only switch when needed
        # (pool connections are opened while the action writer is busy).
        cursor.execute("PRAGMA journal_mode")
        if str(cursor.fetchone()[0]).lower() != "wal":
            cursor.execute("PRAGMA journal_mode=WAL")
        # FULL: each COMMIT waits for the WAL to reach the disk (power-cut safe).
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(sync_engine, "begin")
    def _on_begin(conn):  # type: ignore[no-untyped-def]
        if getattr(conn.connection.dbapi_connection, "in_transaction", False):
            return  # the action writer began it at the driver; statements through SQLAlchemy join it
        immediate = conn.get_execution_options().get("keydom_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

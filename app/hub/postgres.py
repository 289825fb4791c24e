"""Cross-process fan-out through PostgreSQL LISTEN/NOTIFY.

The table sends ``NOTIFY keydom_games, '<game>:<version>:<process>'`` inside the action's own
transaction, so PostgreSQL delivers it exactly when (and only if) the action commits.
Every server process LISTENs on one dedicated connection and wakes its local sockets.
A notice carries no state, at most the action that made the version (see ``Moved``):
sockets read the database, so a lost notice only delays a socket until the next one (or
its reconnect), never corrupts it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

import asyncpg
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from .local import Hub, Moved, notice

CHANNEL = "keydom_games"
log = logging.getLogger("keydom.hub")


def plain_dsn(url: str) -> str:
    """asyncpg wants ``postgresql://``, SQLAlchemy's URL says ``postgresql+asyncpg://``."""
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


class PostgresHub(Hub):
    def __init__(self, url: str) -> None:
        super().__init__()
        self.dsn = plain_dsn(url)
        # Our own notices come back to us too, possibly before the action's code has
        # cached the new state; this process already delivers its own changes locally.
        self.origin = secrets.token_hex(6)
        self._conn: asyncpg.Connection | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._stopping = False
        self._lost = asyncio.Event()

    async def start(self) -> None:
        await self._connect()
        self._keeper = asyncio.create_task(self._keep_listening())

    async def stop(self) -> None:
        self._stopping = True
        if self._keeper:
            self._keeper.cancel()
        if self._conn and not self._conn.is_closed():
            await self._conn.close()

    async def notify_in_transaction(self, session: AsyncSession, game_id: str, version: int) -> None:
        await session.execute(text("SELECT pg_notify(:channel, :payload)"),
                              {"channel": CHANNEL, "payload": notice(game_id, version, self.origin)})

    def notice_in_statement(self, game_id: str, version: int, moved: Moved) -> tuple[str, str] | None:
        return CHANNEL, notice(game_id, version, self.origin, moved)

    async def _connect(self) -> None:
        self._lost.clear()
        self._conn = await asyncpg.connect(self.dsn)
        self._conn.add_termination_listener(lambda _conn: self._lost.set())
        await self._conn.add_listener(CHANNEL, self._on_notify)

    def _on_notify(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        # asyncpg calls this synchronously on the loop; delivering only wakes sockets.
        self.deliver_notice(payload, self.origin)

    async def _keep_listening(self) -> None:
        """Reconnect with back-off; then wake every local socket so it catches up."""
        delay = 0.5
        while not self._stopping:
            await self._lost.wait()
            if self._stopping:
                return
            log.warning("lost the LISTEN connection; reconnecting")
            while not self._stopping:
                try:
                    await self._connect()
                    delay = 0.5
                    break
                except (OSError, asyncpg.PostgresError):
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 15)
            self.notices_lost()

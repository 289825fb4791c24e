"""Cross-process fan-out through Redis pub/sub (used when REDIS_URL is set).

Each process publishes ``<game>:<version>:<process>`` after an action commits and listens
on one subscription. Unlike PostgreSQL's NOTIFY this is not tied to the transaction, so
the order is "commit, then publish": a notice never announces an uncommitted version. A
lost notice (Redis restarting) only delays sockets until the next one or their reconnect;
after re-subscribing, every local socket is woken to catch up from the database.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from .local import Hub, Moved, notice

CHANNEL = "keydom:games"
log = logging.getLogger("keydom.hub")


class RedisHub(Hub):
    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.origin = secrets.token_hex(6)
        self._client: aioredis.Redis | None = None
        self._reader: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()

    async def start(self) -> None:
        self._client = aioredis.from_url(self.url)
        self._reader = asyncio.create_task(self._listen_forever())
        await asyncio.wait_for(self._subscribed.wait(), timeout=10)

    async def stop(self) -> None:
        if self._reader:
            self._reader.cancel()
        if self._client:
            await self._client.aclose()

    async def publish(self, game_id: str, version: int, moved: Moved | None = None) -> None:
        self.deliver(game_id, version)
        try:
            assert self._client is not None
            await self._client.publish(CHANNEL, notice(game_id, version, self.origin, moved))
        except RedisError as failure:  # other processes' sockets catch up on reconnect
            log.warning("could not publish to Redis: %s", failure)

    async def _listen_forever(self) -> None:
        delay = 0.5
        while True:
            try:
                assert self._client is not None
                async with self._client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    if self._subscribed.is_set():  # a re-subscription: notices may be lost
                        self.notices_lost()
                    self._subscribed.set()
                    delay = 0.5
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self._on_message(message["data"])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as failure:
                log.warning("Redis subscription lost (%s); retrying in %.1f s", failure, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 15)

    def _on_message(self, data: bytes | str) -> None:
        self.deliver_notice(data.decode() if isinstance(data, bytes) else data, self.origin)

"""Rate limits: new games per client address, actions per seat (token buckets).

One server process counts in memory. Several processes (WORKERS > 1) must count against
the same bucket, so they keep it in Redis when REDIS_URL is set, else in PostgreSQL. If
that store does not answer, the request is let through: a limiter outage must not stop play.
A shared bucket may be drawn on a lease at a time (the action limiter's is a second of its
rate): the process keeps the rest of what it took for the next spends of that key, for a
minute at least, so an action costs a round trip to the store only once per lease.
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from typing import Any, Protocol

from fastapi import Request
from starlette.requests import HTTPConnection

from app.settings import Settings
from app.table.errors import RateLimited

from .connections import address_key

log = logging.getLogger("keydom.ratelimit")


class Limiter(Protocol):
    async def spend(self, key: str) -> None: ...
    async def start(self) -> None: ...
    async def stop(self) -> None: ...


def _refusal(template: str, wait_s: float) -> RateLimited:
    return RateLimited(template.format(wait=max(1, math.ceil(wait_s))))


class RateLimiter:
    """In memory, for one process."""

    def __init__(self, per_minute: int, burst: int, max_clients: int = 10_000,
                 message: str = "Too many requests; try again in {wait} s.") -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.max_clients = max_clients
        self.message = message
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def check(self, client: str, now: float | None = None) -> None:
        """Spend one token for this client, or raise RateLimited."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            raise _refusal(self.message, (1 - tokens) / self.rate)
        self._buckets[client] = (tokens - 1, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)

    async def spend(self, key: str) -> None:
        self.check(key)

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass


# The bucket is refilled and spent in one step inside Redis, on Redis's clock.
_REDIS_BUCKET = """
local rate, burst, want = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local held = redis.call('HMGET', KEYS[1], 'tokens', 'stamp')
local tokens = tonumber(held[1]) or burst
local stamp = tonumber(held[2]) or now
tokens = math.min(burst, tokens + (now - stamp) * rate)
local granted = math.max(0, math.min(want, math.floor(tokens)))
tokens = tokens - granted
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('EXPIRE', KEYS[1], math.ceil(burst / rate) + 1)
return {granted, tostring(tokens)}
"""


class SharedBuckets:
    """A bucket kept in a store that every process shares, drawn on ``lease`` tokens at a
    time. The tokens this process took and has not spent yet stay valid for ``HOLD`` seconds,
    or as long as the bucket takes to refill them if that is longer; after that they are
    dropped (never given back). So a seat whose requests reach several processes loses at
    most a lease now and then, no process ever spends more than the shared bucket gave out,
    and a seat playing at a person's pace (an action every few seconds) costs a round trip
    per lease, not per action."""

    HOLD = 60.0  # seconds: tokens held longer are dropped

    def __init__(self, name: str, per_minute: int, burst: int, message: str, lease: int = 1,
                 max_keys: int = 10_000) -> None:
        self.prefix = f"{name}:"
        self.rate = per_minute / 60.0
        self.burst = burst
        self.message = message
        self.lease = max(1, min(lease, burst))
        self.max_keys = max_keys
        self._held: OrderedDict[str, tuple[int, float]] = OrderedDict()  # key -> (tokens, valid until)
        self.clock = time.monotonic

    async def _take(self, key: str, want: int) -> tuple[int, float] | None:
        """Take up to ``want`` tokens from the shared bucket: (granted, tokens left), or
        None when the store did not answer."""
        raise NotImplementedError

    async def spend(self, key: str) -> None:
        now = self.clock()
        held = self._held.pop(key, None)
        if held is not None and held[1] > now:
            if held[0] > 1:
                self._held[key] = (held[0] - 1, held[1])
            return
        taken = await self._take(key, self.lease)
        if taken is None:  # the store is down: let the request through
            return
        granted, tokens = taken
        if granted < 1:
            raise _refusal(self.message, (1 - tokens) / self.rate)
        if granted > 1:
            self._held[key] = (granted - 1, now + max(self.HOLD, granted / self.rate))
            while len(self._held) > self.max_keys:
                self._held.popitem(last=False)


class RedisRateLimiter(SharedBuckets):
    """Shared by every process that uses the same Redis; buckets expire once full again."""

    def __init__(self, url: str, name: str, per_minute: int, burst: int, message: str, lease: int = 1) -> None:
        super().__init__(name, per_minute, burst, message, lease)
        self.url = url
        self.prefix = f"keydom:rate:{name}:"
        self._client = None
        self._script = None

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self._client = aioredis.from_url(self.url)
        self._script = self._client.register_script(_REDIS_BUCKET)

    async def stop(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    async def _take(self, key: str, want: int) -> tuple[int, float] | None:
        from redis.exceptions import RedisError

        assert self._script is not None, "start() the limiter first"
        try:
            granted, tokens = await self._script(keys=[self.prefix + key], args=[self.rate, self.burst, want])
        except (RedisError, OSError) as failure:
            log.warning("rate limit not checked (Redis: %s)", failure)
            return None
        return int(granted), float(tokens)


# An UNLOGGED table: buckets are worth nothing after a crash, so they skip the WAL. It is
# created here rather than by a migration because it holds no game data and any process
# may (re)create it; two processes starting together are serialised by the advisory lock.
_PG_CREATE = """
CREATE UNLOGGED TABLE IF NOT EXISTS keydom_rate_buckets (
    key text PRIMARY KEY,
    tokens double precision NOT NULL,
    stamp double precision NOT NULL,
    spent boolean NOT NULL
)"""
# Added to tables made before leases; ``spent`` stays filled for processes of an older version.
_PG_ADD_GRANTED = "ALTER TABLE keydom_rate_buckets ADD COLUMN IF NOT EXISTS granted integer NOT NULL DEFAULT 0"
_PG_REFILLED = "least(:burst, b.tokens + (EXCLUDED.stamp - b.stamp) * :rate)"
_PG_GRANTED = f"CAST(greatest(0, least(CAST(:want AS double precision), floor({_PG_REFILLED}))) AS integer)"
_PG_TAKE = f"""
INSERT INTO keydom_rate_buckets AS b (key, tokens, stamp, spent, granted)
VALUES (:key, CAST(:burst AS double precision) - :want, extract(epoch FROM clock_timestamp()), true,
        CAST(:want AS integer))
ON CONFLICT (key) DO UPDATE SET
    tokens = {_PG_REFILLED} - {_PG_GRANTED},
    granted = {_PG_GRANTED},
    spent = {_PG_GRANTED} >= 1,
    stamp = EXCLUDED.stamp
RETURNING granted, tokens"""
_PG_FORGET_FULL = """
DELETE FROM keydom_rate_buckets
WHERE key LIKE :prefix AND stamp < extract(epoch FROM clock_timestamp()) - :refill_s"""


class PostgresRateLimiter(SharedBuckets):
    """Shared by every process on the same PostgreSQL database: one upsert per lease,
    sent on its own (autocommit: a transaction around it would add two round trips)."""

    SWEEP_EVERY = 1000  # takes between removals of buckets that are full again

    def __init__(self, engine, name: str, per_minute: int, burst: int, message: str,  # type: ignore[no-untyped-def]
                 lease: int = 1) -> None:
        super().__init__(name, per_minute, burst, message, lease)
        self.engine = engine
        self.single = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._takes = 0

    async def start(self) -> None:
        from sqlalchemy import text

        async with self.engine.begin() as conn:
            await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext('keydom_rate_buckets'))"))
            await conn.execute(text(_PG_CREATE))
            await conn.execute(text(_PG_ADD_GRANTED))

    async def stop(self) -> None:
        pass

    async def _take(self, key: str, want: int) -> tuple[int, float] | None:
        from sqlalchemy import text
        from sqlalchemy.exc import SQLAlchemyError

        self._takes += 1
        try:
            async with self.single.connect() as conn:
                granted, tokens = (await conn.execute(text(_PG_TAKE), {
                    "key": self.prefix + key, "burst": float(self.burst), "rate": self.rate, "want": float(want),
                })).one()
                if self._takes % self.SWEEP_EVERY == 0:
                    await conn.execute(text(_PG_FORGET_FULL),
                                       {"prefix": self.prefix + "%", "refill_s": self.burst / self.rate})
        except (SQLAlchemyError, OSError) as failure:
            log.warning("rate limit not checked (PostgreSQL: %s)", failure)
            return None
        return granted, tokens


CREATE_MESSAGE = "Too many new games from your address; try again in {wait} s."
ACTION_MESSAGE = "Too many actions from this seat; try again in {wait} s."
CHAT_MESSAGE = "You are sending chat messages too fast; try again in {wait} s."


def make_limiter(settings: Settings, engine, name: str, per_minute: int, burst: int,  # type: ignore[no-untyped-def]
                 message: str, lease: int = 1) -> Limiter:
    """One process counts in memory; several share a bucket, drawn ``lease`` tokens at a time."""
    if not settings.shares_rate_limits:
        return RateLimiter(per_minute, burst, message=message)
    if settings.redis_url:
        return RedisRateLimiter(settings.redis_url, name, per_minute, burst, message, lease)
    return PostgresRateLimiter(engine, name, per_minute, burst, message, lease)


def client_address(conn: HTTPConnection) -> str:
    """The client's address (after X-Forwarded-For from a trusted proxy), an IPv6 /64 as one."""
    return address_key(conn.client.host) if conn.client else "unknown"


async def check_create_rate(request: Request) -> None:
    await request.app.state.create_limiter.spend(client_address(request))


async def check_action_rate(state: Any, game_id: str, seat: int) -> None:
    """One action of a seat, from ``state`` (the app's): every way of acting (HTTP, the
    direct route, the websocket, a takeback) spends from the seat's one bucket."""
    await state.action_limiter.spend(f"{game_id}:{seat}")

"""Rate limits: new games per client address, actions per seat; shared between processes
when they share Redis or PostgreSQL."""

from __future__ import annotations

import os

import pytest

from app.api.ratelimit import (ACTION_MESSAGE, CREATE_MESSAGE, PostgresRateLimiter, RateLimiter, RedisRateLimiter,
                               SharedBuckets)
from app.settings import Settings
from app.table.errors import RateLimited

from .. import oneshot
from ..conftest import reachable


def test_bucket_allows_a_burst_then_refuses_then_refills():
    limiter = RateLimiter(per_minute=60, burst=3)
    for _ in range(3):
        limiter.check("1.2.3.4", now=100.0)
    with pytest.raises(RateLimited) as refused:
        limiter.check("1.2.3.4", now=100.0)
    assert "try again in" in refused.value.message
    limiter.check("5.6.7.8", now=100.0)  # another address is not affected
    limiter.check("1.2.3.4", now=101.5)  # one token back after a second at 60/min


async def test_api_answers_429_with_a_message_when_over_the_limit(client):
    client._transport.app.state.create_limiter = RateLimiter(per_minute=1, burst=2, message=CREATE_MESSAGE)  # type: ignore[attr-defined]
    body = {"title": "tiny-towns", "players": ["A", "B"]}
    assert (await client.post("/api/games", json=body)).status_code == 201
    assert (await client.post("/api/games", json=body)).status_code == 201
    refused = await client.post("/api/games", json=body)
    assert refused.status_code == 429 and "Too many new games" in refused.json()["detail"]


def test_the_default_action_limit_is_far_above_any_human():
    settings = Settings()
    assert settings.actions_per_minute >= 300 and settings.actions_burst >= 100


async def test_actions_are_limited_per_seat_with_a_readable_429(client):
    app = client._transport.app  # type: ignore[attr-defined]
    app.state.action_limiter = RateLimiter(per_minute=6, burst=3, message=ACTION_MESSAGE)
    game = (await client.post("/api/games", json={"title": "tiny-towns", "players": ["A", "B"], "seed": 3})).json()

    async def act(seat: int) -> tuple[int, str]:
        response = await client.post(f"/api/games/{game['id']}/actions", json={"option": "nonsense", "version": 0},
                                     headers={"Authorization": f"Bearer {game['seats'][seat]['token']}"})
        return response.status_code, response.json()["detail"]

    # Every attempt counts, refused or not: spamming bad options is what the limit is for.
    assert [(await act(0))[0] for _ in range(3)] == [422, 422, 422]
    status, detail = await act(0)
    assert status == 429 and detail == "Too many actions from this seat; try again in 10 s."
    assert (await act(1))[0] == 422, "another seat of the same game has its own bucket"
    view = (await client.get(f"/api/games/{game['id']}")).json()
    assert view["version"] == 0


async def _two_processes_share_one_bucket(make) -> None:  # type: ignore[no-untyped-def]
    first, second = make(), make()
    await first.start()
    await second.start()
    try:
        key = f"seat-{os.getpid()}-{id(first)}"
        await first.spend(key)
        await second.spend(key)
        with pytest.raises(RateLimited) as refused:
            await first.spend(key)
        assert refused.value.message.startswith("Too many actions from this seat")
        with pytest.raises(RateLimited):
            await second.spend(key)
        await first.spend(key + "-other")
    finally:
        await first.stop()
        await second.stop()


@pytest.fixture
async def pg_engine(pg_url):  # type: ignore[no-untyped-def]
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(pg_url)
    yield engine
    await engine.dispose()


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    if not reachable(6379):
        pytest.skip(f"Redis is not reachable at {url}; skipping")
    return url


async def test_processes_on_one_postgresql_share_the_bucket(pg_engine):
    await _two_processes_share_one_bucket(lambda: PostgresRateLimiter(pg_engine, "act", 1, 2, ACTION_MESSAGE))


async def test_processes_on_one_redis_share_the_bucket(redis_url):
    await _two_processes_share_one_bucket(lambda: RedisRateLimiter(redis_url, "act", 1, 2, ACTION_MESSAGE))


async def _two_processes_lease_from_one_bucket(make) -> None:  # type: ignore[no-untyped-def]
    """Burst 10, leases of 4: the processes together spend exactly the burst, each going to
    the store only when its lease is used up."""
    first, second = make(), make()
    await first.start()
    await second.start()
    takes: list[tuple[int, int]] = []
    for number, limiter in enumerate((first, second)):
        take = limiter._take

        async def counted(key, want, take=take, number=number):  # type: ignore[no-untyped-def]
            taken = await take(key, want)
            takes.append((number, taken[0]))
            return taken
        limiter._take = counted
    try:
        key = f"seat-{os.getpid()}-{id(first)}"
        spent = 0
        for limiter in (first, second, first, first, first, second, second, second, first, first):
            await limiter.spend(key)
            spent += 1
        assert takes == [(0, 4), (1, 4), (0, 2)], "a round trip per lease, the last one short"
        with pytest.raises(RateLimited) as refused:
            await second.spend(key)
        assert refused.value.message.startswith("Too many actions from this seat")
        with pytest.raises(RateLimited):
            await first.spend(key)
        assert spent == 10
        # Tokens a process holds lapse once the bucket would have refilled them.
        await first.spend(key + "-other")
        first.clock = lambda: 10_000_000_000.0
        await first.spend(key + "-other")
        assert takes[-2:] == [(0, 4), (0, 4)]
    finally:
        await first.stop()
        await second.stop()


class _MemoryBuckets(SharedBuckets):
    """A shared store in memory, to test the leases without a server."""

    def __init__(self, store: dict[str, float], **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(**kwargs)
        self.store = store

    async def start(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    async def _take(self, key: str, want: int) -> tuple[int, float]:
        tokens = self.store.get(key, float(self.burst))  # no refill: the test is quicker than a token
        granted = max(0, min(want, int(tokens)))
        self.store[key] = tokens - granted
        return granted, tokens - granted


async def test_leases_spend_no_more_than_the_shared_bucket_gives():
    store: dict[str, float] = {}
    await _two_processes_lease_from_one_bucket(
        lambda: _MemoryBuckets(store, name="act", per_minute=1, burst=10, message=ACTION_MESSAGE, lease=4))


async def test_held_tokens_last_a_minute_even_when_the_bucket_refills_sooner():
    """10 a second in leases of 10: a seat acting every few seconds goes to the store once
    per lease, until the tokens have been held for HOLD seconds."""
    store: dict[str, float] = {}
    limiter = _MemoryBuckets(store, name="act", per_minute=600, burst=20, message=ACTION_MESSAGE, lease=10)
    now = [1000.0]
    limiter.clock = lambda: now[0]
    takes = []
    take = limiter._take

    async def counted(key, want):  # type: ignore[no-untyped-def]
        takes.append(want)
        return await take(key, want)
    limiter._take = counted
    for _ in range(10):  # one every 5 s: long after the bucket would have refilled a lease
        await limiter.spend("seat")
        now[0] += 5
    assert takes == [10]
    assert store["seat"] == 10  # the store gave out one lease, and no more
    now[0] += limiter.HOLD
    await limiter.spend("seat")
    assert takes == [10, 10], "tokens held past HOLD are dropped"


async def test_processes_on_one_postgresql_lease_from_one_bucket(pg_engine):
    await _two_processes_lease_from_one_bucket(
        lambda: PostgresRateLimiter(pg_engine, "act", 1, 10, ACTION_MESSAGE, lease=4))


async def test_processes_on_one_redis_lease_from_one_bucket(redis_url):
    await _two_processes_lease_from_one_bucket(
        lambda: RedisRateLimiter(redis_url, "act", 1, 10, ACTION_MESSAGE, lease=4))


def test_only_several_workers_share_their_limits():
    assert not Settings(database_url="postgresql://x/y", workers=1).shares_rate_limits
    assert Settings(database_url="postgresql://x/y", workers=2).shares_rate_limits
    assert Settings(database_url="sqlite:///k.db", workers=2, redis_url="redis://r").shares_rate_limits


@pytest.mark.postgres
def test_two_worker_processes_count_new_games_against_one_bucket(pg_url):

    from ..procs import ServerProcess

    import psycopg

    from ..conftest import PG_URL

    with psycopg.connect(PG_URL, autocommit=True) as conn:  # buckets outlive the game tables
        conn.execute("DROP TABLE IF EXISTS keydom_rate_buckets")
    env = {"CREATE_BURST": "3", "CREATE_PER_MINUTE": "1"}
    with ServerProcess(pg_url.replace("+asyncpg", ""), workers=2, env=env) as server:
        body = {"title": "tiny-towns", "players": ["A", "B"]}
        # New connections spread over both workers; with one bucket each, 6 would pass.
        codes = [oneshot.post(f"{server.url}/api/games", json=body, headers={"Connection": "close"}).status_code
                 for _ in range(6)]
    assert codes == [201, 201, 201, 429, 429, 429]


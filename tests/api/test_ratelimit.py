"""Game creation is rate-limited per client address."""

from __future__ import annotations

import pytest

from app.api.ratelimit import RateLimiter
from app.table.errors import RateLimited


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
    client._transport.app.state.create_limiter = RateLimiter(per_minute=1, burst=2)  # type: ignore[attr-defined]
    body = {"title": "tiny-towns", "players": ["A", "B"]}
    assert (await client.post("/api/games", json=body)).status_code == 201
    assert (await client.post("/api/games", json=body)).status_code == 201
    refused = await client.post("/api/games", json=body)
    assert refused.status_code == 429 and "Too many new games" in refused.json()["detail"]

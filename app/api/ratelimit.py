"""Per-client rate limit for creating games (a token bucket per address, in memory)."""

from __future__ import annotations

import time
from collections import OrderedDict

from fastapi import Request

from app.table.errors import RateLimited


class RateLimiter:
    def __init__(self, per_minute: int, burst: int, max_clients: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.max_clients = max_clients
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def check(self, client: str, now: float | None = None) -> None:
        """Spend one token for this client, or raise RateLimited."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            wait = int((1 - tokens) / self.rate) + 1
            raise RateLimited(f"Too many new games from your address; try again in {wait} s.")
        self._buckets[client] = (tokens - 1, now)
        while len(self._buckets) > self.max_clients:
            self._buckets.popitem(last=False)


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def check_create_rate(request: Request) -> None:
    request.app.state.create_limiter.check(client_address(request))

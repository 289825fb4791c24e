"""An app whose bots play only when the test says (no background loop, no delay)."""

from __future__ import annotations

from typing import Any, AsyncIterator

import httpx
import pytest

from app.bots.config import BotConfig
from app.main import create_app
from app.settings import Settings


class Clock:
    """Seconds since the epoch, moved only by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class BotTable:
    """An API client on a fresh database, and the app's bot driver."""

    def __init__(self, url: str, clock: Clock) -> None:
        self.app = create_app(Settings(database_url=url), migrate=False)
        self.app.state.bot_config = BotConfig(delay=0, tick=1, background=False, clock=clock)
        self.clock = clock

    async def __aenter__(self) -> "BotTable":
        self._lifespan = self.app.router.lifespan_context(self.app)
        await self._lifespan.__aenter__()
        self.http = httpx.AsyncClient(transport=httpx.ASGITransport(app=self.app), base_url="http://testserver")
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()
        await self._lifespan.__aexit__(None, None, None)

    @property
    def driver(self) -> Any:
        return self.app.state.bots

    async def play_bots(self) -> int:
        return await self.driver.run_until_idle()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(params=["sqlite", "postgresql"])
async def bots(request: pytest.FixtureRequest, clock: Clock) -> AsyncIterator[BotTable]:
    url = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")
    async with BotTable(url, clock) as table:
        yield table


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}

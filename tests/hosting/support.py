"""Helpers for the hosting tests: create games, reach the app behind a test client, play on."""

from __future__ import annotations

from typing import Any

import httpx

from app.games.rng import Rng
from app.games.tiny_towns import bot
from app.table.service import Table, Viewer

SAME_SITE = {"Origin": "http://testserver"}


def table_of(client: httpx.AsyncClient) -> Table:
    return client._transport.app.state.table  # type: ignore[attr-defined]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def create(client: httpx.AsyncClient, players: list[str | None], **extra: Any) -> dict[str, Any]:
    created = await client.post("/api/games", json={"title": "tiny-towns", "players": players, "seed": 7, **extra})
    assert created.status_code == 201, created.text
    return created.json()


async def hosted(client: httpx.AsyncClient, game: dict[str, Any]) -> dict[str, Any]:
    page = await client.get(f"/api/games/{game['id']}/host", headers=bearer(game["host_token"]))
    assert page.status_code == 200, page.text
    return page.json()


async def play_to_the_end(table: Table, game_id: str, seed: int = 1) -> None:
    """Bots take every seat's choices until the game is over (Tiny Towns always ends:
    the bot prefers progress, and every town fills up)."""
    rng = Rng(seed)
    for _ in range(5000):
        view = await table.view(Viewer(game_id, None))
        if view["status"] == "finished":
            return
        state = table.cache.get(game_id, 0).state
        for seat in view["to_act"]:
            mine = await table.view(Viewer(game_id, seat))
            await table.act(Viewer(game_id, seat), bot.choose(state, seat, rng), mine["version"])
            break
    raise AssertionError("the bots did not finish the game")

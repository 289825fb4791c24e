"""The takebacks migration (0012) goes down and up with games in it; a game stored before
it can be taken back from its seats' next moves on."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app.hub.local import Hub
from app.store.db import Database
from app.store.migrate import downgrade, upgrade
from app.table.service import Table, Viewer


async def _first_move(table: Table, game_id: str, seat: int) -> dict:
    mine = await table.view(Viewer(game_id, seat))
    return await table.act(Viewer(game_id, seat), mine["options"][0]["id"], mine["version"])


@pytest.mark.parametrize("which", ["sqlite_url", "pg_url"])
async def test_the_takebacks_migration_goes_down_and_up_with_games_in_it(which, request):
    url = request.getfixturevalue(which)
    table = Table(Database(url), Hub())
    game = await table.create_game("tiny-towns", ["Ann", "Bob"], seed=4)
    acted = await _first_move(table, game.id, 0)
    await table.takebacks.undo(Viewer(game.id, 0), acted["version"])  # rows in takebacks and taken_back_actions
    await _first_move(table, game.id, 0)
    await table.db.dispose()
    downgrade(url, "0011_social")
    upgrade(url)
    table = Table(Database(url), Hub())
    try:
        async with table.db.read() as session:
            left = (await session.execute(text("SELECT count(*) FROM actions WHERE game_id = :g"),
                                          {"g": game.id})).scalar_one()
            kept = (await session.execute(text("SELECT count(*) FROM taken_back_actions"))).scalar_one()
        assert (left, kept) == (1, 0)  # the actions stay; what was taken back before is gone with its table
        ann = await table.view(Viewer(game.id, 0))
        assert ann["takeback"] == {"undo": False, "ask": False, "request": None}  # unknown before: nothing offered
        assert await table.replay_matches_snapshot(game.id)
        bob = await _first_move(table, game.id, 1)
        assert bob["takeback"]["undo"] or bob["takeback"]["ask"]
    finally:
        await table.db.dispose()

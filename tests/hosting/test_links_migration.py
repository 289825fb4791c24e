"""The links migration (0008) goes down and up with games in it, and gives the names already
stored their folded keys (a game that already had two seats of one name keeps playing)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from app.hub.local import Hub
from app.store.db import Database
from app.store.migrate import downgrade, upgrade
from app.table.service import Table


@pytest.mark.parametrize("which", ["sqlite_url", "pg_url"])
async def test_the_links_migration_goes_down_and_up_with_games_in_it(which, request):
    url = request.getfixturevalue(which)
    table = Table(Database(url), Hub())
    game = await table.create_game("tiny-towns", ["Ann", None, "Bob"], seed=4)
    cy = await table.claim_seat(game.id, game.seats[1].token, "Cy")
    await table.db.dispose()
    downgrade(url, "0007_notify")
    table = Table(Database(url), Hub())
    async with table.db.write() as session:  # an old game where two seats share a name
        await session.execute(text("UPDATE seats SET name = 'ann' WHERE game_id = :g AND seat = 2"), {"g": game.id})
    await table.db.dispose()
    upgrade(url)
    table = Table(Database(url), Hub())
    try:
        async with table.db.read() as session:
            keys = (await session.execute(text(
                "SELECT name, name_key, must_open FROM seats WHERE game_id = :g ORDER BY seat"), {"g": game.id})).all()
            tables = {"spent_links": (await session.execute(text("SELECT count(*) FROM spent_links"))).scalar_one(),
                      "server_settings": (await session.execute(text("SELECT count(*) FROM server_settings"))).scalar_one()}
        assert [tuple(k) for k in keys] == [("Ann", "ann", False), ("Cy", "cy", False), ("ann", None, False)]
        assert tables == {"spent_links": 0, "server_settings": 0}  # what was spent before is simply unknown
        assert (await table.viewer(game.id, cy)).seat == 1  # the private link still plays
    finally:
        await table.db.dispose()

"""A replaced link stops in every server process; the hosting migration goes down and up
again on a database with games in it."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from app.hub.local import Hub
from app.hub.postgres import PostgresHub
from app.store.db import Database
from app.store.migrate import downgrade, upgrade
from app.table.errors import Forbidden
from app.table.service import Table
from app.table.tokens import token_hash

WAIT = 20.0  # seconds a notice may take between processes on a busy machine (never expected)


async def test_a_replaced_link_stops_in_the_other_process_too(pg_url):
    one, two = PostgresHub(pg_url), PostgresHub(pg_url)
    await one.start()
    await two.start()
    here, there = Table(Database(pg_url), one), Table(Database(pg_url), two)
    try:
        game = await here.create_game("tiny-towns", ["Ann", "Bob"], seed=3)
        old = game.seats[1].token
        assert (await there.viewer(game.id, old)).seat == 1  # the other process now remembers the link
        new = await here.hosting.replace_link(game.id, game.host_token, 1)
        # The other process learns of it by the "seats changed" notice, not by reading again.
        deadline = asyncio.get_running_loop().time() + WAIT
        while token_hash(old) in there._seats_by_hash:
            assert asyncio.get_running_loop().time() < deadline, "the other process still trusts the old link"
            await asyncio.sleep(0.02)
        try:
            await there.viewer(game.id, old)
            raise AssertionError("the old link still opened the seat in the other process")
        except Forbidden:
            pass
        assert (await there.viewer(game.id, new)).seat == 1
    finally:
        for table in (here, there):
            await table.hub.stop()
            await table.db.dispose()


async def test_the_hosting_migration_goes_down_and_up_with_games_in_it(sqlite_url):
    table = Table(Database(sqlite_url), Hub())
    game = await table.create_game("tiny-towns", ["Ann", None], seed=4)
    bobs = await table.claim_seat(game.id, game.seats[1].token, "Bob")
    await table.db.dispose()
    downgrade(sqlite_url, "0005")
    upgrade(sqlite_url)
    table = Table(Database(sqlite_url), Hub())
    try:
        async with table.db.read() as session:
            seats = (await session.execute(text("SELECT name, link_generation, claimed_at FROM seats ORDER BY seat"))).all()
            lines = (await session.execute(text("SELECT count(*) FROM table_log"))).scalar_one()
        assert [(s.name, s.link_generation, s.claimed_at) for s in seats] == [("Ann", 0, None), ("Bob", 0, None)]
        assert lines == 0
        # A game from before the host link: it plays on; it simply has no host page.
        assert (await table.viewer(game.id, bobs)).seat == 1
        try:
            await table.hosting.hosted(game.id, game.host_token)
            raise AssertionError("a game without a stored host hash opened a host page")
        except Forbidden:
            pass
    finally:
        await table.db.dispose()


async def test_after_lost_notices_every_cached_link_is_checked_again(sqlite_url):
    here, there = Table(Database(sqlite_url), Hub()), Table(Database(sqlite_url), Hub())  # no notices between them
    try:
        game = await here.create_game("tiny-towns", ["Ann", "Bob"], seed=5)
        old = game.seats[0].token
        assert (await there.viewer(game.id, old)).seat == 0
        await here.hosting.replace_link(game.id, game.host_token, 0)
        assert (await there.viewer(game.id, old)).seat == 0  # the notice never came: still trusted
        there.hub.notices_lost()  # what a hub does when its link to the others comes back
        try:
            await there.viewer(game.id, old)
            raise AssertionError("the old link still opened the seat after the notices were lost")
        except Forbidden:
            pass
    finally:
        await here.db.dispose()
        await there.db.dispose()

"""Races between server processes that PostgreSQL's READ COMMITTED lets through unless a
statement is written for them (each also runs on SQLite, where it must hold as well).

- A game's version and snapshot are read by one statement: a player whose action loses a
  race to another process gets 409 ("the game has moved on"), never 422 ("not one of
  your choices") from judging its option against a newer state labelled with the old
  version.
- Claiming an open seat is one conditional update (``… WHERE name IS NULL``): of two
  friends claiming the same seat at the same moment exactly one gets it.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import event

from app.games import get_title
from app.hub.local import Hub
from app.store.db import Database
from app.table.errors import Forbidden, StaleVersion
from app.table.service import Table, Viewer

CLAIM_CONTESTS = 60


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "pg_url")


def in_another_process(url: str, work) -> object:  # type: ignore[no-untyped-def]
    """Run ``work(table)`` on its own engine, pool and event loop, as a second server
    process would, and wait for it (blocking the caller: that is the point)."""

    async def run() -> object:
        table = Table(Database(url), Hub())
        try:
            return await work(table)
        finally:
            await table.db.dispose()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


async def test_an_action_that_loses_a_race_mid_read_gets_409_not_422(database_url):
    here = Table(Database(database_url), Hub())
    try:
        game = await here.create_game("tiny-towns", ["Ann", "Bob"], seed=5, options={"monuments": True})
        ours = [o["id"] for o in (await here.view(Viewer(game.id, 0)))["options"]]
        theirs, mine = ours[0], ours[-1]
        # Precondition that makes the old two-statement read visible: after the other
        # process's action, this seat's option is no longer offered at all.
        title = get_title("tiny-towns")
        later = title.apply(title.setup(2, {"monuments": True}, 5), 0, theirs)
        assert mine not in {o.id for o in title.options(later, 0)}

        # A fresh process (cold cache) reads the game for this seat's action; right after
        # its first read of the games table, the other process commits its action.
        fresh = Table(Database(database_url), Hub())
        armed = {"on": True}

        def other_process_acts_now(_conn, _cursor, statement, *_rest) -> None:  # type: ignore[no-untyped-def]
            if armed["on"] and statement.lstrip().upper().startswith("SELECT") and "FROM games" in statement:
                armed["on"] = False
                in_another_process(database_url, lambda t: t.act(Viewer(game.id, 0), theirs, 0))

        event.listen(fresh.db.engine.sync_engine, "after_cursor_execute", other_process_acts_now)
        try:
            with pytest.raises(StaleVersion) as refused:
                await fresh.act(Viewer(game.id, 0), mine, 0)
            assert refused.value.status == 409
            assert not armed["on"], "the other process never got to act"
            # What this process cached is the game as it really was at each version.
            after = await fresh.view(Viewer(game.id, 0))
            assert after["version"] == 1
            assert after["options"] == (await here.view(Viewer(game.id, 0), known_version=None))["options"]
        finally:
            await fresh.db.dispose()
        assert await here.action_log(game.id) == [(0, theirs)]
        assert await here.replay_matches_snapshot(game.id)
    finally:
        await here.db.dispose()


async def test_two_simultaneous_claims_of_one_seat_exactly_one_wins(database_url):
    """Two processes, each with its own connection pool, claim the same open seat at once,
    many times over: one claim succeeds, the other is told who took the seat."""
    one, two = Table(Database(database_url), Hub()), Table(Database(database_url), Hub())
    try:
        contests = 0
        while contests < CLAIM_CONTESTS:
            game = await one.create_game("tiny-towns", [None] * 6, seed=contests)
            for seat in game.seats:
                a, b = f"Ann {seat.seat}", f"Bob {seat.seat}"
                outcomes = await asyncio.gather(
                    one.claim_seat(game.id, seat.token, a), two.claim_seat(game.id, seat.token, b),
                    return_exceptions=True,
                )
                # the winner gets the seat's new private link; the loser is told who won
                won = [name for name, outcome in zip((a, b), outcomes) if isinstance(outcome, str)]
                lost = [outcome for outcome in outcomes if not isinstance(outcome, str)]
                assert len(won) == 1, f"contest {contests}: {outcomes}"
                assert len(lost) == 1 and isinstance(lost[0], Forbidden), f"contest {contests}: {outcomes}"
                assert f"already taken by {won[0]}" in lost[0].message
                stored = (await Table(one.db, Hub()).load_stored(game.id))[1]
                assert stored[seat.seat] == won[0]
                contests += 1
    finally:
        await one.db.dispose()
        await two.db.dispose()

"""A copy of the database opens no seat: after a game played with notifications on (turn
messages sent, a test message, a message still queued, a reminder pending), no live token
appears in any column of any table, nor anywhere in the SQLite file; and messages done with
are blanked, then deleted after the retention period."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from app.notify.tables import OUTBOX

from .conftest import Receiver, Table, bearer, open_table


def _live_tokens(game: dict[str, Any]) -> list[str]:
    return [seat["token"] for seat in game["seats"]] + [game["host_token"]]


async def _every_value(t: Table) -> list[tuple[str, str]]:
    """(table, value as text) for every column of every row of every table."""
    found: list[tuple[str, str]] = []
    async with t.notifier.db.engine.connect() as conn:
        names = await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
        assert "notify_outbox" in names and "seats" in names
        for name in names:
            for row in (await conn.execute(sa.text(f'SELECT * FROM "{name}"'))).all():
                for value in row:
                    text = value.decode("latin-1") if isinstance(value, (bytes, bytearray, memoryview)) \
                        else str(value)
                    found.append((name, text))
    return found


async def _play_with_notifications(t: Table, receiver: Receiver) -> list[dict[str, Any]]:
    games = [await t.new_game(["Ann", "Bob", "Cid"]), await t.new_game(["Dee", "Eve"])]
    for game in games:
        for seat in range(len(game["seats"])):
            response = await t.set_channels(game, seat, urls=[receiver.url(f"{game['id']}-{seat}")],
                                            remind_after_hours=2)
            assert response.status_code == 200, response.text
    t.clock.advance(11)
    test = await t.http.post(f"/api/games/{games[0]['id']}/notifications/test", headers=bearer(games[0], 0))
    assert [d["ok"] for d in test.json()] == [True]
    for _ in range(12):  # steps of both games, with time for messages to go out in between
        for game in games:
            await t.step(game)
        await t.later(400)
    await t.step(games[0])  # one more: its message is still waiting when the copy is taken
    await t.notifier.settle()
    return games


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
async def test_no_live_token_is_kept_in_any_table(request, database, clock, receiver):
    url = request.getfixturevalue("sqlite_url" if database == "sqlite" else "pg_url")
    async for t in open_table(url, clock):
        games = await _play_with_notifications(t, receiver)
        tokens = [token for game in games for token in _live_tokens(game)]
        # The messages did carry the seats' links: the scan below looks for something real.
        delivered = " ".join(m["message"] for m in receiver.received)
        assert all(seat["url"] in delivered for game in games for seat in game["seats"])
        async with t.notifier.db.read() as session:
            kinds = {(r.status, r.kind) for r in (await session.execute(sa.select(OUTBOX))).all()}
        assert ("sent", "turn") in kinds and ("sent", "test") in kinds
        leaks = [(table, token) for table, text in await _every_value(t) for token in tokens if token in text]
        assert leaks == [], f"live tokens stored in plain text: {leaks[:5]}"
    if database == "sqlite":
        raw = b"".join(p.read_bytes() for p in Path(url.split("///", 1)[1]).parent.glob("keydom.db*"))
        assert not [token for token in tokens if token.encode() in raw]


async def test_done_messages_are_blanked_then_deleted_after_the_retention_period(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    await table.step(game, 0)
    assert await table.later(10) == 1
    async with table.notifier.db.read() as session:
        [row] = (await session.execute(sa.select(OUTBOX))).all()
    assert row.status == "sent" and row.body == "" and "Play:" in receiver.to("bob")[0]["message"]
    await table.later(13 * 86400)  # within NOTIFY_KEEP_DAYS (14): the delivery is still shown
    shown = (await table.http.get(f"/api/games/{game['id']}/notifications", headers=bearer(game, 1))).json()
    assert len(shown["deliveries"]) == 1
    await table.later(2 * 86400)
    async with table.notifier.db.read() as session:
        assert (await session.execute(sa.select(OUTBOX))).all() == []


async def test_a_message_queued_before_notifications_were_turned_off_is_not_sent(table, receiver):
    game = await table.new_game()
    await table.set_channels(game, 1, urls=[receiver.url("bob")])
    await table.step(game, 0)
    receiver.fail_next = 1
    assert await table.later(10) == 1  # written and tried once; queued for a retry
    assert (await table.set_channels(game, 1, urls=[])).status_code == 200  # Bob turns them off
    assert await table.later(60) == 1
    assert receiver.to("bob") == []


async def test_the_migration_blanks_old_bodies_with_links_and_goes_down_and_up(sqlite_url, clock, receiver):
    from app.store.migrate import downgrade, upgrade

    async for t in open_table(sqlite_url, clock):
        game = await t.new_game()
        await t.set_channels(game, 1, urls=[receiver.url("bob")])
    link = game["seats"][1]["url"]
    downgrade(sqlite_url, "0006")
    engine = sa.create_engine(sqlite_url.replace("+aiosqlite", ""))
    with engine.begin() as conn:  # rows as the code before 0007 wrote them: the link in the body
        for status in ("sent", "queued"):
            conn.execute(sa.text(
                "INSERT INTO notify_outbox (game_id, seat, channel, kind, subject, body, status, attempts, "
                "next_try_at, created_at) VALUES (:g, 1, :c, 'turn', 'Your turn', :b, :s, 0, 0, 0)"),
                {"g": game["id"], "c": receiver.url("bob"), "b": f"Play: {link}", "s": status})
    upgrade(sqlite_url)
    with engine.begin() as conn:
        rows = conn.execute(sa.text("SELECT status, body FROM notify_outbox")).all()
    assert [(r.status, r.body) for r in rows] == [("sent", "")]
    downgrade(sqlite_url, "0006")
    upgrade(sqlite_url)
    engine.dispose()

"""The action's statements, prepared once for SQLite's action writer and for PostgreSQL's
one-statement action (app.store.db.Prepared), store exactly what SQLAlchemy's own execution
stores."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import create_engine, literal_column, select

from app.store.db import Prepared
from app.store.migrate import upgrade
from app.store.models import Action, Game
from app.store.db import Database
from app.table.service import ACT_AT_ONCE, ADD_ACTION, BUMP

GAME = dict(id="g", title="tiny-towns", players=2, options={}, seed=1, secret=None, version=3, status="active",
            snapshot="{}", seed_given=True, created_at=dt.datetime(2026, 1, 1), updated_at=dt.datetime(2026, 1, 1))


def _rows(url: str, write) -> tuple:  # type: ignore[no-untyped-def]
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(Game.__table__.insert().values(**{k: v for k, v in GAME.items() if k in Game.__table__.c}))
    with engine.begin() as conn:
        changed = write(conn)
    with engine.connect() as conn:
        game = conn.execute(select(Game.__table__)).one()
        action = conn.execute(select(Action.__table__)).one()
    engine.dispose()
    return changed, tuple(game), tuple(action)


def test_prepared_statements_store_what_sqlalchemy_stores(tmp_path):
    now = dt.datetime(2026, 11, 26, 18, 5, 7, 123456)
    for public in (True, False):
        params = dict(game="g", old_version=3, new_version=4, new_snapshot='{"a": [1, 2]}', new_status="active",
                      new_view_versions=[4, 2, 4], new_view_changed_at=[1.5, None, 2.25], now=now, seat=1,
                      option="place:a1", lines=["{seat1} placed wood on A1.", "Ünïcode ✓"],
                      new_takeback={"asked": None, "steps": [[1, 4]]} if public else None)
        urls = [f"sqlite:///{tmp_path}/{name}-{public}.db" for name in ("sqlalchemy", "prepared")]
        for url in urls:
            upgrade(url)

        def by_sqlalchemy(conn):  # type: ignore[no-untyped-def]
            changed = conn.execute(BUMP[public], params).rowcount
            conn.execute(ADD_ACTION, params)
            return changed

        def prepared(conn):  # type: ignore[no-untyped-def]
            engine = conn.engine
            changed = Prepared(BUMP[public], engine.dialect).run(conn, params)
            Prepared(ADD_ACTION, engine.dialect).run(conn, params)
            return changed

        expected, got = _rows(urls[0], by_sqlalchemy), _rows(urls[1], prepared)
        assert got == expected
        assert got[0] == 1


def test_a_prepared_update_at_another_version_changes_nothing(tmp_path):
    url = f"sqlite:///{tmp_path}/stale.db"
    upgrade(url)
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(Game.__table__.insert().values(**{k: v for k, v in GAME.items() if k in Game.__table__.c}))
    with engine.begin() as conn:
        stale = dict(game="g", old_version=2, new_version=3, new_snapshot="{}", new_status="active",
                     new_view_versions=[3, 3, 3], new_view_changed_at=[None, None, None], now=dt.datetime.now(),
                     new_takeback=None)
        assert Prepared(BUMP[True], engine.dialect).run(conn, stale) == 0
    engine.dispose()


async def test_postgresql_stores_the_one_statement_action_as_sqlalchemy_does(pg_url):
    from sqlalchemy import delete

    db = Database(pg_url)
    games, actions = Game.__table__, Action.__table__
    now = dt.datetime(2026, 11, 26, 18, 5, 7, 123456, tzinfo=dt.timezone.utc)
    try:
        for public in (True, False):
            params = dict(game="g", old_version=3, new_version=4, new_snapshot='{"a": [1, 2]}', new_status="active",
                          new_view_versions=[4, 2, 4], new_view_changed_at=[1.5, None, 2.25], now=now, seat=1,
                          option="place:a1", lines=["{seat1} placed wood on A1.", "Ünïcode ✓"],
                          new_takeback={"asked": None, "steps": [[1, 4]]} if public else None,
                          channel="keydom_test", payload="g:4")
            stored = []
            for way in ("sqlalchemy", "prepared"):
                async with db.engine.begin() as conn:
                    await conn.execute(delete(actions))
                    await conn.execute(delete(games))
                    await conn.execute(games.insert().values(**{k: v for k, v in GAME.items() if k in games.c}))
                statement = ACT_AT_ONCE[public, True]
                if way == "sqlalchemy":
                    async with db.engine.begin() as conn:
                        rows = (await conn.execute(statement, params)).all()
                else:
                    rows = await db.commit_statement(db.prepare(statement), params)
                assert len(rows) == 1, way
                stale = await db.commit_statement(db.prepare(statement), params)  # the version has moved on
                assert stale == [], way
                async with db.engine.connect() as conn:
                    stored.append(((await conn.execute(select(games))).one(), (await conn.execute(select(actions))).one()))
            assert stored[0] == stored[1]
            assert stored[1][0].version == 4 and stored[1][1].log == params["lines"]
    finally:
        await db.dispose()


async def test_the_action_connections_go_back_to_their_pool_without_a_reset_query(pg_url, monkeypatch):
    """The one-statement actions leave no session state behind, so asyncpg's reset query
    (a round trip per action) is not run when their connection is released."""
    import asyncpg

    resets: list[object] = []
    real_reset = asyncpg.Connection.reset

    async def counted(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        resets.append(self)
        return await real_reset(self, *args, **kwargs)
    monkeypatch.setattr(asyncpg.Connection, "reset", counted)
    db = Database(pg_url)
    try:
        for _ in range(3):
            assert await db.commit_statement(db.prepare(select(literal_column("1"))), {}) == [(1,)]
        assert resets == []
        pool = await db._open_alone()
        async with pool.acquire() as conn:  # the pool's connections still work after each other
            assert await conn.fetchval("SELECT 2") == 2
    finally:
        await db.dispose()

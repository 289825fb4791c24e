"""The social migration (0011_social) goes down and up again on a database with games,
chat lines and ended games in it, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from app.store.migrate import downgrade, upgrade
from tests.conftest import _client_for

from ..hosting.support import bearer, create


def sync_url(url: str) -> str:
    return url.replace("+aiosqlite", "").replace("+asyncpg", "+psycopg")


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
async def test_down_and_up_again_keeps_the_games(db, request):
    url = request.getfixturevalue("sqlite_url" if db == "sqlite" else "pg_url")
    async with _client_for(url) as client:
        game = await create(client, ["Ann", "Bob"], chat_policy="hidden")
        said = await client.post(f"/api/games/{game['id']}/chat", json={"text": "hi"},
                                 headers=bearer(game["seats"][0]["token"]))
        assert said.status_code == 201
    downgrade(url, "0010_perf")
    engine = sa.create_engine(sync_url(url))
    with engine.connect() as conn:
        assert "chat_messages" not in sa.inspect(conn).get_table_names()
        assert conn.execute(sa.text("SELECT count(*) FROM games")).scalar_one() == 1
    upgrade(url)
    with engine.connect() as conn:
        row = conn.execute(sa.text("SELECT chat_policy, rematch_id, ending FROM games")).one()
        assert (row.chat_policy, row.rematch_id, row.ending) == ("read", None, None)
        assert conn.execute(sa.text("SELECT count(*) FROM chat_messages")).scalar_one() == 0
    engine.dispose()

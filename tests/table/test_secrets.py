"""The seed is a secret: hidden draws come from 256 bits of server randomness per game,
which no view, page, frame or log line shows while the game runs."""

from __future__ import annotations

import json
import logging

import sqlalchemy as sa

from app.games import get_title
from app.games.rng import Rng
from app.store.migrate import downgrade, upgrade
from app.table.service import SECRET_BITS

BODY = {"title": "keythedral", "players": ["Ann", "Bob", "Cat"]}


def secret_of(url: str, game_id: str) -> str:
    engine = sa.create_engine(url.replace("+aiosqlite", "").replace("+asyncpg", "+psycopg"))
    with engine.connect() as conn:
        secret, seed, given = conn.execute(sa.text("SELECT secret, seed, seed_given FROM games WHERE id = :id"),
                                           {"id": game_id}).one()
    engine.dispose()
    assert seed is None and not given
    return secret


async def test_a_game_from_the_page_or_api_without_seed_has_a_256_bit_secret(client, request):
    url = request.node.callspec.params["client"]
    created = (await client.post("/api/games", json=BODY)).json()
    db_url = request.getfixturevalue("sqlite_url" if url == "sqlite" else "pg_url")
    secret = secret_of(db_url, created["id"])
    assert len(secret) == SECRET_BITS // 4
    other = (await client.post("/api/games", json=BODY)).json()
    assert secret_of(db_url, other["id"]) != secret


async def test_no_view_page_or_log_line_shows_the_secret_or_the_rng_state(sqlite_client, sqlite_url, caplog):
    caplog.set_level(logging.INFO)  # what a server logs (library DEBUG output echoes SQL parameters)
    caplog.set_level(logging.DEBUG, logger="keydom")
    created = (await sqlite_client.post("/api/games", json=BODY)).json()
    secret = secret_of(sqlite_url, created["id"])
    state = get_title("keythedral").setup(3, {"length": "full", "strategic": False}, int(secret, 16))
    rng_key = Rng(int(secret, 16)).state.split(":")[0]
    assert get_title("keythedral").dump(state)["rng"].startswith(rng_key)  # what must stay inside
    seen = [json.dumps((await sqlite_client.get(f"/api/games/{created['id']}")).json())]
    for seat in created["seats"]:
        seen.append(json.dumps((await sqlite_client.get(
            f"/api/games/{created['id']}", headers={"Authorization": f"Bearer {seat['token']}"})).json()))
        seen.append((await sqlite_client.get(f"/g/{created['id']}/seat/{seat['token']}")).text)
    seen.append((await sqlite_client.get(f"/g/{created['id']}")).text)
    seen.append(caplog.text)
    for text in seen:
        assert secret not in text and rng_key not in text
        assert str(int(secret, 16)) not in text


async def test_the_same_seed_deals_the_same_game_and_says_so(sqlite_client):
    a = (await sqlite_client.post("/api/games", json={**BODY, "seed": 99})).json()
    b = (await sqlite_client.post("/api/games", json={**BODY, "seed": 99})).json()
    views = []
    for game in (a, b):
        view = (await sqlite_client.get(f"/api/games/{game['id']}",
                                        headers={"Authorization": f"Bearer {game['seats'][0]['token']}"})).json()
        assert view["seed_given"] is True
        views.append((view["public"], view["private"], view["options"]))
    assert views[0] == views[1]
    page = (await sqlite_client.get(f"/g/{a['id']}")).text
    assert "Dealt from a chosen seed" in page
    unseeded = (await sqlite_client.post("/api/games", json=BODY)).json()
    view = (await sqlite_client.get(f"/api/games/{unseeded['id']}")).json()
    assert view["seed_given"] is False
    assert "Dealt from a chosen seed" not in (await sqlite_client.get(f"/g/{unseeded['id']}")).text


async def test_the_new_game_page_offers_no_seed_and_ignores_one_posted(sqlite_client, sqlite_url):
    form_page = (await sqlite_client.get("/new/keythedral")).text
    assert 'name="seed"' not in form_page
    response = await sqlite_client.post("/new/keythedral", data={"seats": "2", "name0": "Ann", "name1": "Bob",
                                                                  "seed": "5", "length": "full"},
                                        headers={"Origin": "http://testserver"})
    assert response.status_code in (200, 201, 303), response.text
    engine = sa.create_engine(sqlite_url.replace("+aiosqlite", ""))
    with engine.connect() as conn:
        rows = conn.execute(sa.text("SELECT seed, seed_given, secret FROM games")).all()
    engine.dispose()
    assert rows and all(seed is None and not given and len(secret) == 64 for seed, given, secret in rows)


def test_migration_0002_round_trips_on_a_database_with_games(tmp_path):
    url = f"sqlite:///{tmp_path / 'm.db'}"
    upgrade(url, "0001")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(
            "INSERT INTO games (id, title, options, seed, players, status, version, snapshot, created_at, updated_at)"
            " VALUES ('g1', 'tiny-towns', '{}', 7, 2, 'active', 0, '{}', '2026-01-01', '2026-01-01')"))
    upgrade(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT seed, seed_given, secret FROM games")).one() == (7, 1, None)
    downgrade(url, "0001")
    upgrade(url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT seed FROM games")).scalar_one() == 7
    engine.dispose()
